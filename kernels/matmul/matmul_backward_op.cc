// kernels/matmul/matmul_backward_op.cc: `matmul_backward(dy, a, b; trans_a,
// trans_b) -> (da, db)`, the gradients of y = op(a) @ op(b), as one launch of
// the matmul kernel solving two problems:
//   d op(a) = dy @ op(b)^T   and   d op(b) = op(a)^T @ dy,
// each written in its operand's stored orientation (transposed back for
// trans_a / trans_b) and summed over the batch dims its operand was broadcast
// along (a reduction batch accumulated in L0C, so no extra pass). dy has y's
// shape and a's dtype; da, db have a's and b's shapes and dtype. The bias
// gradient is dy summed over every axis but the last (nr.sum), not part of
// this op.
#include <string>

#include "matmul/matmul_plan.h"
#include "npurt/op_registry.h"

namespace npurt_kernels {
npurt::SimKernelEntry npurt_matmul_backward_entry();
}

namespace {

using namespace npurt;
using namespace npurt_kernels;
using namespace npurt_kernels::matmul_plan;

constexpr uint32_t kDy = 0, kA = 1, kB = 2, kDa = 3, kDb = 4;

Forward backward_shapes(const OpContext& ctx) {
  Forward f = forward_shapes(ctx, kA, kB);
  const TensorSpec& dy = ctx.input(kDy);
  if (dy.dtype != ctx.input(kA).dtype)
    ctx.fail_dtype("dy", std::string("dtype ") + dtype_name(dy.dtype) + " must match a's " + dtype_name(ctx.input(kA).dtype));
  if (dy.shape != f.out_shape) {
    std::string want, got;
    for (int64_t d : f.out_shape) want += std::to_string(d) + " ";
    for (int64_t d : dy.shape) got += std::to_string(d) + " ";
    ctx.fail("dy", "shape [ " + got + "] must be the forward output's [ " + want + "]");
  }
  return f;
}

void backward_infer(const OpContext& ctx) {
  backward_shapes(ctx);
  ctx.set_output(0, ctx.input(kA).shape, ctx.input(kA).dtype);
  ctx.set_output(1, ctx.input(kB).shape, ctx.input(kB).dtype);
}

void backward_tiling(const OpContext& ctx, TilingResult& r) {
  Forward f = backward_shapes(ctx);
  const Operand &a = f.a, &b = f.b;
  MatmulTiling t{};
  t.dtype = t.outDtype = static_cast<uint32_t>(matmul_dtype(ctx.input(kA).dtype));
  t.nProblems = 2;
  // dy as stored: [batch, M, N]. Trans flags say "stored transposed relative to the role".
  auto dy = [&](bool trans) { return Side{kDy, &f.batch, f.m, f.n, trans}; };
  auto sa = [&](bool trans) { return Side{kA, &a.batch, a.rows, a.cols, trans}; };
  auto sb = [&](bool trans) { return Side{kB, &b.batch, b.rows, b.cols, trans}; };
  if (!a.trans)  // da [M, K] = dy [M, N] @ op(b)^T [N, K]
    t.p[0] = make_problem(ctx, dy(false), sb(!b.trans), kDa, a.batch, f.batch, f.m, f.k, f.n);
  else           // da stored [K, M] = op(b) [K, N] @ dy^T [N, M]
    t.p[0] = make_problem(ctx, sb(b.trans), dy(true), kDa, a.batch, f.batch, f.k, f.m, f.n);
  if (!b.trans)  // db [K, N] = op(a)^T [K, M] @ dy [M, N]
    t.p[1] = make_problem(ctx, sa(!a.trans), dy(false), kDb, b.batch, f.batch, f.k, f.n, f.m);
  else           // db stored [N, K] = dy^T [N, M] @ op(a) [M, K]
    t.p[1] = make_problem(ctx, dy(true), sa(a.trans), kDb, b.batch, f.batch, f.n, f.k, f.m);
  if (f.m == 0 || f.n == 0) {
    for (MatmulProblem& p : t.p)
      if (p.outCount != 0 && p.M * p.N != 0)
        ctx.fail("dy", "M = 0 or N = 0 makes the gradients zero; the kernel does not produce them");
  }
  choose_tiles(ctx, t, ctx.input(kA).dtype == DType::kFloat32 ? 4 : 2, r);
}

const std::initializer_list<DType> kMatmulTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

}  // namespace

NPURT_REGISTER_OP("matmul_backward")
    .doc("Gradients of y = op(a) @ op(b): da = dy @ op(b)^T and db = op(a)^T @ dy, in the stored\n"
         "orientation of a and b (trans_a / trans_b as in matmul) and summed over broadcast batch dims.\n"
         "dy has y's shape and a's dtype; fp32 accumulation. dbias = dy summed over all axes but the last.")
    .input("dy", kMatmulTypes)
    .input("a", kMatmulTypes)
    .rank(1)
    .input("b", kMatmulTypes)
    .rank(1)
    .output("da")
    .output("db")
    .attr("trans_a", AttrType::kBool, AttrValue(false))
    .attr("trans_b", AttrType::kBool, AttrValue(false))
    .infer(backward_infer)
    .tiling(backward_tiling)
    .describe_tiling(describe)
    .sim_kernel("npurt_matmul_backward_kernel", npurt_kernels::npurt_matmul_backward_entry());
