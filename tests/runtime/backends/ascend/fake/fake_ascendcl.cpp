// tests/runtime/backends/ascend/fake/fake_ascendcl.cpp: a FAKE libascendcl.so for tests.
//
// This is not CANN and says nothing about how a real NPU behaves. It exports
// the AscendCL entry points npurt's function table resolves, with the
// documented signatures, and implements them deterministically on the host so
// the ascend backend's code paths (loading, init errors, device binding,
// segments, streams, copies, events, host functions, kernel argument blocks)
// can run end to end in the tests:
//   - "device" memory is host memory registered as device allocations;
//     pinned memory (aclrtMallocHost) is registered separately;
//   - it is STRICTER than AscendCL where that catches npurt bugs: async copies
//     must use pinned host memory and real device allocations, calls need a
//     device set on the calling thread;
//   - each stream is a worker thread running its queue in order;
//   - kernels are two built-ins: fake_add_one (out[i] = in[i] + tiling.addend
//     for i < tiling.n; args: in, out, workspace, tiling) and fake_fail (raises
//     an AI Core exception, 507015, reported by the next synchronize);
//   - a "kernel binary" is a text file: first line FAKEBIN, then kernel names;
//     a listed name other than the two built-ins is a RECORDING kernel: its
//     launches compute nothing, but every launch (any kernel) is logged with
//     its name, block dim, argument slots and tiling bytes (fake_launch_log.h).
// Knobs (read at each call): FAKE_ACL_INIT_ERROR, FAKE_ACL_DEVICE_COUNT,
// FAKE_ACL_SOC, FAKE_ACL_MISALIGN (device bases 64 mod 128), FAKE_ACL_MEMORY_LIMIT.
// Build variants: -DFAKE_ACL_MINIMAL omits the optional entry points that have
// fallbacks (aclrtMallocAlign32, aclrtGetDeviceInfo, aclrtStreamQuery,
// aclrtLaunchHostFunc, aclrtCreateEventExWithFlag, aclrtLaunchKernelWithHostArgs)
// but keeps the aclrtKernelArgs* builder; -DFAKE_ACL_OMIT_MEMCPY_ASYNC omits a
// required one.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backends/ascend/acl_types.h"
#include "fake_launch_log.h"

namespace acl = npurt::ascend::acl;

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string t_recent;
thread_local std::string t_returned;
thread_local int t_device = -1;
struct FakeStream;
thread_local FakeStream* t_running = nullptr;  // the stream whose worker runs this thread's task

std::mutex g_mu;  // guards everything below that is not per-object
std::map<uintptr_t, size_t> g_device_allocs;
std::map<uintptr_t, size_t> g_pinned_allocs;
std::map<uintptr_t, void*> g_raw_of;  // handed-out -> malloc'd
size_t g_device_bytes = 0;
std::map<std::string, long> g_counters;
bool g_initialized = false;

long env_long(const char* name, long dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : dflt;
}

aclError fail(int code, const std::string& msg) {
  t_recent = "fake AscendCL: " + msg;
  return code;
}

void count(const char* name, long delta = 1) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_counters[name] += delta;
}

bool in_map(const std::map<uintptr_t, size_t>& m, const void* p, size_t n) {
  auto a = reinterpret_cast<uintptr_t>(p);
  auto it = m.upper_bound(a);
  if (it == m.begin()) return false;
  --it;
  return a >= it->first && a + n <= it->first + it->second;
}
bool is_device(const void* p, size_t n) { std::lock_guard<std::mutex> l(g_mu); return in_map(g_device_allocs, p, n); }
bool is_pinned(const void* p, size_t n) { std::lock_guard<std::mutex> l(g_mu); return in_map(g_pinned_allocs, p, n); }

struct FakeStream {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::function<void()>> queue;
  bool busy = false, stop = false;
  int error = 0;
  std::string error_msg;
  int device = 0;
  // Non-null while aclmdlRICaptureBegin..End: tasks are recorded, not queued.
  std::vector<std::function<void()>>* capture = nullptr;
  std::thread worker;

