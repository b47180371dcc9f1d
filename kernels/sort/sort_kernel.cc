// kernels/sort/sort_kernel.cc: the sort kernel template (device code):
// sort_block (sort chunks of rows in UB) and sort_merge (merge neighbouring
// sorted runs, split over cores by merge path). See sort_tiling.h for the
// plan and sort_order.h for the order. Both carry int64 row-relative indices
// next to the values, so one pass serves sort and argsort.
//
// The comparisons run on the scalar unit over UB (GetValue/SetValue): one
// template serves every dtype, including the 64-bit ones the vector unit
// lacks; dtypes of <= 4 bytes sort packed (key, position) words in UB. Data
// moves GM <-> UB only by DataCopy/DataCopyPad; the merge-path search reads a
// few GM scalars per unit.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;

// Stable merge of src[lo, mid) and src[mid, hi) into dst[lo, hi) (UB, scalar unit).
template <class T>
__aicore__ inline void MergeRuns(const LocalTensor<T>& src, const LocalTensor<int64_t>& isrc,
                                 const LocalTensor<T>& dst, const LocalTensor<int64_t>& idst, uint32_t lo,
                                 uint32_t mid, uint32_t hi, bool desc) {
  uint32_t i = lo, j = mid, k = lo;
  if (i < mid && j < hi) {  // the two heads stay in registers: one UB read per output
    T a = src.GetValue(i), b = src.GetValue(j);
    for (;;) {
      if (Before(KeyOf(b), KeyOf(a), desc)) {
        dst.SetValue(k, b), idst.SetValue(k++, isrc.GetValue(j++));
        if (j == hi) break;
        b = src.GetValue(j);
      } else {
        dst.SetValue(k, a), idst.SetValue(k++, isrc.GetValue(i++));
        if (i == mid) break;
        a = src.GetValue(i);
      }
    }
  }
  for (; i < mid; ++i, ++k) dst.SetValue(k, src.GetValue(i)), idst.SetValue(k, isrc.GetValue(i));
  for (; j < hi; ++j, ++k) dst.SetValue(k, src.GetValue(j)), idst.SetValue(k, isrc.GetValue(j));
}

// Sorts m elements held in (v[0], ix[0]); returns the buffer (0 or 1) holding the result.
template <class T>
__aicore__ inline int SortInUb(const LocalTensor<T>* v, const LocalTensor<int64_t>* ix, uint32_t m, bool desc) {
  for (uint32_t s = 0; s < m; s += kRun) {  // insertion sort of runs: cheap on short runs, stable
    const uint32_t e = s + kRun < m ? s + kRun : m;
    for (uint32_t j = s + 1; j < e; ++j) {
      const T key = v[0].GetValue(j);
      const int64_t id = ix[0].GetValue(j);
      uint32_t k = j;
      for (; k > s && Before(KeyOf(key), KeyOf(v[0].GetValue(k - 1)), desc); --k) {
        v[0].SetValue(k, v[0].GetValue(k - 1));
        ix[0].SetValue(k, ix[0].GetValue(k - 1));
      }
      v[0].SetValue(k, key);
      ix[0].SetValue(k, id);
    }
  }
  int cur = 0;
  for (uint32_t w = kRun; w < m; w *= 2, cur ^= 1) {
    for (uint32_t lo = 0; lo < m; lo += 2 * w) {
      const uint32_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
      MergeRuns(v[cur], ix[cur], v[cur ^ 1], ix[cur ^ 1], lo, mid, hi, desc);
    }
  }
  return cur;
}

// Order-preserving 32-bit key (sort_order.h's order) of a dtype of <= 4 bytes:
// floats (16-bit ones widened exactly) flip to unsigned order, -0.0 -> +0.0,
// every NaN -> the largest key; signed integers are offset by 2^31.
template <class T>
__aicore__ inline uint32_t OrderKey32(T v) {
  using W = Wide<T>;
  if constexpr (std::is_floating_point<W>::value) {
    float f = static_cast<float>(KeyOf(v));
    if (f != f) return 0xFFFFFFFFu;
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
  } else if constexpr (std::is_signed<W>::value) {
    return static_cast<uint32_t>(static_cast<int32_t>(KeyOf(v))) ^ 0x80000000u;
  } else {
    return static_cast<uint32_t>(KeyOf(v));
  }
}

