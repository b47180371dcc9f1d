// kernels/sort/vsort_kernel.cc: the vector-unit sort of float32/float16 rows
// (device code), three kernels the Python layer chains (see sort_tiling.h):
//   vsort_block:   each chunk of a row -> keys sorted in UB by Sort32 (groups
//                  of 32) and 4-way MrgSort rounds (lists 32 -> 128 -> ...).
//   vsort_merge:   neighbouring sorted runs of `width` keys -> runs of 2*width,
//                  each unit one merge-path segment (co-rank binary search on
//                  GM scores) merged by a 2-list MrgSort.
//   vsort_extract: keys -> values (the score, sign restored) and int64
//                  indices (Extract + Cast int32 -> int64), then the NaN fix-up.
// Scores: descending sorts use x, ascending ones -x, both after NaN -> +inf,
// so the unit's "descending score, ties by position" is exactly the stable
// order wanted, except that NaN and +inf share the score: they form one group
// at the row's end (ascending: score -inf) or start (descending: +inf), in
// position order. The fix-up rewrites that group (usually empty) as all +inf
// then all NaN (ascending) or all NaN then all +inf (descending), each in
// position order, reading the original x (NaN payloads kept).
#include <cstdint>
#include <limits>
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

__aicore__ inline void Sync() { AscendC::PipeBarrier<PIPE_ALL>(); }

template <class T> constexpr uint32_t kPerKey = 8 / sizeof(T);  // T elements per 8-byte key
constexpr uint32_t kSort32Span = 4096;                            // 128 Sort32 repeats
// 32-bit integers sort by 16-bit digits, one exact float score per radix pass.
// uint16 is one (unsigned) digit: A2 has no Cast uint16 -> float, int16 -> float it has.
template <class X>
constexpr bool kIsDigitInput = std::is_same_v<X, int32_t> || std::is_same_v<X, uint32_t> || std::is_same_v<X, uint16_t>;
template <class T> __aicore__ inline T Inf() { return static_cast<T>(std::numeric_limits<float>::infinity()); }

// Score of a key read from GM (low bytes).
template <class T>
__aicore__ inline float ScoreOf(uint64_t key) {
  if constexpr (sizeof(T) == 4) {
    uint32_t u = static_cast<uint32_t>(key);
    float f;
    __builtin_memcpy(&f, &u, 4);
    return f;
  } else {
    uint16_t u = static_cast<uint16_t>(key);
    T h;
    __builtin_memcpy(&h, &u, 2);
    return static_cast<float>(h);
  }
}

// Scores of an input X: X itself (float, half) or X cast exactly to T
// (int16/bfloat16 -> float, int8/uint8/bool -> half; no rounding: every value fits).
template <class X, class T>
__aicore__ inline void ToScore(const LocalTensor<T>& score, const LocalTensor<X>& x, uint32_t n) {
  if constexpr (std::is_same_v<X, T>) return;
  else AscendC::Cast(score, x, AscendC::RoundMode::CAST_NONE, n);
}

