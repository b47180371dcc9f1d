// kernels/softmax/softmax_kernel.cc: the softmax / log_softmax forward Ascend C
// kernel (one template SoftmaxForward<T, O> for every dtype pair).
//
//   softmax:     y = exp(x - max) / sum(exp(x - max))
//   log_softmax: y = (x - max) - ln(sum(exp(x - max)))
//
// float32 inside. Rows in UB: per row ReduceMax, Adds(-max), Exp, ReduceSum,
// Muls(1/sum) (the division on the scalar unit; softmax rows try Exp, ReduceSum,
// Muls without the max first, see kDirectSumMin; a float16 / bfloat16 row is
// cast to float32 right before and back right after, so it stays in the sim
// host's L1 between the casts); log_softmax keeps x - max,
// sums exp() into a row buffer, takes Ln of the tile's sums in one vector
// call and subtracts per row. Longer rows (multi-pass plan, "online
// softmax"): pass 1 keeps a running (max M, sum S) over the chunks, rescaling
// S by exp(M_old - M_new) when the max grows; pass 2 re-reads each chunk and
// writes exp(x - M) / S or x - M - ln S. A chunk whose max is -inf adds nothing
// (so a row is NaN only when numpy's would be: all -inf, a NaN, or +inf).
// Any other axis: the column plan of softmax_columns.h.
#include <type_traits>

#include "kernel_operator.h"
#include "norm/row_tile.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"
#include "softmax/softmax_columns.h"
#include "softmax/softmax_tiling.h"

namespace npurt::kernels {
namespace {

using AscendC::LocalTensor;
using namespace npurt::kernels::rows;
namespace tl = npurt::tiling;

// A softmax row tries exp(x) / sum exp(x) first, without the max pass, and
// keeps it when s = sum exp(x) lies in [kDirectSumMin, kDirectSumMax]: then no
// exp(x) overflowed (s is finite), 1 / s is a normal float (s <= 2^120), and
// exp(x) / s equals exp(x - m) / sum exp(x - m) in real arithmetic while
// dropping the rounding of x - m that exp amplifies (|x - m| ulp of it). An
// exp(x) that is subnormal (x < -87.3) belongs to an output below 1.2e-38
// (s >= 1) whose absolute error stays at the subnormal spacing (~1.4e-45).
// Rows outside (a NaN or +inf gives s = NaN or inf, an all -inf row s = 0,
// rows of small or huge x) take the shifted form exp(x - m) / sum exp(x - m).
// Every row with max m in [0, 64] passes (s >= exp(m) >= 1, s <= D e^64) and
// runs the Exp, ReduceSum, Muls of the wave-12 kernel, which tested the max
// instead: the same bits for those rows.
constexpr float kDirectSumMin = 1.0f;
constexpr float kDirectSumMax = 0x1p120f;

template <class T, class O>
class SoftmaxForward {
  static constexpr bool kCastIn = !std::is_same<T, float>::value;

 public:
  __aicore__ SoftmaxForward(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& t)
      : d_(t.plan), log_(t.kind == static_cast<uint32_t>(SoftmaxKind::kLogSoftmax)) {
    io_.Init(pipe_, d_, x, y);
    pipe_.InitBuffer(e_, d_.chunk_stride * sizeof(float));
    pipe_.InitBuffer(sums_, RoundUp(d_.rows_per_tile, 8) * sizeof(float));
    red_.Init(pipe_, d_.chunk);
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t r0 = tl::core_begin(d_, b), nr = tl::core_count(d_, b);
    for (uint64_t r = r0; r < r0 + nr; r += d_.rows_per_tile) {
      if (d_.num_chunks == 1)
        WholeRows(r, static_cast<uint32_t>(r0 + nr - r < d_.rows_per_tile ? r0 + nr - r : d_.rows_per_tile));
      else
        OnlineRow(r);
    }
  }

 private:
  // exp(v) or ln(v) of one scalar on the vector unit (the scalar unit has neither).
  __aicore__ float VecScalar(bool ln, float v) {
    LocalTensor<float> sc = red_.Slot();
    sc.SetValue(0, v);
    ScalarToVector();
    if (ln) AscendC::Ln(sc, sc, 1);
    else AscendC::Exp(sc, sc, 1);
    return ReadScalar(sc);
  }

  // One softmax row, one visit: the scalar unit divides, the vector unit
  // scales. Exp straight from x first (kDirectSumMin/Max): when its sum s is
  // in range, y = exp(x) * (1 / s) with no max pass; otherwise (overflow, a
  // NaN, an all -inf row, s < 1) the shifted form from the max, which re-reads
  // si. So exp(x) goes to fi only when fi does not alias si (float input: si is
  // x's buffer), else to the row buffer e (a cast input's si is f itself); the
  // row buffer costs float32 ~10 % (its 4 KiB more in the host's L1).
  __aicore__ void SoftmaxRow(const LocalTensor<float>& fi, const LocalTensor<float>& si, const LocalTensor<float>& e,
                             uint32_t len) {
    const int32_t cnt = static_cast<int32_t>(len);
    const LocalTensor<float>& ex = std::is_same<T, float>::value ? fi : e;
    AscendC::Exp(ex, si, cnt);
    const float s = red_.Sum(ex, len);
    if (s >= kDirectSumMin && s <= kDirectSumMax) {  // false for NaN
      AscendC::Muls(fi, ex, 1.0f / s, cnt);
      return;
    }
    const float m = red_.Max(si, len);
    AscendC::Adds(fi, si, -m, cnt);
    AscendC::Exp(fi, fi, cnt);
    AscendC::Muls(fi, fi, 1.0f / red_.Sum(fi, len), cnt);
  }

