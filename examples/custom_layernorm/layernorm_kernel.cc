// examples/custom_layernorm/layernorm_kernel.cc: LayerNorm over the last dim,
// float32, as an Ascend C kernel (the seeds' running example).
//
//   y = (x - mean) / sqrt(var + eps) * gamma + beta,  per row of length d
//
// Per core: gamma/beta are loaded once into UB; then, per tile of rows:
// CopyIn (rows -> VECIN, one DataCopyPad with blockCount = rows) -> Compute
// (per row: ReduceSum for the mean, Adds(-mean), Mul + ReduceSum for the
// variance, Sqrt for rstd, Muls(rstd), Mul(gamma), Add(beta)) -> CopyOut (one DataCopyPad).
// Two buffers per queue let MTE2, V and MTE3 overlap on the NPU.
#include "kernel_operator.h"
#include "layernorm_tiling.h"

namespace {

using namespace AscendC;

class LayerNormKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LayerNormTiling& t) {
    t_ = t;
    uint64_t r0 = static_cast<uint64_t>(GetBlockIdx()) * t.rows_per_core;
    rows_ = r0 >= t.rows ? 0 : (t.rows - r0 < t.rows_per_core ? t.rows - r0 : t.rows_per_core);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + r0 * t.d, rows_ * t.d);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + r0 * t.d, rows_ * t.d);
    const uint32_t tile_bytes = t.rows_per_tile * t.d_aligned * sizeof(float);
    pipe_.InitBuffer(qx_, 2, tile_bytes);
    pipe_.InitBuffer(qy_, 2, tile_bytes);
    pipe_.InitBuffer(params_, 2 * t.d_aligned * sizeof(float));
    pipe_.InitBuffer(work_, 2 * t.d_aligned * sizeof(float));
    pipe_.InitBuffer(scalar_, 64);
    if (rows_ > 0) LoadParams(gamma, beta);
  }

  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rows_; r += t_.rows_per_tile) {
      uint32_t n = static_cast<uint32_t>(rows_ - r < t_.rows_per_tile ? rows_ - r : t_.rows_per_tile);
      CopyIn(r, n);
      Compute(n);
      CopyOut(r, n);
    }
  }

 private:
  __aicore__ inline void LoadParams(GM_ADDR gamma, GM_ADDR beta) {
    LocalTensor<float> p = params_.Get<float>();
    DataCopyExtParams row(1, t_.d * sizeof(float), 0, 0, 0);
    DataCopyPadExtParams<float> no_pad(false, 0, 0, 0.0f);
    GlobalTensor<float> g;
    if (t_.has_gamma) {
      g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gamma), t_.d);
      DataCopyPad(p, g, row, no_pad);
    }
    if (t_.has_beta) {
      g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(beta), t_.d);
      DataCopyPad(p[t_.d_aligned], g, row, no_pad);
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);  // parameters must land before the first Mul/Add
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  }

  __aicore__ inline void CopyIn(uint64_t r, uint32_t n) {
    LocalTensor<float> x = qx_.AllocTensor<float>();
    DataCopyExtParams rows(static_cast<uint16_t>(n), t_.d * sizeof(float), 0, 0, 0);
    DataCopyPad(x, x_[r * t_.d], rows, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    qx_.EnQue(x);
  }

  // Sum of src[0, d) through the vector unit, read back on the scalar unit.
  __aicore__ inline float RowSum(const LocalTensor<float>& src) {
    LocalTensor<float> acc = scalar_.Get<float>();
    ReduceSum(acc, src, work_.Get<float>()[t_.d_aligned], static_cast<int32_t>(t_.d));
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    float s = acc.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID1);  // the scalar read must finish before acc is overwritten
    WaitFlag<HardEvent::S_V>(EVENT_ID1);
    return s;
  }

  // 1 / sqrt(v) with the square root on the vector unit (the scalar unit has none).
  __aicore__ inline float Rstd(float v) {
    LocalTensor<float> acc = scalar_.Get<float>();
    Duplicate(acc, v, 8);
    Sqrt(acc, acc, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    float r = 1.0f / acc.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID1);
    WaitFlag<HardEvent::S_V>(EVENT_ID1);
    return r;
  }

  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<float> x = qx_.DeQue<float>();
    LocalTensor<float> y = qy_.AllocTensor<float>();
    LocalTensor<float> sq = work_.Get<float>();
    LocalTensor<float> p = params_.Get<float>();
    const int32_t d = static_cast<int32_t>(t_.d);
    const float inv_d = 1.0f / static_cast<float>(t_.d);
    for (uint32_t i = 0; i < n; ++i) {
      LocalTensor<float> xi = x[i * t_.d_aligned];
      LocalTensor<float> yi = y[i * t_.d_aligned];
      float mean = RowSum(xi) * inv_d;
      Adds(yi, xi, -mean, d);               // centred row
      Mul(sq, yi, yi, d);
      float var = RowSum(sq) * inv_d;
      float rstd = Rstd(var + t_.eps);
      Muls(yi, yi, rstd, d);
      if (t_.has_gamma) Mul(yi, yi, p, d);
      if (t_.has_beta) Add(yi, yi, p[t_.d_aligned], d);
    }
    qy_.EnQue(y);
    qx_.FreeTensor(x);
  }

  __aicore__ inline void CopyOut(uint64_t r, uint32_t n) {
    LocalTensor<float> y = qy_.DeQue<float>();
    DataCopyExtParams rows(static_cast<uint16_t>(n), t_.d * sizeof(float), 0, 0, 0);
    DataCopyPad(y_[r * t_.d], y, rows);
    qy_.FreeTensor(y);
  }

  LayerNormTiling t_;
  uint64_t rows_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 1> qx_;
  TQue<TPosition::VECOUT, 1> qy_;
  TBuf<TPosition::VECCALC> params_, work_, scalar_;
  GlobalTensor<float> x_, y_;
};

}  // namespace

extern "C" __global__ __aicore__ void layernorm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(LayerNormTiling, t, tiling);
  LayerNormKernel k;
  k.Init(x, gamma, beta, y, t);
  k.Process();
}

// The sim entry the registration binds (a CANN device build keeps only the __global__ entry).
#ifndef NPURT_ASCEND_DEVICE_BUILD
npurt::SimKernelEntry layernorm_custom_entry() { return NPURT_SIM_ENTRY(layernorm_custom); }
#endif  // NPURT_ASCEND_DEVICE_BUILD
