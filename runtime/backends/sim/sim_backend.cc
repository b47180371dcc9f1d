// runtime/backends/sim/sim_backend.cc: sim devices, host-mapped device memory,
// and the factory of sim streams and events.
#include "backends/sim/sim_backend.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "backends/sim/sim_event.h"
#include "backends/sim/sim_stream.h"
#include "exec/thread_pool.h"
#include "npurt/memory_pool.h"
#include "npurt/status.h"

namespace npurt::sim {

namespace {

uint64_t physical_ram() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(16) << 30;
}

int devices_from_env() {
  const char* v = std::getenv("NPURT_SIM_DEVICES");
  if (!v || !*v) return 1;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (end == v || *end || n < 1 || n > 64)
    throw_invalid_argument("npurt.sim", "NPURT_SIM_DEVICES",
                           "expected an integer in [1, 64], got '" + std::string(v) + "'");
  return static_cast<int>(n);
}

uint64_t memory_from_env() {
  uint64_t ram = physical_ram();
  const char* v = std::getenv("NPURT_SIM_MEMORY");
  if (v && *v) return parse_memory_limit(v, ram);
  return std::min<uint64_t>(uint64_t(16) << 30, ram / 2);
}

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

}  // namespace

SimBackend& SimBackend::instance() {
  static SimBackend* backend = new SimBackend(devices_from_env(), memory_from_env());
  return *backend;
}

SimBackend::SimBackend(int devices, uint64_t memory_per_device) : profile_(&default_chip_profile()) {
  for (int i = 0; i < devices; ++i) {
    devices_.push_back(std::make_unique<DeviceState>());
    devices_.back()->budget = memory_per_device;
  }
}

SimBackend::~SimBackend() = default;

SimBackend::DeviceState& SimBackend::state(int device, const char* where) const {
  if (device < 0 || device >= device_count())
    throw_invalid_argument(where, "device", "sim device index " + std::to_string(device) +
                                                " out of range [0, " + std::to_string(device_count()) + ")");
  return *devices_[static_cast<size_t>(device)];
}

const ChipProfile& SimBackend::profile(int device) const {
  state(device, "npurt.sim.profile");
  return *profile_;
}

uint64_t SimBackend::total_memory(int device) const { return state(device, "npurt.sim.total_memory").budget; }

uint64_t SimBackend::reserved(int device) const {
  return state(device, "npurt.sim.reserved").reserved.load(std::memory_order_relaxed);
}

void* SimBackend::allocate_segment(int device, size_t bytes) {
  DeviceState& d = state(device, "npurt.sim.allocate_segment");
  if (bytes == 0) return nullptr;
  size_t size = align_up(bytes, kSegmentAlignment);
  // Reserve budget first (CAS) so concurrent pools of one device cannot overshoot.
  uint64_t cur = d.reserved.load(std::memory_order_relaxed);
  do {
    if (cur + size > d.budget || cur + size < cur) return nullptr;
  } while (!d.reserved.compare_exchange_weak(cur, cur + size, std::memory_order_relaxed));
  // Over-map by one alignment unit and trim, so the base is 2 MiB aligned.
  size_t map_size = size + kSegmentAlignment;
  void* raw = mmap(nullptr, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    d.reserved.fetch_sub(size, std::memory_order_relaxed);
    return nullptr;
  }
  uintptr_t base = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = align_up(base, kSegmentAlignment);
  if (aligned > base) munmap(raw, aligned - base);
  size_t tail = (base + map_size) - (aligned + size);
  if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, size, MADV_HUGEPAGE);  // a request; fine if THP is off
  return p;
}

void SimBackend::free_segment(int device, void* ptr, size_t bytes) {
  DeviceState& d = state(device, "npurt.sim.free_segment");
  if (!ptr) return;
  size_t size = align_up(bytes, kSegmentAlignment);
  munmap(ptr, size);
  d.reserved.fetch_sub(size, std::memory_order_relaxed);
}

std::unique_ptr<BackendStream> SimBackend::create_stream(int device) {
  state(device, "npurt.sim.create_stream");
  return std::make_unique<SimStream>(this, device);
}

std::shared_ptr<BackendEvent> SimBackend::create_event(int device, bool timing) {
  state(device, "npurt.sim.create_event");
  return std::make_shared<SimEvent>(timing);
}

void SimBackend::copy_sync(void* dst, const void* src, size_t bytes, CopyKind, int device) {
  state(device, "npurt.sim.copy_sync");
  if (bytes == 0) return;
  if (!dst || !src) throw_invalid_argument("npurt.sim.copy_sync", dst ? "src" : "dst", "null pointer");
  parallel_memcpy(dst, src, bytes);
}

void SimBackend::set_resolver(int device, GmResolver resolver) {
  DeviceState& d = state(device, "npurt.sim.set_resolver");
  std::unique_ptr<const GmResolver> r;
  if (resolver) r = std::make_unique<const GmResolver>(std::move(resolver));
  std::lock_guard<std::mutex> lk(resolver_mu_);
  const GmResolver* current = r.get();
  if (r) d.installed.push_back(std::move(r));  // kept: a submitting thread may still hold the old one
  d.resolver.store(current, std::memory_order_release);
}

const GmResolver* SimBackend::resolver(int device) const {
  return state(device, "npurt.sim.resolver").resolver.load(std::memory_order_acquire);
}

bool SimBackend::resolve(int device, const void* ptr, GmRegion* region) const {
  const GmResolver* r = resolver(device);
  return r && (*r)(&ptr, 1, region) == 1;
}

namespace {
// Below this, one thread saturates memory bandwidth better than a fork/join.
constexpr size_t kParallelThreshold = size_t(4) << 20;

template <class F>
void split_range(size_t bytes, F&& f) {
  ThreadPool& pool = ThreadPool::compute();
  size_t parts = std::min(pool.num_threads(), bytes / (kParallelThreshold / 2));
  if (bytes < kParallelThreshold || parts <= 1) {
    f(size_t(0), bytes);
    return;
  }
  size_t chunk = align_up((bytes + parts - 1) / parts, 4096);
  pool.parallel_for(parts, [&](size_t i) {
    size_t begin = i * chunk;
    if (begin < bytes) f(begin, std::min(bytes, begin + chunk) - begin);
  });
}
}  // namespace

void parallel_memcpy(void* dst, const void* src, size_t bytes) {
  split_range(bytes, [&](size_t off, size_t n) {
    std::memcpy(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off, n);
  });
}

void parallel_memset(void* dst, int value, size_t bytes) {
  split_range(bytes, [&](size_t off, size_t n) { std::memset(static_cast<char*>(dst) + off, value, n); });
}

}  // namespace npurt::sim
