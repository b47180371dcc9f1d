// kernels/reduction/reduce_wide.h: the reduction kernel for the dtypes the
// Ascend vector unit does not have: float64 (sum, prod, max, min, mean),
// complex64/complex128 (sum, prod, mean) and int64/uint64 (sum, prod, max,
// min; sums and products wrap like numpy's int64/uint64). Device code, included by
// reduce_kernel.cc whose entry dispatches here; same tiling and both modes of
// reduce_tiling.h, computed on the AI core's scalar unit (sim-only dtypes).
//
// Accuracy: kInner rows accumulate into `span` lanes (lane i takes elements
// i, i + tile, ...), then fold the lanes pairwise, so rounding grows like
// numpy's pairwise summation rather than a serial sum's; products are serial. Complex products use
// numpy's multiply formula; mean divides by len in the element's precision
// (complex: numpy's complex division; 0 / 0 = NaN for an empty axis, as numpy). NaN propagates through max/min.
//
// Invariants: Acc == In (float64 accumulates in double, complex64 in float,
// as numpy's loops); tile and span are powers of two; every UB byte read by
// the scalar unit was written before (the acc lanes are set to the identity).
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/kernel_util.h"
#include "elementwise/ew_complex_math.h"
#include "kernel_operator.h"
#include "reduction/reduce_tiling.h"

namespace npurt::kernels {

template <class T>
class ReduceWide {
 public:
  static constexpr bool kComplex = !std::is_arithmetic<T>::value;
  static constexpr bool kInt = std::is_integral<T>::value;

