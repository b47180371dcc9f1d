// kernels/elementwise/ew_act_ops.cc: host side of the activation ops (gelu,
// silu, swiglu and their backward kernels): signatures, shape/attr checks and
// tilings, all planned by the elementwise template's plan_ew (ew_host.h).
//
// Dtypes: float32, float16, bfloat16 (computed in float). Every op runs on
// the vector unit (16-bit inputs cast to float in UB scratch tiles, the
// result cast back), so none is sim-only.
#include <cstring>
#include <string>

#include "elementwise/ew_act_tiling.h"
#include "elementwise/ew_broadcast.h"
#include "elementwise/ew_host.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels::ew {
extern const SimKernelEntry kGeluEntry, kGeluBackwardEntry, kSiluEntry, kSiluBackwardEntry, kSwigluEntry,
    kSwigluBackwardEntry;

namespace {

const DTypeMask kActDTypes = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat32});

uint32_t gelu_variant(const OpContext& ctx) {
  const AttrValue& a = ctx.attr("approximate");
  const std::string& s = a.as_string();
  if (s == "none") return kGeluErf;
  if (s == "tanh") return kGeluTanh;
  ctx.fail("approximate", "must be 'none' or 'tanh', got '" + s + "'");
  return kGeluErf;
}

// Backward ops: dy must have x's shape and dtype (no broadcasting of gradients).
void infer_grad(const OpContext& ctx) {
  const TensorSpec &dy = ctx.input(0), &x = ctx.input(1);
  if (dy.dtype != x.dtype)
    ctx.fail_dtype("dy", std::string("dtype ") + dtype_name(dy.dtype) + " differs from x's " + dtype_name(x.dtype));
  if (dy.shape != x.shape)
    ctx.fail("dy", "shape " + dims_str(dy.shape) + " differs from x's " + dims_str(x.shape));
  ctx.set_output(0, x.shape, x.dtype);
}

// UB bytes per element of EwKernel's float calc tiles: for 16-bit dtypes the
// n_in widened inputs and the widened result (EwKernel::kWideVector), plus the
// functor's own scratch tiles (Op::kScratch) for every dtype.
uint64_t calc_bytes(DType dtype, int n_in, uint64_t scratch) {
  const uint64_t widen = itemsize(dtype) == 2 ? static_cast<uint64_t>(n_in) + 1 : 0;
  return (widen + scratch) * sizeof(float);
}

// scratch: float UB tiles the functor's vector form needs (Op::kScratch).
void tiling_plain(const OpContext& ctx, TilingResult& r, uint32_t variant, uint64_t scratch = 0) {
  EwTiling t;
  const TensorSpec& out = ctx.output(0);
  const int n_in = static_cast<int>(ctx.num_inputs());
  plan_ew(ctx, out.shape, out.dtype, out.dtype, &ctx.input(0), n_in, t, r.num_blocks,
          calc_bytes(out.dtype, n_in, scratch));
  t.variant = variant;
  r.set_tiling(t);
}

// swiglu's halves of x: x's spec with the last dim halved (the second half
// starts h * stride elements further: EwTiling::offset).
TensorSpec half_of(const TensorSpec& x) {
  TensorSpec h = x;
  h.shape.back() /= 2;
  return h;
}

int64_t half_offset(const TensorSpec& x) { return x.shape.back() / 2 * x.strides.back(); }

void check_swiglu_x(const OpContext& ctx, const TensorSpec& x) {
  if (x.shape.empty()) ctx.fail("x", "a 0-d array has no last axis to split");
  if (x.shape.back() % 2 != 0)
    ctx.fail("x", "the last axis (" + std::to_string(x.shape.back()) + ") must be even: it is split into halves");
}

void infer_swiglu(const OpContext& ctx) {
  check_swiglu_x(ctx, ctx.input(0));
  ctx.set_output(0, half_of(ctx.input(0)).shape, ctx.input(0).dtype);
}

void tiling_swiglu(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& x = ctx.input(0);
  const TensorSpec halves[2] = {half_of(x), half_of(x)};
  EwTiling t;
  plan_ew(ctx, ctx.output(0).shape, x.dtype, x.dtype, halves, 2, t, r.num_blocks, calc_bytes(x.dtype, 2, 0));
  t.offset[1] = half_offset(x);
  r.set_tiling(t);
}

void infer_swiglu_backward(const OpContext& ctx) {
  const TensorSpec &dy = ctx.input(0), &x = ctx.input(1);
  check_swiglu_x(ctx, x);
  if (dy.dtype != x.dtype)
    ctx.fail_dtype("dy", std::string("dtype ") + dtype_name(dy.dtype) + " differs from x's " + dtype_name(x.dtype));
  if (dy.shape != half_of(x).shape)
    ctx.fail("dy", "shape " + dims_str(dy.shape) + " must be x's shape with the last axis halved, " +
                       dims_str(half_of(x).shape));
  ctx.set_output(0, x.shape, x.dtype);
}

