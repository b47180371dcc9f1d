// npurt/backend.h: the interface every device backend implements (the HAL).
//
// A backend provides raw device memory segments (the MemoryPool carves them),
// FIFO streams of device work, events, and kernel launch. It knows nothing
// about ops, tensors or Python. Two implementations exist:
//   - sim    (runtime/backends/sim): host memory, one worker thread per stream,
//            kernels run as simulated AI cores on a shared worker pool.
//   - ascend (runtime/backends/ascend): AscendCL loaded with dlopen.
//
// Invariants:
//   - submit() never waits for execution; work on one stream runs in submit order.
//   - A failure while executing stream work is recorded on that stream (the first
//     one wins) and returned by the next synchronize()/query(), which clears it.
//     Later work on the stream still runs.
//   - mark()/reached() form a monotonic timeline per stream: reached(mark())
//     becomes true once everything submitted before mark() has finished. The
//     memory pool uses it for stream-ordered reuse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "npurt/chip_profile.h"
#include "npurt/device.h"
#include "npurt/small_vector.h"
#include "npurt/status.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class BackendEvent;

enum class CopyKind : uint8_t { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice };
const char* copy_kind_name(CopyKind k);

// Simulated-core check level for a launch (NPURT_SIM_CHECK=off|basic|full).
enum class SimCheckLevel : uint8_t { kOff = 0, kBasic = 1, kFull = 2 };
SimCheckLevel sim_check_level_from_env();  // reads NPURT_SIM_CHECK each call (cheap)

// Entry point of a kernel compiled for the sim backend: a thunk that unpacks the
// argument slots into the Ascend C entry's parameters (pointers as void*,
// integers/floats bit-cast into the 8-byte slot), followed by workspace and tiling.
using SimKernelEntry = void (*)(void* const* args, size_t num_args);

// Per-launch attributes for the ascend backend (aclrtLaunchKernelCfg, passed to
// aclrtLaunchKernelWithHostArgs / aclrtLaunchKernelWithConfig). Zero values are
// not passed, so AscendCL's defaults apply; the sim backend ignores them.
struct AscendLaunchAttrs {
  uint8_t schedule_mode = 0;      // ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE
  uint32_t dyn_ubuf_bytes = 0;    // ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE
  int8_t engine = -1;             // ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: -1 unset, 0 AIC, 1 AIV
  uint32_t block_dim_offset = 0;  // ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET
  uint64_t timeout_us = 0;        // ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US
};

// Tiling bytes a KernelLaunch keeps inline: the elementwise family's tiling
// (kernels/elementwise/ew_tiling.h, 320 bytes) is the most common launch, and
// at 128 every `x + y` spilled it to the heap (a malloc on the caller and a
// free when the queue node was reused). A move copies only the bytes in use.
constexpr size_t kLaunchInlineTiling = 384;

// One kernel launch, fully resolved (tiling already computed). A value type:
// up to 8 arguments and kLaunchInlineTiling tiling bytes live inside the
// object (more spill to the heap), so building one, moving it into a Command
// and from there into a stream's queue node allocates nothing in the usual case.
struct KernelLaunch {
  const char* kernel_name = "";          // static lifetime (from the registry)
  SimKernelEntry sim_entry = nullptr;    // sim backend
  void* device_function = nullptr;       // ascend backend: aclrtFuncHandle
  uint32_t num_blocks = 1;               // 1..65535
  SmallVector<void*, 8> args;            // GM pointers / scalar slots, in kernel order,
                                         // without workspace and tiling
  uint64_t scalar_arg_mask = 0;          // bit i set: args[i] is a scalar slot, not a GM pointer
  // Bit i set: nothing writes any byte of the device allocation containing
  // args[i] while this launch runs (no written arg and not the workspace lies
  // in it; no other stream writes it). The sim then may read GM -> UB copies
  // from it lazily (docs/backends.md "Copy elision"); results are unchanged.
  // The op dispatcher sets it for inputs that share no byte with an output or
  // the workspace; 0 (the default) is always safe. Setting a bit for memory
  // that is written is undefined behaviour, like writing through a const_cast.
  uint64_t readonly_arg_mask = 0;
  SmallVector<uint8_t, kLaunchInlineTiling> tiling;  // POD tiling struct bytes
  void* workspace = nullptr;             // GM workspace (system + op), may be null
  size_t workspace_bytes = 0;
  SimCheckLevel check_level = SimCheckLevel::kBasic;
  bool truncate_datacopy = false;        // sim: round DataCopy counts down like the NPU
  AscendLaunchAttrs ascend;              // ascend: launch config attributes
};

