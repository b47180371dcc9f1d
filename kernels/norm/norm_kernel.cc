// kernels/norm/norm_kernel.cc: the layer_norm / rms_norm forward Ascend C
// kernel (one template NormForward<T, O> for every dtype pair).
//
//   layer_norm: y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var + eps)
//   rms_norm:   y = x * rstd * gamma,                 rstd = 1 / sqrt(mean(x^2) + eps)
//
// Everything is computed in float32. Rows that fit UB (num_chunks == 1): a
// tile of n rows moves with one DataCopyPad each way; the vector work goes a
// pair of rows at a time, statistics then y, while the pair is hot in the
// simulator host's L1 (fp16/bf16 rows are cast to float32 two rows per call
// into the first two rows of the float tile, and back into the tile's y
// rows). Per row the statistics come from the UB copy (the mean first, then
// the centred sum of squares: exact two-pass sums, no E[x^2] - mean^2
// cancellation); the pair's two sums of squares land in per-row slots, are
// read back with one V -> S sync and turned into rstd by one Rsqrt over two
// lanes, then each row is scaled. Vector calls per row: layer_norm ReduceSum,
// Adds, Mul, ReduceSum, Muls, FusedMulAdd (gamma * y + beta; the same bits as
// Mul then Add) = 6, plus per two rows one Rsqrt and, for fp16/bf16, one cast
// each way; rms_norm Mul, ReduceSum, Muls, Mul gamma. Longer rows (multi-pass
// plan): pass 1 walks the row's chunks combining per-chunk (mean, M2) with
// Chan's formula, pass 2 re-reads the chunks and writes y.
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

template <class T, class O>
class NormForward {
 public:
  static constexpr bool kFloatIn = std::is_same<T, float>::value;

