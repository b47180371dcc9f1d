// runtime/ops/deferred_fusion.cc: the deferred slot, its flush, and the fused
// launch of two binary ops (deferred_fusion.h has the rules and invariants).
//
// Why the use counts say "temporary": the slot keeps a fixed number of handles
// to the deferred output's Storage (recorded when it is filled). binary()
// takes its operands by value, so a C++ temporary argument adds exactly one
// handle and a named Tensor adds two (the variable and the parameter); the
// Python operators pass `expiring` when the operand's Python object has no
// other reference, which accounts for the handle inside that object. Views,
// copies and other threads' handles all raise the count, which keeps eager
// behaviour (the deferred output is then computed and stays readable).
#include "ops/deferred_fusion.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "../../kernels/fused/fused_builder.h"
#include "exec/deferred_flush.h"
#include "exec/profiler.h"
#include "npurt/dispatch.h"
#include "npurt/status.h"

namespace npurt {
namespace detail {
std::atomic<DeferredFlushFn> g_deferred_flush{nullptr};
}  // namespace detail

namespace array {
namespace {

namespace fk = kernels::fused;

struct Slot {
  BinaryOp op;
  Tensor x1, x2, out;
  Stream stream;
  std::unique_ptr<PreparedOp> prepared;
  long own_refs = 0;  // handles to out's Storage held by the slot itself
  deferral::Constant constant;  // an operand known to hold a value (binary_with_constant)
};

// Never destroyed: a launch still deferred at exit is dropped (nobody can
// observe it), and no static destructor frees device memory after the runtime.
std::mutex& g_mu = *new std::mutex;
std::unique_ptr<Slot>& g_slot = *new std::unique_ptr<Slot>;  // guarded by g_mu
thread_local bool t_flushing = false;
std::atomic<int> g_enabled{-1};  // -1: not read from NPURT_DEFER yet
std::atomic<uint64_t> g_fused{0};

// Marks this thread as launching on the slot's behalf: its own submits must
// not re-enter the flush hook (and take g_mu) meanwhile.
struct FlushingScope {
  FlushingScope() { t_flushing = true; }
  ~FlushingScope() { t_flushing = false; }
  FlushingScope(const FlushingScope&) = delete;
  FlushingScope& operator=(const FlushingScope&) = delete;
};

OpHandle kernel_of(BinaryOp op) {
  static const OpHandle add = OpHandle::find("add_broadcast");
  static const OpHandle sub = OpHandle::find("subtract");
  static const OpHandle mul = OpHandle::find("multiply");
  return op == BinaryOp::kAdd ? add : op == BinaryOp::kSubtract ? sub : mul;
}

const OpHandle& fused_kernel() {
  static const OpHandle h = OpHandle::find("fused_elementwise");
  return h;
}

fk::FusedOpcode opcode_of(BinaryOp op) {
  return op == BinaryOp::kAdd ? fk::kAdd : op == BinaryOp::kSubtract ? fk::kSub : fk::kMul;
}

// Launches a taken slot's op on its stream; the caller holds g_mu.
void launch_locked(Slot& s) {
  FlushingScope scope;
  s.prepared->launch(nullptr, 0, s.stream);
}

void flush_now() {
  if (t_flushing) return;  // this thread's own submit inside a flush
  std::unique_ptr<Slot> taken;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (!g_slot) return;
    taken = std::move(g_slot);
    // The hook stays set until the launch is queued, so other threads wait on g_mu.
    struct Clear {
      ~Clear() { detail::g_deferred_flush.store(nullptr, std::memory_order_relaxed); }
    } clear;
    launch_locked(*taken);
  }
  // `taken` (the slot's handles) is released here, outside the lock.
}

// numpy broadcasting of two shapes; false when they do not broadcast.
bool broadcast_shape(const Dims& a, const Dims& b, Dims& out) {
  const size_t r = std::max(a.size(), b.size());
  out = Dims(r, 1);
  for (size_t k = 0; k < r; ++k) {
    const int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) return false;
    out[r - 1 - k] = da == 1 ? db : da;
  }
  return true;
}

bool same_view(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.byte_offset() == b.byte_offset() && a.shape() == b.shape() &&
         a.strides() == b.strides() && a.dtype() == b.dtype();
}

// The stream dispatch() would use for these operands.
Stream resolve_stream(const Tensor& x1, const Stream& stream) {
  return stream.valid() ? stream : Stream::current(x1.device());
}

bool read_env_switch() {
  const char* v = std::getenv("NPURT_DEFER");
  return !(v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0));
}

// The single fused launch of slot op (x1, x2) -> t, then `op` with t at
// position `t_pos` (0 or 1) and `other`.
Tensor launch_fused(const Slot& d, BinaryOp op, int t_pos, const Tensor& other, const Stream& stream) {
  // x op c as a constant form: x * c and c * x are Muls, x + c and c + x Adds,
  // x - c is Adds(-c) (IEEE defines x - c as x + (-c)); c - x reads the array.
  const int cpos = d.constant.pos;
  const bool use_const = cpos >= 0 && !(d.op == BinaryOp::kSubtract && cpos == 0);
  fk::FusedProgramBuilder b(use_const ? 2 : 3);
  int t;
  if (use_const) {
    const float c = d.op == BinaryOp::kSubtract ? -d.constant.value : d.constant.value;
    t = b.scalar(d.op == BinaryOp::kMultiply ? fk::kMuls : fk::kAdds, b.input(0), c);
  } else {
    t = b.binary(opcode_of(d.op), b.input(0), b.input(1));
  }
  const int o = b.input(use_const ? 1 : 2);
  const int r = t_pos == 0 ? b.binary(opcode_of(op), t, o) : b.binary(opcode_of(op), o, t);
  const AttrValue attrs[2] = {AttrValue(b.finish(r)), AttrValue(DType::kFloat32)};
  const Tensor inputs[3] = {use_const ? (cpos == 0 ? d.x2 : d.x1) : d.x1, use_const ? other : d.x2, other};
  const size_t n_in = use_const ? 2 : 3;
  Tensor result[1];
  {
    FlushingScope scope;  // nothing to flush: the slot was taken; skip the hook's lock
    dispatch(fused_kernel(), Span<const Tensor>(inputs, n_in), Span<const AttrValue>(attrs, 2), stream,
             Span<Tensor>(result, 1));
  }
  g_fused.fetch_add(1, std::memory_order_relaxed);
  return result[0];
}

}  // namespace

