// kernels/elementwise/ew_kernel.h: the one Ascend C kernel template of the
// elementwise family: z = Op(a[, b[, c]]) with numpy broadcasting and any
// input strides, for every functor of ew_functors.h / ew_unary_functors.h.
//
// Pipeline per core, per tile of `tile` output elements: CopyIn (GM -> VECIN
// queues) -> Compute (VECOUT) -> CopyOut (UB -> GM), each queue double-buffered
// so MTE2, V and MTE3 overlap on the NPU. CopyIn reads an input laid out like
// the output (tiling bit `contiguous`) with one DataCopy of the whole tile;
// any other input (broadcast: stride 0; transposed, sliced, negative strides)
// is gathered inside CopyIn from the strides in the tiling data, row by row:
// DataCopyPad for unit-stride rows that keep UB alignment, Duplicate for
// aligned broadcast rows (stride 0), scalar reads otherwise. Nothing is
// materialised in GM. Compute is the functor's vector form (level-2 API calls)
// when it has one for the dtype — for float16/bfloat16 through float UB tiles
// when the functor opts in (kWidenVec) — else the scalar form. A binary
// functor with a tensor-scalar form (kScalarVec: Adds/Muls/Maxs/Mins) reads a
// one-element input (tiling bit `scalar`: a Python scalar or 0-d array) once
// in Init and computes VecS on the other input's tile, so array-scalar ops
// stream one input like unary ops. Likewise an input with one value per
// output row (tiling bit `row_scalar`: the (N, 1) of (N, 1) + (1, M)) is read
// as one GM value per row, and VecS runs row by row on the other input's tile
// (no Duplicate'd UB operand, one vector pass less); when that other input
// repeats every row as well (the (1, M)) and tiles are whole rows, every tile
// of a core reads the same elements, so it is loaded once per core and kept
// in its queue buffer (RepeatsEveryTile). CopyOut writes
// the contiguous output, or rows of out_row columns out_pitch apart (EwTiling).
#pragma once

#include <limits>
#include <type_traits>

#include "common/gm_stage.h"
#include "common/kernel_util.h"
#include "common/strided_load.h"
#include "elementwise/ew_complex_types.h"
#include "elementwise/ew_tiling.h"
#include "elementwise/ew_types.h"
#include "kernel_operator.h"

namespace npurt::kernels::ew {

// float -> integer conversion defined everywhere: NaN -> 0, saturating.
// complex -> real takes the real part (numpy's astype); -> bool tests both parts.
template <class TO, class W>
__aicore__ inline TO convert(W v) {
  if constexpr (kIsComplex<W> && !kIsComplex<TO> && !std::is_same<TO, Bool8>::value) {
    return convert<TO>(v.real());
  } else if constexpr (std::is_floating_point<W>::value && std::is_integral<TO>::value) {
    if (v != v) return TO(0);
    if (v <= static_cast<W>(std::numeric_limits<TO>::lowest())) return std::numeric_limits<TO>::lowest();
    if (v >= static_cast<W>(std::numeric_limits<TO>::max())) return std::numeric_limits<TO>::max();
    return static_cast<TO>(v);
  } else if constexpr (std::is_same<TO, Bool8>::value) {
    return Bool8(v != W(0));
  } else if constexpr (std::is_same<TO, bfloat16_t>::value) {
    return bfloat16_t(static_cast<float>(v));
  } else {
    return static_cast<TO>(v);
  }
}

template <class Op, DType D, class TO>
class EwKernel {
 public:
  using T = typename Elem<D>::T;
  static constexpr int N = Op::kArity;
  template <int I> using In = std::conditional_t<Op::kCondFirst && I == 0, Bool8, T>;
  static constexpr bool kVector = (Op::kVec & bit(D)) != 0 && std::is_same<TO, T>::value && !Op::kCondFirst;
  // 16-bit floats of a functor with a float32 vector form that opts in
  // (kWidenVec): its N inputs Cast to float in UB, the float32 form, Cast back (fp32 math).
  static constexpr bool kWideVector = Op::kWidenVec && !Op::kCondFirst && (Op::kVec & bit(DType::kFloat32)) != 0 &&
                                      std::is_same<TO, T>::value &&
                                      (D == DType::kFloat16 || D == DType::kBFloat16);
  // Comparisons (bool out) and where of float16/float32 on the vector unit (CmpTile / WhereTile).
  static constexpr bool kCmpVector = (Op::kCmpVec & bit(D)) != 0 && N <= 2 && std::is_same<TO, Bool8>::value;
  static constexpr bool kWhereVector = Op::kCondFirst && (Op::kWhereVec & bit(D)) != 0 && std::is_same<TO, T>::value;
  static constexpr bool kScalarForm = (kVector || kCmpVector) && N == 2 && Op::kScalarVec;
  // Float scratch tiles of the UB calc buffer: the N widened operands and the widened
  // result, then the functor's own (Op::kScratch, e.g. gelu's erfc); the host
  // reserves them (plan_ew's extra UB).
  static constexpr uint32_t kCalcTiles = (kWideVector ? N + 1u : 0u) + ((kVector || kWideVector) ? Op::kScratch : 0u);