  explicit FakeStream(int dev) : device(dev) {
    worker = std::thread([this] {
      t_running = this;
      std::unique_lock<std::mutex> lock(mu);
      for (;;) {
        cv.wait(lock, [this] { return stop || !queue.empty(); });
        if (queue.empty()) return;
        auto task = std::move(queue.front());
        queue.pop_front();
        busy = true;
        lock.unlock();
        task();
        lock.lock();
        busy = false;
        cv.notify_all();
      }
    });
  }
  ~FakeStream() {
    { std::lock_guard<std::mutex> l(mu); stop = true; }
    cv.notify_all();
    worker.join();
  }
  void push(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> l(mu);
      if (capture) return capture->push_back(std::move(f));
      queue.push_back(std::move(f));
    }
    cv.notify_all();
  }
  void fault(int code, const std::string& msg) {
    std::lock_guard<std::mutex> l(mu);
    if (error == 0) { error = code; error_msg = msg; }
  }
  int drain() {  // wait until idle; return and clear the sticky error
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [this] { return queue.empty() && !busy; });
    int e = error;
    if (e) t_recent = "fake AscendCL: " + error_msg;
    error = 0;
    return e;
  }
  bool idle() { std::lock_guard<std::mutex> l(mu); return queue.empty() && !busy; }
};

FakeStream* default_stream() {
  static FakeStream* s = new FakeStream(0);  // leaked: lives as long as the process
  return s;
}
FakeStream* stream_of(aclrtStream s) { return s ? static_cast<FakeStream*>(s) : default_stream(); }

struct FakeEvent {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t records = 0, completed = 0;
  int64_t ts_ns = 0;
  uint32_t flag = 0;
};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool no_device() { return t_device < 0; }
#define REQUIRE_DEVICE() \
  if (no_device()) return fail(107002, std::string(__func__) + ": no device set on this thread")

// ---- kernels --------------------------------------------------------------
struct FakeKernel { const char* name; };
FakeKernel k_add_one{"fake_add_one"}, k_fail{"fake_fail"};
std::map<std::string, FakeKernel> g_recording_kernels;  // by name; guarded by g_mu
std::vector<FakeLaunchRecord> g_launch_log;              // guarded by g_mu

// Logs a launch from its host argument block: `slots_bytes` bytes of 8-byte
// slots followed by the tiling data the placeholder points at.
void log_launch(const FakeKernel* k, uint32_t blocks, const uint8_t* blob, size_t size, size_t slots_bytes) {
  FakeLaunchRecord r{};
  std::strncpy(r.kernel, k->name, sizeof r.kernel - 1);
  r.num_blocks = blocks;
  r.num_slots = static_cast<uint32_t>(slots_bytes / 8);
  for (size_t i = 0; i < r.num_slots && i < 32; ++i) std::memcpy(&r.slots[i], blob + 8 * i, 8);
  r.tiling_bytes = static_cast<uint32_t>(size - slots_bytes);
  std::memcpy(r.tiling, blob + slots_bytes, std::min<size_t>(r.tiling_bytes, sizeof r.tiling));
  std::lock_guard<std::mutex> l(g_mu);
  g_launch_log.push_back(r);
}

struct AddOneTiling { uint64_t n; float addend; uint32_t pad; };

void run_kernel(FakeStream* st, FakeKernel* k, uint32_t blocks, std::vector<uint8_t> dev_args) {
  if (t_running) st = t_running;  // a graph replay runs on another stream than the captured one
  auto slot = [&](size_t i) { uint64_t v; std::memcpy(&v, dev_args.data() + 8 * i, 8); return v; };
  if (k == &k_fail) return st->fault(507015, "aicore exception in fake_fail");
  if (k != &k_add_one) return;  // a recording kernel: logged at launch, computes nothing
  auto* in = reinterpret_cast<const float*>(slot(0));
  auto* out = reinterpret_cast<float*>(slot(1));
  auto* tiling = reinterpret_cast<const AddOneTiling*>(slot(3));
  if (!tiling) return st->fault(507015, "fake_add_one: null tiling pointer");
  if (!is_device(in, tiling->n * 4) || !is_device(out, tiling->n * 4)) {
    return st->fault(507015, "fake_add_one: in/out not device memory of n floats");
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    uint64_t lo = tiling->n * b / blocks, hi = tiling->n * (b + 1) / blocks;
    for (uint64_t i = lo; i < hi; ++i) out[i] = in[i] + tiling->addend;
  }
}

