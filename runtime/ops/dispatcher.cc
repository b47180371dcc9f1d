// runtime/ops/dispatcher.cc: dispatch(), the two-phase PreparedOp, OpHandle and
// the profiler observer hook.
//
// The hot path is dispatch() -> resolve_plan() (cache hit) -> allocate outputs
// -> enqueue_plan() -> submit_launch (Stream::launch's checks). Everything that builds strings lives in
// the failure branches.
#include <atomic>
#include <cstring>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/sim_check.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "device_dispatch.h"
#include "dispatch_checks.h"
#include "exec/deferred_flush.h"
#include "exec/profiler.h"
#include "exec/stream_impl.h"
#include "registry_internal.h"

namespace npurt {

namespace {

struct Observer {
  DispatchObserver fn;
  void* data;
};
std::atomic<const Observer*> g_observer{nullptr};

const OpHandle& copy_op() {
  static const OpHandle h = OpHandle::find("copy");
  return h;
}

// A contiguous copy of t made on `stream` by the copy kernel (never via the host).
Tensor make_contiguous(const Tensor& t, const Stream& stream) {
  Tensor out[1];
  dispatch(copy_op(), Span<const Tensor>(&t, 1), {}, stream, Span<Tensor>(out, 1));
  return out[0];
}

void notify_observer(const Observer* obs, const RegisteredOp& op, const TilingPlan& plan,
                     Span<const Tensor> inputs, Span<const Tensor> outputs, const KernelLaunch* launch,
                     const Stream& stream) {
  DispatchEvent ev;
  ev.op = &op.def;
  ev.inputs = inputs;
  ev.outputs = outputs;
  ev.launch = launch;
  ev.stream = &stream;
  ev.cost = plan.cost;
  obs->fn(ev, obs->data);
}

std::string join_specs(Span<const Tensor> ts, bool dtypes) {
  std::string s;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i) s += ", ";
    if (!ts[i].defined()) { s += "None"; continue; }
    if (dtypes) { s += dtype_name(ts[i].dtype()); continue; }
    s += "[";
    for (size_t d = 0; d < ts[i].ndim(); ++d) s += (d ? ", " : "") + std::to_string(ts[i].shape()[d]);
    s += "]";
  }
  return s;
}

// What the profiler shows for this launch (built only while a session runs).
void annotate_for_profiler(const RegisteredOp& op, const TilingPlan& plan, Span<const Tensor> inputs,
                           Span<const Tensor> outputs) {
  profiler::OpAnnotation a;
  a.op = op.def.name;
  a.shapes = join_specs(inputs, false) + " -> " + join_specs(outputs, false);
  a.dtypes = join_specs(inputs, true) + " -> " + join_specs(outputs, true);
  a.tiling = "numBlocks=" + std::to_string(plan.num_blocks) + " tiling=" + std::to_string(plan.tiling.size()) +
             "B workspace=" + std::to_string(plan.total_workspace_bytes) + "B";
  a.flops = plan.cost.flops;
  a.bytes = plan.cost.bytes;
  profiler::annotate_next_launch(std::move(a));
}

// True when no byte of t's allocation is an output's or the workspace's byte:
// then the kernel only reads it (KernelLaunch::readonly_arg_mask). Compared as
// whole allocations (storage byte ranges), so views into one buffer and
// in-place ops (out aliases an input) never qualify.
bool read_only_input(const Tensor& t, Span<const Tensor> outputs, const void* ws, uint64_t ws_bytes) {
  const Storage* s = t.storage().get();
  if (s == nullptr) return false;
  auto lo = reinterpret_cast<uintptr_t>(s->data()), hi = lo + s->nbytes();
  auto disjoint = [&](const void* p, uint64_t n) {
    auto b = reinterpret_cast<uintptr_t>(p);
    return n == 0 || b + n <= lo || hi <= b;
  };
  if (!disjoint(ws, ws_bytes)) return false;
  for (const Tensor& o : outputs) {
    const Storage* os = o.storage().get();
    if (os == nullptr || !disjoint(os->data(), os->nbytes())) return false;
  }
  return true;
}

