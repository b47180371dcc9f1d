// kernels/sort/vradix_kernel.cc: device code of vsort_take, the gather between
// the two radix passes of the vector-unit sort of int32/uint32 rows.
//
// Why: Sort32/MrgSort order float scores, and no float32 holds every int32
// exactly, so npurt::array::sort_last sorts a 32-bit row as an LSD radix sort
// of two 16-bit digits (each exact in float32): a stable sort by the low digit,
// then a stable sort by the high digit of the row permuted by the first pass.
// Between the passes (and after the second) the row must be permuted: for the
// sorted keys of a row, vsort_take writes values[k] = x[row, pos_k] and
// indices[k] = pos_k, or perm[row, pos_k] when `through` (the second pass,
// composing its permutation with the first's). pos_k is the uint32 in the
// key's high word (Sort32's layout).
//
// The gather reads GM at positions anywhere in the row: GlobalTensor::GetValue
// (the scalar unit; Ascend C has no vector gather from GM). A unit is one
// segment of <= kVsortTakeSeg keys of one row; its keys are copied into UB by
// DataCopy and the outputs leave by DataCopy.
#include <cstdint>
#include <type_traits>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {
namespace {

using AscendC::LocalTensor;

template <class X>
class VsortTake {
 public:
  __aicore__ VsortTake(GM_ADDR keys, GM_ADDR x, GM_ADDR perm, GM_ADDR vals, GM_ADDR idx, const VsortTakeTiling& t)
      : t_(t) {
    const uint64_t total = t.rows * t.n;
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(keys), total);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ X*>(x), total);
    if (t.through) p_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(perm), total);
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ X*>(vals), total);
    i_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx), total);
    pipe_.InitBuffer(keys_, kVsortTakeSeg * 8);
    pipe_.InitBuffer(val_, kVsortTakeSeg * sizeof(X));
    pipe_.InitBuffer(wide_, kVsortTakeSeg * 8);
  }

  __aicore__ void Run() {
    ForEachUnit(t_, [&](uint64_t u) { Unit(u); });
  }

 private:
  __aicore__ void Unit(uint64_t u) {
    const uint64_t row = u / t_.segs, a = (u % t_.segs) * kVsortTakeSeg, base = row * t_.n;
    const uint32_t m = static_cast<uint32_t>(Min(kVsortTakeSeg, t_.n - a));
    LocalTensor<uint64_t> keys = keys_.template Get<uint64_t>();
    LocalTensor<X> val = val_.template Get<X>();
    LocalTensor<int64_t> wide = wide_.template Get<int64_t>();
    AscendC::PipeBarrier<PIPE_ALL>();  // the previous unit's copy-out read val/wide
    CopyIn(keys, k_[base + a], m);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t j = 0; j < m; ++j) {
      const uint64_t pos = keys.GetValue(j) >> 32;
      val.SetValue(j, x_.GetValue(base + pos));
      wide.SetValue(j, t_.through ? p_.GetValue(base + pos) : static_cast<int64_t>(pos));
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    CopyOut(v_[base + a], val, m);
    CopyOut(i_[base + a], wide, m);
  }

  const VsortTakeTiling& t_;
  AscendC::GlobalTensor<uint64_t> k_;
  AscendC::GlobalTensor<X> x_, v_;
  AscendC::GlobalTensor<int64_t> p_, i_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> keys_, val_, wide_;
};

}  // namespace
}  // namespace npurt::kernels::sort

namespace npurt::kernels::sort {
namespace {
__aicore__ inline void RunTake(GM_ADDR keys, GM_ADDR x, GM_ADDR perm, GM_ADDR vals, GM_ADDR idx,
                               const VsortTakeTiling& t) {
  if (t.dtype == static_cast<uint32_t>(npurt::DType::kUInt32)) {
    VsortTake<uint32_t> k(keys, x, perm, vals, idx, t);
    k.Run();
  } else if (t.dtype == static_cast<uint32_t>(npurt::DType::kUInt16)) {  // uint16's one pass
    VsortTake<uint16_t> k(keys, x, perm, vals, idx, t);
    k.Run();
  } else {
    VsortTake<int32_t> k(keys, x, perm, vals, idx, t);
    k.Run();
  }
}
}  // namespace
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_vsort_take_kernel(GM_ADDR keys, GM_ADDR x, GM_ADDR vals, GM_ADDR idx,
                                                              GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(VsortTakeTiling, t, tiling);
  RunTake(keys, x, nullptr, vals, idx, t);
}

extern "C" __global__ __aicore__ void npurt_vsort_take_through_kernel(GM_ADDR keys, GM_ADDR x, GM_ADDR perm,
                                                                      GM_ADDR vals, GM_ADDR idx, GM_ADDR workspace,
                                                                      GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(VsortTakeTiling, t, tiling);
  RunTake(keys, x, perm, vals, idx, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kVsortTakeEntry = NPURT_SIM_ENTRY(npurt_vsort_take_kernel);
extern const SimKernelEntry kVsortTakeThroughEntry = NPURT_SIM_ENTRY(npurt_vsort_take_through_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