  __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR out, const EwTiling& t) {
    t_ = &t;
    begin_ = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
    count_ = begin_ >= t.total ? 0 : (t.total - begin_ < t.per_core ? t.total - begin_ : t.per_core);
    InitInput<0>(in[0], t.tile);
    if constexpr (N > 1) InitInput<1>(in[1], t.tile);
    if constexpr (N > 2) InitInput<2>(in[2], t.tile);
    if (t.out_row == 0) {
      z_.SetGlobalBuffer(reinterpret_cast<__gm__ TO*>(out) + begin_, count_);
    } else if (t.total > 0) {  // rows of out_row columns, out_pitch apart
      const uint64_t last = t.total - 1, row = static_cast<uint64_t>(t.out_row);
      z_.SetGlobalBuffer(reinterpret_cast<__gm__ TO*>(out) + t.out_offset,
                         last / row * static_cast<uint64_t>(t.out_pitch) + last % row + 1);
    }
    pipe_.InitBuffer(qz_, 2, t.tile * static_cast<uint32_t>(sizeof(TO)));
    if constexpr (kScalarForm) {
      InitScalar(t.scalar & 3u);
      if (kVector && scalar_in_ < 0 && (t.row_scalar == 1u || t.row_scalar == 2u)) row_in_ = t.row_scalar == 1u ? 0 : 1;
      if (row_in_ >= 0 && RepeatsEveryTile(1 - row_in_)) keep_in_ = 1 - row_in_;
    }
    if constexpr (kCalcTiles > 0) pipe_.InitBuffer(wide_, kCalcTiles * t.tile * static_cast<uint32_t>(sizeof(float)));
  }

  __aicore__ inline void Process() {
    const uint32_t tile = t_->tile;
    for (uint64_t off = 0; off < count_; off += tile) {
      uint32_t n = static_cast<uint32_t>(count_ - off < tile ? count_ - off : tile);
      if (scalar_in_ != 0 && row_in_ != 0 && (keep_in_ != 0 || off == 0)) Load<0>(off, n);
      if constexpr (N > 1) if (scalar_in_ != 1 && row_in_ != 1 && (keep_in_ != 1 || off == 0)) Load<1>(off, n);
      if constexpr (N > 2) Load<2>(off, n);
      if (scalar_in_ >= 0) ComputeScalar(n);
      else if (row_in_ >= 0) ComputeRows(begin_ + off, n);
      else Compute(n);
      AscendC::LocalTensor<TO> z = qz_.template DeQue<TO>();
      if (t_->out_row == 0) CopyOut(z_[off], z, n);
      else Scatter(z, begin_ + off, n);
      qz_.FreeTensor(z);
    }
    if (kept_) q_[keep_in_].FreeTensor(held_);
    kept_ = false;
  }

 private:
  template <int I>
  __aicore__ inline void InitInput(GM_ADDR p, uint32_t tile) {
    using U = In<I>;
    const EwTiling& t = *t_;
    p += t.offset[I] * static_cast<int64_t>(sizeof(U));
    if (t.contiguous & (1u << I)) {
      gm<I>().SetGlobalBuffer(reinterpret_cast<__gm__ U*>(p) + begin_, count_);
    } else {
      gm<I>().SetGlobalBuffer(reinterpret_cast<__gm__ U*>(p) + t.base[I], StridedExtent(t.shape, t.strides[I], t.ndim));
    }
    pipe_.InitBuffer(q_[I], 2, tile * static_cast<uint32_t>(sizeof(U)));
  }

