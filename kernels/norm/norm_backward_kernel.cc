// kernels/norm/norm_backward_kernel.cc: layer_norm_backward and
// rms_norm_backward (one kernel, two parts), from the saved statistics:
//
//   xhat = (x - mean) * rstd  (rms: x * rstd),   g = dy * gamma (dy without gamma)
//   layer: dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
//   rms:   dx = rstd * (g - xhat * mean(g * xhat))
//   dgamma = sum over rows of dy * xhat,  dbeta = sum over rows of dy
//
// Part 1 (NormTiling::rows_plan, rows over cores) writes dx; rows longer than
// UB take two passes over their chunks (the row sums, then dx). Part 2
// (cols_plan, columns over cores) re-reads dy and x column block by column
// block and sums dgamma/dbeta over all rows in float32 in UB: no cross-core
// reduction is needed, and the result does not depend on the core count's
// scheduling. The TPipe layout is reset between the parts. float32 inside.
#include <type_traits>

#include "kernel_operator.h"
#include "norm/norm_tiling.h"
#include "norm/row_tile.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;
using namespace npurt::kernels::rows;
namespace tl = npurt::tiling;

struct BackwardArgs {  // one declarator per line: GM_ADDR is a macro (`uint8_t*`)
  GM_ADDR dy;
  GM_ADDR x;
  GM_ADDR mean;
  GM_ADDR rstd;
  GM_ADDR gamma;
  GM_ADDR dx;
  GM_ADDR dgamma;
  GM_ADDR dbeta;
};

// What both parts share: GM views, the row statistics of a tile, and xhat.
template <class T, class O>
class NormBackwardBase {
 public:
  static constexpr bool kFloatIn = std::is_same<T, float>::value;
  static constexpr bool kFloatOut = std::is_same<O, float>::value;

  __aicore__ NormBackwardBase(AscendC::TPipe& pipe, const BackwardArgs& a, const NormTiling& t)
      : pipe_(pipe), t_(t), layer_(t.kind == static_cast<uint32_t>(NormKind::kLayer)) {
    const uint64_t rows = t.rows_plan.rows, cols = t.rows_plan.cols;
    dy_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.dy), rows * cols);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.x), rows * cols);
    if (layer_) mean_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.mean), rows);
    rstd_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.rstd), rows);
  }

 protected:
  // mean/rstd of rows [r, r + n) into stats_ (mean at 0, rstd at RoundUp(rpt, 8)), readable by S.
  __aicore__ void LoadStats(uint64_t r, uint32_t n, uint32_t rpt) {
    LocalTensor<float> st = stats_.Get<float>();
    AscendC::SetFlag<HardEvent::S_MTE2>(EVENT_ID4);  // earlier scalar reads of the previous tile's stats
    AscendC::WaitFlag<HardEvent::S_MTE2>(EVENT_ID4);
    if (layer_) LoadRows(st, mean_[r], 1, n, n, RoundUp(n, 8));
    LoadRows(st[RoundUp(rpt, 8)], rstd_[r], 1, n, n, RoundUp(n, 8));
    AscendC::SetFlag<HardEvent::MTE2_S>(EVENT_ID4);
    AscendC::WaitFlag<HardEvent::MTE2_S>(EVENT_ID4);
  }
  __aicore__ float Mean(uint32_t i) { return layer_ ? stats_.Get<float>().GetValue(i) : 0.0f; }
  __aicore__ float Rstd(uint32_t i, uint32_t rpt) { return stats_.Get<float>().GetValue(RoundUp(rpt, 8) + i); }

  // dst = (src - mean) * rstd over len lanes (dst may be src).
  __aicore__ void Xhat(const LocalTensor<float>& dst, const LocalTensor<float>& src, float mean, float rstd,
                       uint32_t len) {
    if (layer_) {
      AscendC::Adds(dst, src, -mean, static_cast<int32_t>(len));
      AscendC::Muls(dst, dst, rstd, static_cast<int32_t>(len));
    } else {
      AscendC::Muls(dst, src, rstd, static_cast<int32_t>(len));
    }
  }

  // Loads dy and x tiles and returns float views (the tiles themselves for float inputs).
  template <class Q>
  __aicore__ void LoadPair(Q& qdy, Q& qx, uint64_t at, uint32_t n, uint32_t len, uint32_t ls, uint32_t tile,
                           LocalTensor<T>& dy, LocalTensor<T>& x, LocalTensor<float>& fdy, LocalTensor<float>& fx) {
    dy = QueueLoad<T>(qdy, dy_[at], n, len, t_.rows_plan.cols, ls);
    x = QueueLoad<T>(qx, x_[at], n, len, t_.rows_plan.cols, ls);
    if constexpr (kFloatIn) {
      fdy = dy, fx = x;
    } else {
      fdy = f_.template Get<float>(), fx = fdy[tile];
      ToFloat(fdy, dy, n * ls);
      ToFloat(fx, x, n * ls);
    }
  }

  AscendC::TPipe& pipe_;
  const NormTiling& t_;
  bool layer_;
  AscendC::GlobalTensor<T> dy_, x_;
  AscendC::GlobalTensor<float> mean_, rstd_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> f_, stats_;
};

