// runtime/backends/ascend/acl_context.cc: device binding, event pool, time reference.
#include "backends/ascend/acl_context.h"

#include <atomic>
#include <chrono>
#include <cmath>

namespace npurt::ascend {

namespace {

std::atomic<uint64_t> g_next_context_id{1};

struct ThreadBinding {
  uint64_t context_id = 0;
  int device = -1;
};
thread_local ThreadBinding t_binding;

int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

AclEventHandle::~AclEventHandle() { ctx_->release_event(event_, timing_); }

AclContext::AclContext(std::unique_ptr<AclApi> api, bool finalize_on_destroy)
    : api_(std::move(api)), id_(g_next_context_id.fetch_add(1)), finalize_on_destroy_(finalize_on_destroy) {}

AclContext::~AclContext() {
  for (auto& list : free_events_) {
    for (aclrtEvent e : list) api_->aclrtDestroyEvent(e);
  }
  for (const Reference& r : references_) api_->aclrtDestroyEvent(r.event);
  if (finalize_on_destroy_) api_->aclFinalize();
}

void AclContext::bind_device(int device) {
  if (t_binding.context_id == id_ && t_binding.device == device) return;
  check("aclrtSetDevice", api_->aclrtSetDevice(device));
  t_binding = {id_, device};
}

aclrtEvent AclContext::acquire_event(int device, bool timing) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto& list = free_events_[timing ? 1 : 0];
    if (!list.empty()) {
      aclrtEvent e = list.back();
      list.pop_back();
      return e;
    }
  }
  bind_device(device);
  const uint32_t flag = timing ? acl::kEventTimeLine : acl::kEventSync;
  aclrtEvent e = nullptr;
  if (api_->aclrtCreateEventExWithFlag) {
    check("aclrtCreateEventExWithFlag", api_->aclrtCreateEventExWithFlag(&e, flag));
  } else {
    check("aclrtCreateEventWithFlag", api_->aclrtCreateEventWithFlag(&e, flag));
  }
  return e;
}

void AclContext::release_event(aclrtEvent event, bool timing) {
  if (event == nullptr) return;
  if (api_->aclrtCreateEventExWithFlag) {
    std::lock_guard<std::mutex> lock(mu_);
    free_events_[timing ? 1 : 0].push_back(event);
    return;
  }
  api_->aclrtDestroyEvent(event);
}

int64_t AclContext::event_timestamp_ns(int device, aclrtEvent event) {
  Reference ref;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Reference& r : references_) {
      if (r.device == device) ref = r;
    }
  }
  if (ref.event == nullptr) {
    // Record on the device's default stream and wait: its completion time is
    // "now" on the host clock, to the resolution of one synchronize.
    bind_device(device);
    ref.device = device;
    ref.event = acquire_event(device, /*timing=*/true);
    check("aclrtRecordEvent (time reference)", api_->aclrtRecordEvent(ref.event, nullptr));
    check("aclrtSynchronizeEvent (time reference)", api_->aclrtSynchronizeEvent(ref.event));
    ref.host_ns = steady_now_ns();
    std::lock_guard<std::mutex> lock(mu_);
    references_.push_back(ref);  // a racing thread may add its own; the first one found wins
  }
  float ms = 0.0f;
  check("aclrtEventElapsedTime", api_->aclrtEventElapsedTime(&ms, ref.event, event));
  return ref.host_ns + static_cast<int64_t>(std::llround(static_cast<double>(ms) * 1e6));
}

}  // namespace npurt::ascend