bool deferred_fusion_enabled() {
  int e = g_enabled.load(std::memory_order_relaxed);
  if (e < 0) {
    e = read_env_switch() ? 1 : 0;
    g_enabled.store(e, std::memory_order_relaxed);
  }
  return e == 1;
}

void set_deferred_fusion(bool enabled) {
  g_enabled.store(enabled ? 1 : 0, std::memory_order_relaxed);
  if (!enabled) flush_deferred();
}

void flush_deferred() { detail::flush_deferred_work(); }

uint64_t deferred_fusion_count() { return g_fused.load(std::memory_order_relaxed); }

namespace deferral {

bool candidate(BinaryOp op, const Tensor& x1, const Tensor& x2, const Tensor& out) {
  if (!(op == BinaryOp::kAdd || op == BinaryOp::kSubtract || op == BinaryOp::kMultiply) || out.defined() ||
      !x1.defined() || !x2.defined() || x1.dtype() != DType::kFloat32 || x2.dtype() != DType::kFloat32)
    return false;
  // Tiny ops leave here: the broadcast output has at most n1 * n2 elements.
  const int64_t n1 = x1.numel(), n2 = x2.numel();
  if (n1 < kDeferMinElements && n2 < kDeferMinElements && n1 * n2 < kDeferMinElements) return false;
  return deferred_fusion_enabled();
}

Tensor try_fuse(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream_in, bool x1_expiring,
                bool x2_expiring) {
  if (detail::g_deferred_flush.load(std::memory_order_relaxed) == nullptr || t_flushing) return Tensor();
  if (profiler::annotations_wanted()) return Tensor();  // a session started since: show the eager launches
  std::unique_ptr<Slot> d;
  int t_pos = 0;
  Stream stream;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (!g_slot) return Tensor();
    const Slot& s = *g_slot;
    const bool is1 = same_view(x1, s.out), is2 = same_view(x2, s.out);
    if (is1 == is2) return Tensor();  // neither, or t op t (the slot's output read twice)
    t_pos = is1 ? 0 : 1;
    const bool expiring = is1 ? x1_expiring : x2_expiring;
    if (s.out.storage().use_count() != s.own_refs + 1 + (expiring ? 1 : 0)) return Tensor();
    const Tensor& other = is1 ? x2 : x1;
    stream = resolve_stream(x1, stream_in);
    Dims shape;
    if (stream != s.stream || other.device() != s.out.device() || !broadcast_shape(s.out.shape(), other.shape(), shape))
      return Tensor();
    d = std::move(g_slot);
    detail::g_deferred_flush.store(nullptr, std::memory_order_relaxed);
  }
  const Tensor& other = t_pos == 0 ? x2 : x1;
  try {
    return launch_fused(*d, op, t_pos, other, stream);
  } catch (const Error&) {
    // Not expressible after all (e.g. too many dims after merging): eager order.
    std::lock_guard<std::mutex> lock(g_mu);
    launch_locked(*d);
    return Tensor();
  } catch (...) {
    // Anything else (e.g. bad_alloc) propagates, but the deferred op still runs first.
    std::lock_guard<std::mutex> lock(g_mu);
    launch_locked(*d);
    throw;
  }
}

Tensor try_defer(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream_in, const Constant& constant) {
  Dims shape;
  if (!broadcast_shape(x1.shape(), x2.shape(), shape) || shape_numel(shape) < kDeferMinElements) return Tensor();
  if (profiler::annotations_wanted()) return Tensor();  // profiles and graphs show the eager launches
  const Stream stream = resolve_stream(x1, stream_in);
  if (!stream.valid() || stream.closed() || stream.device() != x1.device() || x2.device() != x1.device() ||
      stream.device().type != DeviceType::kSim)
    return Tensor();
  flush_now();  // one slot: the previous deferred op goes first
  auto slot = std::make_unique<Slot>();
  slot->op = op;
  slot->x1 = x1;
  slot->x2 = x2;
  slot->stream = stream;
  slot->constant = constant;
  slot->out = Tensor::empty(shape, DType::kFloat32, stream);
  const Tensor inputs[2] = {x1, x2};
  slot->prepared = PreparedOp::prepare(kernel_of(op), Span<const Tensor>(inputs, 2), Span<const AttrValue>(),
                                       Span<const Tensor>(&slot->out, 1));
  if (slot->prepared->workspace_bytes() > 0) return Tensor();  // eager (dispatch owns workspaces)
  Tensor result = slot->out;
  slot->own_refs = slot->out.storage().use_count() - 1;  // minus `result`
  std::unique_ptr<Slot> previous;  // released after the lock (freeing storage may submit)
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_slot) {  // another thread deferred meanwhile: it goes first
    launch_locked(*g_slot);
    previous = std::move(g_slot);
  }
  g_slot = std::move(slot);
  detail::g_deferred_flush.store(&flush_now, std::memory_order_relaxed);
  return result;
}

}  // namespace deferral
}  // namespace array
}  // namespace npurt