  __aicore__ void WholeRows(uint64_t r, uint32_t n) {
    const uint32_t len = static_cast<uint32_t>(d_.cols), ls = d_.chunk_stride;
    const int32_t cnt = static_cast<int32_t>(len);
    const bool row_cast = kCastIn && !log_;  // softmax casts each row right before its Exp
    auto tile = io_.Load(r, n, 0, len, ls, !row_cast);
    const LocalTensor<float>&f = tile.f, &src = tile.src;
    LocalTensor<float> sums = sums_.Get<float>(), e = e_.Get<float>();
    for (uint32_t i = 0; i < n; ++i) {
      LocalTensor<float> fi = f[i * ls], si = src[i * ls];
      if (!log_) {
        if constexpr (kCastIn) ToFloat(fi, tile.x[i * ls], ls);
        SoftmaxRow(fi, si, e, len);
        if constexpr (kCastIn && !std::is_same<O, float>::value) FromFloat(tile.y[i * ls], fi, ls);
        continue;
      }
      const float m = red_.Max(si, len);
      AscendC::Adds(fi, si, -m, cnt);
      AscendC::Exp(e, fi, cnt);  // log_softmax keeps x - max for the output
      sums.SetValue(i, red_.Sum(e, len));
    }
    if (log_) {  // ln on the vector unit, once for the whole tile
      ScalarToVector();
      AscendC::Ln(sums, sums, static_cast<int32_t>(n));
      for (uint32_t i = 0; i < n; ++i) AscendC::Adds(f[i * ls], f[i * ls], -ReadScalar(sums, i), cnt);
    }
    io_.Store(tile, r, n, 0, len, ls, !row_cast);
  }

  // Pass 1 of a long row: running max M and sum S of exp(x - M).
  __aicore__ void OnlineStats(uint64_t r, float& M, float& S) {
    M = -__builtin_inff(), S = 0.0f;
    LocalTensor<float> e = e_.Get<float>();
    for (uint32_t c = 0; c < d_.num_chunks; ++c) {
      const uint32_t len = tl::chunk_len(d_, d_.cols, c), ls = RoundUp(len, d_.align_elems);
      auto tile = io_.Load(r, 1, uint64_t{c} * d_.chunk, len, ls);
      const LocalTensor<float>& src = tile.src;
      const float m = red_.Max(src, len);
      if (m != m) {
        M = m, S = m;  // NaN: the whole row is NaN
      } else if (m != -__builtin_inff()) {
        AscendC::Adds(e, src, -m, static_cast<int32_t>(len));
        AscendC::Exp(e, e, static_cast<int32_t>(len));
        const float s = red_.Sum(e, len);
        if (m > M) S = S * VecScalar(false, M - m) + s, M = m;
        else S += s * VecScalar(false, m - M);
      }
      io_.Drop(tile);
    }
  }

  __aicore__ void OnlineRow(uint64_t r) {
    float M, S;
    OnlineStats(r, M, S);
    const float scale = log_ ? -VecScalar(true, S) : 1.0f / S;
    for (uint32_t c = 0; c < d_.num_chunks; ++c) {
      const uint64_t c0 = uint64_t{c} * d_.chunk;
      const uint32_t len = tl::chunk_len(d_, d_.cols, c), ls = RoundUp(len, d_.align_elems);
      const int32_t cnt = static_cast<int32_t>(len);
      auto tile = io_.Load(r, 1, c0, len, ls);
      const LocalTensor<float>&f = tile.f, &src = tile.src;
      AscendC::Adds(f, src, -M, cnt);
      if (log_) {
        AscendC::Adds(f, f, scale, cnt);
      } else {
        AscendC::Exp(f, f, cnt);
        AscendC::Muls(f, f, scale, cnt);
      }
      io_.Store(tile, r, 1, c0, len, ls);
    }
  }

  const tl::RowTilingData& d_;
  bool log_;
  AscendC::TPipe pipe_;
  RowStage<T, O> io_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> e_, sums_;
  RowReducer red_;
};

template <class T, class O>
__aicore__ void Launch(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& t) {
  if (t.axis_len > 0) {  // a non-last axis: down the columns of [outer, C, inner]
    SoftmaxColumns<T, O> k(x, y, t);
    k.Run();
    return;
  }
  SoftmaxForward<T, O> k(x, y, t);
  k.Run();
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_softmax_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  using npurt::DType;
  GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, t, tiling);
  const auto in = static_cast<DType>(t.in_dtype), out = static_cast<DType>(t.out_dtype);
  if (in == DType::kFloat32) Launch<float, float>(x, y, t);
  else if (in == DType::kFloat16 && out == DType::kFloat32) Launch<half, float>(x, y, t);
  else if (in == DType::kFloat16) Launch<half, half>(x, y, t);
  else if (out == DType::kFloat32) Launch<bfloat16_t, float>(x, y, t);
  else Launch<bfloat16_t, bfloat16_t>(x, y, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kSoftmaxEntry = NPURT_SIM_ENTRY(npurt_softmax_kernel);
}  // namespace npurt::kernels
#endif  // NPURT_ASCEND_DEVICE_BUILD
