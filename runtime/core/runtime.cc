// runtime/core/runtime.cc: the device manager (devices, contexts, current device).
//
// Contexts are created lazily under one mutex and published in a fixed table
// of atomics, so device_context() on the hot path is one atomic load.
#include <array>
#include <cassert>
#include <atomic>

#include "backends/sim/sim_backend.h"
#include "core/runtime_internal.h"
#include "exec/stream_impl.h"
#include "npurt/status.h"

#ifndef NPURT_VERSION
#define NPURT_VERSION "0.0.0"
#endif

namespace npurt {

namespace {

constexpr int kMaxDevicesPerType = 64;

struct Runtime {
  std::mutex mu;
  std::array<std::array<std::atomic<DeviceContextImpl*>, kMaxDevicesPerType>, 2> contexts{};
};

Runtime& runtime() {
  static Runtime* rt = new Runtime;  // leaked on purpose, see runtime_internal.h
  return *rt;
}

thread_local Device t_current_device;

int device_count(DeviceType type) {
  Backend* b = backend_for(type);
  return b ? std::min(b->device_count(), kMaxDevicesPerType) : 0;
}

[[noreturn]] void throw_no_device(Device d) {
  std::string reason;
  if (d.type == DeviceType::kSim)
    reason = "there are " + std::to_string(device_count(d.type)) + " sim devices (set NPURT_SIM_DEVICES for more)";
  else if (!backend_for(d.type))
    reason = "the ascend backend is unavailable: " + backend_unavailable_reason(d.type);
  else
    reason = "there are " + std::to_string(device_count(d.type)) + " ascend devices";
  throw NotFound("npurt.device_context: argument 'device': " + d.str() + " does not exist; " + reason);
}

}  // namespace

DeviceContextImpl::DeviceContextImpl(Device device, Backend* backend, int backend_index)
    : device_(device), backend_(backend), index_(backend_index), profile_(&backend->profile(backend_index)) {
  pool_ = std::make_unique<MemoryPool>(backend, backend_index, device);
  if (device.type == DeviceType::kSim) {
    MemoryPool* pool = pool_.get();
    static_cast<sim::SimBackend*>(backend)->set_resolver(
        backend_index, [pool](const void* const* ptrs, size_t n, sim::GmRegion* regions) {
          // Only the bounds: the sim stream labels the region ("arg 1") or, only
          // when reporting a failure, describes it; resolving runs on every launch.
          assert(n <= sim::kGmResolveBatch);  // GmResolver's contract (sim_backend.h)
          const void* bases[sim::kGmResolveBatch];
          size_t sizes[sim::kGmResolveBatch];
          const size_t found = pool->find_allocations(ptrs, n, bases, sizes);
          for (size_t i = 0; i < found; ++i) {
            regions[i].begin = reinterpret_cast<uintptr_t>(bases[i]);
            regions[i].end = regions[i].begin + sizes[i];
          }
          return found;
        });
  }
  default_stream_ = Stream(create_stream_impl(*this, true));
}

std::vector<Stream> DeviceContextImpl::streams() const {
  std::lock_guard<std::mutex> lk(mu_);
  std::vector<Stream> out;
  size_t keep = 0;
  for (auto& w : streams_) {
    if (auto s = w.lock()) {
      out.emplace_back(std::move(s));
      streams_[keep++] = w;
    }
  }
  streams_.resize(keep);
  return out;
}

void DeviceContextImpl::add_stream(const std::shared_ptr<StreamImpl>& s) {
  std::lock_guard<std::mutex> lk(mu_);
  if (streams_.size() >= 64) {  // prune expired entries now and then
    size_t keep = 0;
    for (auto& w : streams_)
      if (!w.expired()) streams_[keep++] = w;
    streams_.resize(keep);
  }
  streams_.push_back(s);
}

DeviceContextImpl& device_context_impl(Device device) {
  Runtime& rt = runtime();
  auto type = static_cast<size_t>(device.type);
  if (type > 1 || device.index < 0 || device.index >= kMaxDevicesPerType) throw_no_device(device);
  auto& slot = rt.contexts[type][static_cast<size_t>(device.index)];
  if (DeviceContextImpl* c = slot.load(std::memory_order_acquire)) return *c;
  std::lock_guard<std::mutex> lk(rt.mu);
  if (DeviceContextImpl* c = slot.load(std::memory_order_acquire)) return *c;
  Backend* b = backend_for(device.type);
  if (!b || device.index >= b->device_count()) throw_no_device(device);
  auto* ctx = new DeviceContextImpl(device, b, device.index);
  slot.store(ctx, std::memory_order_release);
  return *ctx;
}

DeviceContext& device_context(Device device) { return device_context_impl(device); }

std::vector<Device> devices() {
  std::vector<Device> out;
  for (DeviceType t : {DeviceType::kSim, DeviceType::kAscend})
    for (int i = 0, n = device_count(t); i < n; ++i) out.push_back(Device{t, i});
  return out;
}

Device current_device() { return t_current_device; }

void set_current_device(Device device) {
  device_context_impl(device);  // validates (throws NotFound)
  t_current_device = device;
}

std::string version() { return NPURT_VERSION; }

}  // namespace npurt