// Merge of packed words src[lo, mid) and src[mid, hi) into dst (all distinct: no ties).
__aicore__ inline void MergeWords(const LocalTensor<uint64_t>& src, const LocalTensor<uint64_t>& dst, uint32_t lo,
                                  uint32_t mid, uint32_t hi) {
  uint32_t i = lo, j = mid, k = lo;
  if (i < mid && j < hi) {
    uint64_t a = src.GetValue(i), b = src.GetValue(j);
    for (;;) {
      if (b < a) {
        dst.SetValue(k++, b);
        if (++j == hi) break;
        b = src.GetValue(j);
      } else {
        dst.SetValue(k++, a);
        if (++i == mid) break;
        a = src.GetValue(i);
      }
    }
  }
  for (; i < mid; ++i) dst.SetValue(k++, src.GetValue(i));
  for (; j < hi; ++j) dst.SetValue(k++, src.GetValue(j));
}

// The fast path for dtypes of <= 4 bytes: sorts words (key << 32 | position),
// so one UB access moves a key with its position and the position breaks ties
// (stable for free; descending flips the key only). The values are then
// gathered from the loaded chunk v[0] into v[1] by position, bit-exact (-0.0
// and NaN payloads kept), the indices written into the free buffer, whose
// number is returned.
template <class T>
__aicore__ inline int SortPacked(const LocalTensor<T>* v, const LocalTensor<int64_t>* ix, uint64_t off, uint32_t m,
                                 bool desc) {
  LocalTensor<uint64_t> w[2] = {ix[0].template ReinterpretCast<uint64_t>(),
                                ix[1].template ReinterpretCast<uint64_t>()};
  for (uint32_t j = 0; j < m; ++j) {
    const uint32_t k = OrderKey32(v[0].GetValue(j));
    w[0].SetValue(j, (uint64_t{desc ? ~k : k} << 32) | j);
  }
  for (uint32_t s = 0; s < m; s += kRun) {
    const uint32_t e = s + kRun < m ? s + kRun : m;
    for (uint32_t j = s + 1; j < e; ++j) {
      const uint64_t word = w[0].GetValue(j);
      uint32_t k = j;
      for (uint64_t prev; k > s && word < (prev = w[0].GetValue(k - 1)); --k) w[0].SetValue(k, prev);
      w[0].SetValue(k, word);
    }
  }
  int cur = 0;
  for (uint32_t width = kRun; width < m; width *= 2, cur ^= 1)
    for (uint32_t lo = 0; lo < m; lo += 2 * width) {
      const uint32_t mid = lo + width < m ? lo + width : m, hi = lo + 2 * width < m ? lo + 2 * width : m;
      MergeWords(w[cur], w[cur ^ 1], lo, mid, hi);
    }
  for (uint32_t k = 0; k < m; ++k) {
    const uint32_t j = static_cast<uint32_t>(w[cur].GetValue(k));
    v[1].SetValue(k, v[0].GetValue(j));
    ix[cur ^ 1].SetValue(k, static_cast<int64_t>(off + j));
  }
  return cur ^ 1;
}

