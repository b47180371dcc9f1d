// kernels/sort/search_ops.cc: host side of search_kernel.cc: registration of
// searchsorted(x1, x2, sorter?, side) -> int64 positions shaped like x2, and
// isin_sorted(x1, x2, sorter?, invert) -> bool shaped like x2 (is each x2
// element in the sorted x1?). x1 is 1-D and sorted ascending (sort_order.h),
// or `sorter` (int64, a permutation of x1's indices) sorts it; x1 and x2 have
// one dtype (the Python layer promotes first).
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kSearchEntry;

namespace {

void check_inputs(const OpContext& ctx) {
  const TensorSpec &x1 = ctx.input(0), &x2 = ctx.input(1);
  if (x1.shape.size() != 1) ctx.fail("x1", "must be 1-D, got " + str(x1.shape.size()) + "-D");
  if (x2.dtype != x1.dtype)
    ctx.fail_dtype("x2", std::string("dtype ") + dtype_name(x2.dtype) + " differs from x1's " + dtype_name(x1.dtype));
  if (ctx.has_input(2) && ctx.input(2).shape != x1.shape)
    ctx.fail("sorter", "must have x1's shape (" + str(x1.shape[0]) + ",)");
}

SearchMode mode_of(const OpContext& ctx) {
  if (ctx.op().name == "searchsorted") {
    const std::string& side = ctx.attr("side").as_string();
    if (side != "left" && side != "right") ctx.fail("side", "must be 'left' or 'right', got '" + side + "'");
    return side == "left" ? SearchMode::kLeft : SearchMode::kRight;
  }
  return ctx.attr_bool("invert") ? SearchMode::kNotIn : SearchMode::kIsin;
}

void infer_search(const OpContext& ctx) {
  check_inputs(ctx);
  const SearchMode m = mode_of(ctx);
  const bool positions = m == SearchMode::kLeft || m == SearchMode::kRight;
  ctx.set_output(0, ctx.input(1).shape, positions ? DType::kInt64 : DType::kBool);
}

void search_tiling(const OpContext& ctx, TilingResult& r) {
  SearchTiling t;
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.mode = static_cast<uint32_t>(mode_of(ctx));
  t.has_sorter = ctx.has_input(2);
  t.n1 = static_cast<uint64_t>(ctx.input(0).numel());
  t.n2 = static_cast<uint64_t>(ctx.input(1).numel());
  const uint64_t per_elem = itemsize(ctx.input(0).dtype) + 8;  // the x2 tile and the result tile
  t.tile = static_cast<uint32_t>(fit64(ctx.profile(), per_elem, std::min<uint64_t>(t.n2, 4096)));
  const CoreSplit cs = split_over_cores(t.n2, 64, 1024, ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

std::string describe_search(const OpContext&, const TilingResult& r) {
  const SearchTiling t = tiling_as<SearchTiling>(r, "describe_search");
  return "n1=" + str(t.n1) + " n2=" + str(t.n2) + " tile=" + str(t.tile) + " per_core=" + str(t.per_core) +
         (t.has_sorter ? " sorter" : "");
}

OpDefBuilder search_def(const char* name, const char* doc) {
  OpDefBuilder b(name);
  b.doc(doc);
  sortable_input(b, "x1");
  sortable_input(b, "x2");
  b.optional_input("sorter", {DType::kInt64})
      .output("out")
      .infer(infer_search)
      .tiling(search_tiling)
      .describe_tiling(describe_search)
      .cost([](const OpContext& ctx, OpCost& c) {
        c.bytes = static_cast<double>(ctx.input(1).numel()) * (itemsize(ctx.input(1).dtype) + 8.0);
        c.flops = c.bytes;
      })
      .sim_kernel("npurt_searchsorted_kernel", kSearchEntry);
  return b;
}

std::vector<OpDefBuilder> search_defs() {
  std::vector<OpDefBuilder> defs;
  defs.push_back(search_def("searchsorted",
                            "For every x2 element, the position in the sorted 1-D x1 where it would be "
                            "inserted: side='left' before equal elements, 'right' after (int64, x2's shape). "
                            "NaN sorts last."));
  defs.back().attr("side", AttrType::kString, AttrValue("left"));
  defs.push_back(search_def("isin_sorted",
                            "For every x2 element, whether it equals an element of the sorted 1-D x1 (bool, "
                            "x2's shape; NaN is never found); invert=True negates."));
  defs.back().attr("invert", AttrType::kBool, AttrValue(false));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(search_defs());

}  // namespace npurt::kernels::sort
