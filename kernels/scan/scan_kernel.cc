// kernels/scan/scan_kernel.cc: the one scan kernel template (device code) of
// cumulative_sum and cumulative_prod, both modes of scan_tiling.h.
//
// ScanRun<In, Out> reads In, accumulates in ScanAcc<In, Out> and stores Out.
// The kind (sum/prod) is a run-time switch. Rows are scanned on the scalar
// unit (each element depends on the previous one); columns fold whole rows
// with the vector unit when the data is float32, element by element otherwise.
#include <cstdint>
#include <type_traits>

#include "common/kernel_util.h"
#include "elementwise/ew_types.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "scan/scan_tiling.h"

namespace npurt::kernels {
namespace {

using AscendC::LocalTensor;
using ew::Bool8;

// The accumulation type of an output element type.
template <class Out> struct AccOf { using type = Out; };
template <> struct AccOf<half> { using type = float; };
template <> struct AccOf<bfloat16_t> { using type = float; };

template <class Acc, class In>
__aicore__ inline Acc ToAcc(In v) {
  if constexpr (std::is_same<In, Bool8>::value) return static_cast<Acc>(v.v);
  else return static_cast<Acc>(static_cast<ew::Wide<In>>(v));
}

template <class Out, class Acc>
__aicore__ inline Out FromAcc(Acc v) {
  if constexpr (std::is_same<Out, half>::value || std::is_same<Out, bfloat16_t>::value) return Out(static_cast<float>(v));
  else return static_cast<Out>(v);
}

// a op b; integers wrap modulo 2^64 (computed unsigned: no signed overflow).
template <class Acc>
__aicore__ inline Acc Combine(ScanKind k, Acc a, Acc b) {
  if constexpr (std::is_integral<Acc>::value) {
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    return static_cast<Acc>(k == ScanKind::kProd ? ua * ub : ua + ub);
  } else {
    return k == ScanKind::kProd ? a * b : a + b;
  }
}

template <class In, class Out>
class ScanRun {
 public:
  using Acc = typename AccOf<Out>::type;
  static constexpr bool kVector = std::is_same<In, float>::value && std::is_same<Out, float>::value;

