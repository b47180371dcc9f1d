// kernels/sort/vunique_kernel.cc: unique values of a sorted float32/float16
// vector on the vector unit (device code), behind npurt.unique_values:
//   vunique_count:  block b counts the run starts in its range of s;
//   vunique_values: block b writes the first value of each run starting in
//                   its range at values[sum of counts before b ...]; block 0
//                   also writes the total.
//   vunique_runs:   as vunique_values, and also the sorted position of every
//                   run start (starts, int64; GatherMask of the positions
//                   with the same mask, then Cast int32 -> int64); block 0
//                   writes starts[total] = n, so run j has starts[j + 1] -
//                   starts[j] elements (behind unique_counts/inverse/all).
// Every GM output leaves UB by DataCopy/DataCopyPad (no SetValue on GM: the
// sim's DCache check, common/gm_stage.h).
// A tile compares s[i] with s[i-1] (the previous elements come in by a second
// DataCopyPad from GM one element earlier; at i == 0 the pad value NaN makes
// it a start): Compare(NE) is the run-start mask (NaN != NaN, so every NaN is
// its own run; -0.0 == 0.0, one run), GatherMask (counter mode) compacts the
// starts and its rsvdCnt counts them. Both kernels cut s the same way
// (UniqueTiling, shared with unique_ops.cc's plan).
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"
#include "sort/unique_blocks.h"

namespace npurt::kernels::sort {
namespace {

using AscendC::LocalTensor;

template <class T>
class VuniqueRuns {
 public:
  using Pattern = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;

  // with_starts: also the position buffers of Runs() (UB per element: 3 T, a
  // mask bit, and 4 + 4 + 8 bytes of positions; vunique_ops.cc sizes the tile).
  __aicore__ VuniqueRuns(GM_ADDR s, const UniqueTiling& t, bool with_starts = false) : t_(t) {
    s_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s), t.n);
    pipe_.InitBuffer(cur_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(prev_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(out_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(mask_, t.tile / 8);
    pipe_.InitBuffer(cnt_, 32);
    if (with_starts) {
      pipe_.InitBuffer(iota_, t.tile * 4);
      pipe_.InitBuffer(pos_, t.tile * 4);
      pipe_.InitBuffer(wide_, t.tile * 8);
    }
    UniqueRange(t, begin_, end_);
    // Tails past a short tile are compared too (Compare takes 256-byte multiples): keep them written.
    AscendC::Duplicate(cur_.template Get<T>(), T(0), static_cast<int32_t>(t.tile));
    AscendC::Duplicate(prev_.template Get<T>(), T(0), static_cast<int32_t>(t.tile));
  }

  __aicore__ void Count(GM_ADDR counts) {
    int64_t runs = 0;
    Scan([&](const LocalTensor<T>&, uint64_t, uint64_t kept) { runs += static_cast<int64_t>(kept); });
    WriteRunCount(counts, t_, cnt_.template Get<int64_t>(), runs);
  }

  __aicore__ void Values(GM_ADDR counts, GM_ADDR values, GM_ADDR total) {
    AscendC::GlobalTensor<T> v;
    v.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values), t_.n);
    uint64_t all = 0;
    uint64_t at = RunsBefore(counts, total, t_, cnt_.template Get<int64_t>(), all);
    Scan([&](const LocalTensor<T>& kept_vals, uint64_t, uint64_t kept) {
      if (kept == 0) return;
      AscendC::PipeBarrier<PIPE_ALL>();
      CopyOut(v[at], kept_vals, static_cast<uint32_t>(kept));
      at += kept;
    });
  }

