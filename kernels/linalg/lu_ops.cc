// kernels/linalg/lu_ops.cc: host side of the LU pair: the OpDefs of
// `lu_factor` (lu_kernel.cc) and `lu_solve` (lu_solve_kernel.cc), their shape
// and dtype rules and tilings (lu_host.h).
//
// Contract:
//   lu_factor(a (..., n, n)) -> lu (..., n, n), pivots (..., n) int32 (row k
//     was swapped with row pivots[k] at step k), sign (...), logabsdet (...):
//     det(a) = sign * exp(logabsdet); an exactly singular matrix has sign 0
//     and logabsdet -inf. n = 0: sign 1, logabsdet 0.
//   lu_solve(lu (..., n, n), pivots (..., n), b (..., n, m)) -> x (..., n, m)
//     with a x = b; the batch dimensions of the three must be equal (the
//     caller broadcasts). Singular factors give inf/NaN, no error (callers
//     check the sign first).
// dtypes: float32 and float64 (sim-only), the same for lu and b.
#include <string>

#include "common/tiling_as.h"
#include "linalg/lu_host.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kLuFactorEntry;
extern const SimKernelEntry kLuSolveEntry;

namespace {

using linalg::batch_dims;
using linalg::batch_of;
using linalg::square_n;

void factor_infer(const OpContext& ctx) {
  const int64_t n = static_cast<int64_t>(square_n(ctx, 0, "a"));
  const Dims& s = ctx.input(0).shape;
  const DType d = ctx.input(0).dtype;
  ctx.set_output(0, s, d);
  ctx.set_output(1, batch_dims(s, 2, {n}), DType::kInt32);
  ctx.set_output(2, batch_dims(s, 2, {}), d);
  ctx.set_output(3, batch_dims(s, 2, {}), d);
}

void factor_tiling(const OpContext& ctx, TilingResult& r) {
  const uint64_t n = square_n(ctx, 0, "a");
  const DType d = ctx.input(0).dtype;
  // staged: pivots, sign, logabsdet (common/gm_stage.h); the GM paths scalar-write the factors and pivots
  LuTiling t = linalg::batch_tiling(ctx, d, batch_of(ctx.input(0).shape, 2), n, n, n * linalg::ub_ld(n, d),
                                    3 * kStageBytes, {n * n * itemsize(d), n * 4}, r);
  // FactorMixed: the pivot row and >= 1 more row stream through UB, then the trailing block works there
  if (!t.in_ub && d == DType::kFloat32 && n > 0 && n <= 4095 && 2 * linalg::ub_ld(n, d) * itemsize(d) + 64 <= ub_budget(ctx.profile())) {
    t.ub_cap = static_cast<uint32_t>((ub_budget(ctx.profile()) - 64) / itemsize(d));
    r.set_tiling(t);
  }
}

void solve_infer(const OpContext& ctx) {
  const uint64_t n = square_n(ctx, 0, "lu");
  const Dims &ls = ctx.input(0).shape, &ps = ctx.input(1).shape, &bs = ctx.input(2).shape;
  if (ps != batch_dims(ls, 2, {static_cast<int64_t>(n)}))
    ctx.fail("pivots", "shape must be lu's batch dimensions followed by n = " + std::to_string(n));
  if (bs.size() != ls.size() || static_cast<uint64_t>(bs[bs.size() - 2]) != n ||
      batch_dims(bs, 2, {}) != batch_dims(ls, 2, {}))
    ctx.fail("b", "shape must be lu's batch dimensions followed by (n, m) with n = " + std::to_string(n));
  if (ctx.input(2).dtype != ctx.input(0).dtype)
    ctx.fail_dtype("b", std::string(dtype_name(ctx.input(2).dtype)) + " differs from lu's " +
                            dtype_name(ctx.input(0).dtype));
  ctx.set_output(0, bs, ctx.input(0).dtype);
}

void solve_tiling(const OpContext& ctx, TilingResult& r) {
  const uint64_t n = square_n(ctx, 0, "lu");
  const uint64_t m = static_cast<uint64_t>(ctx.input(2).shape.back());
  const DType d = ctx.input(0).dtype;
  LuTiling t = linalg::batch_tiling(ctx, d, batch_of(ctx.input(0).shape, 2), n, m, n * linalg::ub_ld(m, d), 0,
                                    {n * m * itemsize(d)}, r);  // the GM path scalar-writes X
  const uint64_t cap = (ub_budget(ctx.profile()) - 64) / itemsize(d);
  if (!t.in_ub && d == DType::kFloat32 && n > 0 && n * 8 <= cap && n <= 4095) {  // column blocks of X in UB
    t.ub_cap = static_cast<uint32_t>(cap);
    linalg::split_batch(ctx, t, 1, r);  // X leaves by DataCopyPad
  }
}

std::string describe(const OpContext&, const TilingResult& r) {
  const LuTiling t = tiling_as<LuTiling>(r, "linalg describe");
  return std::string(t.in_ub ? "ub" : "gm") + " batch=" + std::to_string(t.batch) + " n=" + std::to_string(t.n) +
         " m=" + std::to_string(t.m) + " per_core=" + std::to_string(t.per_core);
}

double cube(double n) { return n * n * n; }

std::vector<OpDefBuilder> lu_defs() {
  const DTypeMask floats = dtype_mask({DType::kFloat32, DType::kFloat64});
  OpDefBuilder f("lu_factor");
  f.doc("LU factorization with partial pivoting of a stack of square matrices (P A = L U, getrf's layout); "
        "also the determinant as sign * exp(logabsdet).")
      .input("a", floats)
      .sim_only({DType::kFloat64})
      .rank(2)
      .output("lu").output("pivots").output("sign").output("logabsdet")
      .infer(factor_infer)
      .tiling(factor_tiling)
      .describe_tiling(describe)
      .cost([](const OpContext& ctx, OpCost& c) {
        const double n = static_cast<double>(ctx.input(0).shape.back());
        c.bytes = 2.0 * static_cast<double>(ctx.input(0).numel()) * itemsize(ctx.input(0).dtype);
        c.flops = static_cast<double>(linalg::batch_of(ctx.input(0).shape, 2)) * 2.0 * cube(n) / 3.0;
      })
      .sim_kernel("npurt_lu_factor_kernel", kLuFactorEntry);
  OpDefBuilder s("lu_solve");
  s.doc("Solves A X = B from lu_factor's (lu, pivots) for a stack of n x m right-hand sides B.")
      .input("lu", floats)
      .input("pivots", {DType::kInt32})
      .input("b", floats)
      .sim_only({DType::kFloat64})
      .rank(2)
      .output("x")
      .infer(solve_infer)
      .tiling(solve_tiling)
      .describe_tiling(describe)
      .cost([](const OpContext& ctx, OpCost& c) {
        const double n = static_cast<double>(ctx.input(0).shape.back());
        const double b = static_cast<double>(ctx.input(2).numel());
        c.bytes = (static_cast<double>(ctx.input(0).numel()) + 2.0 * b) * itemsize(ctx.input(0).dtype);
        c.flops = 2.0 * n * b;
      })
      .sim_kernel("npurt_lu_solve_kernel", kLuSolveEntry);
  std::vector<OpDefBuilder> defs;
  defs.push_back(std::move(f));
  defs.push_back(std::move(s));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(lu_defs());

}  // namespace npurt::kernels