  template <int I>
  __aicore__ inline AscendC::GlobalTensor<In<I>>& gm() {
    if constexpr (I == 0) return g0_;
    else if constexpr (I == 1) return g1_;
    else return g2_;
  }

  template <int I>
  __aicore__ inline void Load(uint64_t off, uint32_t n) {
    using U = In<I>;
    AscendC::LocalTensor<U> x = q_[I].template AllocTensor<U>();
    if (t_->contiguous & (1u << I)) CopyIn(x, gm<I>()[off], n);
    else GatherStrided<kEwMaxDims>(x, gm<I>(), t_->shape, t_->strides[I], t_->base[I], static_cast<int>(t_->ndim),
                                        begin_ + off, n);
    q_[I].EnQue(x);
  }

  // Output elements [first, first + n) to rows of out_row columns (t.out_row > 0):
  // one DataCopyPad per row run. DataCopyPad reads UB from 32-byte aligned
  // offsets, so a run starting unaligned at z[j] is first moved down to the
  // aligned z[a] (a <= j) by the scalar unit; that overwrites only elements of
  // runs already copied out, after their copy is done (MTE3 -> S). Scalar GM
  // writes instead would go through the DCache, whose 64 B lines the rows of
  // neighbouring blocks share (ErrorDCacheShare; docs/kernels.md rule 5).
  __aicore__ inline void Scatter(const AscendC::LocalTensor<TO>& z, uint64_t first, uint32_t n) {
    constexpr uint32_t kPerBlock = 32u / static_cast<uint32_t>(sizeof(TO));
    const uint64_t row = static_cast<uint64_t>(t_->out_row);
    uint64_t r = first / row, col = first % row;
    for (uint32_t j = 0; j < n;) {
      const uint32_t run = static_cast<uint32_t>(row - col < n - j ? row - col : n - j);
      const uint64_t dst = r * static_cast<uint64_t>(t_->out_pitch) + col;
      uint32_t src = j;
      if (j % kPerBlock != 0) {
        src = j / kPerBlock * kPerBlock;
        StageHandoff<AscendC::HardEvent::MTE3_S>();
        for (uint32_t k = 0; k < run; ++k) z.SetValue(src + k, z.GetValue(j + k));
        StageHandoff<AscendC::HardEvent::S_MTE3>();
      }
      AscendC::DataCopyExtParams p(1, run * static_cast<uint32_t>(sizeof(TO)), 0, 0, 0);
      AscendC::DataCopyPad(z_[dst], z[src], p);
      j += run;
      col = 0;
      ++r;
    }
  }

  // Input i (the other input of a row-scalar op) has stride 0 on every axis
  // but the innermost and tiles are whole rows: output element k reads its
  // element (k mod row), and every tile of this core starts at the same
  // (begin_ mod row), so all tiles read the same elements (the last tile a
  // prefix of them). The host rounds such tiles to whole rows (ew_ops.cc).
  __aicore__ inline bool RepeatsEveryTile(int i) const {
    const EwTiling& t = *t_;
    if (t.contiguous & (1u << i)) return false;
    for (uint32_t d = 0; d + 1 < t.ndim; ++d)
      if (t.strides[i][d] != 0) return false;
    const uint64_t row = static_cast<uint64_t>(t.shape[t.ndim - 1]);
    return row > 0 && t.tile % row == 0;
  }

  // The other input's tile: dequeued from its queue, or the one loaded by the
  // first tile and kept (keep_in_: never freed before Process ends, so the
  // queue never hands its buffer out again).
  __aicore__ inline AscendC::LocalTensor<T> OtherTile(int other) {
    if (keep_in_ != other) return q_[other].template DeQue<T>();
    if (!kept_) held_ = q_[other].template DeQue<T>(), kept_ = true;
    return held_;
  }

  // bits: the tiling's scalar bits of inputs 0 and 1. Exactly one one-element
  // input takes the tensor-scalar path (two would be a one-element output:
  // the general path is as fast there).
  __aicore__ inline void InitScalar(uint32_t bits) {
    if (count_ == 0 || (bits != 1u && bits != 2u)) return;
    scalar_in_ = bits == 1u ? 0 : 1;
    scalar_ = scalar_in_ == 0 ? g0_.GetValue(0) : g1_.GetValue(0);  // all strides 0: the window is 1 element
  }

