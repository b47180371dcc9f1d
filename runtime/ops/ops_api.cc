// runtime/ops/ops_api.cc: npurt::ops::call, the typed wrappers of the built-in
// kernels and describe().
#include "npurt/ops.h"

#include <sstream>

#include "npurt/runtime.h"
#include "npurt/strided_window.h"
#include "npurt/status.h"

namespace npurt {

std::vector<AttrValue> resolve_attrs(const OpDef& def, const std::vector<NamedAttr>& attrs) {
  std::vector<AttrValue> out(def.attrs.size());
  for (const NamedAttr& a : attrs) {
    int i = def.attr_index(a.name);
    if (i < 0) {
      std::string known;
      for (auto& d : def.attrs) known += (known.empty() ? "" : ", ") + d.name;
      throw_invalid_argument(op_where(def), a.name,
                             "unknown attribute (the op's attributes: " + (known.empty() ? "none" : known) + ")");
    }
    if (!out[i].is_none()) throw_invalid_argument(op_where(def), a.name, "attribute given twice");
    out[i] = a.value;
  }
  return out;
}

namespace ops {

namespace {

// Handles of the built-ins, each resolved once (thread-safe static init).
#define NPURT_BUILTIN_HANDLE(op) \
  const OpHandle& builtin_##op() {  \
    static const OpHandle h = OpHandle::find(#op); \
    return h;                        \
  }
NPURT_BUILTIN_HANDLE(copy)
NPURT_BUILTIN_HANDLE(fill)
NPURT_BUILTIN_HANDLE(cast)
NPURT_BUILTIN_HANDLE(add)
NPURT_BUILTIN_HANDLE(mul)
#undef NPURT_BUILTIN_HANDLE

Tensor run1(const OpHandle& op, std::initializer_list<Tensor> inputs, std::initializer_list<AttrValue> attrs,
            const Stream& stream, const Tensor& out) {
  Tensor result[1] = {out};
  dispatch(op, Span<const Tensor>(inputs.begin(), inputs.size()), Span<const AttrValue>(attrs.begin(), attrs.size()),
           stream, Span<Tensor>(result, 1));
  return result[0];
}

}  // namespace

std::vector<Tensor> call(const std::string& name, const std::vector<Tensor>& inputs,
                         const std::vector<NamedAttr>& attrs, const Stream& stream, const std::vector<Tensor>& out) {
  OpHandle op = OpHandle::find(name);
  std::vector<AttrValue> values = resolve_attrs(op.def(), attrs);
  std::vector<Tensor> outputs = out;
  if (outputs.empty()) outputs.resize(op.def().outputs.size());
  dispatch(op, Span<const Tensor>(inputs.data(), inputs.size()), Span<const AttrValue>(values.data(), values.size()),
           stream, Span<Tensor>(outputs.data(), outputs.size()));
  return outputs;
}

Tensor copy(const Tensor& x, const Stream& stream, const Tensor& out) {
  return run1(builtin_copy(), {x}, {}, stream, out);
}
Tensor contiguous(const Tensor& x, const Stream& stream) {
  return x.is_contiguous() ? x : copy(x, stream);
}
Tensor fill(const Dims& shape, DType dtype, double value, const Stream& stream, const Tensor& out) {
  return run1(builtin_fill(), {}, {AttrValue(shape), AttrValue(dtype), AttrValue(value)}, stream, out);
}
namespace {
// The window of a non-contiguous view (npurt/strided_window.h) as a 1-D
// contiguous tensor over its storage (undefined when the view is empty).
Tensor window_of(const Tensor& view) {
  const StridedWindow w = strided_window(view.shape(), view.strides());
  if (w.extent == 0) return Tensor();
  return view.view(Dims{w.extent}, Dims{1}, view.byte_offset() + w.low * static_cast<int64_t>(view.itemsize()));
}
}  // namespace

void fill_into(const Tensor& dst, double value, const Stream& stream, double value_imag) {
  const AttrValue none{};
  if (dst.is_contiguous()) {
    if (value_imag == 0.0)  // fewer attributes to check and key (the tiny-fill hot path)
      run1(builtin_fill(), {}, {AttrValue(dst.shape()), AttrValue(dst.dtype()), AttrValue(value)}, stream, dst);
    else
      run1(builtin_fill(), {}, {AttrValue(dst.shape()), AttrValue(dst.dtype()), AttrValue(value), AttrValue(value_imag)},
           stream, dst);
    return;
  }
  const Tensor window = window_of(dst);
  if (!window.defined()) return;
  run1(builtin_fill(), {},
       {AttrValue(dst.shape()), AttrValue(dst.dtype()), AttrValue(value), AttrValue(value_imag), none, none,
        AttrValue(dst.strides())},
       stream, window);
}

void copy_into(const Tensor& dst, const Tensor& src, const Stream& stream) {
  if (dst.is_contiguous()) {
    run1(builtin_copy(), {src}, {}, stream, dst);
    return;
  }
  if (src.shape() != dst.shape())
    throw_invalid_argument("npurt::ops::copy_into", "src", "shape does not match dst's");
  const Tensor window = window_of(dst);
  if (!window.defined()) return;
  run1(builtin_copy(), {src}, {AttrValue(dst.strides())}, stream, window);
}

Tensor cast(const Tensor& x, DType dtype, const Stream& stream, const Tensor& out) {
  return run1(builtin_cast(), {x}, {AttrValue(dtype)}, stream, out);
}
Tensor add(const Tensor& x, const Tensor& y, const Stream& stream, const Tensor& out) {
  return run1(builtin_add(), {x, y}, {}, stream, out);
}
Tensor mul(const Tensor& x, const Tensor& y, const Stream& stream, const Tensor& out) {
  return run1(builtin_mul(), {x, y}, {}, stream, out);
}

namespace {
std::string spec_str(const TensorSpec& s) {
  std::string r = std::string(dtype_name(s.dtype)) + "[";
  for (size_t i = 0; i < s.shape.size(); ++i) r += (i ? ", " : "") + std::to_string(s.shape[i]);
  return r + "]";
}
}  // namespace

std::string describe(const std::string& name, const std::vector<TensorSpec>& inputs,
                     const std::vector<NamedAttr>& attrs, const ChipProfile* profile) {
  OpHandle op = OpHandle::find(name);
  const OpDef& def = op.def();
  std::ostringstream os;
  os << def.signature() << "\n";
  if (!def.doc.empty()) os << "\n" << def.doc << "\n";
  os << "\nkernel: " << (def.kernel.sim_kernel_name.empty() ? "-" : def.kernel.sim_kernel_name)
     << " (source: " << def.source << ")\n";
  for (auto& in : def.inputs)
    if (in.sim_only_dtypes) os << "sim-only dtypes of '" << in.name << "': " << dtype_mask_names(in.sim_only_dtypes) << "\n";
  if (inputs.empty()) return os.str();
  const ChipProfile& prof = profile ? *profile : device_context(current_device()).profile();
  std::vector<AttrValue> values = resolve_attrs(def, attrs);
  OpPlan plan = plan_op(op, Span<const TensorSpec>(inputs.data(), inputs.size()),
                        Span<const AttrValue>(values.data(), values.size()), prof);
  os << "\nplan on " << prof.name << ":\n  inputs: ";
  for (size_t i = 0; i < inputs.size(); ++i) os << (i ? ", " : "") << (inputs[i].defined ? spec_str(inputs[i]) : "None");
  os << "\n  outputs: ";
  for (size_t i = 0; i < plan.outputs.size(); ++i) os << (i ? ", " : "") << spec_str(plan.outputs[i]);
  os << "\n  numBlocks: " << plan.tiling.num_blocks << " (profile has " << prof.vector_cores << " vector cores)"
     << "\n  tiling: " << plan.tiling.tiling.size() << " bytes"
     << "\n  workspace: " << plan.tiling.workspace_bytes << " bytes op + " << plan.system_workspace_bytes
     << " bytes system";
  if (!plan.tiling_summary.empty()) os << "\n  tiling plan: " << plan.tiling_summary;
  if (plan.cost.bytes > 0 || plan.cost.flops > 0)
    os << "\n  cost: " << plan.cost.bytes << " bytes, " << plan.cost.flops << " flops";
  os << "\n";
  return os.str();
}

}  // namespace ops
}  // namespace npurt