  __aicore__ NormForward(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                         const NormTiling& t)
      : t_(t), d_(t.rows_plan), layer_(t.kind == static_cast<uint32_t>(NormKind::kLayer)) {
    io_.Init(pipe_, d_, x, y);
    if (t.has_gamma) gamma_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), d_.cols);
    if (t.has_beta) beta_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(beta), d_.cols);
    mean_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mean), d_.rows);
    rstd_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(rstd), d_.rows);
    const uint32_t cs = d_.chunk_stride;
    pipe_.InitBuffer(sq_, cs * sizeof(float));
    if (t.has_gamma || t.has_beta) {
      pipe_.InitBuffer(params_, 2 * cs * sizeof(float));
      p_ = params_.Get<float>();  // taken once: Normalize reads them for every row
      beta_t_ = p_[cs];
    }
    if (!kFloatIn && (t.has_gamma || t.has_beta)) pipe_.InitBuffer(stage_, cs * sizeof(T));
    pipe_.InitBuffer(stats_, 2 * RoundUp(d_.rows_per_tile, 8) * sizeof(float));
    pipe_.InitBuffer(sums_, d_.rows_per_tile * 8 * sizeof(float));  // one 32-byte ReduceSum slot per row
    red_.Init(pipe_, d_.chunk);
    st_ = stats_.Get<float>(), sq_t_ = sq_.Get<float>(), sums_t_ = sums_.Get<float>();  // taken once: used per pair
    rstd_at_ = RoundUp(d_.rows_per_tile, 8);
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t r0 = tl::core_begin(d_, b), nr = tl::core_count(d_, b);
    if (nr == 0) return;
    if (d_.num_chunks == 1) {
      if (t_.has_gamma || t_.has_beta) LoadParams(0, static_cast<uint32_t>(d_.cols));
      for (uint64_t r = r0; r < r0 + nr; r += d_.rows_per_tile)
        WholeRows(r, static_cast<uint32_t>(r0 + nr - r < d_.rows_per_tile ? r0 + nr - r : d_.rows_per_tile));
    } else {
      for (uint64_t r = r0; r < r0 + nr; ++r) ChunkedRow(r);
    }
  }

 private:
  // gamma/beta columns [c0, c0 + len) -> params_ as float (gamma at 0, beta at chunk_stride).
  __aicore__ void LoadParams(uint64_t c0, uint32_t len) {
    const LocalTensor<float>& p = p_;
    const uint32_t ls = RoundUp(len, d_.align_elems);
    for (int i = 0; i < 2; ++i) {
      if (!(i == 0 ? t_.has_gamma : t_.has_beta)) continue;
      const auto& g = i == 0 ? gamma_ : beta_;
      LocalTensor<float> dst = p[i * d_.chunk_stride];
      if constexpr (kFloatIn) {
        LoadRows(dst, g[c0], 1, len, len, ls);
        AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      } else {
        LocalTensor<T> s = stage_.Get<T>();
        LoadRows(s, g[c0], 1, len, len, ls);
        AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        ToFloat(dst, s, ls);
        AscendC::SetFlag<HardEvent::V_MTE2>(EVENT_ID0);  // the stage is reused by the next load
        AscendC::WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
      }
    }
  }

  // y row = (src - shift) * scale * gamma + beta over len lanes.
  __aicore__ void Normalize(const LocalTensor<float>& dst, const LocalTensor<float>& src, float shift, float scale,
                            uint32_t len) {
    const int32_t n = static_cast<int32_t>(len);
    if (shift != 0.0f) {
      AscendC::Adds(dst, src, -shift, n);
      AscendC::Muls(dst, dst, scale, n);
    } else {
      AscendC::Muls(dst, src, scale, n);
    }
    if (!t_.has_gamma && !t_.has_beta) return;  // params_ exists only with gamma or beta
    const LocalTensor<float>& p = p_;
    if (t_.has_gamma && t_.has_beta) {
      AscendC::FusedMulAdd(dst, p, beta_t_, n);  // gamma * dst + beta: one pass instead of Mul + Add
      return;
    }
    if (t_.has_gamma) AscendC::Mul(dst, dst, p, n);
    if (t_.has_beta) AscendC::Add(dst, dst, beta_t_, n);
  }

  // Statistics out: stats_[0, n) mean, stats_[s, s + n) rstd (vector-written).
  __aicore__ void StoreStats(uint64_t r, uint32_t n) {
    LocalTensor<float> st = stats_.Get<float>();
    const uint32_t s = RoundUp(d_.rows_per_tile, 8);
    AscendC::SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::SetFlag<HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<HardEvent::S_MTE3>(EVENT_ID1);
    if (layer_) StoreRows(mean_[r], st, 1, n, n, RoundUp(n, 8));
    StoreRows(rstd_[r], st[s], 1, n, n, RoundUp(n, 8));
    AscendC::SetFlag<HardEvent::MTE3_V>(EVENT_ID1);  // the next tile overwrites the statistics
    AscendC::WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    AscendC::SetFlag<HardEvent::MTE3_S>(EVENT_ID1);
    AscendC::WaitFlag<HardEvent::MTE3_S>(EVENT_ID1);
  }

  // rstd[0, n) = 1 / sqrt(var[0, n) + eps), var held in place.
  __aicore__ void VarToRstd(const LocalTensor<float>& v, uint32_t n) {
    ScalarToVector();
    AscendC::Adds(v, v, t_.eps, static_cast<int32_t>(n));
    AscendC::Sqrt(v, v, static_cast<int32_t>(n));
    AscendC::Reciprocal(v, v, static_cast<int32_t>(n));
  }

  // Lanes of rows i and i + 1 of a tile of n rows (row i alone when it is the
  // last): the fp16/bf16 casts convert two rows per call, which halves their
  // fixed cost per row and keeps the working set small (4-row casts plus a
  // 4-row square were slower: "Layer_norm float16 passes (wave 10)" in
  // docs/performance-history.md). The pad lanes between the two rows are converted
  // junk that no result reads; element-wise, so the same bits as per-row casts.
  static __aicore__ uint32_t PairLanes(uint32_t i, uint32_t n, uint32_t len, uint32_t ls) {
    return i + 1 < n ? ls + len : len;
  }

  // Statistics of the k (1 or 2) rows at src (rows ls apart): layer_norm's
  // means go through the rows' slots (both ReduceSums, then one V -> S read for
  // the pair: the two sums' in-order tails overlap) into st[i + j], the centred
  // rows land in f, then each row's sum of squares lands in its slot.
  __aicore__ void PairStats(const LocalTensor<float>& src, const LocalTensor<float>& f, uint32_t i, uint32_t k,
                            uint32_t len, uint32_t ls) {
    const LocalTensor<float>&st = st_, &sq = sq_t_, &sums = sums_t_;
    const int32_t cnt = static_cast<int32_t>(len);
    float mean[2] = {0.0f, 0.0f};
    if (layer_) {
      for (uint32_t j = 0; j < k; ++j) red_.SumTo(sums[(i + j) * 8], src[j * ls], len);
      AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
      AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
      for (uint32_t j = 0; j < k; ++j) {
        mean[j] = sums.GetValue((i + j) * 8) * t_.inv_cols;
        st.SetValue(i + j, mean[j]);
      }
      ScalarToVector();  // the slots are rewritten below with the sums of squares
    }
    for (uint32_t j = 0; j < k; ++j) {
      if (layer_) {
        const LocalTensor<float> fj = f[j * ls];
        AscendC::Adds(fj, src[j * ls], -mean[j], cnt);
        AscendC::Mul(sq, fj, fj, cnt);
      } else {
        AscendC::Mul(sq, src[j * ls], src[j * ls], cnt);
      }
      red_.SumTo(sums[(i + j) * 8], sq, len);
    }
  }

  // rstd of rows i and i + 1 (k of them) from their slots' sums of squares:
  // one V -> S sync, var + eps on the scalar unit (two statements, as the
  // vector Adds rounded them: no fused multiply-add), one Rsqrt over k lanes
  // of the scalar slot (the simulator's Rsqrt is 1 / sqrt, so the same bits as
  // Sqrt then Reciprocal in one vector call), V -> S again; rstd goes to rstd[j]
  // and to the tile's statistics.
  __aicore__ void PairRstd(uint32_t i, uint32_t k, float* rstd) {
    const LocalTensor<float>& v = red_.Slot();
    AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
    AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
    for (uint32_t j = 0; j < k; ++j) {
      const float var = sums_t_.GetValue((i + j) * 8) * t_.inv_cols;
      v.SetValue(j, var + t_.eps);
    }
    ScalarToVector();  // also guards the slots against the next pair's ReduceSum
    AscendC::Rsqrt(v, v, static_cast<int32_t>(k));
    AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
    AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
    for (uint32_t j = 0; j < k; ++j) {
      rstd[j] = v.GetValue(j);
      st_.SetValue(rstd_at_ + i + j, rstd[j]);
    }
  }

  // One DataCopyPad in and out per tile; the vector work goes a pair of rows
  // at a time, statistics then y, so the pair's float rows are still in the
  // simulator host's L1 when they are scaled (phase 2 over the whole tile read
  // its 14 float rows of 4 KiB back from L2, and a tile-wide rstd needs them
  // all). Float16/bfloat16 in and out: every pair is computed in the first
  // two rows of f (8 KiB that stay hot), cast from x and back into y at the
  // pair's own rows; float32 in or out: f and src are the tile's own rows.
  // (Shrinking f to two rows in the plan gave 20-row tiles but no measurable
  // gain, and longer chunks of the multi-pass plan would have lost UB.)
  __aicore__ void WholeRows(uint64_t r, uint32_t n) {
    constexpr bool kPairF = !kFloatIn && !std::is_same<O, float>::value;  // f is a float tile of its own
    const uint32_t len = static_cast<uint32_t>(d_.cols), ls = d_.chunk_stride;
    auto tile = io_.Load(r, n, 0, len, ls, false);  // x is cast pair by pair below
    for (uint32_t i = 0; i < n; i += 2) {
      const uint32_t k = i + 1 < n ? 2 : 1, lanes = PairLanes(i, n, len, ls);
      const LocalTensor<float> f = tile.f[kPairF ? 0 : i * ls], src = tile.src[kPairF ? 0 : i * ls];
      if constexpr (!kFloatIn) ToFloat(f, tile.x[i * ls], lanes);
      PairStats(src, f, i, k, len, ls);
      float rstd[2];
      PairRstd(i, k, rstd);
      const LocalTensor<float>& in = layer_ ? f : src;
      for (uint32_t j = 0; j < k; ++j) Normalize(f[j * ls], in[j * ls], 0.0f, rstd[j], len);
      if constexpr (!std::is_same<O, float>::value) FromFloat(tile.y[i * ls], f, lanes);
    }
    io_.Store(tile, r, n, 0, len, ls, false);
    StoreStats(r, n);
  }

  // Pass 1 of a long row: (mean, M2) or the sum of squares, chunk by chunk.
  __aicore__ void ChunkStats(uint64_t r, float& mean, float& m2) {
    float count = 0.0f;
    mean = 0.0f, m2 = 0.0f;
    LocalTensor<float> sq = sq_.Get<float>();
    for (uint32_t c = 0; c < d_.num_chunks; ++c) {
      const uint32_t len = tl::chunk_len(d_, d_.cols, c), ls = RoundUp(len, d_.align_elems);
      auto tile = io_.Load(r, 1, uint64_t{c} * d_.chunk, len, ls);
      const LocalTensor<float>& src = tile.src;
      float cm = 0.0f;
      if (layer_) {
        cm = red_.Sum(src, len) / static_cast<float>(len);
        AscendC::Adds(sq, src, -cm, static_cast<int32_t>(len));
        AscendC::Mul(sq, sq, sq, static_cast<int32_t>(len));
      } else {
        AscendC::Mul(sq, src, src, static_cast<int32_t>(len));
      }
      const float cm2 = red_.Sum(sq, len);
      const float n1 = count + static_cast<float>(len), delta = cm - mean;
      mean += delta * (static_cast<float>(len) / n1);  // Chan et al.: merge (count, mean, m2) with the chunk's
      m2 += cm2 + delta * delta * (count * static_cast<float>(len) / n1);
      count = n1;
      io_.Drop(tile);
    }
  }

  __aicore__ void ChunkedRow(uint64_t r) {
    float mean, m2;
    ChunkStats(r, mean, m2);
    LocalTensor<float> st = stats_.Get<float>();
    const uint32_t s = RoundUp(d_.rows_per_tile, 8);
    st.SetValue(0, layer_ ? mean : 0.0f);
    st.SetValue(s, m2 * t_.inv_cols);
    LocalTensor<float> rs = st[s];
    VarToRstd(rs, 1);
    const float rstd = ReadScalar(rs, 0);
    for (uint32_t c = 0; c < d_.num_chunks; ++c) {
      const uint64_t c0 = uint64_t{c} * d_.chunk;
      const uint32_t len = tl::chunk_len(d_, d_.cols, c), ls = RoundUp(len, d_.align_elems);
      if (t_.has_gamma || t_.has_beta) LoadParams(c0, len);
      auto tile = io_.Load(r, 1, c0, len, ls);
      Normalize(tile.f, tile.src, layer_ ? mean : 0.0f, rstd, len);
      io_.Store(tile, r, 1, c0, len, ls);
      AscendC::SetFlag<HardEvent::V_MTE2>(EVENT_ID2);  // params_ is reloaded for the next chunk
      AscendC::WaitFlag<HardEvent::V_MTE2>(EVENT_ID2);
    }
    StoreStats(r, 1);
  }

  const NormTiling& t_;
  const tl::RowTilingData& d_;
  bool layer_;
  AscendC::GlobalTensor<T> gamma_, beta_;
  AscendC::GlobalTensor<float> mean_, rstd_;
  AscendC::TPipe pipe_;
  RowStage<T, O> io_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sq_, params_, stage_, stats_, sums_;
  LocalTensor<float> p_, beta_t_;  // params_ as float: gamma at 0, beta (beta_t_) at chunk_stride
  LocalTensor<float> st_, sq_t_, sums_t_;  // stats_ (mean at 0, rstd at rstd_at_), sq_, sums_
  uint32_t rstd_at_ = 0;
  RowReducer red_;
};

