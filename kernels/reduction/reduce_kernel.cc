// kernels/reduction/reduce_kernel.cc: the one reduction kernel template (device code).
//
// ReduceRun<In, Acc, Out> serves every kind (sum/prod/max/min/mean/any/all)
// and both modes of reduce_tiling.h; the kind is a run-time switch choosing the
// vector op (Add/Mul/Max/Min) and the identity. Inputs are converted to the
// accumulation type in UB (Cast), so float16 accumulates in float32.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"
#include "reduction/reduce_tiling.h"
#include "reduction/reduce_wide.h"

namespace npurt::kernels {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;

template <class Acc>
__aicore__ inline Acc Identity(ReduceKind k) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (k) {
    case ReduceKind::kProd: case ReduceKind::kAll: return Acc(1);
    case ReduceKind::kMax:
      if constexpr (std::is_integral<Acc>::value) return std::numeric_limits<Acc>::min();
      else return Acc(-kInf);
    case ReduceKind::kMin:
      if constexpr (std::is_integral<Acc>::value) return std::numeric_limits<Acc>::max();
      else return Acc(kInf);
    default: return Acc(0);
  }
}

__aicore__ inline bool IsMaxLike(ReduceKind k) { return k == ReduceKind::kMax || k == ReduceKind::kAny; }
__aicore__ inline bool IsMinLike(ReduceKind k) { return k == ReduceKind::kMin || k == ReduceKind::kAll; }

// dst = op(a, b) over n lanes (dst may be a).
template <class Acc>
__aicore__ inline void Combine(ReduceKind k, const LocalTensor<Acc>& dst, const LocalTensor<Acc>& a,
                               const LocalTensor<Acc>& b, int32_t n) {
  if (k == ReduceKind::kProd) AscendC::Mul(dst, a, b, n);
  else if (IsMaxLike(k)) AscendC::Max(dst, a, b, n);
  else if (IsMinLike(k)) AscendC::Min(dst, a, b, n);
  else AscendC::Add(dst, a, b, n);
}

template <class Acc>
__aicore__ inline Acc CombineScalar(ReduceKind k, Acc a, Acc b) {
  const float fa = static_cast<float>(a), fb = static_cast<float>(b);
  if (k == ReduceKind::kProd) return Acc(a * b);
  if (IsMaxLike(k) || IsMinLike(k)) {
    if (fa != fa) return a;  // NaN propagates, as in the vector Max/Min
    if (fb != fb) return b;
    return IsMaxLike(k) ? (fa >= fb ? a : b) : (fa <= fb ? a : b);
  }
  return Acc(a + b);
}

template <class In, class Acc, class Out>
class ReduceRun {
 public:
  static constexpr bool kFloatAcc = std::is_same<Acc, float>::value;
  static constexpr uint32_t kBlk = 32 / sizeof(Acc);

