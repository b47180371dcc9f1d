// kernels/matmul/matmul_plan.cc: shapes, broadcasting, problems and tile sizes
// for `matmul` / `matmul_backward` (see matmul_plan.h).
#include "matmul/matmul_plan.h"

#include <algorithm>

#include "common/tiling_as.h"

namespace npurt_kernels::matmul_plan {
namespace {

using npurt::Dims;
using npurt::OpContext;
using npurt::TensorSpec;

constexpr int64_t kMaxDim = 65535;

uint32_t round16(uint64_t x) { return static_cast<uint32_t>((x + 15) / 16 * 16); }

std::string dims_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

Operand operand(const TensorSpec& t, bool trans, bool is_b) {
  Operand o;
  const size_t r = t.shape.size();
  if (r == 1) {  // a: [1, K]; b: [K, 1] (a vector is its own transpose)
    o.vector = true;
    o.rows = is_b ? t.shape[0] : 1;
    o.cols = is_b ? 1 : t.shape[0];
    return o;
  }
  o.batch.assign(t.shape.begin(), t.shape.end() - 2);
  o.rows = t.shape[r - 2];
  o.cols = t.shape[r - 1];
  o.trans = trans;
  return o;
}

Dims broadcast(const OpContext& ctx, const Dims& x, const Dims& y) {
  const size_t n = std::max(x.size(), y.size());
  Dims out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = i + x.size() >= n ? x[i + x.size() - n] : 1;
    const int64_t b = i + y.size() >= n ? y[i + y.size() - n] : 1;
    if (a != b && a != 1 && b != 1)
      ctx.fail("b", "batch dims " + dims_str(x) + " and " + dims_str(y) + " cannot be broadcast (dim " +
                        std::to_string(i) + ": " + std::to_string(a) + " vs " + std::to_string(b) + ")");
    out[i] = a == 1 ? b : a;
  }
  return out;
}

// Element strides of a contiguous tensor's batch dims, right-aligned to `n` dims (0 = broadcast).
void batch_strides(const Dims& batch, uint64_t mat, size_t n, uint64_t* out) {
  uint64_t s = mat;
  for (size_t i = n; i-- > 0;) {
    const size_t off = n - batch.size();
    if (i < off) {
      out[i] = 0;
      continue;
    }
    const int64_t d = batch[i - off];
    out[i] = d == 1 ? 0 : s;
    s *= static_cast<uint64_t>(d);
  }
}

uint64_t numel(const Dims& batch, int64_t rows, int64_t cols) {
  uint64_t n = static_cast<uint64_t>(rows * cols);
  for (int64_t d : batch) n *= static_cast<uint64_t>(d);
  return n;
}

}  // namespace

Forward forward_shapes(const OpContext& ctx, size_t ia, size_t ib) {
  const TensorSpec& ta = ctx.input(ia);
  const TensorSpec& tb = ctx.input(ib);
  if (tb.dtype != ta.dtype)
    ctx.fail_dtype("b", std::string("dtype ") + npurt::dtype_name(tb.dtype) + " must match a's " +
                           npurt::dtype_name(ta.dtype));
  Forward f;
  f.a = operand(ta, ctx.attr_bool("trans_a"), false);
  f.b = operand(tb, ctx.attr_bool("trans_b"), true);
  f.m = f.a.trans ? f.a.cols : f.a.rows;
  f.k = f.a.trans ? f.a.rows : f.a.cols;
  const int64_t bk = f.b.trans ? f.b.cols : f.b.rows;
  f.n = f.b.trans ? f.b.rows : f.b.cols;
  if (bk != f.k)
    ctx.fail("b", "contracted dimension " + std::to_string(bk) + " of b " + dims_str(tb.shape) +
                      " does not match " + std::to_string(f.k) + " of a " + dims_str(ta.shape) +
                      (f.a.trans ? " (trans_a: a is [..., K, M])" : " (a is [..., M, K])") +
                      (f.b.trans ? " (trans_b: b is [..., N, K])" : ""));
  f.batch = broadcast(ctx, f.a.batch, f.b.batch);
  if (f.batch.size() > kMaxBatchDims)
    ctx.fail("a", "at most " + std::to_string(kMaxBatchDims) + " batch dims are supported");
  for (int64_t d : {f.m, f.k, f.n, f.a.cols, f.b.cols})
    if (d > kMaxDim)
      ctx.fail(d == f.n || d == f.b.cols ? "b" : "a",
               "matrix dims must be < 65536 (got " + std::to_string(d) + "): the cube's Nd2Nz strides are 16-bit");
  f.out_shape = f.batch;
  if (!f.a.vector) f.out_shape.push_back(f.m);
  if (!f.b.vector) f.out_shape.push_back(f.n);
  return f;
}