// Device copy of a host argument block with placeholders patched, as AscendCL
// does: each placeholder's pointer slot gets the address of its data in the copy.
// The copy is heap memory that lives as long as the launch task (like the
// runtime's argument buffer).
// Returns false when a placeholder is out of range or misaligned (checked like
// a strict runtime would). std::vector moves keep the buffer, so the patched
// addresses stay valid when the vector is moved into the launch task.
bool materialize(const void* host, size_t size, const aclrtPlaceHolderInfo* ph, size_t n,
                 std::vector<uint8_t>* dev) {
  dev->assign(static_cast<const uint8_t*>(host), static_cast<const uint8_t*>(host) + size);
  for (size_t i = 0; i < n; ++i) {
    if (ph[i].addrOffset % 8 || ph[i].addrOffset + 8 > size || ph[i].dataOffset >= size) return false;
    uint64_t addr = reinterpret_cast<uintptr_t>(dev->data() + ph[i].dataOffset);
    std::memcpy(dev->data() + ph[i].addrOffset, &addr, 8);
  }
  return true;
}

struct FakeArgs {
  std::vector<uint8_t> blob;
  std::vector<std::pair<size_t, std::vector<uint8_t>>> holders;  // slot offset, data
  bool finalized = false;
};

}  // namespace

// ---- test hooks -------------------------------------------------------------
FAKE_EXPORT long fake_acl_launch_count() {
  std::lock_guard<std::mutex> l(g_mu);
  return static_cast<long>(g_launch_log.size());
}
FAKE_EXPORT int fake_acl_launch_record(long i, FakeLaunchRecord* out) {
  std::lock_guard<std::mutex> l(g_mu);
  if (i < 0 || static_cast<size_t>(i) >= g_launch_log.size()) return -1;
  *out = g_launch_log[static_cast<size_t>(i)];
  return 0;
}
FAKE_EXPORT long fake_acl_counter(const char* name) {
  std::lock_guard<std::mutex> l(g_mu);
  if (std::string(name) == "live_device_allocs") return static_cast<long>(g_device_allocs.size());
  if (std::string(name) == "live_pinned_allocs") return static_cast<long>(g_pinned_allocs.size());
  if (std::string(name) == "initialized") return g_initialized ? 1 : 0;
  auto it = g_counters.find(name);
  return it == g_counters.end() ? 0 : it->second;
}

// ---- init / device / errors ---------------------------------------------------
FAKE_EXPORT aclError aclInit(const char*) {
  long e = env_long("FAKE_ACL_INIT_ERROR", 0);
  if (e) return fail(static_cast<int>(e), "aclInit: injected failure (FAKE_ACL_INIT_ERROR)");
  std::lock_guard<std::mutex> l(g_mu);
  if (g_initialized) return fail(acl::kErrorRepeatInitialize, "aclInit: repeat initialize");
  g_initialized = true;
  return 0;
}
FAKE_EXPORT aclError aclFinalize() {
  std::lock_guard<std::mutex> l(g_mu);
  g_initialized = false;
  g_counters["finalize"] += 1;
  return 0;
}
FAKE_EXPORT const char* aclGetRecentErrMsg() {
  t_returned = t_recent;
  t_recent.clear();
  return t_returned.empty() ? nullptr : t_returned.c_str();
}
FAKE_EXPORT aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!g_initialized) return fail(acl::kErrorUninitialize, "aclrtGetDeviceCount: aclInit not called");
  *count = static_cast<uint32_t>(env_long("FAKE_ACL_DEVICE_COUNT", 1));
  return 0;
}
FAKE_EXPORT aclError aclrtSetDevice(int32_t d) {
  if (d < 0 || d >= env_long("FAKE_ACL_DEVICE_COUNT", 1)) return fail(107001, "aclrtSetDevice: invalid device id");
  t_device = d;
  count("set_device");
  return 0;
}
FAKE_EXPORT aclError aclrtResetDevice(int32_t) { t_device = -1; return 0; }
FAKE_EXPORT const char* aclrtGetSocName() {
  static thread_local std::string soc;
  const char* v = std::getenv("FAKE_ACL_SOC");
  soc = v ? v : "Ascend910B3";
  return soc.c_str();
}
FAKE_EXPORT aclError aclrtGetMemInfo(aclrtMemAttr, size_t* free_bytes, size_t* total) {
  REQUIRE_DEVICE();
  *total = 16ull << 30;
  std::lock_guard<std::mutex> l(g_mu);
  *free_bytes = *total - g_device_bytes;
  return 0;
}
#ifndef FAKE_ACL_MINIMAL
FAKE_EXPORT aclError aclrtGetDeviceInfo(uint32_t, aclrtDevAttr attr, int64_t* value) {
  switch (static_cast<int>(attr)) {
    case acl::kDevAttrCubeCoreNum: *value = 18; return 0;
    case acl::kDevAttrVectorCoreNum: *value = 36; return 0;
    case acl::kDevAttrAicoreCoreNum: *value = 18; return 0;
    case acl::kDevAttrTotalGlobalMemSize: *value = 32ll << 30; return 0;
    default: return fail(acl::kErrorRtFeatureNotSupport, "aclrtGetDeviceInfo: attribute not supported");
  }
}
#endif

