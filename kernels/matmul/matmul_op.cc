// kernels/matmul/matmul_op.cc: host side of `matmul`: signature, shape and
// dtype inference, tiling over the cube cores, registration.
//
// y = op(a) @ op(b) (+ bias): a [..., M, K] ([..., K, M] with trans_a), b
// [..., K, N] ([..., N, K] with trans_b), batch dims broadcast like numpy's
// matmul, 1-D operands promoted and their dim removed (array API). fp32
// accumulation in L0C; y in `dtype` (default a's dtype). Shapes and tiles:
// matmul_plan.h; kernel: matmul_kernel.cc.
#include <string>

#include "matmul/matmul_plan.h"
#include "npurt/op_registry.h"

namespace npurt_kernels {
npurt::SimKernelEntry npurt_matmul_entry();
}

namespace {

using namespace npurt;
using namespace npurt_kernels;
using namespace npurt_kernels::matmul_plan;

DType out_dtype(const OpContext& ctx) {
  const std::string& name = ctx.attr("dtype").as_string();
  if (name.empty()) return ctx.input(0).dtype;
  for (DType t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16})
    if (name == dtype_name(t)) return t;
  ctx.fail_dtype("dtype", "'" + name + "' is not an output dtype of matmul (float32, float16, bfloat16)");
}

MatmulBias bias_kind(const OpContext& ctx, const Forward& f) {
  if (!ctx.has_input(2)) return MatmulBias::kNone;
  const TensorSpec& bias = ctx.input(2);
  if (bias.shape.size() != 1 || bias.shape[0] != f.n)
    ctx.fail("bias", "must be 1-D of length N = " + std::to_string(f.n) + ", got rank " +
                         std::to_string(bias.shape.size()) + (bias.shape.size() == 1 ? " length " + std::to_string(bias.shape[0]) : ""));
  if (bias.dtype == DType::kFloat32) return MatmulBias::kF32;
  if (bias.dtype == ctx.input(0).dtype) return MatmulBias::kInput;
  ctx.fail_dtype("bias", std::string("dtype ") + dtype_name(bias.dtype) + " must be float32 or a's dtype");
}

void matmul_infer(const OpContext& ctx) {
  Forward f = forward_shapes(ctx, 0, 1);
  bias_kind(ctx, f);
  ctx.set_output(0, f.out_shape, out_dtype(ctx));
}

void matmul_tiling(const OpContext& ctx, TilingResult& r) {
  Forward f = forward_shapes(ctx, 0, 1);
  MatmulTiling t{};
  t.dtype = static_cast<uint32_t>(matmul_dtype(ctx.input(0).dtype));
  t.outDtype = static_cast<uint32_t>(matmul_dtype(out_dtype(ctx)));
  t.bias = static_cast<uint32_t>(bias_kind(ctx, f));
  t.nProblems = 1;
  t.p[0] = make_problem(ctx, Side{0, &f.a.batch, f.a.rows, f.a.cols, f.a.trans},
                        Side{1, &f.b.batch, f.b.rows, f.b.cols, f.b.trans}, 3, f.batch, f.batch, f.m, f.n, f.k);
  if (f.k == 0 && t.p[0].outCount != 0)  // the cube cannot produce C without reading A and B
    ctx.fail("a", "K = 0 is not supported by the kernel (nr.matmul returns zeros for it)");
  choose_tiles(ctx, t, ctx.input(0).dtype == DType::kFloat32 ? 4 : 2, r);
}

const std::initializer_list<DType> kMatmulTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

}  // namespace

NPURT_REGISTER_OP("matmul")
    .doc("Matrix product on the cube unit: y = op(a) @ op(b) (+ bias).\n"
         "a is [..., M, K] ([..., K, M] with trans_a), b is [..., K, N] ([..., N, K] with trans_b);\n"
         "batch dims broadcast like numpy.matmul; a 1-D a is [1, K] and a 1-D b is [K, 1], their dim\n"
         "removed from y (trans ignored for them). bias: [N], float32 or a's dtype, added in fp32.\n"
         "float32/float16/bfloat16 (a and b alike) with float32 accumulation; y has `dtype`\n"
         "('float32', 'float16', 'bfloat16'; default a's dtype). K = 0 is rejected.")
    .input("a", kMatmulTypes)
    .rank(1)
    .input("b", kMatmulTypes)
    .rank(1)
    .optional_input("bias", {DType::kFloat32, DType::kFloat16, DType::kBFloat16})
    .output("y")
    .attr("trans_a", AttrType::kBool, AttrValue(false))
    .attr("trans_b", AttrType::kBool, AttrValue(false))
    .attr("dtype", AttrType::kString, AttrValue(std::string()))
    .infer(matmul_infer)
    .tiling(matmul_tiling)
    .describe_tiling(describe)
    .cost([](const OpContext& ctx, OpCost& c) {
      Forward f = forward_shapes(ctx, 0, 1);
      double batch = 1;
      for (int64_t d : f.batch) batch *= double(d);
      c.flops = 2 * batch * double(f.m) * double(f.n) * double(f.k);
      c.bytes = batch * double(f.m * f.k + f.k * f.n + f.m * f.n) * (ctx.input(0).dtype == DType::kFloat32 ? 4 : 2);
    })
    .sim_kernel("npurt_matmul_kernel", npurt_kernels::npurt_matmul_entry());