// Enqueues the kernel of a resolved plan; inputs and outputs passed the checks.
void enqueue_plan(const RegisteredOp& op, const TilingPlan& plan, Span<const Tensor> inputs,
                  Span<const Tensor> outputs, const Stream& stream, void* workspace, uint64_t ws_bytes) {
  const Observer* obs = g_observer.load(std::memory_order_acquire);
  if (plan.num_blocks == 0) {  // nothing to compute (empty tensors)
    if (obs) notify_observer(obs, op, plan, inputs, outputs, nullptr, stream);
    return;
  }
  const OpDef& def = op.def;
  Command cmd;  // the launch is built in place: the Command is moved into the stream's queue node once
  KernelLaunch& launch = cmd.launch;
  if (stream.device().type == DeviceType::kSim) {
    if (def.kernel.sim_entry == nullptr)
      throw Error(StatusCode::kUnimplemented,
                  op.where + ": the op has no sim kernel (only a device kernel, '" + def.kernel.ascend_kernel_name +
                      "'): it runs on ascend devices of a CANN build");
    launch.kernel_name = def.kernel.sim_kernel_name.c_str();
    launch.sim_entry = def.kernel.sim_entry;
    launch.check_level = sim_check_level();
  } else {
    bind_device_kernel(def, stream.device(), launch);  // CANN-built kernel binaries: device_dispatch.h
  }
  launch.num_blocks = plan.num_blocks;
  std::vector<Tensor> temps;  // contiguous copies; freed stream-ordered after the launch
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    if (i >= inputs.size() || !inputs[i].defined()) {
      launch.args.push_back(nullptr);
      continue;
    }
    const Tensor* t = &inputs[i];
    if (!def.inputs[i].strided && !t->is_contiguous()) {
      if (temps.empty()) temps.reserve(def.inputs.size());
      temps.push_back(make_contiguous(*t, stream));
      t = &temps.back();
    }
    if (t->storage() && t->stream() != stream) t->storage()->record_stream(stream);
    if (i < 64 && read_only_input(*t, outputs, workspace, ws_bytes)) launch.readonly_arg_mask |= uint64_t{1} << i;
    launch.args.push_back(t->data());
  }
  for (const Tensor& o : outputs) launch.args.push_back(o.data());
  launch.tiling.assign(plan.tiling.begin(), plan.tiling.end());  // inline up to kLaunchInlineTiling: no allocation
  launch.workspace = workspace;
  launch.workspace_bytes = static_cast<size_t>(ws_bytes);
  if (profiler::annotations_wanted()) annotate_for_profiler(op, plan, inputs, outputs);  // + graph capture
  if (!obs) {
    submit_launch(stream, std::move(cmd));  // exec/stream_impl.h
    return;
  }
  stream.launch(static_cast<const KernelLaunch&>(launch));  // the observer sees the caller's copy
  notify_observer(obs, op, plan, inputs, outputs, &launch, stream);
}

Device device_of_args(Span<const Tensor> inputs, Span<const Tensor> outputs) {
  for (const Tensor& t : inputs)
    if (t.defined()) return t.device();
  for (const Tensor& t : outputs)
    if (t.defined()) return t.device();
  return current_device();
}

const RegisteredOp& checked_op(const OpHandle& h, const char* where) {
  if (!h.valid()) throw_invalid_argument(where, "op", "null OpHandle (resolve it with OpHandle::find)");
  return *h.impl();
}

}  // namespace

// ---- OpHandle -------------------------------------------------------------------

OpHandle OpHandle::find(const std::string& name) {
  if (RegisteredOp* op = find_registered_op(name)) return OpHandle(op);
  std::string msg = "npurt.ops: unknown op '" + name + "'";
  auto similar = similar_op_names(name);
  if (!similar.empty()) {
    msg += " (did you mean: ";
    for (size_t i = 0; i < similar.size(); ++i) msg += (i ? ", " : "") + similar[i];
    msg += "?)";
  }
  std::string kernels = builtin_kernels_error();
  if (!kernels.empty()) msg += " [" + kernels + "]";
  throw NotFound(msg);
}

