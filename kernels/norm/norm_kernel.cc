// kernels/norm/norm_kernel.cc: the layer_norm / rms_norm forward Ascend C
// kernel (one template NormForward<T, O> for every dtype pair).
//
//   layer_norm: y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var + eps)
//   rms_norm:   y = x * rstd * gamma,                 rstd = 1 / sqrt(mean(x^2) + eps)
//
// Everything is computed in float32. Rows that fit UB (num_chunks == 1): a
// tile of n rows moves with one DataCopyPad each way; fp16/bf16 rows are cast
// to float32 two rows at a time right before their statistics and back right
// after their normalisation (on the simulator a row cast while hot in the
// host's L1 is ~2x cheaper than a whole-tile cast streamed through L2). Per
// row the statistics come from the UB copy (the mean first, then the centred
// sum of squares: exact two-pass sums, no E[x^2] - mean^2 cancellation), the
// sums of squares land in per-row slots that are read back once per tile (one
// V -> S sync per tile, not per row), one vector pass turns the tile's
// variances into rstd (Adds/Sqrt/Reciprocal), then each row is scaled. Vector
// calls per row: layer_norm ReduceSum, Adds, Mul, ReduceSum, Muls, FusedMulAdd
// (gamma * y + beta; the same bits as Mul then Add) = 6, plus one cast each way per two rows
// for fp16/bf16; rms_norm Mul, ReduceSum, Muls, Mul gamma. Longer rows
// (multi-pass plan): pass 1 walks the row's chunks combining per-chunk
// (mean, M2) with Chan's formula, pass 2 re-reads the chunks and writes y.
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

  // Phase 1 of a tile, a pair of rows at a time (the rows' ops follow each
  // other, so on the simulator they stay in the host's L1 cache; the fp16/bf16
  // cast takes the two rows in one call, PairLanes): layer_norm's means go
  // through the rows' slots (both ReduceSums, then one V -> S read for the
  // pair: the two sums' in-order tails overlap and the pair pays one sync
  // round trip instead of two) into st[i], the centred rows are kept in f,
  // then each row's sum of squares lands in its slot (no read-back here:
  // TileRstd reads every slot after one sync).
  __aicore__ void RowStats(typename RowStage<T, O>::Tile& tile, uint32_t n, uint32_t len, uint32_t ls) {
    LocalTensor<float> st = stats_.Get<float>(), sq = sq_.Get<float>(), sums = sums_.Get<float>();
    const int32_t cnt = static_cast<int32_t>(len);
    for (uint32_t i = 0; i < n; i += 2) {
      const uint32_t k = i + 1 < n ? 2 : 1;
      if constexpr (!kFloatIn) ToFloat(tile.src[i * ls], tile.x[i * ls], PairLanes(i, n, len, ls));
      float mean[2] = {0.0f, 0.0f};
      if (layer_) {
        for (uint32_t j = 0; j < k; ++j) red_.SumTo(sums[(i + j) * 8], tile.src[(i + j) * ls], len);
        AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
        AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
        for (uint32_t j = 0; j < k; ++j) {
          mean[j] = sums.GetValue((i + j) * 8) * t_.inv_cols;
          st.SetValue(i + j, mean[j]);
        }
        ScalarToVector();  // the slots are rewritten below with the sums of squares
      }
      for (uint32_t j = 0; j < k; ++j) {
        const LocalTensor<float> si = tile.src[(i + j) * ls];
        if (layer_) {
          LocalTensor<float> fi = tile.f[(i + j) * ls];
          AscendC::Adds(fi, si, -mean[j], cnt);
          AscendC::Mul(sq, fi, fi, cnt);
        } else {
          AscendC::Mul(sq, si, si, cnt);
        }
        red_.SumTo(sums[(i + j) * 8], sq, len);
      }
    }
  }

  // The tile's sums of squares -> rstd at st[s, s + n): one V -> S sync for the
  // tile, the scalar moves, one vector Adds/Sqrt/Reciprocal, then V -> S again.
  __aicore__ LocalTensor<float> TileRstd(uint32_t n) {
    LocalTensor<float> st = stats_.Get<float>(), sums = sums_.Get<float>();
    const uint32_t s = RoundUp(d_.rows_per_tile, 8);
    AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
    AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
    for (uint32_t i = 0; i < n; ++i) st.SetValue(s + i, sums.GetValue(i * 8) * t_.inv_cols);
    LocalTensor<float> rs = st[s];
    VarToRstd(rs, n);  // starts with S -> V (also guards the slots against the next tile's ReduceSum)
    AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
    AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
    return rs;
  }

  // One DataCopyPad in and out per tile; the vector work goes row by row in two
  // phases (statistics, then y) around one batched rstd computation. Phase 2
  // walks the rows backwards: a tile's float rows (14 x 4 KiB for 1024
  // columns) overflow the simulator host's L1, and the rows phase 1 touched
  // last are the ones still there (forwards, LRU evicts each row just before
  // it is needed); it also leaves row 0 hot for the next tile's phase 1.
  __aicore__ void WholeRows(uint64_t r, uint32_t n) {
    const uint32_t len = static_cast<uint32_t>(d_.cols), ls = d_.chunk_stride;
    auto tile = io_.Load(r, n, 0, len, ls, false);  // x is cast row by row in RowStats
    RowStats(tile, n, len, ls);
    const LocalTensor<float> rs = TileRstd(n);
    const LocalTensor<float>& in = layer_ ? tile.f : tile.src;
    for (uint32_t i = n; i-- > 0;) {
      Normalize(tile.f[i * ls], in[i * ls], 0.0f, rs.GetValue(i), len);
      if constexpr (!std::is_same<O, float>::value) {  // rows i and i + 1 (walking backwards, i + 1 is done)
        if (i % 2 == 0) FromFloat(tile.y[i * ls], tile.f[i * ls], PairLanes(i, n, len, ls));
      }
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