template <class T>
class BlockSort {
 public:
  __aicore__ BlockSort(GM_ADDR x, GM_ADDR vals, GM_ADDR idx, const SortBlockTiling& t) : t_(t) {
    const uint64_t total = t.rows * t.n;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), total);
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(vals), total);
    i_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx), total);
    for (int b = 0; b < 2; ++b) {
      pipe_.InitBuffer(vb_[b], static_cast<uint32_t>(t.ub_elems * sizeof(T)));
      pipe_.InitBuffer(ib_[b], static_cast<uint32_t>(t.ub_elems * sizeof(int64_t)));
    }
  }

  __aicore__ void Run() {
    uint64_t begin, end;
    if (!CoreRange(t_.units, t_.per_core, begin, end)) return;
    LocalTensor<T> v[2] = {vb_[0].template Get<T>(), vb_[1].template Get<T>()};
    LocalTensor<int64_t> ix[2] = {ib_[0].template Get<int64_t>(), ib_[1].template Get<int64_t>()};
    for (uint64_t u = begin; u < end; ++u) {
      // A unit is rows_per_unit whole short rows, or one chunk of a long row.
      const bool packed_rows = t_.rows_per_unit > 1;
      const uint64_t row0 = packed_rows ? u * t_.rows_per_unit : u / t_.chunks;
      const uint64_t off = packed_rows ? 0 : (u % t_.chunks) * t_.chunk;
      const uint32_t seg = static_cast<uint32_t>(packed_rows ? t_.n : Min(t_.chunk, t_.n - off));
      const uint32_t segs = static_cast<uint32_t>(packed_rows ? Min(t_.rows_per_unit, t_.rows - row0) : 1);
      const uint64_t base = row0 * t_.n + off;
      const uint32_t m = seg * segs;
      CopyIn(v[0], x_[base], m);
      Handoff<HardEvent::MTE2_S>();
      int rv = 0, ri = 0;  // buffers holding the sorted values and indices (the same for equal segments)
      for (uint32_t at = 0; at < m; at += seg) ri = SortSegment(v, ix, at, off, seg, rv);
      Handoff<HardEvent::S_MTE3>();
      CopyOut(v_[base], v[rv], m);
      CopyOut(i_[base], ix[ri], m);
      Handoff<HardEvent::MTE3_MTE2>();  // the next unit's CopyIn overwrites these buffers
      Handoff<HardEvent::MTE3_S>();
    }
  }

 private:
  // Sorts the m elements at UB position `at` (row positions off..off+m);
  // returns the index buffer and sets rv to the value buffer of the result.
  __aicore__ int SortSegment(const LocalTensor<T>* v, const LocalTensor<int64_t>* ix, uint32_t at, uint64_t off,
                             uint32_t m, int& rv) {
    LocalTensor<T> sv[2] = {v[0][at], v[1][at]};
    LocalTensor<int64_t> si[2] = {ix[0][at], ix[1][at]};
    const bool desc = t_.descending != 0;
    if constexpr (sizeof(T) <= 4) {
      rv = 1;
      return SortPacked(sv, si, off, m, desc);
    } else {
      for (uint32_t j = 0; j < m; ++j) si[0].SetValue(j, static_cast<int64_t>(off + j));
      return rv = SortInUb(sv, si, m, desc);
    }
  }

  const SortBlockTiling& t_;
  AscendC::GlobalTensor<T> x_, v_;
  AscendC::GlobalTensor<int64_t> i_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> vb_[2], ib_[2];
};

