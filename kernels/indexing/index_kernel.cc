// kernels/indexing/index_kernel.cc: device code of the index producers of the
// indexing family: index_check (normalize negative indices, count the ones
// out of bounds), mask_count and mask_positions (the two passes of the
// compaction of a boolean mask).
#include <cstdint>
#include <type_traits>

#include "common/kernel_util.h"
#include "elementwise/ew_types.h"
#include "indexing/indexing_tiling.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;

__aicore__ inline void CoreRange(uint64_t total, uint64_t per_core, uint64_t& begin, uint64_t& count) {
  begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_core;
  count = begin >= total ? 0 : (total - begin < per_core ? total - begin : per_core);
}

// idx (I) -> int64 with idx + size where idx < 0; status slot of this block =
// (number out of [-size, size), the first of them).
template <class I>
__aicore__ void IndexCheck(GM_ADDR idx, GM_ADDR y, GM_ADDR status, const GatherTiling& t) {
  uint64_t begin, count;
  CoreRange(t.total, t.per_core, begin, count);
  GlobalTensor<I> in;
  GlobalTensor<int64_t> out, st;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ I*>(idx), t.total);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y), t.total);
  st.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(status), 2 * kIndexSlots);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qin;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qout;
  pipe.InitBuffer(qin, 2, t.tile * static_cast<uint32_t>(sizeof(I)));
  pipe.InitBuffer(qout, 2, t.tile * 8 > 2 * 8 * kIndexSlots + 64 ? t.tile * 8 : 2 * 8 * kIndexSlots + 64);
  int64_t bad = 0, first_bad = 0;
  for (uint64_t off = 0; off < count; off += t.tile) {
    const uint32_t n = static_cast<uint32_t>(count - off < t.tile ? count - off : t.tile);
    LocalTensor<I> a = qin.template AllocTensor<I>();
    CopyIn(a, in[begin + off], n);
    qin.EnQue(a);
    a = qin.template DeQue<I>();
    LocalTensor<int64_t> b = qout.template AllocTensor<int64_t>();
    for (uint32_t j = 0; j < n; ++j) {
      const I raw = a.GetValue(j);
      const bool neg = std::is_signed<I>::value && raw < I(0);
      const bool ok = neg ? static_cast<int64_t>(raw) >= -t.size : static_cast<uint64_t>(raw) < static_cast<uint64_t>(t.size);
      int64_t v = neg ? static_cast<int64_t>(raw) + t.size : static_cast<int64_t>(raw);
      if (!ok) {
        if (bad++ == 0) first_bad = static_cast<int64_t>(raw);
        v = 0;  // keeps later gathers inside the array; the host raises before using it
      }
      b.SetValue(j, v);
    }
    qin.FreeTensor(a);
    qout.EnQue(b);
    b = qout.template DeQue<int64_t>();
    CopyOut(out[begin + off], b, n);
    qout.FreeTensor(b);
  }
  // This block's slot; block 0 also clears the slots of blocks that do not run.
  const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
  const uint32_t nblocks = static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t idle = block == 0 ? kIndexSlots - nblocks : 0;
  LocalTensor<int64_t> s = qout.template AllocTensor<int64_t>();
  s.SetValue(0, bad);
  s.SetValue(1, first_bad);
  for (uint32_t i = 0; i < 2 * idle; ++i) s.SetValue(4 + i, 0);  // 32-B aligned start for DataCopyPad
  qout.EnQue(s);
  s = qout.template DeQue<int64_t>();
  CopyOut(st[2 * block], s, 2);
  if (idle > 0) CopyOut(st[2 * nblocks], s[4], 2 * idle);
  qout.FreeTensor(s);
}

// The truth of a mask element stored as kLanes values of T (complex: 2 lanes):
// any lane != 0 (NaN counts as true, -0.0 as false, like numpy).
template <class T, uint32_t kLanes>
__aicore__ inline bool Truth(const LocalTensor<T>& a, uint32_t j) {
  for (uint32_t l = 0; l < kLanes; ++l) {
    const T v = a.GetValue(j * kLanes + l);
    if constexpr (std::is_same<T, ew::Bool8>::value) {
      if (v.v != 0) return true;
    } else {
      if (static_cast<ew::Wide<T>>(v) != ew::Wide<T>(0)) return true;
    }
  }
  return false;
}

// mask_count: the number of true elements in this block's range, at
// counts[block]; block 0 also zeroes the slots of blocks that do not run.
template <class T, uint32_t kLanes>
__aicore__ void MaskCount(GM_ADDR mask, GM_ADDR counts, const MaskTiling& t) {
  uint64_t begin, count;
  CoreRange(t.total, t.per_core, begin, count);
  GlobalTensor<T> m;
  GlobalTensor<int64_t> out;
  m.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(mask), t.total * kLanes);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(counts), kIndexSlots);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qm;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qo;
  pipe.InitBuffer(qm, 2, t.tile * static_cast<uint32_t>(sizeof(T)) * kLanes);
  pipe.InitBuffer(qo, 1, 8 * kIndexSlots + 64);
  int64_t trues = 0;
  for (uint64_t off = 0; off < count; off += t.tile) {
    const uint32_t n = static_cast<uint32_t>(count - off < t.tile ? count - off : t.tile);
    LocalTensor<T> a = qm.template AllocTensor<T>();
    CopyIn(a, m[(begin + off) * kLanes], n * kLanes);
    qm.EnQue(a);
    a = qm.template DeQue<T>();
    for (uint32_t j = 0; j < n; ++j) trues += Truth<T, kLanes>(a, j) ? 1 : 0;
    qm.FreeTensor(a);
  }
  const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
  const uint32_t nblocks = static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t idle = block == 0 ? kIndexSlots - nblocks : 0;
  LocalTensor<int64_t> s = qo.template AllocTensor<int64_t>();
  s.SetValue(0, trues);
  for (uint32_t i = 0; i < idle; ++i) s.SetValue(4 + i, 0);  // 32-B aligned start for DataCopyPad
  qo.EnQue(s);
  s = qo.template DeQue<int64_t>();
  CopyOut(out[block], s, 1);
  if (idle > 0) CopyOut(out[nblocks], s[4], idle);
  qo.FreeTensor(s);
}

