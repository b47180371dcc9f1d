// kernels/softmax/softmax_columns.h: softmax / log_softmax over an axis that
// is not the last one (the "column plan"), included by softmax_kernel.cc.
//
// x is viewed as [outer, C, inner] (C = the axis length, inner > 1 = the
// product of the dims after it) and each of the outer slabs as a row-major
// [C, inner] matrix: the softmax runs down its columns. Cores split the inner
// columns (tiling engine Split::kColumns); a tile is `rows_per_tile` rows of
// a chunk of columns (DataCopyPad with the row pitch `inner`), so every vector
// op works on a whole chunk row at once, element-wise across the columns:
//   m = max over rows (Max),  s = sum over rows of exp(x - m) (Sub, Exp, Add),
//   y = exp(x - m) * (1 / s)   or   y = (x - m) - ln s.
// The host sizes the chunks so all C rows fit one tile when UB allows: then
// each chunk is loaded once. Otherwise (C rows too many) three passes re-read
// the chunk: max, sum, output. NaN and +-inf follow the last-axis kernel
// (and numpy): a column with a NaN, a +inf or only -inf is NaN.
//
// Invariants: plan.rows = outer * C (the GM extent), `axis_len` = C,
// plan.split = kColumns; UB buffers in the order of softmax_ops.cc's request.
#pragma once

#include "kernel_operator.h"
#include "norm/row_tile.h"
#include "softmax/softmax_tiling.h"

namespace npurt::kernels {

template <class T, class O>
class SoftmaxColumns {
 public:
  __aicore__ SoftmaxColumns(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& t)
      : d_(t.plan), c_(t.axis_len), log_(t.kind == static_cast<uint32_t>(SoftmaxKind::kLogSoftmax)) {
    io_.Init(pipe_, d_, x, y);
    pipe_.InitBuffer(rows_, 3 * d_.chunk_stride * sizeof(float));  // m, s (then 1/s or ln s), exp temp
  }

  __aicore__ void Run() {
    const uint32_t b = AscendC::GetBlockIdx();
    const uint64_t c0 = npurt::tiling::core_begin(d_, b), nc = npurt::tiling::core_count(d_, b);
    if (nc == 0 || c_ == 0) return;
    const uint64_t outer = d_.rows / c_;
    for (uint64_t o = 0; o < outer; ++o)
      for (uint32_t k = 0; k < d_.num_chunks; ++k) {
        const uint32_t len = npurt::tiling::chunk_len(d_, nc, k);
        if (len > 0) Chunk(o * c_, c0 + uint64_t{k} * d_.chunk, len);
      }
  }

 private:
  using Tile = typename rows::RowStage<T, O>::Tile;

  // Columns [col, col + len) of the slab whose first row is `r0`.
  __aicore__ void Chunk(uint64_t r0, uint64_t col, uint32_t len) {
    const uint32_t ls = rows::RoundUp(len, d_.align_elems), rpt = d_.rows_per_tile;
    const int32_t n = static_cast<int32_t>(len);
    AscendC::LocalTensor<float> all = rows_.Get<float>(), m = all, s = all[d_.chunk_stride], e = all[2 * d_.chunk_stride];
    if (c_ <= rpt) {  // every row in one tile: one load
      Tile t = io_.Load(r0, c_, col, len, ls);
      Stats(t, c_, ls, n, true, m, s, e);
      Stats(t, c_, ls, n, false, m, s, e);
      Finish(s, n);
      Output(t, c_, ls, n, m, s);
      io_.Store(t, r0, c_, col, len, ls);
      return;
    }
    for (int pass = 0; pass < 2; ++pass)  // max, then the sum of exp(x - m)
      for (uint64_t r = 0; r < c_; r += rpt) {
        const uint32_t nr = static_cast<uint32_t>(c_ - r < rpt ? c_ - r : rpt);
        Tile t = io_.Load(r0 + r, nr, col, len, ls);
        Stats(t, nr, ls, n, pass == 0, m, s, e, r == 0);
        io_.Drop(t);
      }
    Finish(s, n);
    for (uint64_t r = 0; r < c_; r += rpt) {
      const uint32_t nr = static_cast<uint32_t>(c_ - r < rpt ? c_ - r : rpt);
      Tile t = io_.Load(r0 + r, nr, col, len, ls);
      Output(t, nr, ls, n, m, s);
      io_.Store(t, r0 + r, nr, col, len, ls);
    }
  }

  // Folds rows [0, nr) of a tile into m (max) or s (sum of exp(x - m)); `first`
  // starts the fold (the first tile of the pass).
  __aicore__ void Stats(Tile& t, uint32_t nr, uint32_t ls, int32_t n, bool max, const AscendC::LocalTensor<float>& m,
                        const AscendC::LocalTensor<float>& s, const AscendC::LocalTensor<float>& e, bool first = true) {
    for (uint32_t i = 0; i < nr; ++i) {
      const AscendC::LocalTensor<float> xi = t.src[i * ls];
      if (max) {
        if (first && i == 0) AscendC::Adds(m, xi, 0.0f, n);
        else AscendC::Max(m, m, xi, n);
        continue;
      }
      AscendC::Sub(e, xi, m, n);
      AscendC::Exp(e, e, n);
      if (first && i == 0) AscendC::Adds(s, e, 0.0f, n);
      else AscendC::Add(s, s, e, n);
    }
  }

  // s -> ln s (log_softmax) or 1 / s (softmax), in place.
  __aicore__ void Finish(const AscendC::LocalTensor<float>& s, int32_t n) {
    if (log_) {
      AscendC::Ln(s, s, n);
    } else {
      AscendC::LocalTensor<float> one = rows_.Get<float>()[2 * d_.chunk_stride];
      AscendC::Duplicate(one, 1.0f, n);
      AscendC::Div(s, one, s, n);
    }
  }

  __aicore__ void Output(Tile& t, uint32_t nr, uint32_t ls, int32_t n, const AscendC::LocalTensor<float>& m,
                         const AscendC::LocalTensor<float>& s) {
    for (uint32_t i = 0; i < nr; ++i) {
      const AscendC::LocalTensor<float> fi = t.f[i * ls];
      AscendC::Sub(fi, t.src[i * ls], m, n);
      if (log_) {
        AscendC::Sub(fi, fi, s, n);
      } else {
        AscendC::Exp(fi, fi, n);
        AscendC::Mul(fi, fi, s, n);
      }
    }
  }

  const npurt::tiling::RowTilingData& d_;
  uint64_t c_;
  bool log_;
  AscendC::TPipe pipe_;
  rows::RowStage<T, O> io_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rows_;
};

}  // namespace npurt::kernels