template <class T>
class PairMerge {
 public:
  __aicore__ PairMerge(GM_ADDR vals, GM_ADDR idx, GM_ADDR ovals, GM_ADDR oidx, const SortMergeTiling& t) : t_(t) {
    const uint64_t total = t.rows * t.n;
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(vals), total);
    i_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx), total);
    ov_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(ovals), total);
    oi_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(oidx), total);
    const uint32_t seg = static_cast<uint32_t>(t.seg);
    for (int b = 0; b < 3; ++b) {
      pipe_.InitBuffer(vb_[b], seg * static_cast<uint32_t>(sizeof(T)));
      pipe_.InitBuffer(ib_[b], seg * static_cast<uint32_t>(sizeof(int64_t)));
    }
  }

  __aicore__ void Run() {
    ForEachUnit(t_, [&](uint64_t u) { Unit(u); });
  }

 private:
  // How many of the first k merged outputs come from run A (ties: A first).
  __aicore__ uint64_t CoRank(uint64_t a0, uint64_t la, uint64_t b0, uint64_t lb, uint64_t k) const {
    const bool desc = t_.descending != 0;
    uint64_t lo = k > lb ? k - lb : 0, hi = Min(k, la);
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;  // A[mid] is among the first k unless B[k-mid-1] beats it
      if (Before(KeyOf(v_.GetValue(b0 + k - mid - 1)), KeyOf(v_.GetValue(a0 + mid)), desc)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  __aicore__ void Load(int b, uint64_t at, uint32_t m) {
    if (m == 0) return;
    CopyIn(vb_[b].template Get<T>(), v_[at], m);
    CopyIn(ib_[b].template Get<int64_t>(), i_[at], m);
  }

  __aicore__ void Unit(uint64_t u) {
    const uint64_t per_row = t_.pairs * t_.segs, row = u / per_row;
    const uint64_t pair = (u % per_row) / t_.segs, s = u % t_.segs;
    const uint64_t start = row * t_.n + pair * 2 * t_.width, left = t_.n - pair * 2 * t_.width;
    const uint64_t la = Min(t_.width, left), lb = Min(t_.width, left - la);
    const uint64_t k0 = s * t_.seg;
    if (k0 >= la + lb) return;
    const uint64_t k1 = Min(k0 + t_.seg, la + lb);
    const uint64_t i0 = CoRank(start, la, start + la, lb, k0), i1 = CoRank(start, la, start + la, lb, k1);
    const uint32_t na = static_cast<uint32_t>(i1 - i0), nb = static_cast<uint32_t>((k1 - i1) - (k0 - i0));
    Load(0, start + i0, na);
    Load(1, start + la + (k0 - i0), nb);
    Handoff<HardEvent::MTE2_S>();
    LocalTensor<T> a = vb_[0].template Get<T>(), b = vb_[1].template Get<T>(), o = vb_[2].template Get<T>();
    LocalTensor<int64_t> ia = ib_[0].template Get<int64_t>(), ib = ib_[1].template Get<int64_t>();
    LocalTensor<int64_t> io = ib_[2].template Get<int64_t>();
    const bool desc = t_.descending != 0;
    uint32_t i = 0, j = 0, k = 0;
    if (na > 0 && nb > 0) {
      T x = a.GetValue(0), y = b.GetValue(0);
      for (;;) {
        if (Before(KeyOf(y), KeyOf(x), desc)) {
          o.SetValue(k, y), io.SetValue(k++, ib.GetValue(j++));
          if (j == nb) break;
          y = b.GetValue(j);
        } else {
          o.SetValue(k, x), io.SetValue(k++, ia.GetValue(i++));
          if (i == na) break;
          x = a.GetValue(i);
        }
      }
    }
    for (; i < na; ++i, ++k) o.SetValue(k, a.GetValue(i)), io.SetValue(k, ia.GetValue(i));
    for (; j < nb; ++j, ++k) o.SetValue(k, b.GetValue(j)), io.SetValue(k, ib.GetValue(j));
    Handoff<HardEvent::S_MTE3>();
    CopyOut(ov_[start + k0], o, k);
    CopyOut(oi_[start + k0], io, k);
    Handoff<HardEvent::MTE3_MTE2>();
    Handoff<HardEvent::MTE3_S>();
  }

  const SortMergeTiling& t_;
  AscendC::GlobalTensor<T> v_, ov_;
  AscendC::GlobalTensor<int64_t> i_, oi_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> vb_[3], ib_[3];
};

}  // namespace
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_sort_block_kernel(GM_ADDR x, GM_ADDR vals, GM_ADDR idx,
                                                              GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(SortBlockTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kSortable>(t.dtype, [&](auto tag) {
    BlockSort<typename Elem<decltype(tag)::value>::T> k(x, vals, idx, t);
    k.Run();
  });
}

extern "C" __global__ __aicore__ void npurt_sort_merge_kernel(GM_ADDR vals, GM_ADDR idx, GM_ADDR ovals,
                                                              GM_ADDR oidx, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(SortMergeTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kSortable>(t.dtype, [&](auto tag) {
    PairMerge<typename Elem<decltype(tag)::value>::T> k(vals, idx, ovals, oidx, t);
    k.Run();
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kSortBlockEntry = NPURT_SIM_ENTRY(npurt_sort_block_kernel);
extern const SimKernelEntry kSortMergeEntry = NPURT_SIM_ENTRY(npurt_sort_merge_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
