// npurt/dispatch.h: running a registered op on a stream.
//
// dispatch() checks a call against the OpDef (dtypes, ranks, devices, required
// inputs, attribute types), infers and allocates outputs from the stream's
// pool, tiles through a per-op cache keyed by (shapes, dtypes, strides of
// strided inputs, attributes, chip profile), makes non-contiguous inputs
// contiguous with the "copy" kernel on the same stream, and enqueues one
// KernelLaunch through Stream::launch (so graph capture sees it). It returns
// as soon as the launch is queued; kernel faults surface at synchronize.
//
// Hot path (tiling-cache hit): no string is built, no map is searched by name,
// and the only heap allocations are the outputs: the KernelLaunch is a value
// moved into the stream's queue node (see Stream::launch).
//
// Invariants:
//   - An OpHandle is resolved once (by name) and stays valid forever.
//   - Every failure throws before anything is enqueued or allocated that would
//     outlive the call: the runtime stays usable.
//   - A cache entry exists only for argument specs that passed every check.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "npurt/op_def.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct RegisteredOp;  // internal: OpDef + tiling cache

struct TilingCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t entries = 0;
};

class OpHandle {
 public:
  OpHandle() = default;
  // Resolves by name; throws NotFound listing close names.
  static OpHandle find(const std::string& name);
  bool valid() const { return op_ != nullptr; }
  const OpDef& def() const;
  const char* name() const;
  TilingCacheStats tiling_cache_stats() const;
  void clear_tiling_cache() const;
  RegisteredOp* impl() const { return op_; }
  explicit OpHandle(RegisteredOp* op) : op_(op) {}

 private:
  RegisteredOp* op_ = nullptr;
};

// Runs `op`. `inputs` in declared order (undefined Tensor = absent optional
// input; fewer entries than declared = trailing optionals absent). `attrs` in
// declared order (AttrValue() = default; fewer entries allowed). `outputs`:
// empty, or one entry per declared output; a defined entry is the out= tensor
// (contiguous, exact shape and dtype, same device), an undefined one is
// allocated and returned in place. A null `stream` means the current stream
// of the inputs' device.
void dispatch(const OpHandle& op, Span<const Tensor> inputs, Span<const AttrValue> attrs,
              const Stream& stream, Span<Tensor> outputs);

// Convenience: allocates every output and returns them.
std::vector<Tensor> dispatch(const OpHandle& op, Span<const Tensor> inputs,
                             Span<const AttrValue> attrs = {}, const Stream& stream = Stream());

// Two-phase execution (what the C API's npurtOpGetWorkspaceSize/npurtOpLaunch
// wrap): prepare() checks, infers and tiles; launch() enqueues with a
// caller-provided workspace of at least workspace_bytes(). One-shot.
class PreparedOp {
 public:
  static std::unique_ptr<PreparedOp> prepare(const OpHandle& op, Span<const Tensor> inputs,
                                             Span<const AttrValue> attrs, Span<const Tensor> outputs);
  ~PreparedOp();
  uint64_t workspace_bytes() const;
  // Throws InvalidArgument when the workspace is too small, the stream is on
  // another device, or the op was already launched.
  void launch(void* workspace, uint64_t workspace_bytes, const Stream& stream);

  struct State;
 private:
  explicit PreparedOp(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// ---- profiler hook ----------------------------------------------------------

struct DispatchEvent {
  const OpDef* op = nullptr;
  Span<const Tensor> inputs;
  Span<const Tensor> outputs;
  const KernelLaunch* launch = nullptr;  // null when num_blocks == 0
  const Stream* stream = nullptr;
  OpCost cost;                           // zeros when the op declares none
};
using DispatchObserver = void (*)(const DispatchEvent& event, void* user_data);

// Installs (or, with nullptr, removes) the one observer; the dispatcher checks a
// single atomic flag per call when none is installed.
void set_dispatch_observer(DispatchObserver observer, void* user_data);

// A plan for given argument specs, for nr.ops.describe and `npurt ops`.
struct OpPlan {
  std::vector<TensorSpec> outputs;
  TilingResult tiling;
  uint64_t system_workspace_bytes = 0;
  OpCost cost;
  std::string tiling_summary;  // from the op's describe_tiling, or empty
};
OpPlan plan_op(const OpHandle& op, Span<const TensorSpec> inputs, Span<const AttrValue> attrs,
               const ChipProfile& profile);

// "npurt.ops.<name>" in error messages.
std::string op_where(const OpDef& def);

}  // namespace npurt
NPURT_PUBLIC_END
