// kernels/softmax/softmax_backward_kernel.cc: softmax_backward and
// log_softmax_backward (one template SoftmaxBackward<T, O>), from the forward
// output y and the incoming gradient dy, per row over the last axis:
//
//   softmax:     dx = y * (dy - sum(dy * y))
//   log_softmax: dx = dy - exp(y) * sum(dy)
//
// float32 inside. Rows in UB: the row sum and the output in one visit of the
// tile. Longer rows (multi-pass plan): pass 1 accumulates the sum over the
// chunks in float32, pass 2 re-reads the chunks and writes dx.
#include <type_traits>

#include "kernel_operator.h"
#include "norm/row_tile.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"
#include "softmax/softmax_tiling.h"

namespace npurt::kernels {
namespace {

using AscendC::LocalTensor;
using namespace npurt::kernels::rows;
namespace tl = npurt::tiling;

template <class T, class O>
class SoftmaxBackward {
 public:
  static constexpr bool kFloatIn = std::is_same<T, float>::value;
  static constexpr bool kFloatOut = std::is_same<O, float>::value;

  __aicore__ SoftmaxBackward(GM_ADDR dy, GM_ADDR y, GM_ADDR dx, const SoftmaxTiling& t)
      : d_(t.plan), log_(t.kind == static_cast<uint32_t>(SoftmaxKind::kLogSoftmax)) {
    const uint64_t n = d_.rows * d_.cols;
    dy_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dy), n);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
    dx_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(dx), n);
    const uint32_t tile = d_.rows_per_tile * d_.chunk_stride;
    pipe_.InitBuffer(qdy_, d_.depth, tile * sizeof(T));
    pipe_.InitBuffer(qy_, d_.depth, tile * sizeof(T));
    pipe_.InitBuffer(qdx_, d_.depth, tile * sizeof(O));
    if (!kFloatIn) pipe_.InitBuffer(f_, 2 * tile * sizeof(float));
    pipe_.InitBuffer(t_, d_.chunk_stride * sizeof(float));
    red_.Init(pipe_, d_.chunk);
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t r0 = tl::core_begin(d_, b), nr = tl::core_count(d_, b);
    for (uint64_t r = r0; r < r0 + nr; r += d_.rows_per_tile) {
      if (d_.num_chunks == 1) {
        const uint32_t n = static_cast<uint32_t>(r0 + nr - r < d_.rows_per_tile ? r0 + nr - r : d_.rows_per_tile);
        Tile(r, n, 0, static_cast<uint32_t>(d_.cols), 0.0f, true);
      } else {
        float s = 0.0f;
        for (uint32_t c = 0; c < d_.num_chunks; ++c)
          s += Tile(r, 1, uint64_t{c} * d_.chunk, tl::chunk_len(d_, d_.cols, c), 0.0f, false);
        for (uint32_t c = 0; c < d_.num_chunks; ++c)
          Tile(r, 1, uint64_t{c} * d_.chunk, tl::chunk_len(d_, d_.cols, c), s, true);
      }
    }
  }

 private:
  // The row's partial sum (sum(dy * y) or sum(dy)) of chunk [c0, c0 + len).
  __aicore__ float RowSum(const LocalTensor<float>& dy, const LocalTensor<float>& y, uint32_t len) {
    if (log_) return red_.Sum(dy, len);
    AscendC::Mul(t_.Get<float>(), dy, y, static_cast<int32_t>(len));
    return red_.Sum(t_.Get<float>(), len);
  }

  // dx = y * (dy - s) or dy - exp(y) * s into `out` (may alias dy).
  __aicore__ void Grad(const LocalTensor<float>& out, const LocalTensor<float>& dy, const LocalTensor<float>& y,
                       float s, uint32_t len) {
    const int32_t n = static_cast<int32_t>(len);
    LocalTensor<float> t = t_.Get<float>();
    if (log_) {
      AscendC::Exp(t, y, n);
      AscendC::Muls(t, t, s, n);
      AscendC::Sub(out, dy, t, n);
    } else {
      AscendC::Adds(out, dy, -s, n);
      AscendC::Mul(out, out, y, n);
    }
  }

  // Rows [r, r + n) x columns [c0, c0 + len). `whole`: rows in UB (sum and
  // output at once) or pass 2 of a long row with its sum `s`; otherwise pass 1:
  // returns the chunk's partial sum.
  __aicore__ float Tile(uint64_t r, uint32_t n, uint64_t c0, uint32_t len, float s, bool write) {
    const uint32_t ls = LocalStride(d_, len);
    const uint64_t at = r * d_.cols + c0;
    LocalTensor<T> dy = QueueLoad<T>(qdy_, dy_[at], n, len, d_.cols, ls);
    LocalTensor<T> y = QueueLoad<T>(qy_, y_[at], n, len, d_.cols, ls);
    LocalTensor<float> fdy, fy;
    if constexpr (kFloatIn) {
      fdy = dy, fy = y;
    } else {
      fdy = f_.Get<float>(), fy = fdy[d_.rows_per_tile * d_.chunk_stride];
      ToFloat(fdy, dy, n * ls);
      ToFloat(fy, y, n * ls);
    }
    float partial = 0.0f;
    if (!write) {
      partial = RowSum(fdy, fy, len);
    } else {
      LocalTensor<O> dx = qdx_.template AllocTensor<O>();
      LocalTensor<float> out;
      if constexpr (kFloatOut && kFloatIn) out = dx;
      else out = fdy;  // computed in place, cast (or copied) into dx below
      const bool whole = d_.num_chunks == 1;
      for (uint32_t i = 0; i < n; ++i)
        Grad(out[i * ls], fdy[i * ls], fy[i * ls], whole ? RowSum(fdy[i * ls], fy[i * ls], len) : s, len);
      if constexpr (!(kFloatOut && kFloatIn)) FromFloat(dx, out, n * ls);
      QueueStore<O>(qdx_, dx, dx_[at], n, len, d_.cols, ls);
    }
    qdy_.FreeTensor(dy);
    qy_.FreeTensor(y);
    return partial;
  }

  const tl::RowTilingData& d_;
  bool log_;
  AscendC::GlobalTensor<T> dy_, y_;
  AscendC::GlobalTensor<O> dx_;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qdy_, qy_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qdx_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> f_, t_;
  RowReducer red_;
};

template <class T, class O>
__aicore__ void Launch(GM_ADDR dy, GM_ADDR y, GM_ADDR dx, const SoftmaxTiling& t) {
  SoftmaxBackward<T, O> k(dy, y, dx, t);
  k.Run();
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_softmax_backward_kernel(GM_ADDR dy, GM_ADDR y, GM_ADDR dx,
                                                                   GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  using npurt::DType;
  GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, t, tiling);
  const auto in = static_cast<DType>(t.in_dtype), out = static_cast<DType>(t.out_dtype);
  if (in == DType::kFloat32) Launch<float, float>(dy, y, dx, t);
  else if (in == DType::kFloat16 && out == DType::kFloat32) Launch<half, float>(dy, y, dx, t);
  else if (in == DType::kFloat16) Launch<half, half>(dy, y, dx, t);
  else if (out == DType::kFloat32) Launch<bfloat16_t, float>(dy, y, dx, t);
  else Launch<bfloat16_t, bfloat16_t>(dy, y, dx, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kSoftmaxBackwardEntry = NPURT_SIM_ENTRY(npurt_softmax_backward_kernel);
}  // namespace npurt::kernels
#endif  // NPURT_ASCEND_DEVICE_BUILD