// ---- memory -----------------------------------------------------------------------
namespace {
aclError device_malloc(void** out, size_t size, size_t rounded) {
  REQUIRE_DEVICE();
  if (size == 0) return fail(acl::kErrorInvalidParam, "aclrtMalloc: size 0");
  long limit = env_long("FAKE_ACL_MEMORY_LIMIT", 1l << 40);
  std::lock_guard<std::mutex> l(g_mu);
  if (static_cast<long>(g_device_bytes + rounded) > limit) {
    t_recent = "fake AscendCL: out of device memory";
    return acl::kErrorRtMemoryAllocation;
  }
  const size_t offset = env_long("FAKE_ACL_MISALIGN", 0) ? 64 : 0;
  void* raw = std::aligned_alloc(4096, (rounded + offset + 4095) / 4096 * 4096);
  auto* p = static_cast<uint8_t*>(raw) + offset;
  g_device_allocs[reinterpret_cast<uintptr_t>(p)] = rounded;
  g_raw_of[reinterpret_cast<uintptr_t>(p)] = raw;
  g_device_bytes += rounded;
  *out = p;
  return 0;
}
}  // namespace

// aclrtMalloc: 32-byte rounding plus 32 bytes of padding, as documented for A2/A3.
FAKE_EXPORT aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
  count("malloc");
  return device_malloc(p, size, (size + 31) / 32 * 32 + 32);
}
#ifndef FAKE_ACL_MINIMAL
FAKE_EXPORT aclError aclrtMallocAlign32(void** p, size_t size, aclrtMemMallocPolicy) {
  count("malloc_align32");
  return device_malloc(p, size, (size + 31) / 32 * 32);
}
#endif
FAKE_EXPORT aclError aclrtFree(void* p) {
  std::lock_guard<std::mutex> l(g_mu);
  auto it = g_device_allocs.find(reinterpret_cast<uintptr_t>(p));
  if (it == g_device_allocs.end()) return fail(107000, "aclrtFree: not a device allocation");
  g_device_bytes -= it->second;
  g_device_allocs.erase(it);
  std::free(g_raw_of[reinterpret_cast<uintptr_t>(p)]);
  g_raw_of.erase(reinterpret_cast<uintptr_t>(p));
  return 0;
}
FAKE_EXPORT aclError aclrtMallocHost(void** p, size_t size) {
  if (size == 0) return fail(acl::kErrorInvalidParam, "aclrtMallocHost: size 0");
  *p = std::malloc(size);
  std::lock_guard<std::mutex> l(g_mu);
  g_pinned_allocs[reinterpret_cast<uintptr_t>(*p)] = size;
  g_counters["malloc_host"] += 1;
  return 0;
}
FAKE_EXPORT aclError aclrtFreeHost(void* p) {
  std::lock_guard<std::mutex> l(g_mu);
  if (!g_pinned_allocs.erase(reinterpret_cast<uintptr_t>(p))) return fail(107000, "aclrtFreeHost: not pinned");
  std::free(p);
  return 0;
}

