// runtime/backends/ascend/acl_context.h: state shared by the ascend backend, its streams and events.
//
// AclContext owns the loaded function table and everything process-wide that
// AscendCL requires: the per-thread device binding (AscendCL keeps the current
// device per thread, so every entry point that touches a device first calls
// bind_device), the pool of reusable AscendCL events, and the host-clock
// reference that turns device event times into steady-clock nanoseconds.
//
// Invariants:
//   - Streams and events hold a shared_ptr to the context, so the table and the
//     library outlive every handle created through them; aclFinalize runs when
//     the last holder goes away.
//   - bind_device(d) calls aclrtSetDevice(d) at most once per thread and device
//     switch for this context (cached in a thread_local keyed by context id).
//   - Events handed out by acquire_event are reused only when the library has
//     aclrtCreateEventExWithFlag ("reused naturally"); otherwise they are destroyed.
//   - The context is always owned by a shared_ptr (make_event uses shared_from_this).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/ascend/acl_api.h"
#include "backends/ascend/acl_status.h"

namespace npurt::ascend {

class AclContext;

// Shared ownership of one AscendCL event: AscendCL forbids destroying (or
// re-recording) an event while a stream still has a record or a wait on it
// pending, so the AscendEvent that recorded it and every stream that enqueued
// work on it hold a reference; the last one returns it to the pool.
class AclEventHandle {
 public:
  AclEventHandle(std::shared_ptr<AclContext> ctx, aclrtEvent event, bool timing)
      : ctx_(std::move(ctx)), event_(event), timing_(timing) {}
  ~AclEventHandle();
  AclEventHandle(const AclEventHandle&) = delete;
  AclEventHandle& operator=(const AclEventHandle&) = delete;
  aclrtEvent get() const { return event_; }

 private:
  std::shared_ptr<AclContext> ctx_;
  aclrtEvent event_;
  bool timing_;
};

class AclContext : public std::enable_shared_from_this<AclContext> {
 public:
  // finalize_on_destroy: false when aclInit reported ACL_ERROR_REPEAT_INITIALIZE,
  // i.e. someone else in the process (e.g. torch_npu) owns AscendCL's lifetime.
  AclContext(std::unique_ptr<AclApi> api, bool finalize_on_destroy);
  ~AclContext();
  AclContext(const AclContext&) = delete;
  AclContext& operator=(const AclContext&) = delete;

  const AclApi& api() const { return *api_; }
  bool has_host_func() const { return api_->aclrtLaunchHostFunc != nullptr; }

  // Makes `device` current on the calling thread (throws the mapped ACL error).
  void bind_device(int device);

  // An AscendCL event for one record (timing: ACL_EVENT_TIME_LINE, else ACL_EVENT_SYNC).
  aclrtEvent acquire_event(int device, bool timing);
  void release_event(aclrtEvent event, bool timing);
  std::shared_ptr<AclEventHandle> make_event(int device, bool timing) {
    return std::make_shared<AclEventHandle>(shared_from_this(), acquire_event(device, timing), timing);
  }

  // Steady-clock ns at which `event` (completed, timing) completed on `device`,
  // from aclrtEventElapsedTime against a per-device reference event.
  int64_t event_timestamp_ns(int device, aclrtEvent event);

  // Throws the npurt error for a failed call (fetches aclGetRecentErrMsg).
  void check(const char* where, int acl_code) const { check_acl(*api_, where, acl_code); }
  Status status(const std::string& where, int acl_code) const {
    return acl_error_status(*api_, where, acl_code);
  }

 private:
  struct Reference {
    int device = -1;
    aclrtEvent event = nullptr;
    int64_t host_ns = 0;
  };
  std::unique_ptr<AclApi> api_;
  const uint64_t id_;
  const bool finalize_on_destroy_;
  std::mutex mu_;
  std::vector<aclrtEvent> free_events_[2];  // [timing]
  std::vector<Reference> references_;
};

}  // namespace npurt::ascend