// Part 1: dx, rows over cores.
template <class T, class O>
class DxPart : public NormBackwardBase<T, O> {
  using Base = NormBackwardBase<T, O>;
  using Base::layer_;
  using Base::t_;

 public:
  __aicore__ DxPart(AscendC::TPipe& pipe, const BackwardArgs& a, const NormTiling& t) : Base(pipe, a, t), d_(t.rows_plan) {
    dx_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(a.dx), d_.rows * d_.cols);
    if (t.has_gamma) gamma_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gamma), d_.cols);
    const uint32_t tile = d_.rows_per_tile * d_.chunk_stride, cs = d_.chunk_stride;
    pipe.InitBuffer(qdy_, d_.depth, tile * sizeof(T));
    pipe.InitBuffer(qx_, d_.depth, tile * sizeof(T));
    pipe.InitBuffer(qdx_, d_.depth, tile * sizeof(O));
    if (!Base::kFloatIn) pipe.InitBuffer(this->f_, 2 * tile * sizeof(float));
    pipe.InitBuffer(xh_, 3 * cs * sizeof(float));  // xhat, g, t rows
    if (t.has_gamma) pipe.InitBuffer(gamma_f_, cs * sizeof(float));
    if (t.has_gamma && !Base::kFloatIn) pipe.InitBuffer(stage_, cs * sizeof(T));
    pipe.InitBuffer(this->stats_, 2 * RoundUp(d_.rows_per_tile, 8) * sizeof(float));
    red_.Init(pipe, d_.chunk);
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t r0 = tl::core_begin(d_, b), nr = tl::core_count(d_, b);
    if (nr == 0) return;
    if (d_.num_chunks == 1 && t_.has_gamma) LoadGamma(0, static_cast<uint32_t>(d_.cols));
    for (uint64_t r = r0; r < r0 + nr; r += d_.rows_per_tile) {
      const uint32_t n = static_cast<uint32_t>(r0 + nr - r < d_.rows_per_tile ? r0 + nr - r : d_.rows_per_tile);
      this->LoadStats(r, n, d_.rows_per_tile);
      if (d_.num_chunks == 1) {
        Tile(r, n, 0, static_cast<uint32_t>(d_.cols), nullptr);
        continue;
      }
      float sums[2] = {0.0f, 0.0f};  // sum(g), sum(g * xhat) over the row's chunks
      for (int pass = 0; pass < 2; ++pass)
        for (uint32_t c = 0; c < d_.num_chunks; ++c) {
          if (t_.has_gamma) LoadGamma(uint64_t{c} * d_.chunk, tl::chunk_len(d_, d_.cols, c));
          Tile(r, 1, uint64_t{c} * d_.chunk, tl::chunk_len(d_, d_.cols, c), pass == 0 ? sums : nullptr, sums);
        }
    }
  }

 private:
  __aicore__ void LoadGamma(uint64_t c0, uint32_t len) {
    AscendC::SetFlag<HardEvent::V_MTE2>(EVENT_ID5);  // the previous chunk's vector reads of gamma
    AscendC::WaitFlag<HardEvent::V_MTE2>(EVENT_ID5);
    const uint32_t ls = RoundUp(len, d_.align_elems);
    LocalTensor<float> g = gamma_f_.Get<float>();
    if constexpr (Base::kFloatIn) {
      LoadRows(g, gamma_[c0], 1, len, len, ls);
    } else {
      LoadRows(stage_.Get<T>(), gamma_[c0], 1, len, len, ls);
    }
    AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID5);
    AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID5);
    if constexpr (!Base::kFloatIn) ToFloat(g, stage_.Get<T>(), ls);
  }

  // Rows [r, r + n) x chunk [c0, c0 + len). accumulate != nullptr: pass 1 of a
  // long row (adds the chunk's sums). Otherwise writes dx, with the row sums
  // from `given` (pass 2) or computed here (rows in UB).
  __aicore__ void Tile(uint64_t r, uint32_t n, uint64_t c0, uint32_t len, float* accumulate,
                       const float* given = nullptr) {
    const uint32_t ls = LocalStride(d_, len), tile = d_.rows_per_tile * d_.chunk_stride;
    const uint64_t at = r * d_.cols + c0;
    LocalTensor<T> dy, x;
    LocalTensor<float> fdy, fx;
    this->LoadPair(qdy_, qx_, at, n, len, ls, tile, dy, x, fdy, fx);
    LocalTensor<float> xh = xh_.Get<float>(), g = xh[d_.chunk_stride], tmp = xh[2 * d_.chunk_stride];
    LocalTensor<O> dx;
    LocalTensor<float> out;
    if (accumulate == nullptr) {
      dx = qdx_.template AllocTensor<O>();
      if constexpr (Base::kFloatOut) out = dx;
      else out = fx;  // xhat is taken from fx first, then the row is free
    }
    const int32_t cnt = static_cast<int32_t>(len);
    const float inv = t_.inv_cols;
    for (uint32_t i = 0; i < n; ++i) {
      const float rstd = this->Rstd(i, d_.rows_per_tile);
      this->Xhat(xh, fx[i * ls], this->Mean(i), rstd, len);
      LocalTensor<float> gi = fdy[i * ls];
      if (t_.has_gamma) {
        AscendC::Mul(g, gi, gamma_f_.Get<float>(), cnt);
        gi = g;
      }
      float sg = 0.0f, sgx = 0.0f;
      if (accumulate != nullptr || given == nullptr) {
        if (layer_) sg = red_.Sum(gi, len);
        AscendC::Mul(tmp, gi, xh, cnt);
        sgx = red_.Sum(tmp, len);
      }
      if (accumulate != nullptr) {
        accumulate[0] += sg, accumulate[1] += sgx;
        continue;
      }
      if (given != nullptr) sg = given[0], sgx = given[1];
      LocalTensor<float> oi = out[i * ls];
      AscendC::Muls(oi, xh, -sgx * inv, cnt);
      AscendC::Add(oi, oi, gi, cnt);
      if (layer_) AscendC::Adds(oi, oi, -sg * inv, cnt);
      AscendC::Muls(oi, oi, rstd, cnt);
    }
    if (accumulate == nullptr) {
      if constexpr (!Base::kFloatOut) FromFloat(dx, out, n * ls);
      QueueStore<O>(qdx_, dx, dx_[at], n, len, d_.cols, ls);
    }
    qdy_.FreeTensor(dy);
    qx_.FreeTensor(x);
  }

  const tl::RowTilingData& d_;
  AscendC::GlobalTensor<T> gamma_;
  AscendC::GlobalTensor<O> dx_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qdy_, qx_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qdx_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xh_, gamma_f_, stage_;
  RowReducer red_;
};