template <class X, class T>
class VsortBlock {
 public:
  __aicore__ VsortBlock(GM_ADDR x, GM_ADDR keys, const VsortBlockTiling& t) : t_(t) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ X*>(x), t.rows * t.n);
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(keys), t.rows * t.n);
    const uint32_t c = static_cast<uint32_t>(t.chunk);
    pipe_.InitBuffer(a_, c * 8);
    pipe_.InitBuffer(b_, c * 8);
    pipe_.InitBuffer(iota_, c * 4);
    pipe_.InitBuffer(mask_, c / 8);
  }

  __aicore__ void Run() {
    uint64_t begin, end;
    if (!CoreRange(t_.units, t_.per_core, begin, end)) return;
    LocalTensor<int32_t> iota = iota_.template Get<int32_t>();
    for (uint32_t i = 0; i < t_.chunk; ++i) iota.SetValue(i, static_cast<int32_t>(i));  // once per core
    for (uint64_t u = begin; u < end; ++u) Unit(u);
  }

 private:
  __aicore__ void Unit(uint64_t u) {
    const uint64_t row = u / t_.chunks, off = (u % t_.chunks) * t_.chunk;
    const uint32_t m = static_cast<uint32_t>(Min(t_.chunk, t_.n - off));
    const uint32_t mp = (m + kVsortChunkStep - 1) / kVsortChunkStep * kVsortChunkStep;
    LocalTensor<T> a = a_.template Get<T>(), b = b_.template Get<T>();
    LocalTensor<T> score = b;                                             // first half of B
    LocalTensor<int32_t> idx = b_.template Get<int32_t>()[mp];            // second half of B
    Sync();  // the previous unit's copy-out read A/B
    if constexpr (std::is_same_v<X, T>) {
      CopyIn(score, x_[row * t_.n + off], m);
    } else {  // staged in A (free until Sort32), then widened exactly
      CopyIn(a_.template Get<X>(), x_[row * t_.n + off], m);
      Sync();
      if constexpr (kIsDigitInput<X>) DigitScore(score, m);
      else ToScore(score, a_.template Get<X>(), m);
    }
    Sync();
    // Padding sorts after everything: score -inf, the highest positions.
    for (uint32_t j = m; j < mp; ++j) score.SetValue(j, t_.descending ? -Inf<T>() : Inf<T>());
    Sync();
    LocalTensor<uint8_t> mask = mask_.template Get<uint8_t>();
    if constexpr (kIsDigitInput<X>) LiftUnsignedDigit(score, mask, mp);
    AscendC::Compare(mask, score, score, AscendC::CMPMODE::EQ, mp);  // 0 bits: NaN
    AscendC::Select(score, mask, score, Inf<T>(), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, mp);
    if (!t_.descending) AscendC::Muls(score, score, static_cast<T>(-1.0f), static_cast<int32_t>(mp));
    AscendC::Adds(idx, iota_.template Get<int32_t>(), static_cast<int32_t>(off), static_cast<int32_t>(mp));
    LocalTensor<uint32_t> pos = idx.template ReinterpretCast<uint32_t>();
    for (uint32_t g = 0; g < mp; g += kSort32Span)  // repeatTime <= 255: at most 4096 elements a call
      AscendC::Sort32(a[g * kPerKey<T>], score[g], pos[g], static_cast<int32_t>(Min(kSort32Span, mp - g) / 32));
    const bool in_b = MergeRounds(a, b, mp);
    Sync();
    CopyOut(k_[row * t_.n + off], (in_b ? b_ : a_).template Get<uint64_t>(), m);
  }

  // The score of a 32-bit integer's 16-bit digit (int32/uint32 staged in A):
  // GatherMask's built-in pattern 1 (even halves = the low digit, little
  // endian) or 2 (odd = the high one) compacts the m digits behind the input,
  // then Cast int16 -> float (exact). Unsigned digits are lifted afterwards.
  __aicore__ void DigitScore(const LocalTensor<float>& score, uint32_t m) {
    LocalTensor<int16_t> halves = a_.template Get<int16_t>();
    if constexpr (sizeof(X) == 2) {  // uint16: the value is its only digit
      AscendC::Cast(score, halves, AscendC::RoundMode::CAST_NONE, m);
      return;
    }
    LocalTensor<int16_t> digit = halves[2 * static_cast<uint32_t>(t_.chunk)];  // A's bytes [4c, 6c)
    uint64_t kept = 0;
    AscendC::GatherMask(digit, halves, static_cast<uint8_t>(t_.digit == 0 ? 1 : 2), true, 2 * m,
                        AscendC::GatherMaskParams(), kept);
    AscendC::Cast(score, digit, AscendC::RoundMode::CAST_NONE, m);
  }

  // The low digit of every 32-bit integer, and the high one of a uint32, is
  // unsigned: int16 read -32768..-1 stands for 32768..65535, so those scores
  // get +65536 (exact in float; the +-inf padding stays +-inf).
  __aicore__ void LiftUnsignedDigit(const LocalTensor<float>& score, const LocalTensor<uint8_t>& mask, uint32_t mp) {
    if (t_.digit != 0 && std::is_signed_v<X>) return;
    LocalTensor<float> lifted = a_.template Get<float>();  // A's bytes [0, 4c): the staged input is consumed
    AscendC::Adds(lifted, score, 65536.0f, static_cast<int32_t>(mp));
    AscendC::CompareScalar(mask, score, 0.0f, AscendC::CMPMODE::LT, mp);
    AscendC::Select(score, mask, lifted, score, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, mp);
  }

  // 4-way MrgSort rounds over mp keys in `cur` (lists of 32 -> mp), ping-pong
  // with `nxt`; returns true when the result ends in nxt's buffer (B).
  __aicore__ bool MergeRounds(LocalTensor<T> cur, LocalTensor<T> nxt, uint32_t mp) {
    bool in_b = false;
    for (uint32_t w = 32; w < mp; w *= 4, in_b = !in_b) {
      const uint32_t quads = mp / (4 * w);  // full groups of 4 lists of w: one repeated MrgSort
      const uint16_t full[4] = {static_cast<uint16_t>(w), static_cast<uint16_t>(w), static_cast<uint16_t>(w),
                                static_cast<uint16_t>(w)};
      if (quads > 0)
        AscendC::MrgSort(nxt, AscendC::MrgSortSrcList<T>(cur, cur[w * kPerKey<T>], cur[2 * w * kPerKey<T>],
                                                         cur[3 * w * kPerKey<T>]),
                         AscendC::MrgSort4Info(full, false, 15, static_cast<uint16_t>(quads)));
      const uint32_t at = quads * 4 * w;
      if (at < mp) MergeTail(cur, nxt, at, w, mp);
      LocalTensor<T> t = cur;
      cur = nxt, nxt = t;
    }
    return in_b;
  }

  // The last, partial group: 1 to 3 lists (the last possibly shorter).
  __aicore__ void MergeTail(const LocalTensor<T>& cur, const LocalTensor<T>& nxt, uint32_t at, uint32_t w,
                            uint32_t mp) {
    uint16_t len[4] = {0, 0, 0, 0};
    LocalTensor<T> s[4];
    uint16_t valid = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t b = at + k * w;
      s[k] = cur[(b < mp ? b : at) * kPerKey<T>];
      if (b < mp) len[k] = static_cast<uint16_t>(Min(w, mp - b)), valid |= static_cast<uint16_t>(1u << k);
    }
    if (valid == 1) valid = 3;  // one list left: merged with an empty one (a copy)
    AscendC::MrgSort(nxt[at * kPerKey<T>], AscendC::MrgSortSrcList<T>(s[0], s[1], s[2], s[3]),
                     AscendC::MrgSort4Info(len, false, valid, 1));
  }

  const VsortBlockTiling& t_;
  AscendC::GlobalTensor<X> x_;
  AscendC::GlobalTensor<uint64_t> k_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> a_, b_, iota_, mask_;
};

