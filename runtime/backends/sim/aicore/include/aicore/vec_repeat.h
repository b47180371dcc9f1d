// aicore/vec_repeat.h: the "level 0" (mask, repeatTime, RepeatParams) forms
// of the element-wise APIs.
// Semantics (ascend-facts.md 1.2): repeat r processes 256 bytes; lane j of an
// operand lives at r*repStride*32 + (j / lanesPerBlock)*blkStride*32 +
// (j % lanesPerBlock)*sizeof(T) bytes; only lanes enabled by the mask are
// computed and written, the other dst bytes keep their contents. The math is
// the same raw kernel as the level-2 forms: gathered lane by lane in general,
// or called on the operands in place when every repeat is one contiguous run
// of lanes (a prefix mask, block stride 1) and every source is either the
// destination itself or disjoint from it (then the results are the same
// bits: each lane is one IEEE operation), or with a block-stride-0 source
// staged per repeat (broadcast_block_repeats). Forms: Add Sub Mul Div Max Min
// FusedMulAdd (BinaryRepeatParams; FusedMulAdd reads dst too) and Exp Ln Abs
// Sqrt Rsqrt Reciprocal Relu (UnaryRepeatParams).
// Invariants: repeatTime 0 is a NOP; dstBlkStride 0 is undefined on hardware
// and a parameter diagnostic here; operands are checked up to the last lane
// they touch (vec_operand).
#pragma once

#include <cstring>

#include "aicore/vec_common.h"
#include "aicore/vec_reduce.h"

namespace AscendC {

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                     uint8_t src1Rep)
      : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
        src0RepStride(src0Rep), src1RepStride(src1Rep) {}
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
      : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
};

}  // namespace AscendC