// ---- copies -----------------------------------------------------------------------
namespace {
aclError check_copy(void* dst, size_t dmax, const void* src, size_t n, int kind, bool async) {
  if (n > dmax) return fail(107000, "memcpy: count > destMax");
  bool dd = is_device(dst, n), sd = is_device(src, n);
  bool ok = (kind == acl::kMemcpyHostToDevice && dd && !sd) || (kind == acl::kMemcpyDeviceToHost && sd && !dd) ||
            (kind == acl::kMemcpyDeviceToDevice && dd && sd) || (kind == acl::kMemcpyHostToHost && !async && !dd && !sd);
  if (!ok) return fail(107000, "memcpy: pointers do not match kind " + std::to_string(kind));
  if (async && kind == acl::kMemcpyHostToDevice && !is_pinned(src, n))
    return fail(107000, "memcpyAsync: host source is not pinned (fake is strict)");
  if (async && kind == acl::kMemcpyDeviceToHost && !is_pinned(dst, n))
    return fail(107000, "memcpyAsync: host destination is not pinned (fake is strict)");
  return 0;
}
}  // namespace

FAKE_EXPORT aclError aclrtMemcpy(void* dst, size_t dmax, const void* src, size_t n, aclrtMemcpyKind kind) {
  REQUIRE_DEVICE();
  if (aclError e = check_copy(dst, dmax, src, n, static_cast<int>(kind), false)) return e;
  std::memcpy(dst, src, n);
  count("memcpy_sync");
  return 0;
}
#ifndef FAKE_ACL_OMIT_MEMCPY_ASYNC
FAKE_EXPORT aclError aclrtMemcpyAsync(void* dst, size_t dmax, const void* src, size_t n, aclrtMemcpyKind kind,
                                      aclrtStream s) {
  REQUIRE_DEVICE();
  if (aclError e = check_copy(dst, dmax, src, n, static_cast<int>(kind), true)) return e;
  stream_of(s)->push([=] { std::memcpy(dst, src, n); });
  count("memcpy_async");
  return 0;
}
#endif
FAKE_EXPORT aclError aclrtMemset(void* p, size_t max, int32_t v, size_t n) {
  REQUIRE_DEVICE();
  if (n > max || !is_device(p, n)) return fail(107000, "memset: bad range");
  std::memset(p, v, n);
  return 0;
}
FAKE_EXPORT aclError aclrtMemsetAsync(void* p, size_t max, int32_t v, size_t n, aclrtStream s) {
  REQUIRE_DEVICE();
  if (n > max || !is_device(p, n)) return fail(107000, "memsetAsync: bad range");
  stream_of(s)->push([=] { std::memset(p, v, n); });
  return 0;
}

// ---- streams ----------------------------------------------------------------------
FAKE_EXPORT aclError aclrtCreateStream(aclrtStream* s) {
  REQUIRE_DEVICE();
  *s = new FakeStream(t_device);
  count("live_streams");
  return 0;
}
FAKE_EXPORT aclError aclrtDestroyStream(aclrtStream s) {
  auto* st = static_cast<FakeStream*>(s);
  st->drain();
  delete st;
  count("live_streams", -1);
  return 0;
}
FAKE_EXPORT aclError aclrtSynchronizeStream(aclrtStream s) {
  REQUIRE_DEVICE();
  if (stream_of(s)->capture) return fail(107041, "aclrtSynchronizeStream: stream is capturing");
  return stream_of(s)->drain();
}
#ifndef FAKE_ACL_MINIMAL
FAKE_EXPORT aclError aclrtStreamQuery(aclrtStream s, aclrtStreamStatus* status) {
  REQUIRE_DEVICE();
  *status = static_cast<aclrtStreamStatus>(stream_of(s)->idle() ? 0 : 1);
  return 0;
}
FAKE_EXPORT aclError aclrtLaunchHostFunc(aclrtStream s, aclrtHostFunc fn, void* args) {
  REQUIRE_DEVICE();
  stream_of(s)->push([=] { fn(args); });
  count("host_func");
  return 0;
}
#endif