// A unit of stream work. Graph capture records Commands instead of submitting them.
// Commands are values: a backend's submit() moves the whole Command (launch
// description included) into its own queue, so the submitter keeps nothing alive.
struct Command {
  enum class Kind : uint8_t { kCopy, kMemset, kLaunch, kHostFunc, kEventRecord, kEventWait };
  Kind kind = Kind::kHostFunc;
  // kCopy / kMemset
  void* dst = nullptr;
  const void* src = nullptr;
  size_t bytes = 0;
  CopyKind copy_kind = CopyKind::kDeviceToDevice;
  int memset_value = 0;
  // kLaunch: held by value (no shared ownership, no heap allocation for small launches)
  KernelLaunch launch;
  // kHostFunc: runs on the stream in order; a thrown npurt::Error becomes the stream error.
  std::function<void()> host_fn;
  // kEventRecord / kEventWait
  std::shared_ptr<BackendEvent> event;
  uint64_t event_generation = 0;  // kEventWait: wait for this record of the event
  uint64_t profile_id = 0;        // profiler correlation id set at submit (0: not profiled)
  // Kept alive until the command ran (e.g. the staging copy of a non-blocking H2D source).
  std::shared_ptr<void> keep_alive;
  // Short description used in error messages ("copy D2H 4096 bytes", "launch add_kernel").
  std::string describe() const;
};

class BackendEvent {
 public:
  virtual ~BackendEvent() = default;
  // Generation of the latest record() call (0: never recorded).
  virtual uint64_t recorded_generation() const = 0;
  // True when the record with `generation` has completed (generation 0 is always complete).
  virtual bool completed(uint64_t generation) const = 0;
  // Blocks until the given record completed; returns the error of the stream at that point.
  virtual Status wait(uint64_t generation) = 0;
  // Completion time in ns (steady clock) of the latest completed record; timing events only.
  virtual int64_t timestamp_ns() const = 0;
};

class BackendStream {
 public:
  virtual ~BackendStream() = default;
  virtual void submit(Command&& cmd) = 0;
  virtual Status synchronize() = 0;        // wait for all work; return and clear the error
  virtual bool query(Status* error) = 0;   // true when idle; *error gets and clears the error
  virtual uint64_t mark() = 0;
  virtual bool reached(uint64_t mark) const = 0;
  // Name used as the prefix of recorded errors ("stream 3 on sim:0"); set once
  // by the runtime right after creation.
  virtual void set_name(const std::string& name) { (void)name; }
};

// A captured graph compiled into the backend's own executable graph (ascend:
// an aclmdlRI from aclmdlRICaptureBegin/End). Backends without one return
// nullptr from Backend::instantiate_graph and the runtime replays the nodes
// itself on internal streams (sim; runtime/exec/graph_exec.cc).
class BackendGraph {
 public:
  virtual ~BackendGraph() = default;
  // Enqueues one replay of the whole graph on `stream` (a stream of the same
  // backend and device). Enqueue errors throw; execution errors become the
  // stream's error like any other work.
  virtual void launch(BackendStream& stream) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual DeviceType type() const = 0;
  virtual const char* name() const = 0;
  virtual int device_count() const = 0;
  virtual const ChipProfile& profile(int device) const = 0;
  virtual uint64_t total_memory(int device) const = 0;

  // Raw memory for the pool. Returns nullptr when the device is out of memory.
  // Segments are aligned to at least segment_alignment() bytes.
  virtual void* allocate_segment(int device, size_t bytes) = 0;
  virtual void free_segment(int device, void* ptr, size_t bytes) = 0;
  virtual size_t segment_alignment() const = 0;

  virtual std::unique_ptr<BackendStream> create_stream(int device) = 0;
  virtual std::shared_ptr<BackendEvent> create_event(int device, bool timing) = 0;

  // Synchronous host<->device copy outside any stream (used after synchronize).
  virtual void copy_sync(void* dst, const void* src, size_t bytes, CopyKind kind, int device) = 0;

  // Graph instantiation hook. `nodes` are the captured commands in a topological
  // order (every dependency of a node comes before it) and stay alive as long
  // as the returned graph. nullptr (the default) means "no native graph for
  // these nodes": the runtime replays them node by node.
  virtual std::unique_ptr<BackendGraph> instantiate_graph(int device, const std::vector<const Command*>& nodes) {
    (void)device;
    (void)nodes;
    return nullptr;
  }

  // The device function of the kernel `kernel_name` (ascend: the symbol in a
  // CANN-built kernel binary via aclrtBinaryGetFunction, cached per device), put
  // in KernelLaunch::device_function by the dispatcher. Throws NotFound when no
  // binary exports it. nullptr (the default): the backend launches sim entries.
  virtual void* kernel_function(int device, const char* kernel_name) {
    (void)device;
    (void)kernel_name;
    return nullptr;
  }
};

// Registry of backends by type. The sim backend is always present; ascend is
// present only when AscendCL loads (unavailable_reason() says why not).
Backend* backend_for(DeviceType type);  // nullptr when unavailable
std::string backend_unavailable_reason(DeviceType type);

}  // namespace npurt
NPURT_PUBLIC_END