  __aicore__ inline void ComputeScalar(uint32_t n) {
    if constexpr (kScalarForm) {
      const int other = 1 - scalar_in_;
      AscendC::LocalTensor<T> x = q_[other].template DeQue<T>();
      AscendC::LocalTensor<TO> z = qz_.template AllocTensor<TO>();
      if constexpr (kCmpVector) CmpTile<true>(z, x, x, scalar_, scalar_in_ == 0, n);
      else Op::VecS(z, x, scalar_, scalar_in_ == 0, static_cast<int32_t>(n));
      qz_.EnQue(z);
      q_[other].FreeTensor(x);
    }
  }

  // Output elements [first, first + n): each row's run is VecS(other input, the
  // row-scalar input's value of that row). Rows are whole 32-B blocks and tiles
  // start aligned (host rule), so every run starts aligned in UB.
  __aicore__ inline void ComputeRows(uint64_t first, uint32_t n) {
    if constexpr (kScalarForm && kVector) {  // comparisons never take the row form (Init)
      const int other = 1 - row_in_;
      AscendC::LocalTensor<T> x = OtherTile(other);
      AscendC::LocalTensor<TO> z = qz_.template AllocTensor<TO>();
      const uint64_t row = static_cast<uint64_t>(t_->shape[t_->ndim - 1]);
      for (uint32_t j = 0; j < n;) {
        const uint64_t k = first + j, col = k % row;
        const uint32_t run = static_cast<uint32_t>(row - col < n - j ? row - col : n - j);
        Op::VecS(z[j], x[j], RowValue(k), row_in_ == 0, static_cast<int32_t>(run));
        j += run;
      }
      qz_.EnQue(z);
      if (keep_in_ != other) q_[other].FreeTensor(x);
    }
  }

  // The row-scalar input's element for output element k (its GM window starts base below the view).
  __aicore__ inline T RowValue(uint64_t k) {
    const int64_t* st = t_->strides[row_in_];
    int64_t off = -t_->base[row_in_];
    for (int d = static_cast<int>(t_->ndim) - 1; d >= 0; --d) {
      const uint64_t dim = static_cast<uint64_t>(t_->shape[d]);
      off += static_cast<int64_t>(k % dim) * st[d];
      k /= dim;
    }
    return row_in_ == 0 ? g0_.GetValue(static_cast<uint64_t>(off)) : g1_.GetValue(static_cast<uint64_t>(off));
  }

  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<In<0>> a = q_[0].template DeQue<In<0>>();
    AscendC::LocalTensor<In<1>> b;
    AscendC::LocalTensor<In<2>> c;
    if constexpr (N > 1) b = q_[1].template DeQue<In<1>>();
    if constexpr (N > 2) c = q_[2].template DeQue<In<2>>();
    AscendC::LocalTensor<TO> z = qz_.template AllocTensor<TO>();
    if constexpr (kWideVector) {  // float tiles: inputs 0..N-1, result N, then the functor's scratch
      AscendC::LocalTensor<float> w = wide_.template Get<float>();
      const uint32_t tile = t_->tile;
      AscendC::Cast(w, a, AscendC::RoundMode::CAST_NONE, n);
      if constexpr (N > 1) AscendC::Cast(w[tile], b, AscendC::RoundMode::CAST_NONE, n);
      if constexpr (N > 2) AscendC::Cast(w[2 * tile], c, AscendC::RoundMode::CAST_NONE, n);
      PadTails(w, w[tile], w[2 * tile], n);
      VecCall(w[N * tile], w, w[tile], w[2 * tile], w[(N + 1) * tile], n);
      AscendC::Cast(z, w[N * tile], AscendC::RoundMode::CAST_RINT, n);
    } else if constexpr (kCmpVector) {
      CmpTile<false>(z, a, b, T{}, false, n);
    } else if constexpr (kWhereVector) {
      WhereTile(z, a, b, c, n);
    } else if constexpr (kVector) {
      AscendC::LocalTensor<float> scratch;
      if constexpr (Op::kScratch > 0) scratch = wide_.template Get<float>();
      if constexpr (std::is_same<T, float>::value) PadTails(a, b, c, n);
      VecCall(z, a, b, c, scratch, n);
    } else {
      // The scalar unit reads what CopyIn's broadcast rows wrote with Duplicate
      // (pipe V): wait for V first, and make later vector writes wait for the reads.
      AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
#ifndef NPURT_ASCEND_DEVICE_BUILD
      // Sim only: each operand's n elements are checked once per tile (the same
      // basic/full-level checks n GetValue/SetValue make: range, buffer state,
      // UB position, written bytes, pipe S), then read and written through host
      // pointers, so the loop costs the function alone.
      const In<0>* pa = ScalarOperand(a, n, npurt::sim::Access::kRead);
      const In<1>* pb = nullptr;
      const In<2>* pc = nullptr;
      if constexpr (N > 1) pb = ScalarOperand(b, n, npurt::sim::Access::kRead);
      if constexpr (N > 2) pc = ScalarOperand(c, n, npurt::sim::Access::kRead);
      TO* pz = ScalarOperand(z, n, npurt::sim::Access::kWrite);
      for (uint32_t j = 0; j < n; ++j) {
        // GCC 12 ICEs vectorising some bfloat16 loops (signbit): an empty asm keeps those scalar.
        if constexpr (std::is_same<T, bfloat16_t>::value) __asm__ __volatile__("");
        if constexpr (N == 1) pz[j] = ScalarOne(pa[j], In<1>{}, In<2>{});
        else if constexpr (N == 2) pz[j] = ScalarOne(pa[j], pb[j], In<2>{});
        else pz[j] = ScalarOne(pa[j], pb[j], pc[j]);
      }
#else
      for (uint32_t j = 0; j < n; ++j)
        z.SetValue(j, ScalarOne(a.GetValue(j), N > 1 ? b.GetValue(j) : In<1>{}, N > 2 ? c.GetValue(j) : In<2>{}));
#endif
      AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    }
    qz_.EnQue(z);
    q_[0].FreeTensor(a);
    if constexpr (N > 1) q_[1].FreeTensor(b);
    if constexpr (N > 2) q_[2].FreeTensor(c);
  }

  // One element of the scalar form (the inputs past the arity are ignored).
  __aicore__ static inline TO ScalarOne(In<0> x, In<1> y, In<2> w) {
    if constexpr (N == 1) return convert<TO>(Op::F(Wide<T>(x)));
    else if constexpr (N == 2) return convert<TO>(Op::F(Wide<T>(x), Wide<T>(y)));
    else if constexpr (Op::kCondFirst) return convert<TO>(Op::F(bool(x), Wide<T>(y), Wide<T>(w)));
    else return convert<TO>(Op::F(Wide<T>(x), Wide<T>(y), Wide<T>(w)));
  }

