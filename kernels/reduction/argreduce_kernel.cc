// kernels/reduction/argreduce_kernel.cc: the argmax/argmin kernel template
// (device code) over every real dtype: ArgRun<T> streams rows (kInner) or
// column runs (kOuter) through UB and keeps the best value and its index per
// output on the scalar unit (the vector unit has no index-carrying max for
// most dtypes). See argreduce_tiling.h for the plan and the NaN rule.
#include <cstdint>

#include "common/kernel_util.h"
#include "elementwise/ew_types.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "reduction/argreduce_tiling.h"
#include "sort/sort_order.h"

namespace npurt::kernels {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;
using sort::Handoff;
using sort::IsNan;
using sort::KeyOf;

template <class T>
class ArgRun {
 public:
  using W = ew::Wide<T>;

  __aicore__ ArgRun(GM_ADDR x, GM_ADDR y, const ArgReduceTiling& t) : t_(t) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.outer * t.len * t.inner);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y), t.outer * t.inner);
    pipe_.InitBuffer(in_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(best_, t.tile * static_cast<uint32_t>(sizeof(T)));
    const uint32_t out = t.tile > kArgOutBatch ? t.tile : kArgOutBatch;
    pipe_.InitBuffer(idx_, out * static_cast<uint32_t>(sizeof(int64_t)));
  }

  __aicore__ void Run() {
    const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t_.per_core;
    if (begin >= t_.units) return;
    const uint64_t end = begin + t_.per_core < t_.units ? begin + t_.per_core : t_.units;
    if (t_.mode == 0) RunRows(begin, end);
    else RunColumns(begin, end);
  }

 private:
  // Does candidate a replace the current best b? (strict: the first occurrence stays)
  __aicore__ bool Beats(W a, W b) const {
    if (IsNan(b)) return false;
    if (IsNan(a)) return true;
    return t_.is_max ? b < a : a < b;
  }

  __aicore__ void Load(uint64_t at, uint32_t m) {
    CopyIn(in_.template Get<T>(), x_[at], m);
    Handoff<HardEvent::MTE2_S>();
  }

  __aicore__ void RunRows(uint64_t begin, uint64_t end) {
    LocalTensor<T> in = in_.template Get<T>();
    LocalTensor<int64_t> out = idx_.template Get<int64_t>();
    uint32_t pending = 0;
    uint64_t first = begin;
    for (uint64_t row = begin; row < end; ++row) {
      W best = W();
      int64_t at = 0;
      for (uint64_t off = 0; off < t_.len; off += t_.tile) {
        const uint32_t m = static_cast<uint32_t>(t_.len - off < t_.tile ? t_.len - off : t_.tile);
        Load(row * t_.len + off, m);
        for (uint32_t j = 0; j < m; ++j) {
          const W v = KeyOf(in.GetValue(j));
          if ((off == 0 && j == 0) || Beats(v, best)) best = v, at = static_cast<int64_t>(off + j);
        }
        Handoff<HardEvent::S_MTE2>();
      }
      out.SetValue(pending++, at);
      if (pending == kArgOutBatch || row + 1 == end) {
        Handoff<HardEvent::S_MTE3>();
        CopyOut(y_[first], out, pending);
        Handoff<HardEvent::MTE3_S>();
        first += pending;
        pending = 0;
      }
    }
  }

  __aicore__ void RunColumns(uint64_t begin, uint64_t end) {
    const uint64_t runs = (t_.inner + t_.tile - 1) / t_.tile;
    LocalTensor<T> in = in_.template Get<T>(), best = best_.template Get<T>();
    LocalTensor<int64_t> idx = idx_.template Get<int64_t>();
    for (uint64_t u = begin; u < end; ++u) {
      const uint64_t o = u / runs, i0 = (u % runs) * t_.tile;
      const uint32_t m = static_cast<uint32_t>(t_.inner - i0 < t_.tile ? t_.inner - i0 : t_.tile);
      for (uint64_t r = 0; r < t_.len; ++r) {
        Load((o * t_.len + r) * t_.inner + i0, m);
        for (uint32_t j = 0; j < m; ++j) {
          const T v = in.GetValue(j);
          if (r == 0 || Beats(KeyOf(v), KeyOf(best.GetValue(j)))) {
            best.SetValue(j, v);
            idx.SetValue(j, static_cast<int64_t>(r));
          }
        }
        Handoff<HardEvent::S_MTE2>();
      }
      Handoff<HardEvent::S_MTE3>();
      CopyOut(y_[o * t_.inner + i0], idx, m);
      Handoff<HardEvent::MTE3_S>();
    }
  }

  const ArgReduceTiling& t_;
  AscendC::GlobalTensor<T> x_;
  AscendC::GlobalTensor<int64_t> y_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> in_, best_, idx_;
};

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_argreduce_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(ArgReduceTiling, t, tiling);
  ew::visit_dtype<ew::kAll>(t.dtype, [&](auto tag) {
    ArgRun<typename ew::Elem<decltype(tag)::value>::T> run(x, y, t);
    run.Run();
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kArgReduceEntry = NPURT_SIM_ENTRY(npurt_argreduce_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
