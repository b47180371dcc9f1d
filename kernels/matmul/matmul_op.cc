// kernels/matmul/matmul_op.cc: host side of `matmul`: signature, shape
// inference, tiling over the cube cores, registration.
//
// a [..., M, K] x b [K, N] (or [..., K, N] with a's batch dims; [.., N, K] with
// trans_b) -> y [..., M, N] in a's dtype, fp32 accumulation in L0C.
// Tiling: baseM/baseN = min(128, dim rounded up to 16); kStep = the largest
// multiple of 16 (<= 256) with baseM x kStep and kStep x baseN inside L0A/L0B;
// numBlocks = min(cube cores, tiles). L1 holds two A and two B buffers.
#include <algorithm>
#include <cstring>
#include <string>

#include "matmul/matmul_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt_kernels {
npurt::SimKernelEntry npurt_matmul_entry();
}

namespace {

using namespace npurt;
using npurt_kernels::MatmulTiling;

uint32_t round16(uint64_t x) { return static_cast<uint32_t>((x + 15) / 16 * 16); }

struct Dims3 {
  int64_t batch, m, k, n;
  bool b_batched;
};

Dims3 matmul_dims(const OpContext& ctx) {
  const TensorSpec& a = ctx.input(0);
  const TensorSpec& b = ctx.input(1);
  const bool tb = ctx.attr_bool("trans_b");
  if (b.dtype != a.dtype) ctx.fail("b", std::string("dtype must match a's"));
  const size_t ra = a.shape.size(), rb = b.shape.size();
  Dims3 d{1, a.shape[ra - 2], a.shape[ra - 1], tb ? b.shape[rb - 2] : b.shape[rb - 1], rb > 2};
  const int64_t bk = tb ? b.shape[rb - 1] : b.shape[rb - 2];
  if (bk != d.k)
    ctx.fail("b", "contracted dimension " + std::to_string(bk) + " does not match a's last dim " +
                      std::to_string(d.k) + (tb ? " (trans_b: b is [..., N, K])" : ""));
  if (rb > 2 && (rb != ra || !std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin())))
    ctx.fail("b", "batch dims must equal a's (or b must be 2-D)");
  for (size_t i = 0; i + 2 < ra; ++i) d.batch *= a.shape[i];
  if (d.k > 65535 || d.n > 65535) ctx.fail(d.k > 65535 ? "a" : "b", "K and N must be < 65536");
  return d;
}

void matmul_infer(const OpContext& ctx) {
  const TensorSpec& a = ctx.input(0);
  Dims3 d = matmul_dims(ctx);
  Dims out(a.shape.begin(), a.shape.end() - 1);
  out.push_back(d.n);
  ctx.set_output(0, out, a.dtype);
}

void matmul_tiling(const OpContext& ctx, TilingResult& r) {
  Dims3 d = matmul_dims(ctx);
  const ChipProfile& p = ctx.profile();
  const DType dt = ctx.input(0).dtype;
  const uint32_t es = dt == DType::kFloat32 ? 4 : 2;
  MatmulTiling t{};
  t.dtype = static_cast<uint32_t>(dt == DType::kFloat32   ? npurt_kernels::MatmulDType::kF32
                                  : dt == DType::kFloat16 ? npurt_kernels::MatmulDType::kF16
                                                          : npurt_kernels::MatmulDType::kBF16);
  t.batch = static_cast<uint32_t>(d.batch);
  t.M = static_cast<uint32_t>(d.m);
  t.N = static_cast<uint32_t>(d.n);
  t.K = static_cast<uint32_t>(d.k);
  t.transB = ctx.attr_bool("trans_b");
  t.bBatched = d.b_batched;
  if (d.batch * d.m * d.n == 0 || d.k == 0) {
    // K == 0 needs zeros, which the cube cannot produce without reading data.
    if (d.batch * d.m * d.n != 0) ctx.fail("a", "K = 0 is not supported (the result would be zeros)");
    r.num_blocks = 0;
    return;
  }
  t.baseM = std::min<uint32_t>(128, round16(d.m));
  t.baseN = std::min<uint32_t>(128, round16(d.n));
  const uint64_t l0 = std::min(p.l0a_bytes / t.baseM, p.l0b_bytes / t.baseN) / es;
  t.kStep = static_cast<uint32_t>(std::min<uint64_t>({256, l0 / 16 * 16, round16(d.k)}));
  const uint64_t l1 = 2ull * (t.baseM + t.baseN) * round16(t.kStep) * es;
  if (t.kStep < 16 || uint64_t{t.baseM} * t.baseN * 4 > p.l0c_bytes || l1 > p.l1_bytes)
    ctx.fail("a", "a matmul tile does not fit the L0/L1 buffers of " + p.name);
  t.tilesM = (t.M + t.baseM - 1) / t.baseM;
  t.tilesN = (t.N + t.baseN - 1) / t.baseN;
  const uint64_t tiles = uint64_t{t.tilesM} * t.tilesN * t.batch;
  r.num_blocks = static_cast<uint32_t>(std::min<uint64_t>({tiles, std::max(1u, p.cube_cores), 65535}));
  r.set_tiling(t);
}

std::string matmul_plan(const OpContext& ctx, const TilingResult& r) {
  if (r.num_blocks == 0) return "empty output: no launch";
  MatmulTiling t;
  std::memcpy(&t, r.tiling.data(), sizeof t);
  return "batch=" + std::to_string(t.batch) + " M=" + std::to_string(t.M) + " N=" + std::to_string(t.N) +
         " K=" + std::to_string(t.K) + " tile=" + std::to_string(t.baseM) + "x" + std::to_string(t.baseN) +
         " kStep=" + std::to_string(t.kStep) + " tiles=" + std::to_string(t.tilesM * t.tilesN * t.batch) +
         " blocks=" + std::to_string(r.num_blocks) + " (cube cores of " + ctx.profile().name +
         "), L1 double-buffered, fp32 accumulation in L0C";
}

const std::initializer_list<DType> kMatmulTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

}  // namespace

NPURT_REGISTER_OP("matmul")
    .doc("Matrix product on the cube unit: y = a @ b (b^T with trans_b).\n"
         "a is [..., M, K]; b is [K, N], or [..., K, N] with the same batch dims as a\n"
         "([..., N, K] with trans_b). float32/float16/bfloat16 with float32 accumulation;\n"
         "the output has a's dtype.")
    .input("a", kMatmulTypes)
    .rank(2)
    .input("b", kMatmulTypes)
    .rank(2)
    .output("y")
    .attr("trans_b", AttrType::kBool, AttrValue(false))
    .infer(matmul_infer)
    .tiling(matmul_tiling)
    .describe_tiling(matmul_plan)
    .cost([](const OpContext& ctx, OpCost& c) {
      const TensorSpec& a = ctx.input(0);
      const TensorSpec& b = ctx.input(1);
      double n = double(b.shape.back()), k = double(a.shape.back());
      if (ctx.attr_bool("trans_b")) n = double(b.shape[b.shape.size() - 2]);
      double mk = double(a.numel());
      c.flops = 2 * mk * n;
      c.bytes = (mk + double(b.numel()) + mk / k * n) * (a.dtype == DType::kFloat32 ? 4 : 2);
    })
    .sim_kernel("npurt_matmul_kernel", npurt_kernels::npurt_matmul_entry());