#ifndef NPURT_ASCEND_DEVICE_BUILD
  // Sim only: the first n elements of t checked for a scalar-unit access, as a host pointer.
  template <class U>
  static inline U* ScalarOperand(const AscendC::LocalTensor<U>& t, uint32_t n, npurt::sim::Access acc) {
    return npurt::sim::local_operand(
        t, n, npurt::sim::AccessSpec{"EwKernel scalar loop", acc, npurt::sim::Pipe::S, 1, npurt::sim::kUbOnly});
  }
#endif

  // z = (a MODE b) as bool 0/1 (unary predicates: Op::Mask of a), b a tile or (kScalarB) the scalar s, s first when
  // swapped. Compare needs count * sizeof(T) a multiple of 256 bytes: the vector
  // unit takes that prefix, the scalar unit the rest. UB reuse (no scratch):
  // the mask goes to z's first bytes, the 1/0 halves to a's buffer (a is no
  // longer needed; 2 bytes <= sizeof(T) per element), Select in place, then
  // Cast half -> uint8 overwrites z (mask consumed). Bool8 is one uint8 0/1.
  template <bool kScalarB>
  __aicore__ inline void CmpTile(const AscendC::LocalTensor<TO>& z, const AscendC::LocalTensor<T>& a,
                                 const AscendC::LocalTensor<T>& b, T s, bool swapped, uint32_t n) {
    if constexpr (kCmpVector) {
      constexpr uint32_t kAlign = 256 / sizeof(T);
      const uint32_t nv = n / kAlign * kAlign;
      if (nv > 0) {
        AscendC::LocalTensor<uint8_t> mask = z.template ReinterpretCast<uint8_t>();
        if constexpr (N == 1) Op::Mask(mask, a, nv);  // isnan / isinf / isfinite
        else if constexpr (kScalarB) AscendC::CompareScalar(mask, a, s, swapped ? Swapped(Op::kCmpMode) : Op::kCmpMode, nv);
        else AscendC::Compare(mask, a, b, Op::kCmpMode, nv);
        AscendC::LocalTensor<half> ones = a.template ReinterpretCast<half>();
        AscendC::Duplicate(ones, static_cast<half>(1.0f), static_cast<int32_t>(nv));
        AscendC::Select(ones, mask, ones, static_cast<half>(0.0f), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, nv);
        AscendC::Cast(mask, ones, AscendC::RoundMode::CAST_NONE, nv);
      }
      if (nv == n) return;
      AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);  // the tail's scalar reads/writes follow V
      AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      for (uint32_t j = nv; j < n; ++j) {
        const auto x = Wide<T>(a.GetValue(j));
        if constexpr (N == 1) {
          z.SetValue(j, Bool8(Op::F(x)));
        } else {
          const auto y = kScalarB ? Wide<T>(s) : Wide<T>(b.GetValue(j));
          z.SetValue(j, Bool8(swapped ? Op::F(y, x) : Op::F(x, y)));
        }
      }
      AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    }
  }

  // s MODE x == x Swapped(MODE) s.
  static __aicore__ inline AscendC::CMPMODE Swapped(AscendC::CMPMODE m) {
    switch (m) {
      case AscendC::CMPMODE::LT: return AscendC::CMPMODE::GT;
      case AscendC::CMPMODE::GT: return AscendC::CMPMODE::LT;
      case AscendC::CMPMODE::LE: return AscendC::CMPMODE::GE;
      case AscendC::CMPMODE::GE: return AscendC::CMPMODE::LE;
      default: return m;
    }
  }

  // z = c ? x : y: the bool tile Cast to halves (in z's buffer: 2 bytes <=
  // sizeof(T) per element), CompareScalar != 0 -> mask (in c's buffer, c is
  // consumed), Select tensor-tensor into z. Prefix of 128 elements (the half
  // Compare's 256-byte rule) on the vector unit, the rest scalar.
  template <class C>
  __aicore__ inline void WhereTile(const AscendC::LocalTensor<TO>& z, const AscendC::LocalTensor<C>& c,
                                   const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<T>& y, uint32_t n) {
    if constexpr (kWhereVector) {
      const uint32_t nv = n / 128 * 128;
      if (nv > 0) {
        AscendC::LocalTensor<uint8_t> cb = c.template ReinterpretCast<uint8_t>();
        AscendC::LocalTensor<half> ch = z.template ReinterpretCast<half>();
        AscendC::Cast(ch, cb, AscendC::RoundMode::CAST_NONE, nv);
        AscendC::CompareScalar(cb, ch, static_cast<half>(0.0f), AscendC::CMPMODE::NE, nv);
        AscendC::Select(z, cb, x, y, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, nv);
      }
      if (nv == n) return;
      AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      for (uint32_t j = nv; j < n; ++j) z.SetValue(j, bool(c.GetValue(j)) ? x.GetValue(j) : y.GetValue(j));
      AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    }
  }

  // A kWholeRepeats functor computes over n rounded up to 64 lanes (whole 256-B
  // repeats: CompareScalar, Abs, Adds; ew_trans_vec.h), so the float operands'
  // lanes [n, n64) of a partial tile, which CopyIn / Cast never wrote, get
  // TailPad<Op> first: the vector unit then reads only written UB (an NPU would
  // read stale bytes; the sim's full check flags that as ErrorRead2) and the
  // discarded lanes stay in the functor's domain. Scalar writes, at most 63
  // per operand and only on a core's last tile (whole tiles are multiples of
  // 64 for these functors, ew_ops.cc), between V -> S and S -> V flags (the
  // lanes share 32-B blocks with what MTE2 / Cast wrote and Vec reads).
  __aicore__ inline void PadTails(const AscendC::LocalTensor<float>& a, const AscendC::LocalTensor<float>& b,
                                  const AscendC::LocalTensor<float>& c, uint32_t n) {
    if constexpr (Op::kWholeRepeats) {
      const uint32_t n64 = (n + 63u) / 64u * 64u;
      if (n == n64) return;
      AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
      constexpr float kPad = TailPad<Op>::value;
      for (uint32_t j = n; j < n64; ++j) {
        a.SetValue(j, kPad);
        if constexpr (N > 1) b.SetValue(j, kPad);
        if constexpr (N > 2) c.SetValue(j, kPad);
      }
      AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    }
  }

  // Op::Vec with the operands of its arity, plus its float scratch tiles when it
  // has some; kWholeRepeats functors get the whole repeats (n64 lanes, PadTails filled
  // the inputs' tail), so every step writes the lanes a later whole-repeat step
  // reads (z's lanes >= n are never copied out).
  template <class U>
  __aicore__ inline void VecCall(const AscendC::LocalTensor<U>& z, const AscendC::LocalTensor<U>& a,
                                 const AscendC::LocalTensor<U>& b, const AscendC::LocalTensor<U>& c,
                                 const AscendC::LocalTensor<float>& s, uint32_t n) {
    const int32_t k = static_cast<int32_t>(Op::kWholeRepeats ? (n + 63u) / 64u * 64u : n);
    if constexpr (N == 1 && Op::kScratch > 0) Op::Vec(z, a, s, t_->tile, k);
    else if constexpr (N == 1) Op::Vec(z, a, k);
    else if constexpr (N == 2 && Op::kScratch > 0) Op::Vec(z, a, b, s, t_->tile, k);
    else if constexpr (N == 2) Op::Vec(z, a, b, k);
    else if constexpr (Op::kScratch > 0) Op::Vec(z, a, b, c, s, t_->tile, k);
    else Op::Vec(z, a, b, c, k);
  }

  const EwTiling* t_ = nullptr;
  uint64_t begin_ = 0, count_ = 0;
  int scalar_in_ = -1;  // the input read once as a scalar (kScalarForm), or -1
  int row_in_ = -1;     // the input read once per output row (kScalarForm, tiling row_scalar), or -1
  int keep_in_ = -1;    // the other input loaded once per core (RepeatsEveryTile), or -1
  bool kept_ = false;   // held_ holds keep_in_'s tile
  T scalar_{};
  AscendC::LocalTensor<T> held_;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q_[N];
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qz_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> wide_;  // kCalcTiles float tiles
  AscendC::GlobalTensor<In<0>> g0_;
  AscendC::GlobalTensor<In<1>> g1_;
  AscendC::GlobalTensor<In<2>> g2_;
  AscendC::GlobalTensor<TO> z_;
};

