// kernels/attention/attention_fwd_kernel.cc: the fused flash-attention forward
// kernel (`attention`). Work item (bh, q tile): for every kv tile (only those
// at or left of the diagonal when causal) the cube computes S = Q K^T into a
// per-block GM tile, the vector unit scales and masks it and runs the online
// softmax, and the cube accumulates P V. Finally out = acc / l and
// lse = m + ln(l). Only tile-sized scratch ever reaches GM; the S x S matrix
// never exists. Fully masked rows: l = 0, out = 0, lse = -inf (docs/kernels.md).
//
// Cube data moves per kv tile are only K (to L0B), P and V: the item's Q tile
// stays in L0A (AttnScoreCube), pre-multiplied by the scale where exact
// (scaleInQ), so score tiles need no Muls. Causal items run heaviest first and
// diagonal tiles are masked with precomputed keep-bits. Non-causal blocks take
// a contiguous run of items (consecutive q tiles of a head), and the L1 images
// of the head's K and V tiles stay cached (as many as the L1 left over holds),
// so each K/V tile is converted GM -> L1 once per head and block, not once
// per q tile.
//
// Lazy rescaling: the softmax subtracts a per-row reference m (not always the
// running max). A kv tile moves the reference only when some row's tile max
// exceeds it by more than kAttnLazyRescale (or is NaN, or at the first tile);
// otherwise P = exp(s - m) <= e^8 and P V keeps accumulating in L0C across kv
// tiles (the P V cube has its own L0C buffer, so S = Q K^T does not disturb it). When the
// reference moves, the L0C partial is flushed (Fixpipe -> GM -> UB), added to
// the float accumulator (same reference), and acc, l are rescaled by
// exp(m_old - m_new). With the usual scores that happens at the first tile
// only, so most kv tiles skip the product tile's Fixpipe, its copy to UB and
// the per-row rescale of the accumulator. When the rows' references are close
// (ShareReference) they become one shared value, subtracted by one whole-tile
// instruction instead of one per row, or by none when that value is 0 (chosen
// whenever it is a valid shared reference with the row maxima <= kAttnZeroRefMax).
// Optimistic steps: a later kv tile first runs exp(s - m) under the unchanged
// references and checks the row sums afterwards (SoftmaxUnderReference): a
// row sum <= kAttnOptimisticSum proves no score passed its reference by more
// than kAttnLazyRescale, so the tile needs neither the max screen nor the row
// maxima. Otherwise S is reloaded from GM and the screened path runs (and the
// next tile skips its try, so steadily rising scores pay at most every other tile).
// The item's first tile tries the zero reference the same way (FirstUnderZero).
#include "attention/attention_row_scale.h"
#include "attention/attention_row_sums.h"
#include "attention/attention_rows.h"
#include "attention/attention_score_cube.h"
#include "attention/attention_scores.h"
#include "attention/attention_stream.h"
#include "attention/attention_tiling.h"
#include "attention/attention_value_cube.h"
#include "attention/attention_workspace.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt_kernels {
namespace {

// How far (in score units) a row max may pass the softmax reference before
// the reference moves: P <= e^8 ~ 2981, exact enough in every input type.
constexpr float kAttnLazyRescale = 8.0f;
// The optimistic step's bound on a row sum of P: below e^8 = 2980.96 by more
// than Exp's 2 ulp, so a sum under it proves every P <= e^8 (SoftmaxUnderReference).
constexpr float kAttnOptimisticSum = 2980.0f;

// How far below the shared reference a row's own max may lie (ShareReference):
// P of that row is <= e^-spread at its max. float / bfloat16 P keep full
// relative precision down to ~e^-87, so 30 loses nothing; float16 P becomes
// subnormal below e^-9.7, so its rows stay within e^-4 (P >= 0.018 at the max).
template <class T>
constexpr float kAttnShareSpread = std::is_same_v<T, half> ? 4.0f : 30.0f;

// The largest tile max for which a shared reference may be 0 (ShareReference):
// exp(s - 0) needs no subtraction pass. Below kAttnLazyRescale (P <= e^8 as
// for any reference), with room for later tiles' maxima to rise by 2 before
// the reference moves. A row sum under 0 is e^hi times the sum under hi, so
// flat rows of high scores can fail the optimistic check (128 e^6 > 2980);
// the first such failure in an item drops the zero reference (zeroRefOk_).
constexpr float kAttnZeroRefMax = 6.0f;

// e^-kAttnShareSpread<T>: the least P a row's max may give under a shared reference.
template <class T>
constexpr float kAttnMinShare = std::is_same_v<T, half> ? 0.018315639f : 9.3576230e-14f;

template <class T>
class AttnForward {
 public:
  __aicore__ void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mask, GM_ADDR out, GM_ADDR lse,
                       GM_ADDR workspace, const AttnTiling& t) {
    t_ = t;
    mask_ = mask;
    const uint64_t qn = uint64_t{t.batchHeads} * t.sq * t.d, kn = uint64_t{t.batchHeads} * t.skv * t.d;
    q_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(q), qn);
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(k), kn);
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(v), kn);
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), qn);
    lse_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(lse), uint64_t{t.batchHeads} * t.sq);
    ws_.Init(workspace, t);
    const uint32_t tt = t.tile * t.tile, td = t.tile * t.dp;
    // The host sized kStep for both cubes' L0A/L0B and the K/V caches from the L1 left over.
    scube_.Init(pipe_, t.tile, t.dp, t.kStep, t.kCacheTiles);
    vcube_.Init(pipe_, t.tile, t.dp, t.kStep, t.vCacheTiles);
    pipe_.InitBuffer(sBuf_, tt * 4);
    constexpr bool kCast = !std::is_same_v<T, float>;  // float P and out need no cast buffers
    pipe_.InitBuffer(pBuf_, kCast ? tt * sizeof(T) : 32);
    pipe_.InitBuffer(accBuf_, td * 4);
    pipe_.InitBuffer(xBuf_, t.dp > t.tile ? td * 4 : 32);  // else P V lands in the S buffer
    pipe_.InitBuffer(outBuf_, kCast ? td * sizeof(T) : 32);
    pipe_.InitBuffer(rowBuf_, kRowStats * kLane * t.tile * 4);
    pipe_.InitBuffer(bitsBuf_, kLane / 8 * t.tile + 32);
    pipe_.InitBuffer(workBuf_, 64 * 4);
    pipe_.InitBuffer(halfBuf_, kCast ? 32 : tt * 2);  // the max screen's scratch (16-bit types use P's)
    if (t.maskKind != static_cast<uint32_t>(AttnMask::kNone)) masker_.Init(pipe_, t.tile);
    if (t.causal) BuildCausalBits();
    // AttnRowSums reads every lane of its scratch: define them once.
    if (t.tile > 64) AscendC::Duplicate(Scratch(), 0.0f, static_cast<int32_t>(kLane * t.tile + 8));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  __aicore__ void Process() {
    const uint64_t items = uint64_t{t_.batchHeads} * t_.qTiles;
    const uint64_t blocks = AscendC::GetBlockNum(), b = AscendC::GetBlockIdx();
    if (!t_.causal) {
      // A contiguous run of items per block: consecutive q tiles of one head,
      // so the K/V tiles cached in L1 serve every q tile of the head after the first.
      for (uint64_t w = items * b / blocks; w < items * (b + 1) / blocks; ++w)
        RunItem(static_cast<uint32_t>(w / t_.qTiles), static_cast<uint32_t>(w % t_.qTiles));
      return;
    }
    for (uint64_t w = b; w < items; w += blocks) {
      // Causal item qt costs qt + 1 kv tiles. Heads-fastest, last q tile first:
      // every block gets a mix of costs (not one q tile each, as when the block
      // count is a multiple of qTiles) and the cheap items come last, so the
      // blocks finish together.
      const uint32_t bh = static_cast<uint32_t>(w % t_.batchHeads);
      RunItem(bh, t_.qTiles - 1 - static_cast<uint32_t>(w / t_.batchHeads));
    }
  }

 private:
  __aicore__ void RunItem(uint32_t bh, uint32_t qt) {
    const uint32_t q0 = qt * t_.tile, rows = t_.sq - q0 < t_.tile ? t_.sq - q0 : t_.tile;
    AscendC::LocalTensor<float> rowv = rowBuf_.Get<float>();
    accLive_ = false;  // acc is defined by the item's first flush (no zero fill, no Add into zeros)
    AscendC::Duplicate(rowv, 0.0f, static_cast<int32_t>(kRowStats * kLane * t_.tile));  // l = 0, every lane defined
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Duplicate(Stat(kM), -kAttnInf, static_cast<int32_t>(kLane * t_.tile));
    uint32_t kvEnd = t_.kvTiles;
    if (t_.causal && qt + 1 < kvEnd) kvEnd = qt + 1;  // tiles right of the diagonal are all masked
    pending_ = false;
    tryUnder_ = true;
    zeroRefOk_ = true;
    mMin_ = -kAttnInf;
    const AscendC::GlobalTensor<T> q = q_[(uint64_t{bh} * t_.sq + q0) * t_.d];
    if (t_.scaleInQ) ScaleQ(q, rows);
    scube_.BeginItem(t_.scaleInQ ? ws_.q : q, rows, t_.d);
    for (uint32_t kt = 0; kt < kvEnd; ++kt) KvStep(bh, qt, kt, q0, rows);
    if (pending_) FlushProduct(rows);
    Finish(bh, q0, rows);
  }

  __aicore__ void KvStep(uint32_t bh, uint32_t qt, uint32_t kt, uint32_t q0, uint32_t rows) {
    const uint32_t k0 = kt * t_.tile, cols = t_.skv - k0 < t_.tile ? t_.skv - k0 : t_.tile;
    const uint64_t kOff = (uint64_t{bh} * t_.skv + k0) * t_.d;
    AscendC::LocalTensor<float> s = sBuf_.Get<float>();
    scube_.Scores(k_[kOff], cols, t_.d, ws_.s, t_.tile, bh, kt);
    // Optimistic step (tried unless the previous try failed): exp under the
    // unchanged references, checked afterwards. On failure S is reloaded from
    // ws_.s (still the raw product) and the screened path below runs.
    // The item's first tile tries the zero reference (FirstUnderZero) unless
    // the block's previous item failed that try (then the next item tries again).
    const bool tried = kt == 0 ? firstTry_ : tryUnder_ && mMin_ > -kAttnInf;
    // A plain tile tried under one shared reference streams (AttnStreamExp):
    // S is loaded, exponentiated, summed and stored as P one band of rows at a time.
    const bool stream = tried && Streamable(qt, kt) && (kt == 0 || uniform_);
    if (!stream) LoadTile(s, bh, qt, kt, q0, rows, cols);
    const uint32_t sc = stream ? cols : 0;
    const bool done = tried && (kt == 0 ? FirstUnderZero(s, rows, sc) : SoftmaxUnderReference(s, rows, sc));
    if (kt == 0) firstTry_ = done || !tried;
    bool moved = false;
    if (!done) {
      if (tried) LoadTile(s, bh, qt, kt, q0, rows, cols);  // the try spent s (or never loaded it)
      // A failed try under the zero reference: its row sums are e^hi times
      // larger than under the tile max, so move to the tile max now (a move
      // is always valid) rather than fail every later try of the item.
      const bool dropZero = kt > 0 && tried && uniform_ && sharedRef_ == 0.0f;
      zeroRefOk_ = zeroRefOk_ && !dropZero;
      moved = OnlineSoftmax(s, rows, kt == 0 || dropZero);
      dirtyJunk_ = true;
    }
    tryUnder_ = kt == 0 || done || !tried;  // a failed try skips the next tile's try
    if (!(stream && done)) AttnStoreP(ws_.p, s, pBuf_.Get<T>(), 0, rows * t_.tile);  // streamed: stored
    AscendC::PipeBarrier<PIPE_ALL>();
    // The S buffer is free from here (the product tile may land in it).
    if (moved) {
      if (pending_) FlushProduct(rows);  // the partial P V still has the old reference
      if (kt > 0 && accLive_) RescaleAcc(rows);  // nothing flushed yet: nothing to rescale
    }
    if (!pending_) vcube_.Begin();
    vcube_.Accumulate(ws_.p, t_.tile, v_[kOff], rows, t_.d, cols, bh, kt);
    pending_ = true;
  }

  // s = the scaled, masked score tile from the raw product in ws_.s (which
  // stays valid until the next Scores, so a failed optimistic step reloads it).
  __aicore__ void LoadTile(const AscendC::LocalTensor<float>& s, uint32_t bh, uint32_t qt, uint32_t kt, uint32_t q0,
                           uint32_t rows, uint32_t cols) {
    const uint32_t k0 = kt * t_.tile;
    LoadScaledScores(s, ws_.s, t_.tile, rows, cols, t_.scaleInQ ? 1.0f : t_.scale);
    if (t_.maskKind != static_cast<uint32_t>(AttnMask::kNone)) {
      const uint32_t b = bh / t_.heads, h = bh % t_.heads;
      MaskView mv{int64_t(b) * t_.maskStrideB + int64_t(h) * t_.maskStrideH + int64_t(q0) * t_.maskStrideQ +
                      int64_t(k0) * t_.maskStrideK,
                  t_.maskStrideQ, t_.maskStrideK};
      masker_.AddMask(s, t_.tile, rows, cols, mask_, static_cast<AttnMask>(t_.maskKind), mv);
    }
    if (t_.causal && kt == qt) {  // diagonal tile (q0 == k0): keep column c of row r iff c <= r
      AscendC::Select(s, causalBuf_.Get<uint8_t>(), s, -kAttnInf, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                      rows * t_.tile);
      AscendC::PipeBarrier<PIPE_ALL>();
    }
  }

  // The optimistic softmax step of a later kv tile: P = exp(s - m) under the
  // unchanged references, row sums into delta, then the check that no row
  // needs its reference moved. exp(x) <= a row's sum, so every row sum
  // <= kAttnOptimisticSum (< e^8 by more than Exp's error) implies every
  // s - m <= kAttnLazyRescale: the tile the screened path (BelowReference /
  // AttnRowMaxes) would not have moved, and the same P and l bit for bit
  // (the same instructions in the same order). A NaN sum fails the check.
  // On success l += delta and true; on failure (s is then spent) false, l unchanged.
  // streamCols > 0: s is not loaded yet; the step streams (AttnStreamExp, cols = streamCols).
  __aicore__ bool SoftmaxUnderReference(const AscendC::LocalTensor<float>& s, uint32_t rows, uint32_t streamCols) {
    AscendC::LocalTensor<float> l = Stat(kL), red = Stat(kRed), delta = Stat(kDelta);
    AscendC::LocalTensor<float> sums = Stat(kAlpha);  // alpha is only read after a move, not on this path
    const int32_t nl = static_cast<int32_t>(kLane * rows);
    if (dirtyJunk_) CleanJunk(rows);
    ExpRows(s, rows, false, streamCols);
    // One dense max over every lane of delta: a lane between the row slots
    // holds junk, which can only fail the check (the max over a superset is
    // never smaller), never pass a row that should move. CleanJunk keeps that junk small.
    AscendC::ReduceMax(red, delta, sums, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (!(red.GetValue(0) <= kAttnOptimisticSum)) return false;
    AscendC::Add(l, l, delta, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    return true;
  }

  // The first kv tile of an item under the zero reference, checked
  // afterwards (the first-tile form of SoftmaxUnderReference): P = exp(s)
  // and its row sums into delta. Every row sum <= kAttnOptimisticSum proves
  // every score <= kAttnLazyRescale (0 is a valid reference), every row sum >=
  // tile e^-spread proves each row's largest P >= e^-spread (the largest P of
  // a row is at least its sum / tile): the bounds ShareReference puts on a
  // shared reference. Then m = 0, l = the sums: no row maxima, no
  // MoveReference. A NaN, a fully masked row (sum 0) or scores past 8 fail:
  // false, m and l unchanged, s spent (the caller reloads it). The lanes of
  // delta between the row slots are preset inside both bounds, so they cannot
  // fail the check (and a lane of a row is checked whatever they hold).
  __aicore__ bool FirstUnderZero(const AscendC::LocalTensor<float>& s, uint32_t rows, uint32_t streamCols) {
    AscendC::LocalTensor<float> m = Stat(kM), l = Stat(kL), delta = Stat(kDelta);
    const int32_t nl = static_cast<int32_t>(kLane * rows);
    constexpr float kJunk = 500.0f;  // junk lanes of delta: kJunk + kJunk (pitch 128) or preset
    if (t_.tile > 64) AscendC::Duplicate(Scratch(), kJunk, static_cast<int32_t>(kLane * t_.tile + 8));
    else AscendC::Duplicate(delta, 2 * kJunk, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    uniform_ = true;
    sharedRef_ = 0.0f;
    ExpRows(s, rows, false, streamCols);
    // Into the work buffer, not red: red's lanes between the row slots must
    // stay 0 (the screened path's move test reads red - m on every lane).
    AscendC::LocalTensor<float> work = workBuf_.Get<float>();
    AscendC::ReduceMax(work, delta, Stat(kAlpha), nl);  // a NaN comes first
    AscendC::ReduceMin(work[8], delta, Stat(kAlpha), nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    dirtyJunk_ = true;
    const float minSum = static_cast<float>(t_.tile) * kAttnMinShare<T>;
    if (!(work.GetValue(0) <= kAttnOptimisticSum && work.GetValue(8) >= minSum)) {
      zeroRefOk_ = false;  // e.g. flat rows of high scores: 0 would fail the later tiles' checks too
      return false;
    }
    AscendC::Duplicate(m, 0.0f, nl);
    AscendC::Add(l, l, delta, nl);  // l = 0 + the sums
    AscendC::PipeBarrier<PIPE_ALL>();
    mMin_ = 0.0f;
    return true;
  }

  // The lanes of delta between the row slots: AttnRowSums leaves there sums
  // of its scratch's unwritten lanes (pitch 128) or keeps older values (pitch
  // <= 64). After a screened step they may hold scores or references (the
  // max screen, the row maxima and AttnScaleRows share the scratch): zeroed
  // here so they cannot fail SoftmaxUnderReference's check. What stays there
  // can only cost speed (a failed check): sums of two rows' half sums (pitch
  // 128), references left by AttnScaleRows (per-row references), and for
  // 16-bit types, whose scratch is P's buffer, the previous P read as float
  // pairs (small for bfloat16; a float16 P >= 4 reads as >= 512).
  __aicore__ void CleanJunk(uint32_t rows) {
    if (t_.tile > 64) {
      if constexpr (std::is_same_v<T, float>)
        AscendC::Duplicate(Scratch(), 0.0f, static_cast<int32_t>(kLane * t_.tile + 8));
    } else {
      AscendC::Duplicate(Stat(kDelta), 0.0f, static_cast<int32_t>(kLane * rows));
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    dirtyJunk_ = false;
  }

  // Tiles the streamed try may take: 128 wide (AttnStreamExp's layout), no
  // mask and not a causal diagonal (those are applied to the whole loaded
  // tile first). 16-bit P bands are cast in the out buffer (free during the
  // kv loop; P's buffer is the row sums' scratch): it holds a band if dp >= 32.
  __aicore__ bool Streamable(uint32_t qt, uint32_t kt) const {
    return t_.tile == 128 && t_.maskKind == static_cast<uint32_t>(AttnMask::kNone) && !(t_.causal && kt == qt) &&
           (std::is_same_v<T, float> || t_.dp >= kAttnStreamRows);
  }

  // ws_.q = scale * the item's Q rows (in T; the host enables it only where
  // that is exact or T is float), so no score tile needs its own Muls. The S
  // and out buffers are free here; ws_.q aliases ws_.x, which FlushProduct
  // only writes after the score cube has taken Q into L0A (resident Q only).
  __aicore__ void ScaleQ(const AscendC::GlobalTensor<T>& q, uint32_t rows) {
    AscendC::LocalTensor<float> f = t_.dp > t_.tile ? xBuf_.Get<float>() : sBuf_.Get<float>();
    AscendC::LocalTensor<T> stage = outBuf_.Get<T>();
    LoadRowsAsFloat(f, stage, q, rows, t_.d, t_.dp);
    AscendC::Muls(f, f, t_.scale, static_cast<int32_t>(rows * t_.dp));
    StoreRowsFromFloat(ws_.q, f, stage, rows, t_.d, t_.dp);
  }

  // The causal keep-bits of a diagonal [tile, tile] tile (bit r * tile + c set
  // iff c <= r), built once per launch in the free S buffer, so each diagonal
  // tile is masked by one Select instead of a Duplicate and scalar stores per row.
  __aicore__ void BuildCausalBits() {
    const uint32_t tt = t_.tile * t_.tile;
    pipe_.InitBuffer(causalBuf_, tt / 8 + 32);
    AscendC::LocalTensor<float> s = sBuf_.Get<float>();
    AscendC::Duplicate(s, 1.0f, static_cast<int32_t>(tt));
    AscendC::PipeBarrier<PIPE_ALL>();
    ScoreMasker::Causal(s, t_.tile, t_.tile, t_.tile, false);
    AscendC::CompareScalar(causalBuf_.Get<uint8_t>(), s, 0.0f, AscendC::CMPMODE::GT, tt);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // acc += the P V partial in L0C (Fixpipe -> GM -> UB); L0C is released.
  __aicore__ void FlushProduct(uint32_t rows) {
    vcube_.Finish(ws_.x, t_.dp, rows, t_.d);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<float> x = t_.dp > t_.tile ? xBuf_.Get<float>() : sBuf_.Get<float>();
    AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
    AscendC::DataCopy(accLive_ ? x : acc, ws_.x, rows * t_.dp);  // the first partial is the accumulator
    AscendC::PipeBarrier<PIPE_ALL>();
    if (accLive_) {
      AscendC::Add(acc, acc, x, rows * t_.dp);
      AscendC::PipeBarrier<PIPE_ALL>();
    }
    accLive_ = true;
    pending_ = false;
  }

  // acc row r *= alpha_r = exp(m_old - m_new) (the reference moved). Only
  // after a flush (kt > 0 with a P V partial pending), so acc is defined.
  __aicore__ void RescaleAcc(uint32_t rows) {
    // The S buffer is free here (P is in GM, the flush has added its partial).
    AttnScaleRows<AttnRowOp::kMul>(accBuf_.Get<float>(), t_.dp, t_.d, rows, Stat(kAlpha), sBuf_.Get<float>(), t_.tile * t_.tile);
  }

  // Row statistics live one per 64-B slot (row r at element kLane r), so a
  // per-row ReduceMax and the row sums (AttnRowSums) write straight into
  // them and the online softmax updates are whole-vector ops over kLane * rows
  // lanes (the lanes between are defined but unused).
  __aicore__ AscendC::LocalTensor<float> Stat(uint32_t which) { return rowBuf_.Get<float>()[which * kLane * t_.tile]; }

  // Float scratch of tile * tile / 2 elements, free during the softmax: the
  // max screen's halvings and the row sums' partials (16-bit types borrow P's
  // buffer, which holds nothing until P is cast after the softmax).
  __aicore__ AscendC::LocalTensor<float> Scratch() {
    return std::is_same_v<T, float> ? halfBuf_.Get<float>() : pBuf_.Get<float>();
  }

  // s (scaled, masked scores) -> exp(s - m) in place, l updated. Returns
  // whether the reference m moved (then alpha = exp(m_old - m_new) and l was
  // rescaled): at the first tile, or when a row max exceeds m by more than
  // kAttnLazyRescale, or is NaN (so NaN rows take the eager path).
  __aicore__ bool OnlineSoftmax(const AscendC::LocalTensor<float>& s, uint32_t rows, bool first) {
    AscendC::LocalTensor<float> m = Stat(kM), l = Stat(kL), alpha = Stat(kAlpha), red = Stat(kRed);
    AscendC::LocalTensor<float> work = workBuf_.Get<float>(), delta = Stat(kDelta);
    const int32_t nl = static_cast<int32_t>(kLane * rows);
    bool moved = first;
    if (first || !BelowReference(s, rows)) {
      AttnRowMaxes(red, s, Scratch(), rows, t_.tile);  // whole-tile forms, not one ReduceMax per row
    }
    if (!moved && !screened_) {
      AscendC::Sub(delta, red, m, nl);  // lanes between the rows hold 0 - 0
      AscendC::PipeBarrier<PIPE_ALL>();
      AscendC::ReduceMax(alpha, delta, work, nl);  // a NaN comes first; alpha is rewritten if moved
      AscendC::PipeBarrier<PIPE_ALL>();
      moved = !(alpha.GetValue(0) <= kAttnLazyRescale);
    }
    if (moved) MoveReference(red, rows);
    ExpRows(s, rows, moved);
    if (moved) {
      AscendC::Mul(l, l, alpha, nl);
      AscendC::PipeBarrier<PIPE_ALL>();
    }
    AscendC::Add(l, l, delta, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    return moved;
  }

  // s = exp(s - the rows' references): the shared one by one whole-tile Adds,
  // else per row from red (MoveReference's new references when refInRed, else
  // a copy of m); then the row sums into delta (free here): 3 whole-tile
  // instructions, not one ReduceSum per row. Its lanes between the rows get
  // junk, which only reaches l's unused lanes (and can only fail
  // SoftmaxUnderReference's check). Scratch() is free until the row sums.
  // streamCols > 0 (uniform_ only): s is not loaded yet, the whole chain runs
  // band by band from ws_.s and P is stored to ws_.p (AttnStreamExp).
  __aicore__ void ExpRows(const AscendC::LocalTensor<float>& s, uint32_t rows, bool refInRed, uint32_t streamCols = 0) {
    if (streamCols > 0) {
      AttnStreamExp<T>(s, ws_.s, ws_.p, Scratch(), outBuf_.Get<T>(), Stat(kDelta), rows, streamCols,
                       t_.scaleInQ ? 1.0f : t_.scale, sharedRef_);
      return;
    }
    AscendC::LocalTensor<float> red = Stat(kRed);
    if (uniform_) {
      // One instruction, not one per row; none for the zero reference (s - 0 is s, bit for bit).
      if (sharedRef_ != 0.0f) AscendC::Adds(s, s, -sharedRef_, static_cast<int32_t>(rows * t_.tile));
    } else {
      if (!refInRed) {
        AscendC::Adds(red, Stat(kM), 0.0f, static_cast<int32_t>(kLane * rows));  // the unchanged reference
        AscendC::PipeBarrier<PIPE_ALL>();
      }
      AttnScaleRows<AttnRowOp::kSub>(s, t_.tile, t_.tile, rows, red, Scratch(), t_.tile * t_.tile / 2);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Exp(s, s, static_cast<int32_t>(rows * t_.tile));
    AscendC::PipeBarrier<PIPE_ALL>();
    AttnRowSums(Stat(kDelta), s, Scratch(), rows, t_.tile);
  }

  // red (tile row maxima) -> m_new = max(m, red) (a NaN wins); alpha =
  // exp(m_old - m_new); red = the value to subtract (0 for a row still all -inf,
  // so exp gives 0, not NaN).
  __aicore__ void MoveReference(const AscendC::LocalTensor<float>& red, uint32_t rows) {
    AscendC::LocalTensor<float> m = Stat(kM), alpha = Stat(kAlpha);
    const int32_t nl = static_cast<int32_t>(kLane * rows);
    AscendC::Max(red, red, m, nl);
    AscendC::Adds(alpha, m, 0.0f, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    ShareReference(red, rows);
    AscendC::Adds(m, red, 0.0f, nl);
    AscendC::LocalTensor<uint8_t> bits = bitsBuf_.Get<uint8_t>();
    AscendC::CompareScalar(bits, red, -kAttnInf, AscendC::CMPMODE::NE, static_cast<uint32_t>(nl));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Select(red, bits, red, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, static_cast<uint32_t>(nl));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Sub(alpha, alpha, red, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Exp(alpha, alpha, nl);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (uniform_) {  // every row's reference is the shared one: no per-row scalar reads
      mMin_ = sharedRef_;
      return;
    }
    mMin_ = kAttnInf;  // a NaN reference is skipped (its row is NaN whatever P is)
    for (uint32_t r = 0; r < rows; ++r) {
      const float v = m.GetValue(kLane * r);
      if (v < mMin_) mMin_ = v;
    }
  }

  // The new row references red (maxima) -> one shared reference c = their max
  // for every row when all are finite and within kAttnShareSpread of c: a
  // reference may be any value >= the row max - kAttnLazyRescale (P stays <=
  // e^8), and out = acc / l, lse = m + ln l do not depend on it as long as P
  // does not underflow, which the spread bound guarantees (the row's largest
  // P >= e^-spread). Then the softmax subtracts it with one whole-tile Adds.
  __aicore__ void ShareReference(const AscendC::LocalTensor<float>& red, uint32_t rows) {
    float lo = kAttnInf, hi = -kAttnInf;
    bool finite = true;
    for (uint32_t r = 0; r < rows; ++r) {
      const float v = red.GetValue(kLane * r);
      finite = finite && v > -kAttnInf && v < kAttnInf;  // NaN: false
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    uniform_ = finite && hi - lo <= kAttnShareSpread<T>;
    if (!uniform_) return;
    // 0 is a valid shared reference too when hi <= 0 + kAttnZeroRefMax (< the
    // lazy bound) and lo >= 0 - spread; it saves ExpRows' subtraction pass.
    sharedRef_ = zeroRefOk_ && hi <= kAttnZeroRefMax && lo >= -kAttnShareSpread<T> ? 0.0f : hi;
    AscendC::Duplicate(red, sharedRef_, static_cast<int32_t>(kLane * rows));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // Cheap screen before the per-row maxima: when the whole tile's max (a tree
  // of contiguous Max halvings, rows mixed) is within kAttnLazyRescale of the
  // smallest row reference, no row's reference can move. Sets screened_.
  __aicore__ bool BelowReference(const AscendC::LocalTensor<float>& s, uint32_t rows) {
    screened_ = false;
    if (!(mMin_ > -kAttnInf)) return false;  // a row still all -inf: its first finite max must move it
    AscendC::LocalTensor<float> tmp = Scratch();
    AscendC::LocalTensor<float> src = s, top = Stat(kDelta);
    uint32_t n = rows * t_.tile;
    while (n >= 512 && n % 16 == 0) {  // halves stay 32-B aligned
      n /= 2;
      AscendC::Max(tmp, src, src[n], static_cast<int32_t>(n));
      AscendC::PipeBarrier<PIPE_ALL>();
      src = tmp;
    }
    AscendC::ReduceMax(top, src, workBuf_.Get<float>(), static_cast<int32_t>(n));
    AscendC::PipeBarrier<PIPE_ALL>();
    screened_ = top.GetValue(0) <= mMin_ + kAttnLazyRescale;  // NaN: false
    return screened_;
  }

  __aicore__ void Finish(uint32_t bh, uint32_t q0, uint32_t rows) {
    AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
    if (!accLive_) {  // no kv tile (not reached by the host's plans; kept defined)
      AscendC::Duplicate(acc, 0.0f, static_cast<int32_t>(rows * t_.dp));
      AscendC::PipeBarrier<PIPE_ALL>();
    }
    AscendC::LocalTensor<float> m = Stat(kM), l = Stat(kL), lse = Stat(kAlpha), den = Stat(kRed);
    // out = acc / l; a fully masked row (l = 0, acc = 0) divides by 1 and stays 0, a NaN l stays NaN.
    const int32_t nl = static_cast<int32_t>(kLane * rows);
    AscendC::LocalTensor<uint8_t> bits = bitsBuf_.Get<uint8_t>();
    AscendC::CompareScalar(bits, l, 0.0f, AscendC::CMPMODE::NE, static_cast<uint32_t>(nl));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Select(den, bits, l, 1.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, static_cast<uint32_t>(nl));
    AscendC::PipeBarrier<PIPE_ALL>();
    AttnScaleRows<AttnRowOp::kDiv>(acc, t_.dp, t_.d, rows, den, sBuf_.Get<float>(), t_.tile * t_.tile);  // the S buffer is free
    AscendC::Ln(lse, l, static_cast<int32_t>(kLane * rows));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(lse, lse, m, static_cast<int32_t>(kLane * rows));
    AscendC::PipeBarrier<PIPE_ALL>();
    StoreRowsFromFloat(out_[(uint64_t{bh} * t_.sq + q0) * t_.d], acc, outBuf_.Get<T>(), rows, t_.d, t_.dp);
    AscendC::DataCopyExtParams lp(static_cast<uint16_t>(rows), 4, kLane / 8 - 1, 0, 0);  // lane 0 of each row's slot
    AscendC::DataCopyPad(lse_[uint64_t{bh} * t_.sq + q0], lse, lp);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  static constexpr uint32_t kM = 0, kL = 1, kAlpha = 2, kRed = 3, kDelta = 4, kRowStats = 5;
  static constexpr uint32_t kLane = kAttnStatLane;  // floats per row slot of a statistic

  AttnTiling t_{};
  GM_ADDR mask_ = nullptr;
  AscendC::TPipe pipe_;
  AttnScoreCube<T> scube_;            // S = Q K^T, the item's Q resident in L0A
  AttnValueCube<T> vcube_;            // P V accumulated across kv tiles, V tiles cached in L1
  bool pending_ = false;              // vcube_ holds a P V partial not yet in acc
  bool accLive_ = false;              // acc holds the item's flushed partials (else undefined)
  bool screened_ = false;             // this tile passed BelowReference
  bool uniform_ = false;              // every row's reference is sharedRef_ (ShareReference)
  bool tryUnder_ = true;              // the next kv tile tries SoftmaxUnderReference first
  bool zeroRefOk_ = true;             // ShareReference may pick 0 (until a try under 0 fails)
  bool firstTry_ = true;              // the next item's first tile tries FirstUnderZero
  bool dirtyJunk_ = true;             // a screened step ran since the last CleanJunk
  float sharedRef_ = 0.0f;
  float mMin_ = -kAttnInf;            // smallest row reference of the item
  AttnWorkspace<T> ws_;
  ScoreMasker masker_;
  AscendC::GlobalTensor<T> q_, k_, v_, out_;
  AscendC::GlobalTensor<float> lse_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sBuf_, pBuf_, accBuf_, xBuf_, outBuf_, rowBuf_, workBuf_, bitsBuf_,
      halfBuf_, causalBuf_;
};

template <class T>
__aicore__ void RunForward(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mask, GM_ADDR out, GM_ADDR lse,
                           GM_ADDR workspace, const AttnTiling& t) {
  AttnForward<T> op;
  op.Init(q, k, v, mask, out, lse, workspace, t);
  op.Process();
}

}  // namespace

extern "C" __global__ __aicore__ void npurt_attention_kernel(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mask,
                                                             GM_ADDR out, GM_ADDR lse, GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(AttnTiling, t, tiling);
  switch (static_cast<AttnDType>(t.dtype)) {
    case AttnDType::kF32: RunForward<float>(q, k, v, mask, out, lse, workspace, t); break;
    case AttnDType::kF16: RunForward<half>(q, k, v, mask, out, lse, workspace, t); break;
    case AttnDType::kBF16: RunForward<bfloat16_t>(q, k, v, mask, out, lse, workspace, t); break;
  }
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
npurt::SimKernelEntry npurt_attention_entry() { return NPURT_SIM_ENTRY(npurt_attention_kernel); }
#endif  // NPURT_ASCEND_DEVICE_BUILD

}  // namespace npurt_kernels
