// runtime/ops/dispatch_checks.cc: argument checks, cache keys and plan computation.
#include "dispatch_checks.h"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "npurt/status.h"

namespace npurt {

namespace {

[[noreturn]] void fail(const RegisteredOp& op, const std::string& arg, const std::string& reason) {
  throw_invalid_argument(op.where, arg, reason);
}

// A dtype the op does not take: UnsupportedDtype (TypeError in Python, as numpy).
[[noreturn]] void fail_dtype(const RegisteredOp& op, const std::string& arg, const std::string& reason) {
  throw_unsupported_dtype(op.where, arg, reason);
}

std::string shape_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

bool attr_type_ok(AttrType declared, AttrType given) {
  return declared == given || (declared == AttrType::kFloat && given == AttrType::kInt);
}

void append_attr_key(const AttrValue& v, AttrType declared, CacheKey& key) {
  key.push_back(static_cast<int64_t>(declared));
  switch (declared) {
    case AttrType::kFloat: {
      double f = v.as_float();
      int64_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      key.push_back(bits);
      break;
    }
    case AttrType::kString: {
      const std::string& s = v.as_string();
      key.push_back(static_cast<int64_t>(s.size()));
      for (size_t i = 0; i < s.size(); i += 8) {
        int64_t w = 0;
        std::memcpy(&w, s.data() + i, std::min<size_t>(8, s.size() - i));
        key.push_back(w);
      }
      break;
    }
    case AttrType::kIntList:
      key.push_back(static_cast<int64_t>(v.as_ints().size()));
      for (int64_t x : v.as_ints()) key.push_back(x);
      break;
    default:
      key.push_back(v.as_int());
  }
}

void check_input_dtype(const RegisteredOp& op, const InputDef& in, DType dt, Device device) {
  if (!mask_has(in.dtypes, dt))
    fail_dtype(op, in.name, std::string("dtype ") + dtype_name(dt) + " is not supported (supported: " +
                                dtype_mask_names(in.dtypes) + ")");
  if (device.type != DeviceType::kSim && mask_has(in.sim_only_dtypes, dt))
    fail_dtype(op, in.name, std::string("dtype ") + dtype_name(dt) +
                                " is only supported on the sim backend (the Ascend vector unit lacks it)");
}

// Every missing required input (or attribute) in one message, so a call missing
// several names them all ("arguments 'x1', 'x2': required inputs are missing")
// instead of only the first. Error path only: the success path never gets here.
template <class Defs, class IsGiven>
[[noreturn]] void fail_missing(const RegisteredOp& op, const Defs& decl, IsGiven given, const char* what) {
  std::vector<std::string> missing;
  for (size_t j = 0; j < decl.size(); ++j)
    if (!given(j)) missing.push_back(decl[j].name);
  const std::string reason = std::string("required ") + what + (missing.size() > 1 ? "s are" : " is") + " missing";
  if (missing.size() == 1) fail(op, missing[0], reason);
  std::string names;
  for (const std::string& m : missing) names += (names.empty() ? "'" : ", '") + m + "'";
  throw InvalidArgument(op.where + ": arguments " + names + ": " + reason);
}

}  // namespace

void check_attrs(const RegisteredOp& op, Span<const AttrValue> attrs, ResolvedAttrs& out, CacheKey& key) {
  const auto& decl = op.def.attrs;
  if (attrs.size() > decl.size())
    fail(op, "attrs", "the op takes " + std::to_string(decl.size()) + " attribute(s), got " +
                          std::to_string(attrs.size()));
  out.count = decl.size();
  for (size_t i = 0; i < decl.size(); ++i) {
    const AttrValue* v = i < attrs.size() && !attrs[i].is_none() ? &attrs[i] : &decl[i].default_value;
    if (v->is_none())
      fail_missing(op, decl, [&](size_t j) {
        return (j < attrs.size() && !attrs[j].is_none()) || !decl[j].default_value.is_none();
      }, "attribute");
    if (!attr_type_ok(decl[i].type, v->type()))
      fail(op, decl[i].name, std::string("expected ") + attr_type_name(decl[i].type) + ", got " +
                                 attr_type_name(v->type()) + " " + v->repr());
    out.values[i] = v;
    append_attr_key(*v, decl[i].type, key);
  }
}

void check_inputs(const RegisteredOp& op, Span<const Tensor> inputs, Device device, CacheKey& key) {
  const auto& decl = op.def.inputs;
  if (inputs.size() > decl.size())
    fail(op, "inputs", "the op takes " + std::to_string(decl.size()) + " input(s), got " +
                           std::to_string(inputs.size()));
  key.push_back(static_cast<int64_t>(decl.size()));
  for (size_t i = 0; i < decl.size(); ++i) {
    const InputDef& in = decl[i];
    if (i >= inputs.size() || !inputs[i].defined()) {
      if (!in.optional) fail_missing_inputs(op, [&](size_t j) { return j < inputs.size() && inputs[j].defined(); });
      key.push_back(-1);
      continue;
    }
    const Tensor& t = inputs[i];
    check_input_dtype(op, in, t.dtype(), device);
    int rank = static_cast<int>(t.ndim());
    if (rank < in.min_rank || (in.max_rank >= 0 && rank > in.max_rank))
      fail(op, in.name, "rank " + std::to_string(rank) + " (shape " + shape_str(t.shape()) +
                            ") is outside the supported range [" + std::to_string(in.min_rank) + ", " +
                            (in.max_rank < 0 ? std::string("inf") : std::to_string(in.max_rank)) + "]");
    if (t.device() != device)
      fail(op, in.name, "is on " + t.device().str() + " but the op runs on " + device.str() +
                            " (all inputs must be on one device)");
    key.push_back(static_cast<int64_t>(t.dtype()) | (static_cast<int64_t>(rank) << 8));
    for (int64_t d : t.shape()) key.push_back(d);
    if (in.strided)
      for (int64_t s : t.strides()) key.push_back(s);
  }
}

std::shared_ptr<const TilingPlan> compute_plan(const RegisteredOp& op, const TensorSpec* inputs,
                                               const ResolvedAttrs& attrs, const ChipProfile& profile,
                                               std::string* tiling_summary) {
  const OpDef& def = op.def;
  auto plan = std::make_shared<TilingPlan>();
  plan->outputs.resize(def.outputs.size());
  OpContext ctx(def, inputs, plan->outputs.data(), attrs.values, profile);
  Status st = capture_status([&] { def.infer(ctx); });
  if (st.code() == StatusCode::kInternal)
    throw Error(StatusCode::kInternal, op.where + ": output inference failed: " + st.message());
  st.throw_if_error();
  for (size_t o = 0; o < plan->outputs.size(); ++o)
    if (!plan->outputs[o].defined)
      throw Error(StatusCode::kInternal, op.where + ": output inference did not set output '" +
                                             def.outputs[o].name + "'");
  TilingResult tr;
  st = capture_status([&] { def.tiling(ctx, tr); });
  if (st.code() == StatusCode::kInternal)
    throw Error(StatusCode::kInternal, op.where + ": tiling function failed: " + st.message());
  st.throw_if_error();
  if (tr.num_blocks > 65535)
    throw Error(StatusCode::kInternal, op.where + ": tiling chose " + std::to_string(tr.num_blocks) +
                                           " blocks; a launch takes 1..65535");
  plan->num_blocks = tr.num_blocks;
  plan->tiling = tr.tiling;
  plan->op_workspace_bytes = tr.workspace_bytes;
  // Kernels find their part with GetUserWorkspace(workspace) = workspace + system size, as
  // on CANN, so any workspace request gets the profile's system workspace in front.
  const bool any_workspace = tr.workspace_bytes > 0 || tr.uses_system_workspace;
  plan->total_workspace_bytes = any_workspace ? tr.workspace_bytes + profile.sys_workspace_bytes : 0;
  if (def.cost) def.cost(ctx, plan->cost);
  if (tiling_summary && def.describe_tiling) *tiling_summary = def.describe_tiling(ctx, tr);
  return plan;
}

std::shared_ptr<const TilingPlan> resolve_plan(const RegisteredOp& op, Span<const Tensor> inputs,
                                               Span<const AttrValue> attrs, Device device,
                                               const ChipProfile& profile) {
  CacheKey key;
  key.push_back(reinterpret_cast<intptr_t>(&profile));
  check_inputs(op, inputs, device, key);
  ResolvedAttrs resolved;
  check_attrs(op, attrs, resolved, key);
  uint64_t h = hash_key(key);
  if (auto plan = op.cache.find(key, h)) return plan;

  std::vector<TensorSpec> specs(op.def.inputs.size());
  for (size_t i = 0; i < specs.size() && i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    if (!t.defined()) continue;
    specs[i].defined = true;
    specs[i].dtype = t.dtype();
    specs[i].shape = t.shape();
    specs[i].strides = op.def.inputs[i].strided ? t.strides() : contiguous_strides(t.shape());
  }
  auto plan = compute_plan(op, specs.data(), resolved, profile);
  return op.cache.insert(key, h, std::move(plan));
}

void check_output(const RegisteredOp& op, size_t i, const Tensor& out, const TensorSpec& spec, Device device) {
  auto name = [&] { return "out[" + std::to_string(i) + "] ('" + op.def.outputs[i].name + "')"; };
  if (out.dtype() != spec.dtype)  // numpy: a UFuncTypeError (TypeError) too
    fail_dtype(op, name(), std::string("dtype ") + dtype_name(out.dtype()) + " does not match the result dtype " +
                             dtype_name(spec.dtype));
  if (out.shape() != spec.shape)
    fail(op, name(), "shape " + shape_str(out.shape()) + " does not match the result shape " + shape_str(spec.shape));
  if (out.device() != device)
    fail(op, name(), "is on " + out.device().str() + " but the op runs on " + device.str());
  if (out.read_only())  // numpy: "output array is read-only" (a ValueError)
    fail(op, name(), "is a read-only view (nr.broadcast_to / broadcast_arrays: its elements may alias); write to a "
                     "copy");
  if (!out.is_contiguous()) fail(op, name(), "must be contiguous (kernels write dense outputs)");
}

void fail_missing_inputs(const RegisteredOp& op, const std::function<bool(size_t)>& given) {
  const auto& decl = op.def.inputs;
  fail_missing(op, decl, [&](size_t j) { return decl[j].optional || given(j); }, "input");
}

}  // namespace npurt
