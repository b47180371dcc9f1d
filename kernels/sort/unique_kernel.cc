// kernels/sort/unique_kernel.cc: the run-boundary kernels behind unique_*
// (device code). Input: a sorted vector s (sort_block + sort_merge) and the
// permutation p that sorted it (stable, so p of a run's first element is the
// first occurrence in x).
//   unique_count:   block b counts the run starts in its range of s.
//   unique_compact: block b numbers its runs from the counts of the blocks
//                   before it and writes, per run g, values[g], index[g] (first
//                   occurrence), counts[g] (scanning past its range for the
//                   last run), and inverse[p[i]] = g for every i of its range;
//                   block 0 writes the total number of runs. Every GM
//                   output is staged in UB and copied out (common/gm_stage.h).
// A run starts at 0, where s changes, and at every NaN (NaNs are each unique,
// as the array API standard says); -0.0 and +0.0 are one value.
#include <cstdint>

#include "common/gm_stage.h"
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

  // Outputs leave through UB (common/gm_stage.h): values / index / counts of this
  // block's runs are consecutive from RunsBefore, inverse is scattered by p.
  __aicore__ void Compact(GM_ADDR perm, GM_ADDR counts, GM_ADDR values, GM_ADDR index, GM_ADDR run_counts,
                          GM_ADDR inverse, GM_ADDR total) {
    AscendC::GlobalTensor<int64_t> p, idx, rc, inv;
    AscendC::GlobalTensor<T> vals;
    p.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(perm), t_.n);
    vals.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values), t_.n);
    idx.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(index), t_.n);
    rc.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(run_counts), t_.n);
    inv.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(inverse), t_.n);
    AscendC::TBuf<AscendC::TPosition::VECCALC> word;
    pipe_.InitBuffer(word, 32);
    uint64_t all = 0;
    const uint64_t first = RunsBefore(counts, total, t_, word.template Get<int64_t>(), all);
    StagedOut<T> out_vals;
    StagedOut<int64_t> out_idx, out_rc;
    StagedScatter<int64_t> out_inv;
    const uint32_t cap = t_.tile / 2;  // UniqueCompactUbPerElem's share
    out_vals.Init(pipe_, cap, vals, first);
    out_idx.Init(pipe_, cap, idx, first);
    out_rc.Init(pipe_, cap, rc, first);
    out_inv.Init(pipe_, t_.tile * 16, inv);
    int64_t g = static_cast<int64_t>(first) - 1;  // the run before this range's first
    uint64_t run_start = 0;
    bool open = false;  // a run started in this range and its count is not written yet
    Scan(&p, [&](uint64_t i, bool start) {
      LocalTensor<int64_t> pl = aux_.template Get<int64_t>();
      const int64_t pi = pl.GetValue(static_cast<uint32_t>((i - begin_) % t_.tile));
      if (start) {
        if (open) out_rc.Put(static_cast<int64_t>(i - run_start));
        ++g, open = true, run_start = i;
        out_vals.Put(s_.GetValue(i));
        out_idx.Put(pi);
      }
      out_inv.Put(static_cast<uint64_t>(pi), g);
    });
    if (open) {
      uint64_t e = end_;  // the last run may continue into the next ranges
      while (e < t_.n && !Starts(KeyOf(s_.GetValue(e - 1)), KeyOf(s_.GetValue(e)))) ++e;
      out_rc.Put(static_cast<int64_t>(e - run_start));
    }
    out_vals.Flush();
    out_idx.Flush();
    out_rc.Flush();
    out_inv.Flush();
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