// Part 2: dgamma and dbeta, columns over cores, float32 sums over every row.
template <class T, class O>
class ParamGradPart : public NormBackwardBase<T, O> {
  using Base = NormBackwardBase<T, O>;
  using Base::t_;

 public:
  __aicore__ ParamGradPart(AscendC::TPipe& pipe, const BackwardArgs& a, const NormTiling& t)
      : Base(pipe, a, t), d_(t.cols_plan) {
    dgamma_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(a.dgamma), d_.cols);
    if (this->layer_) dbeta_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(a.dbeta), d_.cols);
    const uint32_t tile = d_.rows_per_tile * d_.chunk_stride, cs = d_.chunk_stride;
    pipe.InitBuffer(qdy_, d_.depth, tile * sizeof(T));
    pipe.InitBuffer(qx_, d_.depth, tile * sizeof(T));
    if (!Base::kFloatIn) pipe.InitBuffer(this->f_, 2 * tile * sizeof(float));
    pipe.InitBuffer(acc_, 2 * cs * sizeof(float));
    if (!Base::kFloatOut) pipe.InitBuffer(out_, cs * sizeof(O));
    pipe.InitBuffer(this->stats_, 2 * RoundUp(d_.rows_per_tile, 8) * sizeof(float));
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t c0 = tl::core_begin(d_, b), nc = tl::core_count(d_, b);
    for (uint32_t c = 0; c < d_.num_chunks && nc > 0; ++c) {
      const uint32_t len = tl::chunk_len(d_, nc, c);
      if (len > 0) Columns(c0 + uint64_t{c} * d_.chunk, len);
    }
  }

 private:
  __aicore__ void Columns(uint64_t c0, uint32_t len) {
    const uint32_t ls = RoundUp(len, d_.align_elems), tile = d_.rows_per_tile * d_.chunk_stride;
    const int32_t cnt = static_cast<int32_t>(len);
    LocalTensor<float> acc = acc_.Get<float>(), accg = acc, accb = acc[d_.chunk_stride];
    AscendC::Duplicate(accg, 0.0f, cnt);
    AscendC::Duplicate(accb, 0.0f, cnt);
    for (uint64_t r = 0; r < d_.rows; r += d_.rows_per_tile) {
      const uint32_t n = static_cast<uint32_t>(d_.rows - r < d_.rows_per_tile ? d_.rows - r : d_.rows_per_tile);
      this->LoadStats(r, n, d_.rows_per_tile);
      LocalTensor<T> dy, x;
      LocalTensor<float> fdy, fx;
      this->LoadPair(qdy_, qx_, r * d_.cols + c0, n, len, ls, tile, dy, x, fdy, fx);
      for (uint32_t i = 0; i < n; ++i) {
        LocalTensor<float> xi = fx[i * ls], dyi = fdy[i * ls];
        this->Xhat(xi, xi, this->Mean(i), this->Rstd(i, d_.rows_per_tile), len);
        AscendC::Mul(xi, xi, dyi, cnt);
        AscendC::Add(accg, accg, xi, cnt);
        if (this->layer_) AscendC::Add(accb, accb, dyi, cnt);
      }
      qdy_.FreeTensor(dy);
      qx_.FreeTensor(x);
    }
    Write(dgamma_, accg, c0, len, ls);
    if (this->layer_) Write(dbeta_, accb, c0, len, ls);
  }

  __aicore__ void Write(const AscendC::GlobalTensor<O>& dst, const LocalTensor<float>& acc, uint64_t c0, uint32_t len,
                        uint32_t ls) {
    LocalTensor<O> o;
    if constexpr (Base::kFloatOut) {
      o = acc;
    } else {
      o = out_.Get<O>();
      FromFloat(o, acc, len);
    }
    AscendC::SetFlag<HardEvent::V_MTE3>(EVENT_ID5);
    AscendC::WaitFlag<HardEvent::V_MTE3>(EVENT_ID5);
    StoreRows(dst[c0], o, 1, len, len, ls);
    AscendC::SetFlag<HardEvent::MTE3_V>(EVENT_ID5);
    AscendC::WaitFlag<HardEvent::MTE3_V>(EVENT_ID5);
  }

  const tl::RowTilingData& d_;
  AscendC::GlobalTensor<O> dgamma_, dbeta_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qdy_, qx_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> acc_, out_;
};