MatmulDType matmul_dtype(npurt::DType t) {
  return t == npurt::DType::kFloat32   ? MatmulDType::kF32
         : t == npurt::DType::kFloat16 ? MatmulDType::kF16
                                       : MatmulDType::kBF16;
}

MatmulProblem make_problem(const OpContext& ctx, const Side& x, const Side& w, uint32_t argC,
                           const Dims& target, const Dims& full, int64_t m, int64_t n, int64_t k) {
  MatmulProblem p{};
  p.argX = x.arg;
  p.argW = w.arg;
  p.argC = argC;
  p.M = static_cast<uint32_t>(m);
  p.N = static_cast<uint32_t>(n);
  p.K = static_cast<uint32_t>(k);
  p.transX = x.trans;
  p.transW = w.trans;
  p.ldx = static_cast<uint32_t>(x.cols);
  p.ldw = static_cast<uint32_t>(w.cols);
  p.sizeX = numel(*x.batch, x.rows, x.cols);
  p.sizeW = numel(*w.batch, w.rows, w.cols);
  const size_t nd = full.size();
  uint64_t sx[kMaxBatchDims], sw[kMaxBatchDims];
  batch_strides(*x.batch, static_cast<uint64_t>(x.rows * x.cols), nd, sx);
  batch_strides(*w.batch, static_cast<uint64_t>(w.rows * w.cols), nd, sw);
  // Output dims first (their row-major order is C's contiguous batch order), then reductions.
  p.outCount = p.redCount = 1;
  uint32_t slot = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < nd; ++i) {
      const int64_t t = i + target.size() >= nd ? target[i + target.size() - nd] : 1;
      const bool is_out = t == full[i];
      if (full[i] == 1 || is_out != (pass == 0)) continue;
      p.shape[slot] = static_cast<uint32_t>(full[i]);
      p.strideX[slot] = sx[i];
      p.strideW[slot] = sw[i];
      ++slot;
      (pass == 0 ? p.nOut : p.nRed) += 1;
      (pass == 0 ? p.outCount : p.redCount) *= static_cast<uint64_t>(full[i]);
    }
  if (p.M == 0 || p.N == 0) p.outCount = 0;  // nothing to write
  (void)ctx;
  return p;
}

// One candidate output tile with the largest kStep (multiple of 16, <= 256)
// its A and B tiles leave in L0A / L0B; false when it does not fit L0C or L1.
bool fit_tile(const npurt::ChipProfile& prof, uint32_t bm, uint32_t bn, uint32_t maxK, uint32_t es, bool bias,
              uint32_t& kStep) {
  const uint64_t l0 = std::min(prof.l0a_bytes / bm, prof.l0b_bytes / bn) / es;
  kStep = static_cast<uint32_t>(std::min<uint64_t>({256, l0 / 16 * 16, round16(maxK)}));
  const uint64_t l1 = 2ull * (bm + bn) * round16(kStep) * es + (bias ? bn * 4ull : 0);
  return kStep >= 16 && uint64_t{bm} * bn * 4 <= prof.l0c_bytes && l1 <= prof.l1_bytes && (!bias || bn <= 256);
}

// Modeled time of a tile shape, in cube cycles: rounds of tiles over the cube
// cores times one tile's time, the larger of its MACs (16x16x16 per cycle for
// 2-byte inputs, half that for float) and its GM -> L1 bytes (64 B per cycle
// per core, an estimate of MTE2). Larger tiles move fewer bytes per MAC
// (A is re-read once per tile column, B once per tile row); the rounds term
// keeps every core busy when the output has few tiles.
double tile_cost(const MatmulTiling& t, uint32_t bm, uint32_t bn, uint32_t es, uint32_t cores) {
  uint64_t tiles = 0;
  double per_tile = 0.0;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    const MatmulProblem& p = t.p[i];
    tiles += uint64_t{(p.M + bm - 1) / bm} * ((p.N + bn - 1) / bn) * p.outCount;
    const double k = double(p.K) * double(std::max<uint64_t>(1, p.redCount));
    const double macs = double(std::min(bm, round16(p.M))) * std::min(bn, round16(p.N)) * k / (es == 4 ? 2048.0 : 4096.0);
    const double bytes = (double(std::min(bm, p.M)) + std::min(bn, p.N)) * k * es / 64.0;
    per_tile = std::max(per_tile, std::max(macs, bytes));
  }
  const uint64_t rounds = (tiles + cores - 1) / cores;
  return double(rounds) * per_tile;
}