// ---- events -----------------------------------------------------------------------
namespace {
aclError create_event(aclrtEvent* e, uint32_t flag) {
  REQUIRE_DEVICE();
  auto* ev = new FakeEvent;
  ev->flag = flag;
  *e = ev;
  count("live_events");
  return 0;
}
}  // namespace
FAKE_EXPORT aclError aclrtCreateEventWithFlag(aclrtEvent* e, uint32_t flag) { return create_event(e, flag); }
#ifndef FAKE_ACL_MINIMAL
FAKE_EXPORT aclError aclrtCreateEventExWithFlag(aclrtEvent* e, uint32_t flag) { return create_event(e, flag); }
#endif
FAKE_EXPORT aclError aclrtDestroyEvent(aclrtEvent e) {
  delete static_cast<FakeEvent*>(e);  // callers only destroy completed events in these tests
  count("live_events", -1);
  return 0;
}
FAKE_EXPORT aclError aclrtRecordEvent(aclrtEvent e, aclrtStream s) {
  REQUIRE_DEVICE();
  auto* ev = static_cast<FakeEvent*>(e);
  uint64_t gen;
  { std::lock_guard<std::mutex> l(ev->mu); gen = ++ev->records; }
  stream_of(s)->push([ev, gen] {
    std::lock_guard<std::mutex> l(ev->mu);
    if (gen > ev->completed) { ev->completed = gen; ev->ts_ns = now_ns(); }
    ev->cv.notify_all();
  });
  return 0;
}
FAKE_EXPORT aclError aclrtQueryEventStatus(aclrtEvent e, aclrtEventRecordedStatus* status) {
  REQUIRE_DEVICE();
  auto* ev = static_cast<FakeEvent*>(e);
  std::lock_guard<std::mutex> l(ev->mu);
  *status = static_cast<aclrtEventRecordedStatus>(ev->completed >= ev->records ? 1 : 0);
  return 0;
}
FAKE_EXPORT aclError aclrtSynchronizeEvent(aclrtEvent e) {
  REQUIRE_DEVICE();
  auto* ev = static_cast<FakeEvent*>(e);
  std::unique_lock<std::mutex> l(ev->mu);
  uint64_t target = ev->records;
  ev->cv.wait(l, [&] { return ev->completed >= target; });
  return 0;
}
FAKE_EXPORT aclError aclrtStreamWaitEvent(aclrtStream s, aclrtEvent e) {
  REQUIRE_DEVICE();
  auto* ev = static_cast<FakeEvent*>(e);
  uint64_t target;
  { std::lock_guard<std::mutex> l(ev->mu); target = ev->records; }
  stream_of(s)->push([ev, target] {
    std::unique_lock<std::mutex> l(ev->mu);
    ev->cv.wait(l, [&] { return ev->completed >= target; });
  });
  return 0;
}
FAKE_EXPORT aclError aclrtEventElapsedTime(float* ms, aclrtEvent a, aclrtEvent b) {
  REQUIRE_DEVICE();
  auto* ea = static_cast<FakeEvent*>(a);
  auto* eb = static_cast<FakeEvent*>(b);
  if (!(ea->flag & acl::kEventTimeLine) || !(eb->flag & acl::kEventTimeLine))
    return fail(107006, "aclrtEventElapsedTime: event created without ACL_EVENT_TIME_LINE");
  std::lock_guard<std::mutex> la(ea->mu);
  std::lock_guard<std::mutex> lb(eb->mu);
  if (!ea->completed || !eb->completed) return fail(507006, "aclrtEventElapsedTime: event not complete");
  *ms = static_cast<float>((eb->ts_ns - ea->ts_ns) / 1e6);
  return 0;
}