  __aicore__ ScanRun(GM_ADDR x, GM_ADDR y, const ScanTiling& t)
      : t_(t), kind_(static_cast<ScanKind>(t.kind)), rowlen_(t.len + t.include_initial) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(x), t.outer * t.len * t.inner);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(y), t.outer * rowlen_ * t.inner);
    pipe_.InitBuffer(qin_, 2, t.tile * sizeof(In));
    pipe_.InitBuffer(qout_, 2, t.tile * sizeof(Out));
    if (static_cast<ScanMode>(t.mode) == ScanMode::kColumns) pipe_.InitBuffer(acc_, t.tile * sizeof(Acc));
  }

  __aicore__ void Run() {
    const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t_.per_core;
    if (begin >= t_.units) return;
    const uint64_t end = begin + t_.per_core < t_.units ? begin + t_.per_core : t_.units;
    for (uint64_t u = begin; u < end; ++u) {
      if (static_cast<ScanMode>(t_.mode) == ScanMode::kRows) ScanRow(u);
      else ScanColumns(u);
    }
  }

 private:
  // What include_initial shows first: +0 (the standard's zero) or 1.
  __aicore__ Acc Identity() const { return kind_ == ScanKind::kProd ? Acc(1) : Acc(0); }
  // Where the running value starts: a sum starts at -0, IEEE's exact additive
  // identity (-0 + x == x for every x, +0 + -0 would give +0), so sums of -0
  // stay -0 as in numpy's cumsum; integers see plain 0.
  __aicore__ Acc Start() const { return kind_ == ScanKind::kProd ? Acc(1) : Acc(-0.0f); }

  __aicore__ LocalTensor<In> Load(uint64_t at, uint32_t n) {
    LocalTensor<In> b = qin_.template AllocTensor<In>();
    CopyIn(b, x_[at], n);
    qin_.EnQue(b);
    return qin_.template DeQue<In>();
  }

  __aicore__ void Store(LocalTensor<Out>& b, uint64_t at, uint32_t n) {
    qout_.EnQue(b);
    b = qout_.template DeQue<Out>();
    CopyOut(y_[at], b, n);
    qout_.FreeTensor(b);
  }

  // kRows: one row, chunk by chunk, the running value carried across chunks.
  __aicore__ void ScanRow(uint64_t row) {
    Acc acc = Start();
    const bool initial = t_.include_initial != 0;
    for (uint64_t off = 0; off < t_.len; off += t_.tile) {
      const uint32_t n = static_cast<uint32_t>(t_.len - off < t_.tile ? t_.len - off : t_.tile);
      LocalTensor<In> in = Load(row * t_.len + off, n);
      LocalTensor<Out> out = qout_.template AllocTensor<Out>();
      for (uint32_t j = 0; j < n; ++j) {
        const Acc before = off == 0 && j == 0 ? Identity() : acc;  // the shown initial is +0
        acc = Combine(kind_, acc, ToAcc<Acc>(in.GetValue(j)));
        out.SetValue(j, FromAcc<Out>(initial ? before : acc));
      }
      qin_.FreeTensor(in);
      Store(out, row * rowlen_ + off, n);
    }
    if (initial) {  // the last output of the row: the total
      LocalTensor<Out> out = qout_.template AllocTensor<Out>();
      out.SetValue(0, FromAcc<Out>(acc));
      Store(out, row * rowlen_ + t_.len, 1);
    }
  }

  // One row of a complex product: acc[j, j+1] = acc * in as (real, imag) pairs.
  __aicore__ void ComplexProduct(const LocalTensor<Acc>& acc, const LocalTensor<In>& in,
                                 const LocalTensor<Out>& out, uint32_t n) {
    for (uint32_t j = 0; j + 1 < n; j += 2) {
      const Acc ar = acc.GetValue(j), ai = acc.GetValue(j + 1);
      const Acc xr = ToAcc<Acc>(in.GetValue(j)), xi = ToAcc<Acc>(in.GetValue(j + 1));
      const Acc re = ar * xr - ai * xi, im = ar * xi + ai * xr;
      acc.SetValue(j, re);
      acc.SetValue(j + 1, im);
      out.SetValue(j, FromAcc<Out>(re));
      out.SetValue(j + 1, FromAcc<Out>(im));
    }
  }

  // The identity of lane j: 1 for a product's real lanes, else Identity()
  // (LaneStart: else Start()).
  __aicore__ Acc LaneIdentity(uint64_t lane) const {
    return t_.complex_pairs && kind_ == ScanKind::kProd && lane % 2 == 1 ? Acc(0) : Identity();
  }
  __aicore__ Acc LaneStart(uint64_t lane) const {
    return t_.complex_pairs && kind_ == ScanKind::kProd && lane % 2 == 1 ? Acc(0) : Start();
  }

  // kColumns: a run of n inner elements of one outer index, every row in turn.
  __aicore__ void ScanColumns(uint64_t unit) {
    const uint64_t runs = (t_.inner + t_.tile - 1) / t_.tile;
    const uint64_t o = unit / runs, i0 = (unit % runs) * t_.tile;
    const uint32_t n = static_cast<uint32_t>(t_.inner - i0 < t_.tile ? t_.inner - i0 : t_.tile);
    LocalTensor<Acc> acc = acc_.template Get<Acc>();
    const bool pairs = t_.complex_pairs && kind_ == ScanKind::kProd;  // tile is even: pairs stay in a run
    bool filled = false;
    if constexpr (kVector) {
      if (!pairs) AscendC::Duplicate(acc, Start(), static_cast<int32_t>(n));
      filled = !pairs;
    }
    if (!filled)
      for (uint32_t j = 0; j < n; ++j) acc.SetValue(j, LaneStart(i0 + j));
    const uint64_t out0 = o * rowlen_ * t_.inner + i0;
    if (t_.include_initial) {
      LocalTensor<Out> out = qout_.template AllocTensor<Out>();
      for (uint32_t j = 0; j < n; ++j) out.SetValue(j, FromAcc<Out>(LaneIdentity(i0 + j)));
      Store(out, out0, n);
    }
    for (uint64_t r = 0; r < t_.len; ++r) {
      LocalTensor<In> in = Load((o * t_.len + r) * t_.inner + i0, n);
      LocalTensor<Out> out = qout_.template AllocTensor<Out>();
      if (pairs) {
        ComplexProduct(acc, in, out, n);
      } else if constexpr (kVector) {
        if (kind_ == ScanKind::kProd) AscendC::Mul(acc, acc, in, static_cast<int32_t>(n));
        else AscendC::Add(acc, acc, in, static_cast<int32_t>(n));
        AscendC::Muls(out, acc, 1.0f, static_cast<int32_t>(n));  // a copy that keeps -0, inf and NaN
      } else {
        for (uint32_t j = 0; j < n; ++j) {
          const Acc v = Combine(kind_, acc.GetValue(j), ToAcc<Acc>(in.GetValue(j)));
          acc.SetValue(j, v);
          out.SetValue(j, FromAcc<Out>(v));
        }
      }
      qin_.FreeTensor(in);
      Store(out, out0 + (r + t_.include_initial) * t_.inner, n);
    }
  }

  const ScanTiling& t_;
  ScanKind kind_;
  uint64_t rowlen_;
  AscendC::GlobalTensor<In> x_;
  AscendC::GlobalTensor<Out> y_;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qin_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qout_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> acc_;
};

template <class In, class Out>
__aicore__ void Launch(GM_ADDR x, GM_ADDR y, const ScanTiling& t) {
  ScanRun<In, Out> run(x, y, t);
  run.Run();
}

constexpr uint32_t kScanDTypes = ew::kNumeric | ew::kBool;

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_scan_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  using npurt::DType;
  GET_TILING_DATA_WITH_STRUCT(ScanTiling, t, tiling);
  ew::visit_dtype<kScanDTypes>(t.in_dtype, [&](auto in_tag) {
    using In = typename ew::Elem<decltype(in_tag)::value>::T;
    if (t.out_dtype == static_cast<uint32_t>(DType::kInt64)) Launch<In, int64_t>(x, y, t);
    else if (t.out_dtype == static_cast<uint32_t>(DType::kUInt64)) Launch<In, uint64_t>(x, y, t);
    else if (t.out_dtype == t.in_dtype && !std::is_same<In, ew::Bool8>::value) {
      if constexpr (!std::is_same<In, ew::Bool8>::value) Launch<In, In>(x, y, t);
    }
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kScanKernelEntry = NPURT_SIM_ENTRY(npurt_scan_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
