// kernels/sort/search_kernel.cc: binary search of every x2 element in the
// sorted x1 (device code) for searchsorted (left/right: int64 positions) and
// isin (bool membership). x2 is streamed through UB in tiles (split over the
// cores); each lookup reads O(log n1) GM scalars of x1 (through `sorter` when
// given). The order is sort_order.h's, so NaNs sit at the end of x1 and a NaN
// is found at the first NaN (left) or at n1 (right), and is never "in" x1.
#include <cstdint>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;

template <class T, class Out>
class Search {
 public:
  __aicore__ Search(GM_ADDR x1, GM_ADDR x2, GM_ADDR sorter, GM_ADDR out, const SearchTiling& t) : t_(t) {
    x1_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x1), t.n1);
    if (t.has_sorter) sorter_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(sorter), t.n1);
    x2_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x2), t.n2);
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(out), t.n2);
    pipe_.InitBuffer(in_, t.tile * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(res_, t.tile * static_cast<uint32_t>(sizeof(Out)));
  }

  __aicore__ void Run() {
    const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t_.per_core;
    if (begin >= t_.n2) return;
    const uint64_t end = begin + t_.per_core < t_.n2 ? begin + t_.per_core : t_.n2;
    LocalTensor<T> in = in_.template Get<T>();
    LocalTensor<Out> res = res_.template Get<Out>();
    const auto mode = static_cast<SearchMode>(t_.mode);
    for (uint64_t off = begin; off < end; off += t_.tile) {
      const uint32_t m = static_cast<uint32_t>(end - off < t_.tile ? end - off : t_.tile);
      CopyIn(in, x2_[off], m);
      Handoff<HardEvent::MTE2_S>();
      for (uint32_t j = 0; j < m; ++j) res.SetValue(j, Lookup(KeyOf(in.GetValue(j)), mode));
      Handoff<HardEvent::S_MTE3>();
      CopyOut(out_[off], res, m);
      Handoff<HardEvent::MTE3_MTE2>();
      Handoff<HardEvent::MTE3_S>();
    }
  }

 private:
  // x1[k], or x1[sorter[k]]; a sorter entry outside [0, n1) is clamped so that
  // a bad sorter gives unspecified positions, never a read outside x1.
  __aicore__ Wide<T> At(uint64_t k) const {
    if (!t_.has_sorter) return KeyOf(x1_.GetValue(k));
    const int64_t s = sorter_.GetValue(k), last = static_cast<int64_t>(t_.n1) - 1;
    return KeyOf(x1_.GetValue(static_cast<uint64_t>(s < 0 ? 0 : (s > last ? last : s))));
  }

  // left: first k with !(x1[k] < v); right: first k with v < x1[k].
  __aicore__ Out Lookup(Wide<T> v, SearchMode mode) const {
    uint64_t lo = 0, hi = t_.n1;
    const bool right = mode == SearchMode::kRight;
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      const Wide<T> m = At(mid);
      if (right ? !Less(v, m) : Less(m, v)) lo = mid + 1;
      else hi = mid;
    }
    if (mode == SearchMode::kLeft || mode == SearchMode::kRight) return Out(static_cast<int64_t>(lo));
    const bool found = !IsNan(v) && lo < t_.n1 && !Less(v, At(lo));
    return Out(found != (mode == SearchMode::kNotIn));
  }

  const SearchTiling& t_;
  AscendC::GlobalTensor<T> x1_, x2_;
  AscendC::GlobalTensor<int64_t> sorter_;
  AscendC::GlobalTensor<Out> out_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> in_, res_;
};

}  // namespace
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_searchsorted_kernel(GM_ADDR x1, GM_ADDR x2, GM_ADDR sorter, GM_ADDR out,
                                                                GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(SearchTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kSortable>(t.dtype, [&](auto tag) {
    using T = typename Elem<decltype(tag)::value>::T;
    if (t.mode == static_cast<uint32_t>(SearchMode::kLeft) || t.mode == static_cast<uint32_t>(SearchMode::kRight)) {
      Search<T, int64_t> k(x1, x2, sorter, out, t);
      k.Run();
    } else {
      Search<T, npurt::kernels::ew::Bool8> k(x1, x2, sorter, out, t);
      k.Run();
    }
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kSearchEntry = NPURT_SIM_ENTRY(npurt_searchsorted_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