template <class T, class O>
__aicore__ void Launch(GM_ADDR x, GM_ADDR g, GM_ADDR b, GM_ADDR y, GM_ADDR m, GM_ADDR r, const NormTiling& t) {
  NormForward<T, O> k(x, g, b, y, m, r, t);
  k.Run();
}

}  // namespace
}  // namespace npurt::kernels

// layer_norm: (x, gamma, beta) -> (y, mean, rstd); rms_norm: (x, gamma) -> (y, rstd).
// One body: rms_norm's entry passes no beta and no mean (the tiling's kind says which).
extern "C" __global__ __aicore__ void npurt_layer_norm_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                              GM_ADDR mean, GM_ADDR rstd, GM_ADDR workspace,
                                                              GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  using npurt::DType;
  GET_TILING_DATA_WITH_STRUCT(NormTiling, t, tiling);
  const auto in = static_cast<DType>(t.in_dtype), out = static_cast<DType>(t.out_dtype);
  if (in == DType::kFloat32) Launch<float, float>(x, gamma, beta, y, mean, rstd, t);
  else if (in == DType::kFloat16 && out == DType::kFloat32) Launch<half, float>(x, gamma, beta, y, mean, rstd, t);
  else if (in == DType::kFloat16) Launch<half, half>(x, gamma, beta, y, mean, rstd, t);
  else if (out == DType::kFloat32) Launch<bfloat16_t, float>(x, gamma, beta, y, mean, rstd, t);
  else Launch<bfloat16_t, bfloat16_t>(x, gamma, beta, y, mean, rstd, t);
}

extern "C" __global__ __aicore__ void npurt_rms_norm_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                            GM_ADDR workspace, GM_ADDR tiling) {
  npurt_layer_norm_kernel(x, gamma, nullptr, y, nullptr, rstd, workspace, tiling);  // no mean output
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kLayerNormEntry = NPURT_SIM_ENTRY(npurt_layer_norm_kernel);
extern const SimKernelEntry kRmsNormEntry = NPURT_SIM_ENTRY(npurt_rms_norm_kernel);
}  // namespace npurt::kernels
#endif  // NPURT_ASCEND_DEVICE_BUILD