// mask_positions: block b's true elements take columns offsets[b], ... of
// y [ndim, count] in order; they are collected in UB (one row per output
// dim) and written as contiguous runs.
template <class T, uint32_t kLanes>
__aicore__ void MaskPositions(GM_ADDR mask, GM_ADDR offsets, GM_ADDR y, const MaskTiling& t) {
  uint64_t begin, count;
  CoreRange(t.total, t.per_core, begin, count);
  GlobalTensor<T> m;
  GlobalTensor<int64_t> offs, out;
  m.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(mask), t.total * kLanes);
  offs.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(offsets), kIndexSlots + 1);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y), t.ndim * t.count);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qm;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qo;
  pipe.InitBuffer(qm, 2, t.tile * static_cast<uint32_t>(sizeof(T)) * kLanes);
  pipe.InitBuffer(qo, 1, t.tile * 8 * t.ndim);
  uint64_t col = static_cast<uint64_t>(offs.GetValue(AscendC::GetBlockIdx()));
  for (uint64_t off = 0; off < count; off += t.tile) {
    const uint32_t n = static_cast<uint32_t>(count - off < t.tile ? count - off : t.tile);
    LocalTensor<T> a = qm.template AllocTensor<T>();
    CopyIn(a, m[(begin + off) * kLanes], n * kLanes);
    qm.EnQue(a);
    a = qm.template DeQue<T>();
    LocalTensor<int64_t> b = qo.template AllocTensor<int64_t>();
    uint32_t found = 0;
    for (uint32_t j = 0; j < n; ++j) {
      if (!Truth<T, kLanes>(a, j)) continue;
      uint64_t flat = begin + off + j;
      if (t.ndim == 1) {
        b.SetValue(found++, static_cast<int64_t>(flat));
        continue;
      }
      for (int d = static_cast<int>(t.ndim) - 1; d >= 0; --d) {  // unravel, C order
        const uint64_t extent = static_cast<uint64_t>(t.shape[d]);
        b.SetValue(static_cast<uint32_t>(d) * t.tile + found, static_cast<int64_t>(flat % extent));
        flat /= extent;
      }
      ++found;
    }
    qm.FreeTensor(a);
    qo.EnQue(b);
    b = qo.template DeQue<int64_t>();
    for (uint32_t d = 0; d < t.ndim && found > 0; ++d) CopyOut(out[d * t.count + col], b[d * t.tile], found);
    qo.FreeTensor(b);
    col += found;
  }
}

// Runs f(T{}, lanes) for the mask's dtype (complex: its float part, 2 lanes).
template <class F>
__aicore__ inline void VisitMask(uint32_t dtype, F&& f) {
  if (dtype == static_cast<uint32_t>(DType::kComplex64)) {
    f(float{}, std::integral_constant<uint32_t, 2>{});
  } else if (dtype == static_cast<uint32_t>(DType::kComplex128)) {
    f(double{}, std::integral_constant<uint32_t, 2>{});
  } else {
    ew::visit_dtype<ew::kAll>(dtype, [&](auto tag) {
      f(typename ew::Elem<decltype(tag)::value>::T{}, std::integral_constant<uint32_t, 1>{});
    });
  }
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_index_check_kernel(GM_ADDR idx, GM_ADDR y, GM_ADDR status,
                                                               GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(GatherTiling, t, tiling);
  const bool s = t.idx_signed != 0;
  switch (t.idx_unit) {
    case 1: if (s) IndexCheck<int8_t>(idx, y, status, t); else IndexCheck<uint8_t>(idx, y, status, t); break;
    case 2: if (s) IndexCheck<int16_t>(idx, y, status, t); else IndexCheck<uint16_t>(idx, y, status, t); break;
    case 4: if (s) IndexCheck<int32_t>(idx, y, status, t); else IndexCheck<uint32_t>(idx, y, status, t); break;
    default: if (s) IndexCheck<int64_t>(idx, y, status, t); else IndexCheck<uint64_t>(idx, y, status, t); break;
  }
}

extern "C" __global__ __aicore__ void npurt_mask_count_kernel(GM_ADDR mask, GM_ADDR counts, GM_ADDR workspace,
                                                              GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(MaskTiling, t, tiling);
  VisitMask(t.dtype, [&](auto v, auto lanes) { MaskCount<decltype(v), decltype(lanes)::value>(mask, counts, t); });
}

extern "C" __global__ __aicore__ void npurt_mask_positions_kernel(GM_ADDR mask, GM_ADDR offsets, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(MaskTiling, t, tiling);
  VisitMask(t.dtype, [&](auto v, auto lanes) {
    MaskPositions<decltype(v), decltype(lanes)::value>(mask, offsets, y, t);
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kIndexCheckKernelEntry = NPURT_SIM_ENTRY(npurt_index_check_kernel);
extern const SimKernelEntry kMaskCountKernelEntry = NPURT_SIM_ENTRY(npurt_mask_count_kernel);
extern const SimKernelEntry kMaskPositionsKernelEntry = NPURT_SIM_ENTRY(npurt_mask_positions_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
