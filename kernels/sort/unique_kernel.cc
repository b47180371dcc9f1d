// kernels/sort/unique_kernel.cc: the run-boundary kernels behind unique_*
// (device code). Input: a sorted vector s (sort_block + sort_merge) and the
// permutation p that sorted it (stable, so p of a run's first element is the
// first occurrence in x).
//   unique_count:   block b counts the run starts in its range of s.
//   unique_compact: block b numbers its runs from the counts of the blocks
//                   before it and writes, per run g, values[g], index[g] (first
//                   occurrence), counts[g] (scanning past its range for the
//                   last run), and inverse[p[i]] = g for every i of its range;
//                   block 0 writes the total number of runs.
// A run starts at 0, where s changes, and at every NaN (NaNs are each unique,
// as the array API standard says); -0.0 and +0.0 are one value.
#include <cstdint>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"
#include "sort/unique_blocks.h"

namespace npurt::kernels::sort {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;

template <class W>
__aicore__ inline bool Starts(W prev, W cur) {
  return IsNan(cur) || Less(prev, cur) || Less(cur, prev);
}

template <class T>
class UniqueRuns {
 public:
  __aicore__ UniqueRuns(GM_ADDR s, const UniqueTiling& t) : t_(t) {
    s_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s), t.n);
    pipe_.InitBuffer(in_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(aux_, t.tile * static_cast<uint32_t>(sizeof(int64_t)));
    UniqueRange(t, begin_, end_);
  }

  __aicore__ void Count(GM_ADDR counts) {
    int64_t runs = 0;
    Scan(nullptr, [&](uint64_t, bool start) { runs += start ? 1 : 0; });
    WriteRunCount(counts, t_, aux_.template Get<int64_t>(), runs);
  }

  __aicore__ void Compact(GM_ADDR perm, GM_ADDR counts, GM_ADDR values, GM_ADDR index, GM_ADDR run_counts,
                          GM_ADDR inverse, GM_ADDR total) {
    AscendC::GlobalTensor<int64_t> p, idx, rc, inv;
    AscendC::GlobalTensor<T> vals;
    p.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(perm), t_.n);
    vals.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values), t_.n);
    idx.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(index), t_.n);
    rc.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(run_counts), t_.n);
    inv.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(inverse), t_.n);
    int64_t g = static_cast<int64_t>(RunsBefore(counts, total, t_)) - 1;  // the run before this range's first
    uint64_t run_start = 0;
    bool open = false;  // a run started in this range and its count is not written yet
    Scan(&p, [&](uint64_t i, bool start) {
      LocalTensor<int64_t> pl = aux_.template Get<int64_t>();
      if (start) {
        if (open) rc.SetValue(static_cast<uint64_t>(g), static_cast<int64_t>(i - run_start));
        ++g, open = true, run_start = i;
        vals.SetValue(static_cast<uint64_t>(g), s_.GetValue(i));
        idx.SetValue(static_cast<uint64_t>(g), pl.GetValue(static_cast<uint32_t>((i - begin_) % t_.tile)));
      }
      inv.SetValue(static_cast<uint64_t>(pl.GetValue(static_cast<uint32_t>((i - begin_) % t_.tile))), g);
    });
    if (!open) return;
    uint64_t e = end_;  // the last run may continue into the next ranges
    while (e < t_.n && !Starts(KeyOf(s_.GetValue(e - 1)), KeyOf(s_.GetValue(e)))) ++e;
    rc.SetValue(static_cast<uint64_t>(g), static_cast<int64_t>(e - run_start));
  }

 private:
  // Calls f(i, starts_run) for every i of the range, tile by tile (s, and p
  // into aux when given, loaded into UB).
  template <class F>
  __aicore__ void Scan(const AscendC::GlobalTensor<int64_t>* p, F&& f) {
    if (begin_ >= end_) return;
    LocalTensor<T> in = in_.template Get<T>();
    Wide<T> prev = begin_ > 0 ? KeyOf(s_.GetValue(begin_ - 1)) : Wide<T>();
    for (uint64_t off = begin_; off < end_; off += t_.tile) {
      const uint32_t m = static_cast<uint32_t>(end_ - off < t_.tile ? end_ - off : t_.tile);
      CopyIn(in, s_[off], m);
      if (p != nullptr) CopyIn(aux_.template Get<int64_t>(), (*p)[off], m);
      Handoff<HardEvent::MTE2_S>();
      for (uint32_t j = 0; j < m; ++j) {
        const Wide<T> cur = KeyOf(in.GetValue(j));
        f(off + j, (off + j == 0) || Starts(prev, cur));
        prev = cur;
      }
      Handoff<HardEvent::S_MTE2>();  // the next tile's CopyIn overwrites what the scalar unit read
    }
  }

  const UniqueTiling& t_;
  AscendC::GlobalTensor<T> s_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> in_, aux_;
  uint64_t begin_ = 0, end_ = 0;
};

}  // namespace
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_unique_count_kernel(GM_ADDR s, GM_ADDR counts, GM_ADDR workspace,
                                                                GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(UniqueTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kSortable>(t.dtype, [&](auto tag) {
    UniqueRuns<typename Elem<decltype(tag)::value>::T> k(s, t);
    k.Count(counts);
  });
}

extern "C" __global__ __aicore__ void npurt_unique_compact_kernel(GM_ADDR s, GM_ADDR perm, GM_ADDR counts,
                                                                  GM_ADDR values, GM_ADDR index, GM_ADDR run_counts,
                                                                  GM_ADDR inverse, GM_ADDR total, GM_ADDR workspace,
                                                                  GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(UniqueTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kSortable>(t.dtype, [&](auto tag) {
    UniqueRuns<typename Elem<decltype(tag)::value>::T> k(s, t);
    k.Compact(perm, counts, values, index, run_counts, inverse, total);
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kUniqueCountEntry = NPURT_SIM_ENTRY(npurt_unique_count_kernel);
extern const SimKernelEntry kUniqueCompactEntry = NPURT_SIM_ENTRY(npurt_unique_compact_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