// ---- kernel binaries and launch --------------------------------------------------
FAKE_EXPORT aclError aclrtBinaryLoadFromFile(const char* path, aclrtBinaryLoadOptions*, aclrtBinHandle* out) {
  REQUIRE_DEVICE();
  std::ifstream f(path);
  std::string line;
  if (!f || !std::getline(f, line) || line != "FAKEBIN") return fail(100003, std::string("not a fake binary: ") + path);
  auto* names = new std::set<std::string>;
  while (std::getline(f, line)) if (!line.empty()) names->insert(line);
  *out = names;
  count("binary_loads");
  return 0;
}
namespace {
// The last launch's config as counters: "cfg_attrs" = numAttrs (-1: null cfg),
// "cfg_attr_<id>" = the value's first 8 bytes (rsv[0] | rsv[1] << 32).
void record_cfg(const aclrtLaunchKernelCfg* cfg) {
  std::lock_guard<std::mutex> l(g_mu);
  for (auto it = g_counters.begin(); it != g_counters.end();)
    it = it->first.rfind("cfg_attr", 0) == 0 ? g_counters.erase(it) : std::next(it);
  g_counters["cfg_attrs"] = cfg ? static_cast<long>(cfg->numAttrs) : -1;
  for (size_t i = 0; cfg && i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& a = cfg->attrs[i];
    g_counters["cfg_attr_" + std::to_string(static_cast<int>(a.id))] =
        static_cast<long>(a.value.rsv[0] | (static_cast<uint64_t>(a.value.rsv[1]) << 32));
  }
}
}  // namespace

FAKE_EXPORT aclError aclrtBinaryUnLoad(aclrtBinHandle h) {
  delete static_cast<std::set<std::string>*>(h);
  count("binary_loads", -1);
  return 0;
}
FAKE_EXPORT aclError aclrtBinaryGetFunction(const aclrtBinHandle h, const char* name, aclrtFuncHandle* fn) {
  auto* names = static_cast<std::set<std::string>*>(h);
  if (!names->count(name)) return fail(507027, std::string("kernel lookup: ") + name);
  if (std::string(name) == "fake_add_one") *fn = &k_add_one;
  else if (std::string(name) == "fake_fail") *fn = &k_fail;
  else {
    std::lock_guard<std::mutex> l(g_mu);
    auto it = g_recording_kernels.try_emplace(name, FakeKernel{nullptr}).first;
    it->second.name = it->first.c_str();
    *fn = &it->second;
  }
  return 0;
}
#ifndef FAKE_ACL_MINIMAL
FAKE_EXPORT aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle fn, uint32_t blocks, aclrtStream s,
                                                   aclrtLaunchKernelCfg* cfg, void* args, size_t size,
                                                   aclrtPlaceHolderInfo* ph, size_t nph) {
  REQUIRE_DEVICE();
  record_cfg(cfg);
  std::vector<uint8_t> dev;
  if (size % 8 || !materialize(args, size, ph, nph, &dev)) return fail(107000, "bad host args / placeholders");
  FakeStream* st = stream_of(s);
  auto* k = static_cast<FakeKernel*>(fn);
  log_launch(k, blocks, static_cast<const uint8_t*>(args), size, nph ? ph[0].dataOffset : size);
  st->push([st, k, blocks, dev = std::move(dev)]() mutable { run_kernel(st, k, blocks, std::move(dev)); });
  count("launch_host_args");
  return 0;
}
#endif
FAKE_EXPORT aclError aclrtKernelArgsInit(aclrtFuncHandle, aclrtArgsHandle* h) { *h = new FakeArgs; return 0; }
FAKE_EXPORT aclError aclrtKernelArgsAppend(aclrtArgsHandle h, void* p, size_t n, aclrtParamHandle* param) {
  auto* a = static_cast<FakeArgs*>(h);
  if (a->finalized || n != 8) return fail(107000, "args append: finalized or not an 8-byte param");
  *param = reinterpret_cast<void*>(a->blob.size() + 1);
  a->blob.insert(a->blob.end(), static_cast<uint8_t*>(p), static_cast<uint8_t*>(p) + n);
  return 0;
}
FAKE_EXPORT aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle h, aclrtParamHandle* param) {
  auto* a = static_cast<FakeArgs*>(h);
  *param = reinterpret_cast<void*>(a->blob.size() + 1);
  a->holders.push_back({a->blob.size(), {}});
  a->blob.resize(a->blob.size() + 8, 0);
  return 0;
}
FAKE_EXPORT aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle h, aclrtParamHandle param, size_t n,
                                                         void** buf) {
  auto* a = static_cast<FakeArgs*>(h);
  for (auto& [off, data] : a->holders) {
    if (off + 1 == reinterpret_cast<uintptr_t>(param)) { data.resize(n); *buf = data.data(); return 0; }
  }
  return fail(107000, "placeholder buffer: unknown param handle");
}
FAKE_EXPORT aclError aclrtKernelArgsFinalize(aclrtArgsHandle h) { static_cast<FakeArgs*>(h)->finalized = true; return 0; }
FAKE_EXPORT aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle fn, uint32_t blocks, aclrtStream s,
                                                 aclrtLaunchKernelCfg* cfg, aclrtArgsHandle h, void*) {
  REQUIRE_DEVICE();
  record_cfg(cfg);
  std::unique_ptr<FakeArgs> a(static_cast<FakeArgs*>(h));
  if (!a->finalized) return fail(107000, "launch: args not finalized");
  std::vector<uint8_t> host = a->blob;
  std::vector<aclrtPlaceHolderInfo> ph;
  for (auto& [off, data] : a->holders) {
    size_t data_off = (host.size() + 7) / 8 * 8;
    host.resize(data_off + data.size());
    std::memcpy(host.data() + data_off, data.data(), data.size());
    ph.push_back({static_cast<uint32_t>(off), static_cast<uint32_t>(data_off)});
  }
  host.resize((host.size() + 7) / 8 * 8);
  std::vector<uint8_t> dev;
  if (!materialize(host.data(), host.size(), ph.data(), ph.size(), &dev)) return fail(107000, "bad placeholders");
  FakeStream* st = stream_of(s);
  auto* k = static_cast<FakeKernel*>(fn);
  log_launch(k, blocks, host.data(), host.size(), ph.empty() ? host.size() : ph[0].dataOffset);
  st->push([st, k, blocks, dev = std::move(dev)]() mutable { run_kernel(st, k, blocks, std::move(dev)); });
  count("launch_with_config");
  return 0;
}