namespace npurt::sim::vecapi {

struct Strides {
  uint32_t blk, rep;
};

// Element offset of lane j of repeat r for an operand with the given strides.
template <class T> uint64_t lane_offset(Strides s, uint64_t r, uint64_t j) {
  return r * s.rep * kBlockElems<T> + (j / kBlockElems<T>) * s.blk * kBlockElems<T> + j % kBlockElems<T>;
}

template <class T> uint64_t operand_extent(const vec::RepeatShape& sh, Strides s) {
  vec::RepeatShape o = sh;
  o.src_blk_stride = s.blk;
  o.src_rep_stride = s.rep;
  return repeat_extent<T>(o);
}

inline bool lane_on(const vec::RepeatShape& sh, uint64_t j) { return (sh.mask[j / 64] >> (j % 64)) & 1; }

// Lanes [0, c) when the mask enables exactly a prefix of the repeat, else 0.
template <class T> uint64_t prefix_lanes(const vec::RepeatShape& sh) {
  const uint64_t c = static_cast<uint64_t>(__builtin_popcountll(sh.mask[0]) + __builtin_popcountll(sh.mask[1]));
  const uint64_t lo = c >= 64 ? ~uint64_t{0} : (uint64_t{1} << c) - 1;
  const uint64_t hi = c <= 64 ? 0 : (c >= 128 ? ~uint64_t{0} : (uint64_t{1} << (c - 64)) - 1);
  return sh.mask[0] == lo && sh.mask[1] == hi && c <= kRepeatElems<T> ? c : 0;
}

// The in-place plan: lanes per repeat (0 = gather instead). Needs a prefix
// mask, block stride 1 wherever a repeat spans several blocks, and each source
// equal to dst (same start and repeat stride) or byte-disjoint from all of it.
template <class T, size_t N>
uint64_t dense_lanes(const vec::RepeatShape& sh, const T* dp, Strides ds, const T* const (&sp)[N],
                     const Strides (&ss)[N]) {
  const uint64_t c = prefix_lanes<T>(sh);
  if (c == 0) return 0;
  const bool one_block = c <= kBlockElems<T>;
  if (!one_block && ds.blk != 1) return 0;
  const uint64_t dext = operand_extent<T>(sh, ds);
  for (size_t k = 0; k < N; ++k) {
    if (!one_block && ss[k].blk != 1) return 0;
    if (sp[k] == dp && ss[k].rep == ds.rep) continue;
    const T* s = sp[k];
    if (s < dp + dext && dp < s + operand_extent<T>(sh, ss[k])) return 0;
  }
  return c;
}

// Repeats of a prefix mask run dense on staged copies: a source that is not
// readable in place (block stride 0: the same 32-B block for every block of a
// repeat, a per-row value broadcast by Brcb; or, when the dst repeats are back
// to back, a block-stride-1 source with repeat stride 0: one vector reused by
// every repeat) is copied into a dense stage, every other operand stays in
// place (each the dst itself or byte-disjoint from it). With back-to-back full
// dst repeats and every source dense, repeated or block-stride 0, up to
// kStageRepeats repeats go to one `dense` call (a 1024-wide float row: one
// call, not 16), else one call per repeat.
// Same bits as the lane gather: each lane is one IEEE operation on the same
// inputs. False when the shape does not fit (then the gather runs).
constexpr uint64_t kStageRepeats = 16;

// Copies into `to` the first `lanes` lanes of each of n repeats of a source
// with block stride 0 or 1, back to back (repeat i at to + i * kRepeatElems).
// A block-stride-0 repeat is its block copied (fixed 32-B copies, inlined);
// with repeat stride 0 every repeat equals the first, so the rest is filled by
// doubling copies (4 memcpy calls for 16 repeats instead of 128 block copies:
// the copies cost most of a staged call).
template <class T> void stage_source(T* to, const T* from, Strides s, uint64_t n, uint64_t lanes) {
  constexpr uint64_t R = kRepeatElems<T>, B = kBlockElems<T>;
  for (uint64_t i = 0; i < (s.rep == 0 ? 1 : n); ++i) {
    T* t = to + i * R;
    const T* f = from + i * s.rep * B;
    if (s.blk == 1) std::memcpy(t, f, sizeof(T) * lanes);
    else for (uint64_t b = 0; b < (lanes + B - 1) / B; ++b) std::memcpy(t + b * B, f, sizeof(T) * B);
  }
  if (s.rep != 0) return;
  for (uint64_t len = R; len < n * R; len *= 2) std::memcpy(to + len, to, sizeof(T) * std::min(len, n * R - len));
}

// One dense call per repeat, a block-stride-0 source staged per repeat (its
// block copied over the repeat's c lanes) in a one-repeat stage.
template <class T, size_t N, class Dense>
void repeat_by_repeat(const vec::RepeatShape& sh, uint64_t c, T* dp, Strides ds, const T* const (&sp)[N],
                      const Strides (&ss)[N], const bool (&staged)[N], Dense dense) {
  constexpr uint64_t R = kRepeatElems<T>, B = kBlockElems<T>;
  T stage[N][R];
  for (uint64_t r = 0; r < sh.repeat; ++r) {
    const T* rs[N];
    for (size_t k = 0; k < N; ++k) {
      rs[k] = sp[k] + r * ss[k].rep * B;
      if (!staged[k]) continue;
      for (uint64_t b = 0; b < (c + B - 1) / B; ++b) std::memcpy(stage[k] + b * B, rs[k], sizeof(T) * B);
      rs[k] = stage[k];
    }
    dense(dp + r * ds.rep * B, rs, c);
  }
}

// Back-to-back full repeats, kStageRepeats per dense call, staged sources
// copied by stage_source (the big stage lives only in this frame).
template <class T, size_t N, class Dense>
void chunked_repeats(const vec::RepeatShape& sh, T* dp, const T* const (&sp)[N], const Strides (&ss)[N],
                     const bool (&staged)[N], Dense dense) {
  constexpr uint64_t R = kRepeatElems<T>, B = kBlockElems<T>;
  T stage[N][kStageRepeats * R];
  for (uint64_t r = 0; r < sh.repeat; r += kStageRepeats) {
    const uint64_t n = sh.repeat - r < kStageRepeats ? sh.repeat - r : kStageRepeats;
    const T* rs[N];
    for (size_t k = 0; k < N; ++k) {
      rs[k] = sp[k] + r * ss[k].rep * B;
      if (!staged[k]) continue;
      stage_source(stage[k], rs[k], ss[k], n, R);
      rs[k] = stage[k];
    }
    dense(dp + r * R, rs, n * R);
  }
}

template <class T, size_t N, class Dense>
bool staged_repeats(const vec::RepeatShape& sh, T* dp, Strides ds, const T* const (&sp)[N], const Strides (&ss)[N],
                    Dense dense) {
  constexpr uint64_t R = kRepeatElems<T>, B = kBlockElems<T>;
  const uint64_t c = prefix_lanes<T>(sh);
  if (c == 0) return false;
  const bool one_block = c <= B;  // strides inside a repeat do not matter then
  if (!one_block && ds.blk != 1) return false;
  // Chunks need every block-stride-1 source dense (repeat stride 8) or
  // repeated (0): staging other strides copies as much as the calls it saves
  // (level-0 Max over two row halves, repeat stride 16: +2 % instructions).
  bool chunks = c == R && ds.rep * B == R;
  const uint64_t dext = operand_extent<T>(sh, ds);
  for (size_t k = 0; k < N; ++k) {
    if (!one_block && ss[k].blk > 1) return false;
    const bool in_place = sp[k] == dp && ss[k].rep == ds.rep && (one_block || ss[k].blk == 1);
    if (!in_place && sp[k] < dp + dext && dp < sp[k] + operand_extent<T>(sh, ss[k])) return false;
    chunks = chunks && (ss[k].blk == 0 || ss[k].rep * B == R || ss[k].rep == 0);
  }
  bool staged[N] = {}, any_stage = false;
  for (size_t k = 0; k < N; ++k) {
    staged[k] = !one_block && (ss[k].blk == 0 || (chunks && ss[k].rep * B != R));
    any_stage = any_stage || staged[k];
  }
  if (!chunks && !any_stage) {  // every operand in place: the plain per-repeat loop
    for (uint64_t r = 0; r < sh.repeat; ++r) {
      const T* rs[N];
      for (size_t k = 0; k < N; ++k) rs[k] = sp[k] + r * ss[k].rep * B;
      dense(dp + r * ds.rep * B, rs, c);
    }
    return true;
  }
  if (!chunks) {
    repeat_by_repeat<T, N>(sh, c, dp, ds, sp, ss, staged, dense);
    return true;
  }
  if (!any_stage) return dense(dp, sp, R * sh.repeat), true;  // back-to-back dense repeats: one call
  chunked_repeats<T, N>(sh, dp, sp, ss, staged, dense);
  return true;
}

// Runs the op per repeat: `dense(dst, srcs, lanes)` on the operands in place
// or staged (staged_repeats), else `op(dst_dense, srcs_dense..., kRepeatElems)`
// over gathered lanes.
template <class T, size_t N, class Op, class Dense>
void per_repeat(const char* api, const AscendC::LocalTensor<T>& dst, Strides ds,
                const AscendC::LocalTensor<T>* const (&srcs)[N], const Strides (&ss)[N], const vec::RepeatShape& sh,
                Op op, Dense dense) {
  if (ds.blk == 0) vec_fault(api, "dstBlkStride 0 is undefined on the vector unit");
  if (sh.repeat == 0) return;
  const T* sp[N];
  for (size_t k = 0; k < N; ++k) sp[k] = src_operand(api, *srcs[k], operand_extent<T>(sh, ss[k]));
  T* dp = dst_operand(api, dst, operand_extent<T>(sh, ds));
  constexpr uint64_t R = kRepeatElems<T>;
  if (staged_repeats<T, N>(sh, dp, ds, sp, ss, dense)) return;
  for (uint64_t r = 0; r < sh.repeat; ++r) {
    T in[N][R] = {};
    T out[R];
    for (size_t k = 0; k < N; ++k)
      for (uint64_t j = 0; j < R; ++j)
        if (lane_on(sh, j)) in[k][j] = sp[k][lane_offset<T>(ss[k], r, j)];
    op(out, in);
    for (uint64_t j = 0; j < R; ++j)
      if (lane_on(sh, j)) dp[lane_offset<T>(ds, r, j)] = out[j];
  }
}

template <vec::BinaryOp Op, class T>
void binary_repeat(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                   const AscendC::LocalTensor<T>& b, const uint64_t* bits, uint64_t count_mask, uint8_t repeat,
                   const AscendC::BinaryRepeatParams& p) {
  static_assert(kVecElem<T> && vec::binary_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  vec::RepeatShape sh = repeat_shape<T>(api, bits, static_cast<int64_t>(count_mask), repeat, 1, 8, 255);
  const AscendC::LocalTensor<T>* const srcs[2] = {&a, &b};
  const Strides ss[2] = {{p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride}};
  per_repeat<T, 2>(
      api, dst, Strides{p.dstBlkStride, p.dstRepStride}, srcs, ss, sh,
      [&](T* out, T (&in)[2][kRepeatElems<T>]) {
        raw_ok(api, vec::binary(Op, vec::vtype_of<T>, out, in[0], in[1], kRepeatElems<T>));
      },
      [&](T* out, const T* const (&in)[2], uint64_t n) { raw_ok(api, vec::binary(Op, vec::vtype_of<T>, out, in[0], in[1], n)); });
}

// FusedMulAdd with both sources one 32-byte block each (block and repeat
// stride 0: per-row scale and shift broadcast by Brcb) over a prefix mask and
// a contiguous dst: vec::ternary_blocks reads the blocks once, no staging
// (staging both sources cost more than the Adds and Muls such a call
// replaces: "Layer_norm float16 seven-call row (wave 10)" in
// docs/performance-history.md). Back-to-back full repeats are one call, else one call
// per repeat. Same bits as the staged path. False when the shape does not fit.
template <class T>
bool block_sources_fma(const char* api, const AscendC::LocalTensor<T>& dst, Strides ds,
                       const AscendC::LocalTensor<T>* const (&srcs)[2], const Strides (&ss)[2],
                       const vec::RepeatShape& sh) {
  constexpr uint64_t R = kRepeatElems<T>, B = kBlockElems<T>;
  for (const Strides& s : ss)
    if (s.blk != 0 || s.rep != 0) return false;
  const uint64_t c = prefix_lanes<T>(sh);
  if (c == 0 || ds.blk != 1 || sh.repeat == 0) return false;
  const uint64_t dext = operand_extent<T>(sh, ds);
  T* dp = dst_operand(api, dst, dext);
  const T* sp[2];
  for (size_t k = 0; k < 2; ++k) {
    sp[k] = src_operand(api, *srcs[k], B);
    if (sp[k] < dp + dext && dp < sp[k] + B) return false;  // a block inside dst: the gather's order decides
  }
  constexpr auto kOp = vec::TernaryOp::kFusedMulAdd;
  if (c == R && ds.rep * B == R) return raw_ok(api, vec::ternary_blocks(kOp, vec::vtype_of<T>, dp, sp[0], sp[1], R * sh.repeat)), true;
  for (uint64_t r = 0; r < sh.repeat; ++r)
    raw_ok(api, vec::ternary_blocks(kOp, vec::vtype_of<T>, dp + r * ds.rep * B, sp[0], sp[1], c));
  return true;
}

// FusedMulAdd level 0: dst = src0 * dst + src1 per enabled lane (dst is also
// read, through the dst strides), product rounded to T as in the level-2 form.
template <class T>
void fma_repeat(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                const AscendC::LocalTensor<T>& b, const uint64_t* bits, uint64_t count_mask, uint8_t repeat,
                const AscendC::BinaryRepeatParams& p) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "FusedMulAdd supports half and float on A2/A3");
  vec::RepeatShape sh = repeat_shape<T>(api, bits, static_cast<int64_t>(count_mask), repeat, 1, 8, 255);
  const Strides dss{p.dstBlkStride, p.dstRepStride};
  const AscendC::LocalTensor<T>* const srcs[3] = {&dst, &a, &b};
  const Strides ss[3] = {dss, {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride}};
  if (dss.blk == 0) vec_fault(api, "dstBlkStride 0 is undefined on the vector unit");
  const AscendC::LocalTensor<T>* const ab[2] = {&a, &b};
  if (block_sources_fma<T>(api, dst, dss, ab, {ss[1], ss[2]}, sh)) return;
  constexpr auto kOp = vec::TernaryOp::kFusedMulAdd;
  per_repeat<T, 3>(
      api, dst, dss, srcs, ss, sh,
      [&](T* out, T (&in)[3][kRepeatElems<T>]) {
        raw_ok(api, vec::ternary(kOp, vec::vtype_of<T>, in[0], in[1], in[2], kRepeatElems<T>));
        std::memcpy(out, in[0], sizeof(in[0]));
      },
      [&](T* out, const T* const (&in)[3], uint64_t n) { raw_ok(api, vec::ternary(kOp, vec::vtype_of<T>, out, in[1], in[2], n)); });
}