// Runs EwKernel<Op, D, ...> for the tiling's dtype D (the body of every entry;
// kernels made of several passes call it once per pass with their own tiling).
template <class Op>
__aicore__ inline void RunEwWith(GM_ADDR const* in, GM_ADDR out, const EwTiling& t) {
  visit_dtype<Op::kDTypes>(t.dtype, [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    using TO = typename EwOut<Op, D>::type;  // bool for predicates, real for complex abs/real/imag
    EwKernel<Op, D, TO> k;
    k.Init(in, out, t);
    k.Process();
  });
}

template <class Op>
__aicore__ inline void RunEw(GM_ADDR const* in, GM_ADDR out, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(EwTiling, t, tiling);
  RunEwWith<Op>(in, out, t);
}

}  // namespace npurt::kernels::ew

// Entry points: extern "C" kernels of arity 1 / 2 / 3 (inputs, z, workspace, tiling).
#define NPURT_EW_ENTRY1(kernel, Op)                                                                \
  extern "C" __global__ __aicore__ void kernel(GM_ADDR a, GM_ADDR z, GM_ADDR ws, GM_ADDR tiling) { \
    (void)ws;                                                                                        \
    GM_ADDR in[1] = {a};                                                                             \
    npurt::kernels::ew::RunEw<Op>(in, z, tiling);                                                    \
  }
#define NPURT_EW_ENTRY2(kernel, Op)                                                                       \
  extern "C" __global__ __aicore__ void kernel(GM_ADDR a, GM_ADDR b, GM_ADDR z, GM_ADDR ws, GM_ADDR tiling) { \
    (void)ws;                                                                                               \
    GM_ADDR in[2] = {a, b};                                                                                 \
    npurt::kernels::ew::RunEw<Op>(in, z, tiling);                                                           \
  }
#define NPURT_EW_ENTRY3(kernel, Op)                                                                \
  extern "C" __global__ __aicore__ void kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z, GM_ADDR ws, \
                                               GM_ADDR tiling) {                                     \
    (void)ws;                                                                                        \
    GM_ADDR in[3] = {a, b, c};                                                                       \
    npurt::kernels::ew::RunEw<Op>(in, z, tiling);                                                    \
  }