template <class T>
class VsortMerge {
 public:
  __aicore__ VsortMerge(GM_ADDR keys, GM_ADDR out, const VsortMergeTiling& t) : t_(t) {
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(keys), t.rows * t.n);
    o_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(out), t.rows * t.n);
    for (int b = 0; b < 3; ++b) pipe_.InitBuffer(buf_[b], kVsortMergeSeg * 8);
  }

  __aicore__ void Run() {
    ForEachUnit(t_, [&](uint64_t u) { Unit(u); });
  }

 private:
  // How many of the first k merged outputs come from run A (ties: A first).
  __aicore__ uint64_t CoRank(uint64_t a0, uint64_t la, uint64_t b0, uint64_t lb, uint64_t k) const {
    uint64_t lo = k > lb ? k - lb : 0, hi = Min(k, la);
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;  // A[mid] is among the first k unless B[k-mid-1] beats it
      if (ScoreOf<T>(k_.GetValue(b0 + k - mid - 1)) > ScoreOf<T>(k_.GetValue(a0 + mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  __aicore__ void Unit(uint64_t u) {
    const uint64_t per_row = t_.pairs * t_.segs, row = u / per_row;
    const uint64_t pair = (u % per_row) / t_.segs, s = u % t_.segs;
    const uint64_t start = row * t_.n + pair * 2 * t_.width, left = t_.n - pair * 2 * t_.width;
    const uint64_t la = Min(t_.width, left), lb = Min(t_.width, left - la);
    const uint64_t k0 = s * kVsortMergeSeg;
    if (k0 >= la + lb) return;
    const uint64_t k1 = Min(k0 + kVsortMergeSeg, la + lb);
    const uint64_t i0 = CoRank(start, la, start + la, lb, k0), i1 = CoRank(start, la, start + la, lb, k1);
    const uint32_t na = static_cast<uint32_t>(i1 - i0), nb = static_cast<uint32_t>((k1 - i1) - (k0 - i0));
    LocalTensor<uint64_t> a = buf_[0].template Get<uint64_t>(), b = buf_[1].template Get<uint64_t>();
    LocalTensor<uint64_t> o = buf_[2].template Get<uint64_t>();
    Sync();  // the previous unit's copy-out read o
    if (na > 0) CopyIn(a, k_[start + i0], na);
    if (nb > 0) CopyIn(b, k_[start + la + (k0 - i0)], nb);
    Sync();
    const uint16_t len[4] = {static_cast<uint16_t>(na), static_cast<uint16_t>(nb), 0, 0};
    LocalTensor<T> at = a.template ReinterpretCast<T>(), bt = b.template ReinterpretCast<T>();
    AscendC::MrgSort(o.template ReinterpretCast<T>(), AscendC::MrgSortSrcList<T>(at, bt, at, at),
                     AscendC::MrgSort4Info(len, false, 3, 1));
    Sync();
    CopyOut(o_[start + k0], o, na + nb);
  }

  const VsortMergeTiling& t_;
  AscendC::GlobalTensor<uint64_t> k_, o_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_[3];
};

}  // namespace
}  // namespace npurt::kernels::sort

#include "sort/vsort_extract.h"  // NOLINT(build/include_order): uses the helpers above

namespace npurt::kernels::sort {
// (input type, score type) of every dtype the vector sort takes.
template <class F>
__aicore__ inline void VisitVsortTypes(uint32_t dtype, F&& f) {
  switch (static_cast<DType>(dtype)) {
    case DType::kFloat16: f(half{}, half{}); break;
    case DType::kBFloat16: f(bfloat16_t{}, float{}); break;
    case DType::kInt16: f(int16_t{}, float{}); break;
    case DType::kInt8: f(int8_t{}, half{}); break;
    case DType::kUInt8: case DType::kBool: f(uint8_t{}, half{}); break;
    default: f(float{}, float{}); break;
  }
}
}  // namespace npurt::kernels::sort

extern "C" __global__ __aicore__ void npurt_vsort_block_kernel(GM_ADDR x, GM_ADDR keys, GM_ADDR workspace,
                                                               GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(VsortBlockTiling, t, tiling);
  auto run = [&](auto xv, auto sv) {
    VsortBlock<decltype(xv), decltype(sv)> k(x, keys, t);
    k.Run();
  };
  if (t.dtype == static_cast<uint32_t>(npurt::DType::kInt32)) run(int32_t{}, float{});  // one digit a launch
  else if (t.dtype == static_cast<uint32_t>(npurt::DType::kUInt32)) run(uint32_t{}, float{});
  else if (t.dtype == static_cast<uint32_t>(npurt::DType::kUInt16)) run(uint16_t{}, float{});
  else VisitVsortTypes(t.dtype, run);
}

extern "C" __global__ __aicore__ void npurt_vsort_merge_kernel(GM_ADDR keys, GM_ADDR out, GM_ADDR workspace,
                                                               GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(VsortMergeTiling, t, tiling);
  VisitScore(t.dtype, [&](auto sv) {
    VsortMerge<decltype(sv)> k(keys, out, t);
    k.Run();
  });
}

extern "C" __global__ __aicore__ void npurt_vsort_extract_kernel(GM_ADDR keys, GM_ADDR x, GM_ADDR vals, GM_ADDR idx,
                                                                 GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::sort;
  GET_TILING_DATA_WITH_STRUCT(VsortExtractTiling, t, tiling);
  VisitVsortTypes(t.dtype, [&](auto xv, auto sv) {
    VsortExtract<decltype(xv), decltype(sv)> k(keys, x, vals, idx, t);
    k.Run();
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::sort {
extern const SimKernelEntry kVsortBlockEntry = NPURT_SIM_ENTRY(npurt_vsort_block_kernel);
extern const SimKernelEntry kVsortMergeEntry = NPURT_SIM_ENTRY(npurt_vsort_merge_kernel);
extern const SimKernelEntry kVsortExtractEntry = NPURT_SIM_ENTRY(npurt_vsort_extract_kernel);
}  // namespace npurt::kernels::sort
#endif  // NPURT_ASCEND_DEVICE_BUILD