const OpDef& OpHandle::def() const { return checked_op(*this, "npurt.OpHandle.def").def; }
const char* OpHandle::name() const { return def().name.c_str(); }
TilingCacheStats OpHandle::tiling_cache_stats() const {
  return checked_op(*this, "npurt.OpHandle.tiling_cache_stats").cache.stats();
}
void OpHandle::clear_tiling_cache() const { checked_op(*this, "npurt.OpHandle.clear_tiling_cache").cache.clear(); }

// ---- dispatch ---------------------------------------------------------------------

void dispatch(const OpHandle& h, Span<const Tensor> inputs, Span<const AttrValue> attrs,
              const Stream& stream_in, Span<Tensor> outputs) {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  const RegisteredOp& op = checked_op(h, "npurt.dispatch");
  const size_t num_out = op.def.outputs.size();
  if (!outputs.empty() && outputs.size() != num_out)
    throw_invalid_argument(op.where, "out", "expected " + std::to_string(num_out) + " output tensor(s), got " +
                                                std::to_string(outputs.size()));
  Stream fallback;
  const Stream* stream = &stream_in;
  if (!stream_in.valid()) {
    fallback = Stream::current(device_of_args(inputs, outputs));
    stream = &fallback;
  }
  const Device device = stream->device();
  DeviceContext& dc = device_context(device);
  auto plan = resolve_plan(op, inputs, attrs, device, dc.profile());
  if (device.type != DeviceType::kSim) check_device_launchable(op, device);  // before allocating

  std::vector<Tensor> dropped;  // outputs the caller did not ask for
  if (outputs.empty()) {
    dropped.resize(num_out);
    outputs = Span<Tensor>(dropped.data(), dropped.size());
  }
  for (size_t i = 0; i < num_out; ++i)  // check every out= before allocating anything
    if (outputs[i].defined()) check_output(op, i, outputs[i], plan->outputs[i], device);
  for (size_t i = 0; i < num_out; ++i)
    if (!outputs[i].defined()) outputs[i] = Tensor::empty(plan->outputs[i].shape, plan->outputs[i].dtype, *stream);
  DataPtr workspace;
  if (plan->total_workspace_bytes > 0 && plan->num_blocks > 0)
    workspace = dc.pool().allocate(plan->total_workspace_bytes, *stream);
  enqueue_plan(op, *plan, inputs, Span<const Tensor>(outputs.data(), outputs.size()), *stream,
               workspace.get(), plan->total_workspace_bytes);
}

std::vector<Tensor> dispatch(const OpHandle& op, Span<const Tensor> inputs, Span<const AttrValue> attrs,
                             const Stream& stream) {
  std::vector<Tensor> outs(checked_op(op, "npurt.dispatch").def.outputs.size());
  dispatch(op, inputs, attrs, stream, Span<Tensor>(outs.data(), outs.size()));
  return outs;
}

void set_dispatch_observer(DispatchObserver observer, void* user_data) {
  // Observers are few and swapped rarely; old ones are leaked so a concurrent
  // dispatch never reads a freed one.
  const Observer* next = observer ? new Observer{observer, user_data} : nullptr;
  g_observer.store(next, std::memory_order_release);
}

// ---- PreparedOp ---------------------------------------------------------------------

struct PreparedOp::State {
  const RegisteredOp* op = nullptr;
  std::shared_ptr<const TilingPlan> plan;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  Device device;
  bool launched = false;
};

PreparedOp::PreparedOp(std::unique_ptr<State> s) : state_(std::move(s)) {}
PreparedOp::~PreparedOp() = default;

