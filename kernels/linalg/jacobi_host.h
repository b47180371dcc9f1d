// kernels/linalg/jacobi_host.h: host-side helpers the spectral ops' registrations
// (qr_ops.cc, jacobi_ops.cc, svd_ops.cc) share: the dtypes they take, the
// [batch, m, n] view of x, and the plan of the work area (UB or GM workspace)
// and of the batch over the cores.
//
// Invariants: x is >= 2-D float32 or float64 (float64 sim-only: the NPU's
// scalar unit has no double arithmetic); every other dtype is refused by the
// registry with UnsupportedDtype naming the op and 'x'. The work area is in UB
// exactly when it fits ub_budget() and the caller did not force GM (gm_work).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/gm_scalar.h"
#include "common/tiling_util.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"
#include "npurt/op_registry.h"

#define NPURT_SPECTRAL_HOST_ONLY
#include "linalg/jacobi_work.h"
#undef NPURT_SPECTRAL_HOST_ONLY

namespace npurt::kernels::linalg {

constexpr uint32_t kMaxSweeps = 100;  // Jacobi sweep cap (a finite matrix needs ~5-15)

// The Jacobi ops' sweep cap: `max_sweeps` (0: kMaxSweeps; tests lower it to
// exercise the non-convergence report).
inline void sweep_cap_attr(OpDefBuilder& b) { b.attr("max_sweeps", AttrType::kInt, AttrValue(0)); }

inline uint32_t sweep_cap(const OpContext& ctx) {
  const int64_t cap = ctx.attr_int("max_sweeps");
  if (cap < 0 || cap > 10000) ctx.fail("max_sweeps", "must be 0 (default " + std::to_string(kMaxSweeps) +
                                                       ") or 1..10000, got " + std::to_string(cap));
  return cap == 0 ? kMaxSweeps : static_cast<uint32_t>(cap);
}

struct MatrixView {
  Dims batch_dims;  // x's leading axes
  uint64_t batch = 1, m = 0, n = 0;
};

inline MatrixView matrix_view(const OpContext& ctx) {
  const Dims& s = ctx.input(0).shape;
  if (s.size() < 2)
    ctx.fail("x", "must have at least 2 dimensions (a stack of matrices), got " + std::to_string(s.size()));
  MatrixView v;
  v.batch_dims.assign(s.begin(), s.end() - 2);
  for (int64_t d : v.batch_dims) v.batch *= static_cast<uint64_t>(d);
  v.m = static_cast<uint64_t>(s[s.size() - 2]);
  v.n = static_cast<uint64_t>(s.back());
  return v;
}

// x's batch axes followed by `tail`.
inline Dims batched(const MatrixView& v, std::initializer_list<int64_t> tail) {
  Dims d = v.batch_dims;
  for (int64_t e : tail) d.push_back(e);
  return d;
}

// Fills the shared tiling fields and the launch: one block per `per_core`
// matrices; the work area in UB when it fits (and gm_work is false), else
// work_elems per block in the GM workspace. No launch when `empty`.
inline void plan_spectral(const OpContext& ctx, const MatrixView& v, uint64_t work_elems, uint32_t flags,
                          bool empty, TilingResult& r, uint32_t max_sweeps = kMaxSweeps) {
  SpectralTiling t;
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.flags = flags;
  t.max_sweeps = max_sweeps;
  t.batch = v.batch;
  t.m = v.m;
  t.n = v.n;
  t.work_elems = round_up(std::max<uint64_t>(work_elems, 16), 16);  // 64 B lines per block
  const uint64_t bytes = t.work_elems * itemsize(ctx.input(0).dtype);
  t.in_ub = !ctx.attr_bool("gm_work") && bytes <= ub_budget(ctx.profile());
  const CoreSplit cs = split_over_cores(empty ? 0 : v.batch, kScalarSplitAlign, 1, ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  if (!t.in_ub && r.num_blocks > 0) r.workspace_bytes = static_cast<uint64_t>(r.num_blocks) * bytes;
  r.set_tiling(t);
}

inline std::string describe_spectral(const OpContext&, const TilingResult& r) {
  const SpectralTiling t = tiling_as<SpectralTiling>(r, "describe_spectral");
  return "batch=" + std::to_string(t.batch) + " m=" + std::to_string(t.m) + " n=" + std::to_string(t.n) +
         " per_core=" + std::to_string(t.per_core) + " work=" + std::to_string(t.work_elems) +
         (t.in_ub ? " (UB)" : " (GM workspace)");
}

// Scalar-unit flops of a Jacobi-type kernel: ~sweeps * n^3 per matrix.
inline void spectral_cost(const OpContext& ctx, OpCost& c) {
  const double n = static_cast<double>(ctx.input(0).numel());
  c.bytes = n * itemsize(ctx.input(0).dtype) * 3.0;
  const Dims& s = ctx.input(0).shape;
  c.flops = s.size() >= 2 ? 10.0 * n * static_cast<double>(std::min(s[s.size() - 1], s[s.size() - 2])) : 0.0;
}

// What the three registrations share, the caller adding its own attributes
// to the one builder returned: input x (float32, float64 sim-only), the
// gm_work attribute, `outputs` in order, the plan description, the cost and
// the sim kernel.
inline std::vector<OpDefBuilder> spectral_def(const char* name, const char* doc,
                                              std::initializer_list<const char*> outputs, InferFn infer,
                                              TilingFn tiling, const char* kernel, SimKernelEntry entry) {
  std::vector<OpDefBuilder> defs;
  defs.emplace_back(name);
  OpDefBuilder& b = defs.back();
  b.doc(doc);
  b.input("x", {DType::kFloat32, DType::kFloat64}).sim_only({DType::kFloat64});
  for (const char* out : outputs) b.output(out);
  b.attr("gm_work", AttrType::kBool, AttrValue(false))
      .infer(std::move(infer))
      .tiling(std::move(tiling))
      .describe_tiling(describe_spectral)
      .cost(spectral_cost)
      .sim_kernel(kernel, entry);
  return defs;
}

}  // namespace npurt::kernels::linalg
