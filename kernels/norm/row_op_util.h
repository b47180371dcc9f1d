// kernels/norm/row_op_util.h: host-side pieces shared by the row-wise op
// families (norm, softmax): the [rows, cols] view of the last axis, the
// `dtype` attribute ("" or "float32"), the profile checks, the common UB
// buffers of a plan, and the describe() text built from the tiling engine.
#pragma once

#include <algorithm>
#include <string>

#include "npurt/op_def.h"
#include "npurt/tiling.h"

namespace npurt::kernels {

struct RowView {
  uint64_t rows = 0, cols = 0;
};

// x as [rows, cols] over its last axis (rank >= 1 is checked by the signature).
inline RowView row_view(const TensorSpec& x) {
  RowView v;
  v.cols = static_cast<uint64_t>(x.shape.back());
  v.rows = v.cols == 0 ? 0 : static_cast<uint64_t>(x.numel()) / v.cols;
  if (v.cols == 0) {
    v.rows = 1;
    for (size_t i = 0; i + 1 < x.shape.size(); ++i) v.rows *= static_cast<uint64_t>(x.shape[i]);
  }
  return v;
}

// Output dtype from the `dtype` attribute: "" keeps the input's, "float32" asks for float32.
inline DType row_out_dtype(const OpContext& ctx, DType in) {
  const std::string& want = ctx.attr("dtype").as_string();
  if (want.empty() || want == dtype_name(in)) return in;
  if (want == "float32") return DType::kFloat32;
  ctx.fail_dtype("dtype", "'" + want + "' is not available (\"\" keeps the input dtype, \"float32\" gives float32 outputs)");
}

// What the kernels need from the chip: DataCopyPad (rows of any length) and bfloat16 vector support.
inline void check_row_profile(const OpContext& ctx, DType in) {
  const ChipProfile& p = ctx.profile();
  if (!p.has_datacopy_pad)
    ctx.fail("x", "this kernel moves rows of any length with DataCopyPad, which " + p.name + " does not have");
  if (in == DType::kBFloat16 && !p.has_bf16) ctx.fail_dtype("x", "bfloat16 is not supported by the vector unit of " + p.name);
}

// Same dtype and shape [cols] (gamma, beta) or the same shape as x (dy, y).
inline void check_like(const OpContext& ctx, size_t i, const char* name, const Dims& shape, DType dtype) {
  if (!ctx.has_input(i)) return;
  const TensorSpec& s = ctx.input(i);
  auto dims = [](const Dims& d) {
    std::string r = "(";
    for (size_t k = 0; k < d.size(); ++k) r += (k ? ", " : "") + std::to_string(d[k]);
    return r + (d.size() == 1 ? ",)" : ")");
  };
  if (s.dtype != dtype)
    ctx.fail_dtype(name, std::string("dtype ") + dtype_name(s.dtype) + " does not match x's " + dtype_name(dtype));
  if (s.shape != shape) ctx.fail(name, "shape " + dims(s.shape) + " must be " + dims(shape));
}

inline uint32_t elem_bytes(DType t) { return static_cast<uint32_t>(itemsize(t)); }

// Work buffers every row kernel has: the ReduceSum/Max work area (sized for the
// longest row that can sit in UB) and a 64-byte scalar result.
inline void add_reduce_buffers(tiling::RowRequest& req, const ChipProfile& p) {
  const uint64_t lanes = std::min<uint64_t>(req.cols, p.ub_usable_bytes / 4);
  const uint32_t work = static_cast<uint32_t>(((2 * ((lanes + 63) / 64) + 7) / 8 * 8 + 8) * 4);
  req.buffers.push_back({"reduce_work", tiling::Scope::kFixed, work, false});
  req.buffers.push_back({"scalar", tiling::Scope::kFixed, 64, false});
}

}  // namespace npurt::kernels
