// aicore/vec_repeat.h: the "level 0" (mask, repeatTime, RepeatParams) forms
// of the element-wise APIs: Add Sub Mul Div Max Min (BinaryRepeatParams) and
// Exp Ln Abs Sqrt Rsqrt Reciprocal Relu (UnaryRepeatParams).
// Semantics (ascend-facts.md 1.2): repeat r processes 256 bytes; lane j of an
// operand lives at r*repStride*32 + (j / lanesPerBlock)*blkStride*32 +
// (j % lanesPerBlock)*sizeof(T) bytes; only lanes enabled by the mask are
// computed and written, the other dst bytes keep their contents. The math is
// the same raw kernel as the level-2 forms (one repeat at a time).
// Invariants: repeatTime 0 is a NOP; dstBlkStride 0 is undefined on hardware
// and a parameter diagnostic here; operands are checked up to the last lane
// they touch (vec_operand).
#pragma once

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

// Runs `op(dst_dense, srcs_dense..., kRepeatElems)` per repeat over gathered lanes.
template <class T, size_t N, class Op>
void per_repeat(const char* api, const AscendC::LocalTensor<T>& dst, Strides ds,
                const AscendC::LocalTensor<T>* const (&srcs)[N], const Strides (&ss)[N], const vec::RepeatShape& sh,
                Op op) {
  if (ds.blk == 0) vec_fault(api, "dstBlkStride 0 is undefined on the vector unit");
  if (sh.repeat == 0) return;
  const T* sp[N];
  for (size_t k = 0; k < N; ++k) sp[k] = src_operand(api, *srcs[k], operand_extent<T>(sh, ss[k]));
  T* dp = dst_operand(api, dst, operand_extent<T>(sh, ds));
  constexpr uint64_t R = kRepeatElems<T>;
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
  per_repeat<T, 2>(api, dst, Strides{p.dstBlkStride, p.dstRepStride}, srcs, ss, sh, [&](T* out, T (&in)[2][kRepeatElems<T>]) {
    raw_ok(api, vec::binary(Op, vec::vtype_of<T>, out, in[0], in[1], kRepeatElems<T>));
  });
}

template <vec::UnaryOp Op, class T>
void unary_repeat(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const uint64_t* bits, uint64_t count_mask, uint8_t repeat, const AscendC::UnaryRepeatParams& p) {
  static_assert(kVecElem<T> && vec::unary_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  vec::RepeatShape sh = repeat_shape<T>(api, bits, static_cast<int64_t>(count_mask), repeat, 1, 8, 255);
  const AscendC::LocalTensor<T>* const srcs[1] = {&src};
  const Strides ss[1] = {{p.srcBlkStride, p.srcRepStride}};
  per_repeat<T, 1>(api, dst, Strides{p.dstBlkStride, p.dstRepStride}, srcs, ss, sh, [&](T* out, T (&in)[1][kRepeatElems<T>]) {
    raw_ok(api, vec::unary(Op, vec::vtype_of<T>, out, in[0], kRepeatElems<T>));
  });
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
