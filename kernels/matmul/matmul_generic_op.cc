// kernels/matmul/matmul_generic_op.cc: host side of `matmul_generic`
// (matmul_generic_kernel.cc): signature, shape/dtype inference, tiling over
// the vector cores, registration.
//
// matmul_generic(a [Ba, M, K], b [Bb, K, N]) -> y [B, M, N], B = max(Ba, Bb),
// Ba and Bb each B or 1; a, b and y of one dtype among the integers, float64,
// complex64 and complex128 (the cube `matmul` takes the 16/32-bit floats).
// Integer results wrap modulo 2^bits like numpy's. The Python layer
// (npurt.matmul / tensordot / vecdot) reshapes any batch to this 3-D form.
// int64, uint64, float64 and complex are sim-only: the NPU scalar unit lacks
// 64-bit multiply-accumulate in one instruction and any double/complex math,
// so the ascend backend refuses them when validating the call.
#include <algorithm>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "matmul/matmul_generic_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels::matmul_generic {

extern const SimKernelEntry kMatmulGenericEntry;

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

MatmulGenericTiling plan(const OpContext& ctx) {
  const TensorSpec &a = ctx.input(0), &b = ctx.input(1);
  if (a.shape.size() != 3) ctx.fail("a", "must be 3-D [batch, M, K], got " + str(a.shape.size()) + "-D");
  if (b.shape.size() != 3) ctx.fail("b", "must be 3-D [batch, K, N], got " + str(b.shape.size()) + "-D");
  if (b.dtype != a.dtype)
    ctx.fail_dtype("b", std::string("dtype ") + dtype_name(b.dtype) + " differs from a's " + dtype_name(a.dtype));
  if (a.shape[2] != b.shape[1])
    ctx.fail("b", "contracted dimension " + str(b.shape[1]) + " (axis 1) does not match a's K = " + str(a.shape[2]));
  if (a.shape[2] == 0) ctx.fail("a", "K = 0 is not supported by the kernel (npurt.matmul returns zeros for it)");
  const int64_t ba = a.shape[0], bb = b.shape[0];
  if (ba != bb && ba != 1 && bb != 1)
    ctx.fail("b", "batch " + str(bb) + " cannot be broadcast with a's batch " + str(ba));
  MatmulGenericTiling t;
  t.dtype = static_cast<uint32_t>(a.dtype);
  t.batch = static_cast<uint64_t>(ba == 1 ? bb : ba);  // broadcast: 1 with 0 gives 0, not max = 1
  t.m = static_cast<uint64_t>(a.shape[1]);
  t.k = static_cast<uint64_t>(a.shape[2]);
  t.n = static_cast<uint64_t>(b.shape[2]);
  t.a_batch_stride = ba == 1 ? 0 : t.m * t.k;
  t.b_batch_stride = bb == 1 ? 0 : t.k * t.n;
  return t;
}

void infer(const OpContext& ctx) {
  const MatmulGenericTiling t = plan(ctx);
  ctx.set_output(0, Dims{static_cast<int64_t>(t.batch), static_cast<int64_t>(t.m), static_cast<int64_t>(t.n)},
                 ctx.input(0).dtype);
}

void tiling(const OpContext& ctx, TilingResult& r) {
  MatmulGenericTiling t = plan(ctx);
  const uint64_t item = itemsize(ctx.input(0).dtype);
  const uint32_t align = block_elems(static_cast<uint32_t>(item));
  // UB per output column: the b-row piece and the output piece (T) and the accumulator (<= 16 bytes).
  const uint64_t half_ub = ub_budget(ctx.profile()) / 2;
  t.nt = fit_tile(half_ub, 2 * item + 16, align, std::min<uint64_t>(t.n, 4096));
  t.kt = fit_tile(half_ub, item, align, std::min<uint64_t>(t.k, 4096));
  if (t.nt == 0 || t.kt == 0) ctx.fail("a", "the UB of " + ctx.profile().name + " is too small for this kernel");
  t.chunks = ceil_div(t.n, t.nt);
  t.units = t.batch * t.m * t.chunks;
  const CoreSplit cs = split_over_cores(t.units, 1, 4, ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

std::string describe(const OpContext&, const TilingResult& r) {
  const MatmulGenericTiling t = tiling_as<MatmulGenericTiling>(r, "describe_matmul_generic");
  return "batch=" + str(t.batch) + " M=" + str(t.m) + " K=" + str(t.k) + " N=" + str(t.n) + " nt=" + str(t.nt) +
         " kt=" + str(t.kt) + " units=" + str(t.units) + " per_core=" + str(t.per_core);
}

void cost(const OpContext& ctx, OpCost& c) {
  const MatmulGenericTiling t = plan(ctx);
  const double item = static_cast<double>(itemsize(ctx.input(0).dtype));
  c.flops = 2.0 * static_cast<double>(t.batch * t.m * t.n * t.k);
  c.bytes = item * static_cast<double>(t.batch * t.m * (t.k + t.n) + t.batch * t.m * t.n * t.k);
}

OpDefBuilder generic_def() {
  const std::initializer_list<DType> dtypes = {DType::kInt8,    DType::kInt16,   DType::kInt32,     DType::kInt64,
                                               DType::kUInt8,   DType::kUInt16,  DType::kUInt32,    DType::kUInt64,
                                               DType::kFloat64, DType::kComplex64, DType::kComplex128};
  const std::initializer_list<DType> sim_only = {DType::kInt64, DType::kUInt64, DType::kFloat64, DType::kComplex64,
                                                 DType::kComplex128};
  OpDefBuilder b("matmul_generic");
  b.doc("y[b] = a[b] @ b[b] for a [Ba, M, K], b [Bb, K, N] (Ba, Bb = batch or 1) of one integer, float64 or "
        "complex dtype, on the vector cores' scalar unit (the cube `matmul` covers float32/float16/bfloat16). "
        "Integer results wrap modulo 2^bits like numpy's; int64, uint64, float64 and complex are sim-only.");
  b.input("a", dtypes).sim_only(sim_only)
      .input("b", dtypes).sim_only(sim_only)
      .output("y")
      .infer(infer)
      .tiling(tiling)
      .describe_tiling(describe)
      .cost(cost)
      .sim_kernel("npurt_matmul_generic_kernel", kMatmulGenericEntry);
  return b;
}

std::vector<OpDefBuilder> generic_defs() {
  std::vector<OpDefBuilder> defs;
  defs.push_back(generic_def());
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(generic_defs());

}  // namespace npurt::kernels::matmul_generic
