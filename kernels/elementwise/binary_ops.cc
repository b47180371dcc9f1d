// kernels/elementwise/binary_ops.cc: host side of the binary family: the shared
// tiling and one table row per op (name, kernel, doc) registered in one place.
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "elementwise/binary_entries.h"
#include "elementwise/elementwise_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

namespace {

const DTypeMask kBinaryDTypes = dtype_mask({DType::kInt16, DType::kInt32, DType::kFloat16, DType::kFloat32});

std::string dims_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

void infer_same_shape(const OpContext& ctx) {
  const TensorSpec& x = ctx.input(0);
  const TensorSpec& y = ctx.input(1);
  if (x.dtype != y.dtype)
    ctx.fail_dtype("y", std::string("dtype ") + dtype_name(y.dtype) + " differs from x's " + dtype_name(x.dtype) +
                           " (this kernel takes equal dtypes; cast first)");
  if (x.shape != y.shape)
    ctx.fail("y", "shape " + dims_str(y.shape) + " differs from x's " + dims_str(x.shape) +
                      " (this kernel takes equal shapes, no broadcasting)");
  ctx.set_output(0, x.shape, x.dtype);
}

// Three queues (x, y, z), two buffers each.
void binary_tiling(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& x = ctx.input(0);
  uint32_t item = static_cast<uint32_t>(itemsize(x.dtype));
  uint64_t total = static_cast<uint64_t>(x.numel());
  ElementwiseTiling t;
  t.total = total;
  t.dtype = static_cast<uint32_t>(x.dtype);
  CoreSplit split = split_over_cores(total, block_elems(item), 16384 / item, ctx.profile());
  t.per_core = split.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), uint64_t{item} * 3 * 2, block_elems(item), split.per_core);
  r.num_blocks = split.num_blocks;
  r.set_tiling(t);
}

std::string describe_elementwise(const OpContext&, const TilingResult& r) {
  const ElementwiseTiling t = tiling_as<ElementwiseTiling>(r, "describe_elementwise");
  return "elements=" + std::to_string(t.total) + " per_core=" + std::to_string(t.per_core) +
         " tile=" + std::to_string(t.tile) + " buffers=2 (x, y, z queues)";
}

void binary_cost(const OpContext& ctx, OpCost& c) {
  double n = static_cast<double>(ctx.input(0).numel());
  c.bytes = 3 * n * itemsize(ctx.input(0).dtype);
  c.flops = n;
}

struct BinaryOpRow {
  const char* name;
  const char* kernel;
  const SimKernelEntry* entry;
  const char* doc;
};

const BinaryOpRow kBinaryOps[] = {
    {"add", "npurt_add_kernel", &kAddKernelEntry,
     "Elementwise sum z = x + y of two contiguous tensors of equal shape and dtype.\n"
     "Integer addition wraps around; float16 rounds to nearest even."},
    {"mul", "npurt_mul_kernel", &kMulKernelEntry,
     "Elementwise product z = x * y of two contiguous tensors of equal shape and dtype.\n"
     "Integer multiplication wraps around; float16 rounds to nearest even."},
};

std::vector<OpDefBuilder> binary_defs() {
  std::vector<OpDefBuilder> defs;
  for (const BinaryOpRow& row : kBinaryOps) {
    OpDefBuilder b(row.name);
    b.doc(row.doc)
        .input("x", kBinaryDTypes)
        .input("y", kBinaryDTypes)
        .output("z")
        .infer(infer_same_shape)
        .tiling(binary_tiling)
        .describe_tiling(describe_elementwise)
        .cost(binary_cost)
        .sim_kernel(row.kernel, *row.entry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(binary_defs());

}  // namespace npurt::kernels