  __aicore__ ReduceWide(GM_ADDR x, GM_ADDR y, const ReduceTiling& t) : t_(t), kind_(static_cast<ReduceKind>(t.kind)) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.outer * t.len * t.inner);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.outer * t.parts * t.inner);
    pipe_.InitBuffer(qin_, 2, t.tile * sizeof(T));
    pipe_.InitBuffer(acc_, t.tile * sizeof(T));
    pipe_.InitBuffer(qout_, 1, (t.tile > kReduceOutBatch ? t.tile : kReduceOutBatch) * sizeof(T));
  }

  __aicore__ void Run() {
    uint64_t begin, end;
    ReduceBlockUnits(t_, static_cast<uint64_t>(AscendC::GetBlockIdx()), begin, end);
    if (begin >= t_.units) return;
    if (static_cast<ReduceMode>(t_.mode) == ReduceMode::kInner) RunRows(begin, end);
    else RunColumns(begin, end);
  }

 private:
  __aicore__ T Identity() const {
    if (kind_ == ReduceKind::kProd) return T(1);
    if constexpr (kInt) {
      if (kind_ == ReduceKind::kMax) return std::numeric_limits<T>::lowest();
      if (kind_ == ReduceKind::kMin) return std::numeric_limits<T>::max();
    } else if constexpr (!kComplex) {
      if (kind_ == ReduceKind::kMax) return -std::numeric_limits<T>::infinity();
      if (kind_ == ReduceKind::kMin) return std::numeric_limits<T>::infinity();
    }
    return T(0);
  }

  __aicore__ T Combine(T a, T b) const {
    if (kind_ == ReduceKind::kProd) {
      if constexpr (kComplex) return ew::cx::mul(a, b);
      else if constexpr (kInt) return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));  // wraps
      else return a * b;
    }
    if constexpr (!kComplex) {
      if (kind_ == ReduceKind::kMax || kind_ == ReduceKind::kMin) {
        if (a != a) return a;
        if (b != b) return b;
        return kind_ == ReduceKind::kMax ? (a >= b ? a : b) : (a <= b ? a : b);
      }
    }
    if constexpr (kInt) return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));  // wraps
    else return a + b;
  }

  __aicore__ T Finish(T v) const {
    if (kind_ != ReduceKind::kMean) return v;
    if constexpr (kInt) {
      return v;  // not reached: integer means are taken of float inputs (the Python layer converts)
    } else {
      using R = typename std::conditional_t<kComplex, T, std::complex<T>>::value_type;
      const R n = static_cast<R>(t_.count);
      // numpy divides the complex sum by the count as a complex division (Smith's), so a NaN
      // in one part reaches the other: (inf + nan i) / 3 is nan + nan i there too.
      if constexpr (kComplex) return ew::cx::div(v, T(n, R(0)));
      else return v / n;
    }
  }

  // acc[i] = Combine(acc[i], x[at + i]) for i < n (one chunk through the input queue);
  // serial: acc[0] = Combine(acc[0], x[at + i]) in order instead.
  __aicore__ void Fold(const AscendC::LocalTensor<T>& acc, uint64_t at, uint32_t n, bool serial = false) {
    AscendC::LocalTensor<T> in = qin_.template AllocTensor<T>();
    CopyIn(in, x_[at], n);
    qin_.EnQue(in);
    in = qin_.template DeQue<T>();
    if (serial) {
      T v = acc.GetValue(0);
      for (uint32_t i = 0; i < n; ++i) v = Combine(v, in.GetValue(i));
      acc.SetValue(0, v);
    } else {
      for (uint32_t i = 0; i < n; ++i) acc.SetValue(i, Combine(acc.GetValue(i), in.GetValue(i)));
    }
    qin_.FreeTensor(in);
  }

  __aicore__ void Reset(const AscendC::LocalTensor<T>& acc, uint32_t n) const {
    const T id = Identity();
    for (uint32_t i = 0; i < n; ++i) acc.SetValue(i, id);
  }

  __aicore__ void Write(const AscendC::LocalTensor<T>& out, uint64_t first, uint32_t n) {
    qout_.EnQue(out);
    AscendC::LocalTensor<T> ready = qout_.template DeQue<T>();
    CopyOut(y_[first], ready, n);
    qout_.FreeTensor(ready);
  }

  // Range [lo, hi) of the reduced extent that unit part `p` covers.
  __aicore__ void PartRange(uint64_t p, uint64_t& lo, uint64_t& hi) const {
    lo = p * t_.part_len;
    hi = lo + t_.part_len < t_.len ? lo + t_.part_len : t_.len;
  }

  // kInner: units [begin, end), unit u = range u % parts of row u / parts; result u to y[u].
  __aicore__ void RunRows(uint64_t begin, uint64_t end) {
    AscendC::LocalTensor<T> acc = acc_.template Get<T>();
    AscendC::LocalTensor<T> out = qout_.template AllocTensor<T>();
    uint32_t pending = 0;
    uint64_t first = begin;
    for (uint64_t row = begin; row < end; ++row) {
      uint64_t lo, hi;
      PartRange(row % t_.parts, lo, hi);
      const uint64_t base = row / t_.parts * t_.len;
      // Products run in order, like numpy's multiply.reduce: with overflow the
      // order decides between inf and NaN parts, and identity lanes (1 + 0i)
      // would turn an infinite part into NaN.
      const bool serial = kind_ == ReduceKind::kProd;
      Reset(acc, serial ? 1 : t_.span);
      for (uint64_t off = lo; off < hi; off += t_.tile)
        Fold(acc, base + off, static_cast<uint32_t>(hi - off < t_.tile ? hi - off : t_.tile), serial);
      for (uint32_t lanes = serial ? 1 : t_.span; lanes > 1; lanes /= 2)
        for (uint32_t i = 0; i < lanes / 2; ++i) acc.SetValue(i, Combine(acc.GetValue(i), acc.GetValue(i + lanes / 2)));
      out.SetValue(pending++, Finish(acc.GetValue(0)));
      if (pending == kReduceOutBatch || row + 1 == end) {
        Write(out, first, pending);
        first += pending;
        pending = 0;
        if (row + 1 != end) out = qout_.template AllocTensor<T>();
      }
    }
  }

  // kOuter: units of (outer index, part, run of <= tile inner elements), strided over len.
  __aicore__ void RunColumns(uint64_t begin, uint64_t end) {
    const uint64_t runs = (t_.inner + t_.tile - 1) / t_.tile;
    AscendC::LocalTensor<T> acc = acc_.template Get<T>();
    for (uint64_t u = begin; u < end; ++u) {
      const uint64_t op = u / runs, o = op / t_.parts, i0 = (u % runs) * t_.tile;
      uint64_t lo, hi;
      PartRange(op % t_.parts, lo, hi);
      const uint32_t n = static_cast<uint32_t>(t_.inner - i0 < t_.tile ? t_.inner - i0 : t_.tile);
      Reset(acc, n);
      for (uint64_t r = lo; r < hi; ++r) Fold(acc, (o * t_.len + r) * t_.inner + i0, n);
      AscendC::LocalTensor<T> out = qout_.template AllocTensor<T>();
      for (uint32_t i = 0; i < n; ++i) out.SetValue(i, Finish(acc.GetValue(i)));
      Write(out, op * t_.inner + i0, n);
    }
  }

  const ReduceTiling& t_;
  ReduceKind kind_;
  AscendC::GlobalTensor<T> x_;
  AscendC::GlobalTensor<T> y_;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qin_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qout_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> acc_;
};

template <class T>
__aicore__ void LaunchWide(GM_ADDR x, GM_ADDR y, const ReduceTiling& t) {
  ReduceWide<T> run(x, y, t);
  run.Run();
}

}  // namespace npurt::kernels