  __aicore__ ReduceRun(GM_ADDR x, GM_ADDR y, const ReduceTiling& t) : t_(t), kind_(static_cast<ReduceKind>(t.kind)) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(x), t.outer * t.len * t.inner);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(y), t.outer * t.parts * t.inner);
    pipe_.InitBuffer(qin_, 2, t.tile * sizeof(In));
    const bool rows = t.mode == static_cast<uint32_t>(ReduceMode::kInner);
    // The UB layout reduce_op.cc budgets: conv_ holds a converted chunk only
    // when In != Acc (else just Finish's ReduceX result); the accumulators
    // have span lanes (rows may load tile = 2 * span per chunk); rows batch
    // kReduceOutBatch results in out_, columns a run of tile.
    pipe_.InitBuffer(conv_, (std::is_same<In, Acc>::value ? kBlk : t.tile) * sizeof(Acc));
    pipe_.InitBuffer(acc_, t.span * sizeof(Acc));
    pipe_.InitBuffer(total_, (rows ? t.span : kBlk) * sizeof(Acc));
    pipe_.InitBuffer(work_, WorkElems() * sizeof(Acc) + 32);
    pipe_.InitBuffer(out_, (!rows && t.tile > kReduceOutBatch ? t.tile : kReduceOutBatch) * sizeof(Out));
  }

  __aicore__ void Run() {
    uint64_t begin, end;
    ReduceBlockUnits(t_, static_cast<uint64_t>(AscendC::GetBlockIdx()), begin, end);
    if (begin >= t_.units) return;
    if (static_cast<ReduceMode>(t_.mode) == ReduceMode::kInner) RunRows(begin, end);
    else RunColumns(begin, end);
  }

 private:
  __aicore__ uint32_t WorkElems() const {
    const uint32_t rep = 256 / sizeof(Acc);
    uint32_t r1 = (t_.tile + rep - 1) / rep * 2;
    return (r1 + kBlk - 1) / kBlk * kBlk;
  }

  // Copies n inputs at GM element `at` into held (a qin_ tensor the caller frees).
  __aicore__ void LoadIn(uint64_t at, uint32_t n, LocalTensor<In>& held) {
    held = qin_.template AllocTensor<In>();
    CopyIn(held, x_[at], n);
    qin_.EnQue(held);
    held = qin_.template DeQue<In>();
  }

  // Loads n inputs at GM element `at` and returns them as Acc lanes.
  __aicore__ LocalTensor<Acc> Load(uint64_t at, uint32_t n, LocalTensor<In>& held) {
    LoadIn(at, n, held);
    if constexpr (std::is_same<In, Acc>::value) {
      return held;
    } else {
      LocalTensor<Acc> c = conv_.template Get<Acc>();
      AscendC::Cast(c, held, AscendC::RoundMode::CAST_NONE, n);
      return c;
    }
  }

  // acc = op(acc, x[at + r * stride .. + n]) for r in [0, rows).
  __aicore__ void Accumulate(const LocalTensor<Acc>& acc, uint64_t at, uint64_t rows, uint64_t stride,
                             uint32_t n) {
    for (uint64_t r = 0; r < rows; ++r) FoldLoaded(acc, at + r * stride, n, n);
  }

  // Loads n inputs at GM element `at` once and folds them into acc[0, step)
  // `step` lanes at a time, in order: acc = op(acc, x[at + k .. + step]) for
  // k = 0, step, ... (the last piece may be shorter). Rows load 2 * span per
  // chunk and fold span at a time: the same lane order as span-sized chunks,
  // with half the per-chunk queue and DataCopy work.
  __aicore__ void FoldLoaded(const LocalTensor<Acc>& acc, uint64_t at, uint32_t n, uint32_t step) {
    LocalTensor<In> held;
    if (WidenedSum()) {
      LoadIn(at, n, held);
      for (uint32_t k = 0; k < n; k += step) AxpyOne(acc, held[k], n - k < step ? n - k : step);
    } else {
      LocalTensor<Acc> v = Load(at, n, held);
      for (uint32_t k = 0; k < n; k += step)
        Combine(kind_, acc, acc, v[k], static_cast<int32_t>(n - k < step ? n - k : step));
    }
    qin_.FreeTensor(held);
  }

  // float16 sums (and means) into float32 lanes: acc += x * 1 (Axpy with a
  // float16 source) is Cast + Add in one pass, bit for bit (x * 1 is exact,
  // then one float32 rounding), without writing and re-reading the converted tile.
  __aicore__ bool WidenedSum() const {
    return std::is_same<In, half>::value && std::is_same<Acc, float>::value &&
           (kind_ == ReduceKind::kSum || kind_ == ReduceKind::kMean);
  }

  __aicore__ void AxpyOne(const LocalTensor<Acc>& acc, const LocalTensor<In>& x, uint32_t n) {
    if constexpr (std::is_same<In, half>::value && std::is_same<Acc, float>::value)
      AscendC::Axpy(acc, x, static_cast<half>(1.0f), static_cast<int32_t>(n));
  }

  // Reduces acc[0, span) to one value (read by the scalar unit). Sums first
  // fold the lanes in halves down to one 256-byte repeat (pairwise: log2
  // levels, not ReduceSum's sequential chain across repeats), then take that
  // repeat's tree sum; max/min are exact in any order (ReduceMax/ReduceMin).
  __aicore__ Acc Finish(const LocalTensor<Acc>& acc, uint32_t span) {
    LocalTensor<Acc> res = acc;
    uint32_t lanes = span;
    if constexpr (kFloatAcc) {
      if (kind_ != ReduceKind::kProd) {
        const bool sum = kind_ == ReduceKind::kSum || kind_ == ReduceKind::kMean;
        constexpr uint32_t kRepeat = 256 / sizeof(Acc);
        if (sum)
          for (; lanes > kRepeat; lanes /= 2) AscendC::Add(acc, acc, acc[lanes / 2], static_cast<int32_t>(lanes / 2));
        LocalTensor<Acc> work = work_.template Get<Acc>();
        res = conv_.template Get<Acc>();
        if (sum)
          AscendC::ReduceSum(res, acc, work, static_cast<int32_t>(lanes));
        else if (IsMaxLike(kind_))
          AscendC::ReduceMax(res, acc, work, static_cast<int32_t>(lanes));
        else
          AscendC::ReduceMin(res, acc, work, static_cast<int32_t>(lanes));
        lanes = 1;
      }
    }
    for (; lanes > kBlk; lanes /= 2)  // halving folds keep every operand 32-byte aligned
      Combine(kind_, res, res, res[lanes / 2], static_cast<int32_t>(lanes / 2));
    AscendC::SetFlag<HardEvent::V_S>(EVENT_ID0);
    AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID0);
    Acc v = res.GetValue(0);
    for (uint32_t i = 1; i < lanes; ++i) v = CombineScalar(kind_, v, res.GetValue(i));
    AscendC::SetFlag<HardEvent::S_V>(EVENT_ID0);  // reads finish before the next row overwrites
    AscendC::WaitFlag<HardEvent::S_V>(EVENT_ID0);
    if (kind_ == ReduceKind::kMean) v = Acc(static_cast<float>(v) * t_.scale);
    return v;
  }

  __aicore__ void Flush(const LocalTensor<Out>& out, uint64_t first, uint32_t n) {
    AscendC::SetFlag<HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<HardEvent::S_MTE3>(EVENT_ID1);
    CopyOut(y_[first], out, n);
    AscendC::SetFlag<HardEvent::MTE3_S>(EVENT_ID1);
    AscendC::WaitFlag<HardEvent::MTE3_S>(EVENT_ID1);
  }

  // Range [lo, hi) of the reduced extent that unit part `p` covers.
  __aicore__ void PartRange(uint64_t p, uint64_t& lo, uint64_t& hi) const {
    lo = p * t_.part_len;
    hi = lo + t_.part_len < t_.len ? lo + t_.part_len : t_.len;
  }

  // Folds x[base + lo, base + hi) into `span` lanes and returns the tensor
  // holding them. Ranges of more than kReduceBlockChunks span-lane folds
  // accumulate in blocks of that many folds, each block's lanes then added to
  // a running total: lane chains of min(c, B) + ceil(c / B) roundings instead
  // of c (c = ceil((hi - lo) / span) folds, B = kReduceBlockChunks), so small
  // UB tiles keep long sums accurate. tile / span (1 or 2) divides B, so the
  // blocks end on chunk boundaries. The first block's lanes become the total
  // as they are (the two buffers trade places) rather than being combined into
  // an identity-filled total: op(identity, a) == a bit for bit (an Add lane
  // starting at +0 is never -0), and a range saves a fill and a combine.
  __aicore__ LocalTensor<Acc> FoldRange(uint64_t base, uint64_t lo, uint64_t hi) {
    LocalTensor<Acc> acc = acc_.template Get<Acc>();
    LocalTensor<Acc> total = total_.template Get<Acc>();
    const int32_t span = static_cast<int32_t>(t_.span);
    const bool blocked = hi - lo > uint64_t{kReduceBlockChunks} * t_.span;
    AscendC::Duplicate(acc, Identity<Acc>(kind_), span);
    uint32_t in_block = 0;
    bool first_block = true;
    for (uint64_t off = lo; off < hi; off += t_.tile) {
      uint32_t n = static_cast<uint32_t>(hi - off < t_.tile ? hi - off : t_.tile);
      FoldLoaded(acc, base + off, n, t_.span);
      const bool last = hi - off <= t_.tile;
      in_block += (n + t_.span - 1) / t_.span;
      if (blocked && (in_block >= kReduceBlockChunks || last)) {
        if (first_block) {
          const LocalTensor<Acc> first = acc;
          acc = total;
          total = first;
          first_block = false;
        } else {
          Combine(kind_, total, total, acc, span);
        }
        if (!last) AscendC::Duplicate(acc, Identity<Acc>(kind_), span);
        in_block = 0;
      }
    }
    return blocked ? total : acc;
  }

  // kInner: units [begin, end), unit u = range u % parts of row u / parts
  // (contiguous elements); result u goes to y[u].
  __aicore__ void RunRows(uint64_t begin, uint64_t end) {
    LocalTensor<Out> out = out_.template Get<Out>();
    uint32_t pending = 0;
    uint64_t first = begin;
    for (uint64_t u = begin; u < end; ++u) {
      uint64_t lo, hi;
      PartRange(u % t_.parts, lo, hi);
      const uint64_t base = u / t_.parts * t_.len;
      if (std::is_same<In, Acc>::value && hi - lo == t_.span && t_.span == t_.tile) {
        // A range of exactly one full chunk (e.g. rows of 1024): Finish folds
        // the loaded chunk in place; no accumulator fill and no Add.
        LocalTensor<In> held;
        LocalTensor<Acc> v = Load(base + lo, t_.tile, held);
        out.SetValue(pending++, static_cast<Out>(Finish(v, t_.span)));
        qin_.FreeTensor(held);
      } else {
        out.SetValue(pending++, static_cast<Out>(Finish(FoldRange(base, lo, hi), t_.span)));
      }
      if (pending == kReduceOutBatch || u + 1 == end) {
        Flush(out, first, pending);
        first += pending;
        pending = 0;
      }
    }
  }

  // kOuter: units of (outer index, part, run of <= tile inner elements);
  // the run's result goes to y[(outer * parts + part) * inner + run start].
  __aicore__ void RunColumns(uint64_t begin, uint64_t end) {
    const uint64_t runs = (t_.inner + t_.tile - 1) / t_.tile;
    LocalTensor<Acc> acc = acc_.template Get<Acc>();
    for (uint64_t u = begin; u < end; ++u) {
      const uint64_t op = u / runs, o = op / t_.parts, i0 = (u % runs) * t_.tile;
      uint64_t lo, hi;
      PartRange(op % t_.parts, lo, hi);
      const uint32_t n = static_cast<uint32_t>(t_.inner - i0 < t_.tile ? t_.inner - i0 : t_.tile);
      AscendC::Duplicate(acc, Identity<Acc>(kind_), static_cast<int32_t>(n));
      Accumulate(acc, (o * t_.len + lo) * t_.inner + i0, hi - lo, t_.inner, n);
      if (kind_ == ReduceKind::kMean) AscendC::Muls(acc, acc, static_cast<Acc>(t_.scale), static_cast<int32_t>(n));
      LocalTensor<Out> out = out_.template Get<Out>();
      if constexpr (std::is_same<Acc, Out>::value) {
        out = acc;
      } else {
        AscendC::Cast(out, acc, AscendC::RoundMode::CAST_RINT, n);
      }
      AscendC::SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
      AscendC::WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
      CopyOut(y_[op * t_.inner + i0], out, n);
      AscendC::SetFlag<HardEvent::MTE3_V>(EVENT_ID2);  // the next unit overwrites acc/out
      AscendC::WaitFlag<HardEvent::MTE3_V>(EVENT_ID2);
    }
  }

  const ReduceTiling& t_;
  ReduceKind kind_;
  AscendC::GlobalTensor<In> x_;
  AscendC::GlobalTensor<Out> y_;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qin_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> conv_, acc_, total_, work_, out_;
};