  // Values() plus the run starts' positions in s (starts: n + 1 int64).
  __aicore__ void Runs(GM_ADDR counts, GM_ADDR values, GM_ADDR starts, GM_ADDR total) {
    AscendC::GlobalTensor<T> v;
    v.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values), t_.n);
    AscendC::GlobalTensor<int64_t> st;
    st.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(starts), t_.n + 1);
    uint64_t all = 0;
    LocalTensor<int64_t> word = cnt_.template Get<int64_t>();
    uint64_t at = RunsBefore(counts, total, t_, word, all);
    if (AscendC::GetBlockIdx() == 0) {  // the end of the last run, copied out (no scalar GM write)
      word.SetValue(0, static_cast<int64_t>(t_.n));
      Handoff<AscendC::HardEvent::S_MTE3>();
      CopyOut(st[all], word, 1);
    }
    LocalTensor<int32_t> iota = iota_.template Get<int32_t>(), pos = pos_.template Get<int32_t>();
    LocalTensor<int64_t> wide = wide_.template Get<int64_t>();
    LocalTensor<uint8_t> mask = mask_.template Get<uint8_t>();
    for (uint32_t i = 0; i < t_.tile; ++i) iota.SetValue(i, static_cast<int32_t>(i));  // once per block
    AscendC::PipeBarrier<PIPE_ALL>();
    Scan([&](const LocalTensor<T>& kept_vals, uint64_t off, uint64_t kept) {
      if (kept == 0) return;
      const uint32_t m = static_cast<uint32_t>(end_ - off < t_.tile ? end_ - off : t_.tile);
      // Positions of this tile, compacted by the run-start mask Scan just used.
      AscendC::Adds(wide.template ReinterpretCast<int32_t>(), iota, static_cast<int32_t>(off),
                    static_cast<int32_t>(m));
      uint64_t same = 0;
      AscendC::GatherMask(pos, wide.template ReinterpretCast<int32_t>(), mask.template ReinterpretCast<uint32_t>(),
                          true, m, AscendC::GatherMaskParams(), same);
      AscendC::Cast(wide, pos, AscendC::RoundMode::CAST_NONE, static_cast<uint32_t>(kept));
      AscendC::PipeBarrier<PIPE_ALL>();
      CopyOut(v[at], kept_vals, static_cast<uint32_t>(kept));
      CopyOut(st[at], wide, static_cast<uint32_t>(kept));
      at += kept;
    });
  }

 private:
  // Calls f(compacted run starts in UB, tile offset, how many) per tile of the range.
  template <class F>
  __aicore__ void Scan(F&& f) {
    LocalTensor<T> cur = cur_.template Get<T>(), prev = prev_.template Get<T>(), out = out_.template Get<T>();
    LocalTensor<uint8_t> mask = mask_.template Get<uint8_t>();
    for (uint64_t off = begin_; off < end_; off += t_.tile) {
      const uint32_t m = static_cast<uint32_t>(end_ - off < t_.tile ? end_ - off : t_.tile);
      const uint32_t mc = Round256(m);  // <= tile: tiles are multiples of 128 elements
      AscendC::PipeBarrier<PIPE_ALL>();  // the previous tile's copy-out read `out`
      CopyIn(cur, s_[off], m);
      LoadPrev(prev, off, m);
      AscendC::PipeBarrier<PIPE_ALL>();
      AscendC::Compare(mask, cur, prev, AscendC::CMPMODE::NE, mc);
      uint64_t kept = 0;
      AscendC::GatherMask(out, cur, mask.template ReinterpretCast<Pattern>(), true, m, AscendC::GatherMaskParams(),
                          kept);
      f(out, off, kept);
    }
  }

  __aicore__ uint32_t Round256(uint32_t m) const {
    constexpr uint32_t step = 256 / sizeof(T);
    return (m + step - 1) / step * step;
  }

  // prev[j] = s[off + j - 1]; at off == 0 the left pad is a NaN (always a run start).
  __aicore__ void LoadPrev(const LocalTensor<T>& prev, uint64_t off, uint32_t m) {
    if (off > 0) {
      CopyIn(prev, s_[off - 1], m);
      return;
    }
    const T nan = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    AscendC::DataCopyExtParams p(1, (m - 1) * static_cast<uint32_t>(sizeof(T)), 0, 0, 0);
    AscendC::DataCopyPadExtParams<T> pad(true, 1, 0, nan);
    if (m > 1) AscendC::DataCopyPad(prev, s_[0], p, pad);
    else prev.SetValue(0, nan);
  }

  const UniqueTiling& t_;
  AscendC::GlobalTensor<T> s_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> cur_, prev_, out_, mask_, cnt_, iota_, pos_, wide_;
  uint64_t begin_ = 0, end_ = 0;
};

}  // namespace
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_vunique_count_kernel(GM_ADDR s, GM_ADDR counts, GM_ADDR workspace,
                                                                 GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(UniqueTiling, t, tiling);
  VisitScore(t.dtype, [&](auto sv) {
    VuniqueRuns<decltype(sv)> k(s, t);
    k.Count(counts);
  });
}

extern "C" __global__ __aicore__ void npurt_vunique_values_kernel(GM_ADDR s, GM_ADDR counts, GM_ADDR values,
                                                                  GM_ADDR total, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(UniqueTiling, t, tiling);
  VisitScore(t.dtype, [&](auto sv) {
    VuniqueRuns<decltype(sv)> k(s, t);
    k.Values(counts, values, total);
  });
}

extern "C" __global__ __aicore__ void npurt_vunique_runs_kernel(GM_ADDR s, GM_ADDR counts, GM_ADDR values,
                                                                GM_ADDR starts, GM_ADDR total, GM_ADDR workspace,
                                                                GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(UniqueTiling, t, tiling);
  VisitScore(t.dtype, [&](auto sv) {
    VuniqueRuns<decltype(sv)> k(s, t, true);
    k.Runs(counts, values, starts, total);
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kVuniqueCountEntry = NPURT_SIM_ENTRY(npurt_vunique_count_kernel);
extern const SimKernelEntry kVuniqueValuesEntry = NPURT_SIM_ENTRY(npurt_vunique_values_kernel);
extern const SimKernelEntry kVuniqueRunsEntry = NPURT_SIM_ENTRY(npurt_vunique_runs_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
