// kernels/sort/vsort_extract.h: device code included only by vsort_kernel.cc
// (after its helpers Min/Sync/ScoreOf; ForEachUnit from sort_order.h): sorted keys -> (values,
// int64 indices), and the NaN/+inf group fix-up described there.
// A unit is one segment of <= kVsortExtractSeg outputs of one row.
#pragma once

namespace npurt::kernels::sort {
namespace {

// Values of the input type X from scores T: the identity or the exact narrowing cast.
template <class X, class T>
__aicore__ inline void FromScore(const LocalTensor<X>& x, const LocalTensor<T>& score, uint32_t n) {
  if constexpr (std::is_same_v<X, T>) return;
  else if constexpr (std::is_same_v<X, int8_t> || std::is_same_v<X, uint8_t>)
    AscendC::Cast(x, score, AscendC::RoundMode::CAST_NONE, n);
  else AscendC::Cast(x, score, AscendC::RoundMode::CAST_RINT, n);  // exact: every score is an X value
}

template <class X, class T>
class VsortExtract {
 public:
  __aicore__ VsortExtract(GM_ADDR keys, GM_ADDR x, GM_ADDR vals, GM_ADDR idx, const VsortExtractTiling& t) : t_(t) {
    const uint64_t total = t.rows * t.n;
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(keys), total);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ X*>(x), total);
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ X*>(vals), total);
    i_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx), total);
    pipe_.InitBuffer(keys_, kVsortExtractSeg * 8);
    pipe_.InitBuffer(val_, kVsortExtractSeg * 4);
    pipe_.InitBuffer(pos_, kVsortExtractSeg * 4);
    pipe_.InitBuffer(wide_, kVsortExtractSeg * 8);
  }

  __aicore__ void Run() {
    ForEachUnit(t_, [&](uint64_t u) { Unit(u); });
  }

 private:
  __aicore__ void Unit(uint64_t u) {
    const uint64_t row = u / t_.segs, a = (u % t_.segs) * kVsortExtractSeg;
    const uint32_t m = static_cast<uint32_t>(Min(kVsortExtractSeg, t_.n - a));
    const uint32_t m32 = (m + 31) / 32 * 32;
    LocalTensor<uint64_t> keys = keys_.template Get<uint64_t>();
    LocalTensor<T> val = val_.template Get<T>();
    LocalTensor<int32_t> pos = pos_.template Get<int32_t>();
    LocalTensor<int64_t> wide = wide_.template Get<int64_t>();
    Sync();  // the previous unit's copy-out read these buffers
    CopyIn(keys, k_[row * t_.n + a], m);
    Sync();
    for (uint32_t j = m; j < m32; ++j) keys.SetValue(j, 0);  // Extract works in groups of 32
    Sync();
    AscendC::Extract(val, pos.template ReinterpretCast<uint32_t>(), keys.template ReinterpretCast<T>(),
                     static_cast<int32_t>(m32 / 32));
    if (!t_.descending) AscendC::Muls(val, val, static_cast<T>(-1.0f), static_cast<int32_t>(m32));
    AscendC::Cast(wide, pos, AscendC::RoundMode::CAST_NONE, m32);
    LocalTensor<X> out = val.template ReinterpretCast<X>();
    if constexpr (!std::is_same_v<X, T>) {  // narrowed into the keys buffer (Extract is done with it)
      out = keys.template ReinterpretCast<X>();
      FromScore(out, val, m32);
    }
    Sync();
    FixGroup(row, a, m, out, wide);
    Sync();
    CopyOut(v_[row * t_.n + a], out, m);
    CopyOut(i_[row * t_.n + a], wide, m);
  }

  // The NaN/+inf group: positions [g0, g1) of the row whose score is the
  // shared +-inf (at the end when ascending, at the start when descending).
  // Rewrites this segment's part of it in UB.
  __aicore__ void FixGroup(uint64_t row, uint64_t a, uint32_t m, const LocalTensor<X>& val,
                           const LocalTensor<int64_t>& wide) {
    const uint64_t base = row * t_.n;
    const bool desc = t_.descending != 0;
    const float edge = desc ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    if (ScoreOf<T>(k_.GetValue(base + (desc ? 0 : t_.n - 1))) != edge) return;  // no +inf, no NaN
    // Binary search of the group's inner bound (scores are sorted descending).
    uint64_t lo = 0, hi = t_.n;  // first position whose score is not edge (desc) / is edge (asc)
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      const bool is_edge = ScoreOf<T>(k_.GetValue(base + mid)) == edge;
      if (desc ? is_edge : !is_edge) lo = mid + 1;
      else hi = mid;
    }
    const uint64_t g0 = desc ? 0 : lo, g1 = desc ? lo : t_.n;
    const uint64_t s0 = a > g0 ? a : g0, s1 = Min(a + m, g1);
    if (s0 >= s1) return;
    // Members in position order; first class: +inf (ascending) or NaN (descending).
    uint64_t first = 0;
    for (uint64_t p = g0; p < g1; ++p) first += IsFirst(base, p, desc) ? 1 : 0;
    uint64_t seen_first = 0, seen_second = 0;
    for (uint64_t p = g0; p < g1; ++p) {
      const bool f = IsFirst(base, p, desc);
      const uint64_t out = g0 + (f ? seen_first++ : first + seen_second++);
      if (out < s0 || out >= s1) continue;
      const int64_t ix = static_cast<int64_t>(k_.GetValue(base + p) >> 32);
      val.SetValue(static_cast<uint32_t>(out - a), x_.GetValue(base + static_cast<uint64_t>(ix)));
      wide.SetValue(static_cast<uint32_t>(out - a), ix);
    }
  }

  __aicore__ bool IsFirst(uint64_t base, uint64_t p, bool desc) const {
    const float v = static_cast<float>(x_.GetValue(base + (k_.GetValue(base + p) >> 32)));
    const bool nan = v != v;
    return desc ? nan : !nan;
  }

  const VsortExtractTiling& t_;
  AscendC::GlobalTensor<uint64_t> k_;
  AscendC::GlobalTensor<X> x_, v_;
  AscendC::GlobalTensor<int64_t> i_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> keys_, val_, pos_, wide_;
};

}  // namespace
}  // namespace npurt::kernels::sort