// Elements per output element that go through a transposing L1 -> L0 load
// (LoadData ifTranspose / LoadDataWithTranspose): op(X) when X is stored
// [K, M], op(W) when W is stored [K, N] (L0B wants N-major fractals). The
// tie-break between tile shapes of equal modeled cost: the plain loads are
// cheaper (hardware: no transpose on MTE1; sim: a copy instead of a
// permutation and, for B, a second one into the micro-kernel's panels).
double transposed_share(const MatmulTiling& t, uint32_t bm, uint32_t bn) {
  double share = 0.0;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    const MatmulProblem& p = t.p[i];
    share += (p.transX ? 1.0 / bn : 0.0) + (p.transW ? 0.0 : 1.0 / bm);
  }
  return share;
}

namespace {

// Longest GM run per row an L1 chunk is grown to (8 cache lines, one 512-B
// MTE2 burst). In the sim, Nd2Nz of 256 rows 8 KiB apart from cold GM moves
// 7.7-8.1 GB/s at 256 B per row, 11.4-11.9 at 512 B and no more at 768 B or
// 1 KiB (bench/cpp/bench_cube_nd2nz.cc), while a larger chunk makes LoadData
// read from a larger L1 buffer, which leaves the host's caches more often.
constexpr uint32_t kChunkRunBytes = 512;

// K elements per GM -> L1 copy of A, then of B (Ascend C's stepKa / stepKb):
// the largest multiples of kStep (up to kChunkRunBytes of a row and K rounded
// up to kStep) whose two buffers each still fit L1 beside the bias staging
// row. A goes first: the rows of a plain matmul's a [M, K] run along K, so a
// 64-float step copies 256 B per GM row 8 KiB apart (2048^3), a 128-float
// chunk 512 B; b [K, N] runs along N whatever the chunk. Hardware: fewer,
// longer MTE2 bursts, L1 still double-buffered so the copies overlap the
// cube; sim: half the Nd2Nz calls, each row's run twice as long.
void choose_l1_chunks(const npurt::ChipProfile& prof, MatmulTiling& t, uint32_t es, uint32_t maxK) {
  const uint64_t kMax = (uint64_t{maxK} + t.kStep - 1) / t.kStep * t.kStep;
  const uint64_t cap = std::min<uint64_t>(kMax, std::max<uint64_t>(t.kStep, kChunkRunBytes / es));
  const uint64_t bias = t.bias ? t.baseN * 4ull : 0;
  const auto bytes = [&](uint64_t ka, uint64_t kb) { return 2 * (t.baseM * ka + t.baseN * kb) * es + bias; };
  uint64_t ka = t.kStep, kb = t.kStep;  // fit_tile checked this pair
  while (ka + t.kStep <= cap && bytes(ka + t.kStep, kb) <= prof.l1_bytes) ka += t.kStep;
  while (kb + t.kStep <= cap && bytes(ka, kb + t.kStep) <= prof.l1_bytes) kb += t.kStep;
  t.kL1A = static_cast<uint32_t>(ka);
  t.kL1B = static_cast<uint32_t>(kb);
}

// Tiles with at least this many MACs (256 x 128 x K=512) run one per block.
constexpr double kOwnBlockMacs = double(1 << 24);

double largest_tile_macs(const MatmulTiling& t) {
  double macs = 0.0;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    const MatmulProblem& p = t.p[i];
    const double k = double(p.K) * double(std::max<uint64_t>(1, p.redCount));
    macs = std::max(macs, double(std::min(t.baseM, p.M)) * std::min(t.baseN, p.N) * k);
  }
  return macs;
}

}  // namespace