template <vec::UnaryOp Op, class T>
void unary_repeat(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const uint64_t* bits, uint64_t count_mask, uint8_t repeat, const AscendC::UnaryRepeatParams& p) {
  static_assert(kVecElem<T> && vec::unary_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  vec::RepeatShape sh = repeat_shape<T>(api, bits, static_cast<int64_t>(count_mask), repeat, 1, 8, 255);
  const AscendC::LocalTensor<T>* const srcs[1] = {&src};
  const Strides ss[1] = {{p.srcBlkStride, p.srcRepStride}};
  per_repeat<T, 1>(
      api, dst, Strides{p.dstBlkStride, p.dstRepStride}, srcs, ss, sh,
      [&](T* out, T (&in)[1][kRepeatElems<T>]) {
        raw_ok(api, vec::unary(Op, vec::vtype_of<T>, out, in[0], kRepeatElems<T>));
      },
      [&](T* out, const T* const (&in)[1], uint64_t n) { raw_ok(api, vec::unary(Op, vec::vtype_of<T>, out, in[0], n)); });
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

#define NPURT_VEC_BINARY_L0(Name, Op)                                                                           \
  template <typename T, bool isSetMask = true>                                                                  \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
    npurt::sim::vecapi::binary_repeat<npurt::aicore::vec::BinaryOp::Op>(#Name, dst, src0, src1, nullptr, mask,  \
                                                                        repeatTime, repeatParams);              \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                  \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
    npurt::sim::vecapi::binary_repeat<npurt::aicore::vec::BinaryOp::Op>(#Name, dst, src0, src1, mask, 0,        \
                                                                        repeatTime, repeatParams);              \
  }
NPURT_VEC_BINARY_L0(Add, kAdd)
NPURT_VEC_BINARY_L0(Sub, kSub)
NPURT_VEC_BINARY_L0(Mul, kMul)
NPURT_VEC_BINARY_L0(Div, kDiv)
NPURT_VEC_BINARY_L0(Max, kMax)
NPURT_VEC_BINARY_L0(Min, kMin)
#undef NPURT_VEC_BINARY_L0

// dst = src0 * dst + src1 on the lanes the mask enables (level 0).
template <typename T, bool isSetMask = true>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  npurt::sim::vecapi::fma_repeat("FusedMulAdd", dst, src0, src1, nullptr, mask, repeatTime, repeatParams);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  npurt::sim::vecapi::fma_repeat("FusedMulAdd", dst, src0, src1, mask, 0, repeatTime, repeatParams);
}

#define NPURT_VEC_UNARY_L0(Name, Op)                                                                          \
  template <typename T, bool isSetMask = true>                                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,           \
                              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {              \
    npurt::sim::vecapi::unary_repeat<npurt::aicore::vec::UnaryOp::Op>(#Name, dst, src, nullptr, mask,         \
                                                                      repeatTime, repeatParams);              \
  }                                                                                                           \
  template <typename T, bool isSetMask = true>                                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],         \
                              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {              \
    npurt::sim::vecapi::unary_repeat<npurt::aicore::vec::UnaryOp::Op>(#Name, dst, src, mask, 0, repeatTime,   \
                                                                      repeatParams);                          \
  }
NPURT_VEC_UNARY_L0(Exp, kExp)
NPURT_VEC_UNARY_L0(Ln, kLn)
NPURT_VEC_UNARY_L0(Abs, kAbs)
NPURT_VEC_UNARY_L0(Sqrt, kSqrt)
NPURT_VEC_UNARY_L0(Rsqrt, kRsqrt)
NPURT_VEC_UNARY_L0(Reciprocal, kReciprocal)
NPURT_VEC_UNARY_L0(Relu, kRelu)
#undef NPURT_VEC_UNARY_L0

}  // namespace AscendC