std::unique_ptr<PreparedOp> PreparedOp::prepare(const OpHandle& h, Span<const Tensor> inputs,
                                                Span<const AttrValue> attrs, Span<const Tensor> outputs) {
  const RegisteredOp& op = checked_op(h, "npurt.PreparedOp.prepare");
  auto s = std::make_unique<State>();
  s->op = &op;
  s->device = device_of_args(inputs, outputs);
  s->plan = resolve_plan(op, inputs, attrs, s->device, device_context(s->device).profile());
  if (s->device.type != DeviceType::kSim) check_device_launchable(op, s->device);
  const size_t num_out = op.def.outputs.size();
  if (outputs.size() != num_out)
    throw_invalid_argument(op.where, "outputs", "expected " + std::to_string(num_out) +
                                                    " caller-allocated output tensor(s), got " +
                                                    std::to_string(outputs.size()));
  for (size_t i = 0; i < num_out; ++i) {
    if (!outputs[i].defined())
      throw_invalid_argument(op.where, "outputs[" + std::to_string(i) + "]", "output tensor is missing (null)");
    check_output(op, i, outputs[i], s->plan->outputs[i], s->device);
  }
  s->inputs.assign(inputs.begin(), inputs.end());
  s->outputs.assign(outputs.begin(), outputs.end());
  return std::unique_ptr<PreparedOp>(new PreparedOp(std::move(s)));
}

uint64_t PreparedOp::workspace_bytes() const { return state_->plan->total_workspace_bytes; }

void PreparedOp::launch(void* workspace, uint64_t workspace_bytes, const Stream& stream_in) {
  State& s = *state_;
  const std::string& where = s.op->where;
  if (s.launched)
    throw Error(StatusCode::kFailedPrecondition, where + ": this executor was already launched (executors are one-shot)");
  Stream stream = stream_in.valid() ? stream_in : Stream::current(s.device);
  if (stream.device() != s.device)
    throw_invalid_argument(where, "stream", "is on " + stream.device().str() + " but the tensors are on " +
                                                s.device.str());
  uint64_t need = s.plan->total_workspace_bytes;
  if (workspace_bytes < need || (need > 0 && workspace == nullptr))
    throw_invalid_argument(where, "workspace", std::to_string(need) + " bytes needed, " +
                                                   std::to_string(workspace ? workspace_bytes : 0) + " given");
  s.launched = true;
  enqueue_plan(*s.op, *s.plan, Span<const Tensor>(s.inputs.data(), s.inputs.size()),
               Span<const Tensor>(s.outputs.data(), s.outputs.size()), stream, need ? workspace : nullptr, need);
}

// ---- plan_op (describe) ----------------------------------------------------------------

OpPlan plan_op(const OpHandle& h, Span<const TensorSpec> inputs, Span<const AttrValue> attrs,
               const ChipProfile& profile) {
  const RegisteredOp& op = checked_op(h, "npurt.plan_op");
  const auto& decl = op.def.inputs;
  if (inputs.size() > decl.size())
    throw_invalid_argument(op.where, "inputs", "the op takes " + std::to_string(decl.size()) + " input(s), got " +
                                                   std::to_string(inputs.size()));
  std::vector<TensorSpec> specs(decl.size());
  for (size_t i = 0; i < decl.size(); ++i) {
    if (i < inputs.size()) specs[i] = inputs[i];
    if (!specs[i].defined && !decl[i].optional)
      fail_missing_inputs(op, [&](size_t j) { return j < inputs.size() && inputs[j].defined; });
    if (specs[i].defined && !mask_has(decl[i].dtypes, specs[i].dtype))
      throw_unsupported_dtype(op.where, decl[i].name, std::string("dtype ") + dtype_name(specs[i].dtype) +
                                                          " is not supported (supported: " +
                                                          dtype_mask_names(decl[i].dtypes) + ")");
    if (specs[i].defined && specs[i].strides.size() != specs[i].shape.size())
      specs[i].strides = contiguous_strides(specs[i].shape);
  }
  CacheKey unused_key;
  ResolvedAttrs resolved;
  check_attrs(op, attrs, resolved, unused_key);
  OpPlan out;
  auto plan = compute_plan(op, specs.data(), resolved, profile, &out.tiling_summary);
  out.outputs = plan->outputs;
  out.tiling.num_blocks = plan->num_blocks;
  out.tiling.tiling = plan->tiling;
  out.tiling.workspace_bytes = plan->op_workspace_bytes;
  out.tiling.uses_system_workspace = plan->total_workspace_bytes > plan->op_workspace_bytes;
  out.system_workspace_bytes = plan->total_workspace_bytes - plan->op_workspace_bytes;
  out.cost = plan->cost;
  return out;
}

}  // namespace npurt