void choose_tiles(const OpContext& ctx, MatmulTiling& t, uint32_t es, npurt::TilingResult& r) {
  const npurt::ChipProfile& prof = ctx.profile();
  uint32_t maxM = 1, maxN = 1, maxK = 1;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    maxM = std::max(maxM, t.p[i].M);
    maxN = std::max(maxN, t.p[i].N);
    maxK = std::max(maxK, t.p[i].K);
  }
  const uint32_t cores = std::max(1u, prof.cube_cores);
  // 128 x 128 first (the fallback on full ties), then the shapes that fill L0C
  // with a longer side; equal costs go to the fewer transposing loads.
  const uint32_t cands[][2] = {{128, 128}, {128, 256}, {256, 128}};
  bool found = false;
  double best = 0.0, bestShare = 0.0;
  for (const auto& c : cands) {
    const uint32_t bm = std::min(c[0], round16(maxM)), bn = std::min(c[1], round16(maxN));
    uint32_t kStep = 0;
    if (!fit_tile(prof, bm, bn, maxK, es, t.bias != 0, kStep)) continue;
    const double cost = tile_cost(t, bm, bn, es, cores), share = transposed_share(t, bm, bn);
    if (found && (cost > best || (cost == best && share >= bestShare))) continue;
    found = true;
    best = cost;
    bestShare = share;
    t.baseM = bm;
    t.baseN = bn;
    t.kStep = kStep;
  }
  if (!found) ctx.fail("a", "a matmul tile does not fit the L0/L1 buffers of " + prof.name);
  choose_l1_chunks(prof, t, es, maxK);
  uint64_t tiles = 0;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    MatmulProblem& p = t.p[i];
    p.tilesM = (p.M + t.baseM - 1) / t.baseM;
    p.tilesN = (p.N + t.baseN - 1) / t.baseN;
    tiles += uint64_t{p.tilesM} * p.tilesN * p.outCount;
  }
  if (tiles == 0) {
    r.num_blocks = 0;
    return;
  }
  // As many blocks as it takes to finish in the same number of rounds, each
  // with the same tile count when the rounds divide the tiles: 32 tiles on 20
  // cube cores is two rounds either way, and 16 blocks of 2 tiles keep the
  // work of every block equal (20 blocks would be 12 of 2 tiles and 8 of 1;
  // the sim runs the blocks on the host's threads, where unequal blocks leave
  // one thread idle at the end).
  const uint64_t rounds = (tiles + cores - 1) / cores;
  // Large tiles get a block each: the same rounds (ceil(tiles / cores) waves),
  // and whichever core (sim: host thread) is free takes the next tile, so
  // uneven tile times even out; grouped blocks of 6-7 such tiles (2048^3:
  // 19 blocks) left one of the sim's two threads idle for 1-9 % of the run.
  // Grouping only buys operand reuse between a block's consecutive tiles,
  // which these tiles' 2 MiB row panels (256 x K=2048 float) no longer get.
  const uint64_t per_block = largest_tile_macs(t) >= kOwnBlockMacs ? 1 : rounds;
  r.num_blocks = static_cast<uint32_t>(std::min<uint64_t>((tiles + per_block - 1) / per_block, 65535));
  r.set_tiling(t);
}

std::string describe(const OpContext& ctx, const npurt::TilingResult& r) {
  if (r.num_blocks == 0) return "empty output: no launch";
  const MatmulTiling t = npurt::kernels::tiling_as<MatmulTiling>(r, "describe_matmul");
  std::string s;
  for (uint32_t i = 0; i < t.nProblems; ++i) {
    const MatmulProblem& p = t.p[i];
    s += (i ? "; " : "") + std::string("batch=") + std::to_string(p.outCount) + " M=" + std::to_string(p.M) +
         " N=" + std::to_string(p.N) + " K=" + std::to_string(p.K) +
         (p.redCount > 1 ? " summed over " + std::to_string(p.redCount) + " broadcast batches" : "") +
         " tiles=" + std::to_string(uint64_t{p.tilesM} * p.tilesN * p.outCount);
  }
  return s + " tile=" + std::to_string(t.baseM) + "x" + std::to_string(t.baseN) + " kStep=" +
         std::to_string(t.kStep) + " kL1=" + std::to_string(t.kL1A) + "/" + std::to_string(t.kL1B) +
         " blocks=" + std::to_string(r.num_blocks) + " (cube cores of " +
         ctx.profile().name + "), L1 double-buffered, fp32 accumulation in L0C" +
         (t.bias ? ", bias from the bias table" : "");
}

}  // namespace npurt_kernels::matmul_plan
