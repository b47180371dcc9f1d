// tests/runtime/ops/test_kernels.h: small Ascend C kernels and OpDefs used by the
// registry tests and the test plugins. They use scalar GM access only, so they
// depend on nothing but the kernel API's core (no vector unit). Scalar GM
// writes follow the DCache rule the sim checks by default (docs/kernels.md rule
// 5): each block cleans its cache after its last write, and blocks own whole
// 64 B lines (per_core is a multiple of 16 floats).
//
// test_affine(x: float32, rank 1..4) -> y = x * a + b   attrs a: float (required),
//   b: float = 0, note: str = "", flags: int list = [], as_int: bool = False
// test_fault(x: float32) -> y   reads far past x: a GM out-of-bounds fault.
#pragma once

#include <string>

#include "kernel_operator.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt_test {

struct AffineTiling {
  uint64_t n;
  uint64_t per_core;
  float a;
  float b;
  uint32_t fault;  // test_fault: read out of bounds
};

inline void affine_body(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(AffineTiling, t, tiling);
  uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  if (begin >= t.n) return;
  uint64_t end = begin + t.per_core < t.n ? begin + t.per_core : t.n;
  AscendC::GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
  if (t.fault) yg.SetValue(0, xg.GetValue(t.n + (1u << 20)));
  for (uint64_t i = begin; i < end; ++i) yg.SetValue(i, xg.GetValue(i) * t.a + t.b);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(yg);
}

inline void affine_tiling(const npurt::OpContext& ctx, npurt::TilingResult& r, bool fault) {
  AffineTiling t{};
  t.n = static_cast<uint64_t>(ctx.input(0).numel());
  t.a = static_cast<float>(ctx.attr_float("a"));
  t.b = static_cast<float>(ctx.attr_float("b"));
  t.fault = fault ? 1 : 0;
  uint32_t blocks = t.n == 0 ? 0 : (t.n < 4 ? 1 : 4);
  t.per_core = blocks ? ((t.n + blocks - 1) / blocks + 15) / 16 * 16 : 0;  // whole 64 B lines
  r.num_blocks = blocks;
  r.set_tiling(t);
}

// Builder of a test_affine-like op named `name` bound to `entry`.
inline npurt::OpDefBuilder affine_def(const std::string& name, npurt::SimKernelEntry entry, bool fault = false) {
  using npurt::AttrType;
  using npurt::AttrValue;
  npurt::OpDefBuilder b(name);
  b.doc("y = x * a + b (test op)")
      .input("x", {npurt::DType::kFloat32})
      .rank(1, 4)
      .output("y")
      .attr("a", AttrType::kFloat)
      .attr("b", AttrType::kFloat, AttrValue(0.0))
      .attr("note", AttrType::kString, AttrValue(""))
      .attr("flags", AttrType::kIntList, AttrValue(std::vector<int64_t>{}))
      .attr("as_int", AttrType::kBool, AttrValue(false))
      .infer_same_as(0)
      .tiling([fault](const npurt::OpContext& c, npurt::TilingResult& r) { affine_tiling(c, r, fault); })
      .sim_kernel(name + "_kernel", entry);
  return b;
}

}  // namespace npurt_test

// Entries (each test binary / plugin that includes this defines its own copy).
extern "C" __global__ __aicore__ inline void npurt_test_affine_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  (void)ws;
  npurt_test::affine_body(x, y, tiling);
}