// Two passes over dy's shape: da (inputs dy, a, b) then db (inputs dy, a),
// each writing rows of h columns into dx (pitch 2h).
void tiling_swiglu_backward(const OpContext& ctx, TilingResult& r) {
  const TensorSpec &dy = ctx.input(0), &x = ctx.input(1);
  const TensorSpec in[3] = {dy, half_of(x), half_of(x)};
  const int64_t h = dy.shape.back();
  SwigluBackwardTiling t;
  // The same core split for both passes (it does not depend on the UB budget).
  plan_ew(ctx, dy.shape, x.dtype, x.dtype, in, 3, t.da, r.num_blocks, calc_bytes(x.dtype, 3, 1));  // SwigluGradAF
  plan_ew(ctx, dy.shape, x.dtype, x.dtype, in, 2, t.db, r.num_blocks, calc_bytes(x.dtype, 2, 0));  // SwigluGradBF
  t.da.offset[2] = t.db.offset[2] = half_offset(x);
  t.da.out_row = t.db.out_row = h;
  t.da.out_pitch = t.db.out_pitch = 2 * h;
  t.db.out_offset = h;
  r.set_tiling(t);
}

OpDefBuilder act_def(const char* name, const char* doc) {
  OpDefBuilder b(name);
  b.doc(std::string(doc) + "\nfloat32, float16, bfloat16; computed in float32. Reads any strides in place.");
  return b;
}

// Inputs ([dy,] x); every dtype has a vector-unit path (none is sim-only).
OpDefBuilder& add_x(OpDefBuilder& b, bool with_dy) {
  for (const char* name : {"dy", "x"}) {
    if (!with_dy && name[0] == 'd') continue;
    b.input(name, kActDTypes).strided();
  }
  return b;
}

std::vector<OpDefBuilder> act_defs() {
  std::vector<OpDefBuilder> d;
  const auto gelu_attr = [](OpDefBuilder& b) { b.attr("approximate", AttrType::kString, AttrValue("none")); };
  d.push_back(act_def("gelu", "x * Phi(x) (approximate='none', erf form) or the tanh form\n"
                              "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (approximate='tanh')."));
  add_x(d.back(), false).output("y").infer_same_as(0).tiling([](const OpContext& c, TilingResult& r) {
    tiling_plain(c, r, gelu_variant(c), 2);  // GeluErfF::kScratch
  });
  gelu_attr(d.back());
  d.back().sim_kernel("npurt_ew_gelu_kernel", kGeluEntry);

  d.push_back(act_def("gelu_backward", "dx = dy * gelu'(x) for either form of gelu."));
  add_x(d.back(), true).output("dx").infer(infer_grad).tiling([](const OpContext& c, TilingResult& r) {
    tiling_plain(c, r, gelu_variant(c), 3);  // max of GeluTanhGradF (3) and GeluErfGradF (2) kScratch
  });
  gelu_attr(d.back());
  d.back().sim_kernel("npurt_ew_gelu_backward_kernel", kGeluBackwardEntry);

  d.push_back(act_def("silu", "x * sigmoid(x) (also called swish)."));
  add_x(d.back(), false).output("y").infer_same_as(0).tiling([](const OpContext& c, TilingResult& r) {
    tiling_plain(c, r, 0);
  });
  d.back().sim_kernel("npurt_ew_silu_kernel", kSiluEntry);

  d.push_back(act_def("silu_backward", "dx = dy * sigmoid(x) * (1 + x * (1 - sigmoid(x)))."));
  add_x(d.back(), true).output("dx").infer(infer_grad).tiling([](const OpContext& c, TilingResult& r) {
    tiling_plain(c, r, 0, 1);  // SiluGradF::kScratch
  });
  d.back().sim_kernel("npurt_ew_silu_backward_kernel", kSiluBackwardEntry);

  d.push_back(act_def("swiglu", "silu(a) * b where a, b = the halves of x's last axis (like torch_npu's\n"
                                "npu_swiglu with dim=-1); the last axis must be even."));
  add_x(d.back(), false).output("y").infer(infer_swiglu).tiling(tiling_swiglu);
  d.back().sim_kernel("npurt_ew_swiglu_kernel", kSwigluEntry);

  d.push_back(act_def("swiglu_backward", "dx = [dy * b * silu'(a), dy * silu(a)] (x's shape) for y = swiglu(x)."));
  add_x(d.back(), true).output("dx").infer(infer_swiglu_backward).tiling(tiling_swiglu_backward);
  d.back().sim_kernel("npurt_ew_swiglu_backward_kernel", kSwigluBackwardEntry);

  for (OpDefBuilder& b : d) b.describe_tiling(describe_ew).cost(cost_ew);
  return d;
}

}  // namespace

NPURT_REGISTER_OPS(act_defs());

}  // namespace npurt::kernels::ew