template <class In, class Acc, class Out>
__aicore__ void Launch(GM_ADDR x, GM_ADDR y, const ReduceTiling& t) {
  ReduceRun<In, Acc, Out> run(x, y, t);
  run.Run();
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_reduce_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  using npurt::DType;
  GET_TILING_DATA_WITH_STRUCT(ReduceTiling, t, tiling);
  const auto in = static_cast<DType>(t.in_dtype), out = static_cast<DType>(t.out_dtype);
  if (in == DType::kFloat32 && out == DType::kFloat16) Launch<float, float, half>(x, y, t);  // float16 partials' combine
  else if (in == DType::kFloat32) Launch<float, float, float>(x, y, t);
  else if (in == DType::kFloat16 && out == DType::kFloat32) Launch<half, float, float>(x, y, t);
  else if (in == DType::kFloat16) Launch<half, float, half>(x, y, t);
  else if (in == DType::kInt32) Launch<int32_t, int32_t, int32_t>(x, y, t);
  else if (in == DType::kBool) Launch<uint8_t, half, uint8_t>(x, y, t);
  else if (in == DType::kFloat64) LaunchWide<double>(x, y, t);  // scalar unit: reduce_wide.h
  else if (in == DType::kComplex64) LaunchWide<std::complex<float>>(x, y, t);
  else if (in == DType::kComplex128) LaunchWide<std::complex<double>>(x, y, t);
  else if (in == DType::kInt64) LaunchWide<int64_t>(x, y, t);
  else if (in == DType::kUInt64) LaunchWide<uint64_t>(x, y, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kReduceKernelEntry = NPURT_SIM_ENTRY(npurt_reduce_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