// ---- graph capture (aclmdlRI): a model is the list of captured tasks ---------------
#ifndef FAKE_ACL_MINIMAL
namespace {
struct FakeRI { std::vector<std::function<void()>> tasks; };
}  // namespace
FAKE_EXPORT aclError aclmdlRICaptureBegin(aclrtStream s, aclmdlRICaptureMode) {
  REQUIRE_DEVICE();
  if (!s) return fail(107031, "aclmdlRICaptureBegin: the default stream cannot be captured");
  FakeStream* st = stream_of(s);
  std::lock_guard<std::mutex> l(st->mu);
  if (st->capture) return fail(107027, "aclmdlRICaptureBegin: stream is already capturing");
  st->capture = new std::vector<std::function<void()>>;
  count("captures");
  return 0;
}
FAKE_EXPORT aclError aclmdlRICaptureEnd(aclrtStream s, aclmdlRI* ri) {
  REQUIRE_DEVICE();
  FakeStream* st = stream_of(s);
  std::lock_guard<std::mutex> l(st->mu);
  if (!st->capture) return fail(107036, "aclmdlRICaptureEnd: stream is not capturing");
  *ri = new FakeRI{std::move(*st->capture)};
  delete st->capture;
  st->capture = nullptr;
  count("live_ri");
  return 0;
}
FAKE_EXPORT aclError aclmdlRIExecuteAsync(aclmdlRI ri, aclrtStream s) {
  REQUIRE_DEVICE();
  if (!ri) return fail(107000, "aclmdlRIExecuteAsync: null model");
  for (const auto& task : static_cast<FakeRI*>(ri)->tasks) stream_of(s)->push(task);  // a copy per replay
  count("ri_executions");
  return 0;
}
FAKE_EXPORT aclError aclmdlRIDestroy(aclmdlRI ri) {
  delete static_cast<FakeRI*>(ri);
  count("live_ri", -1);
  return 0;
}
#endif