template <class T, class O>
__aicore__ void Launch(const BackwardArgs& a, const NormTiling& t) {
  AscendC::TPipe pipe;
  if (t.rows_plan.num_blocks > 0) {  // no rows: dx is empty
    DxPart<T, O> part(pipe, a, t);
    part.Run();
  }
  AscendC::PipeBarrier<PIPE_ALL>();  // part 2 reuses UB that part 1's copies may still touch
  pipe.Reset();
  if (t.cols_plan.num_blocks > 0) {
    ParamGradPart<T, O> part(pipe, a, t);
    part.Run();
  }
}

void Dispatch(const BackwardArgs& a, const NormTiling& t) {
  using npurt::DType;
  const auto in = static_cast<DType>(t.in_dtype), out = static_cast<DType>(t.out_dtype);
  if (in == DType::kFloat32) Launch<float, float>(a, t);
  else if (in == DType::kFloat16 && out == DType::kFloat32) Launch<half, float>(a, t);
  else if (in == DType::kFloat16) Launch<half, half>(a, t);
  else if (out == DType::kFloat32) Launch<bfloat16_t, float>(a, t);
  else Launch<bfloat16_t, bfloat16_t>(a, t);
}

}  // namespace
}  // namespace npurt::kernels

// layer_norm_backward: (dy, x, mean, rstd, gamma) -> (dx, dgamma, dbeta)
extern "C" __global__ __aicore__ void npurt_layer_norm_backward_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR mean,
                                                                       GM_ADDR rstd, GM_ADDR gamma, GM_ADDR dx,
                                                                       GM_ADDR dgamma, GM_ADDR dbeta,
                                                                       GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(npurt::kernels::NormTiling, t, tiling);
  npurt::kernels::Dispatch({dy, x, mean, rstd, gamma, dx, dgamma, dbeta}, t);
}

// rms_norm_backward: (dy, x, rstd, gamma) -> (dx, dgamma)
extern "C" __global__ __aicore__ void npurt_rms_norm_backward_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR rstd,
                                                                     GM_ADDR gamma, GM_ADDR dx, GM_ADDR dgamma,
                                                                     GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(npurt::kernels::NormTiling, t, tiling);
  npurt::kernels::Dispatch({dy, x, nullptr, rstd, gamma, dx, dgamma, nullptr}, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kLayerNormBackwardEntry = NPURT_SIM_ENTRY(npurt_layer_norm_backward_kernel);
extern const SimKernelEntry kRmsNormBackwardEntry = NPURT_SIM_ENTRY(npurt_rms_norm_backward_kernel);
}  // namespace npurt::kernels
#endif  // NPURT_ASCEND_DEVICE_BUILD
