// runtime/backends/ascend/ascend_event.cc
#include "backends/ascend/ascend_event.h"

#include <vector>

namespace npurt::ascend {

namespace {

constexpr size_t kPruneThreshold = 16;

bool is_complete(const AclApi& api, aclrtEvent e) {
  aclrtEventRecordedStatus status{};
  return api.aclrtQueryEventStatus(e, &status) == acl::kSuccess &&
         static_cast<int>(status) == acl::kEventRecordedStatusComplete;
}

}  // namespace

AscendEvent::AscendEvent(std::shared_ptr<AclContext> ctx, int device, bool timing)
    : ctx_(std::move(ctx)), device_(device), timing_(timing) {}

std::shared_ptr<AclEventHandle> AscendEvent::record(aclrtStream stream) {
  std::shared_ptr<AclEventHandle> e = ctx_->make_event(device_, timing_);
  ctx_->check("aclrtRecordEvent", ctx_->api().aclrtRecordEvent(e->get(), stream));
  std::lock_guard<std::mutex> lock(mu_);
  pending_[++recorded_] = e;
  if (pending_.size() > kPruneThreshold) {
    // Records nobody asked about: drop the finished ones so the map stays small.
    std::vector<uint64_t> done;
    for (auto& [gen, h] : pending_) {
      if (gen != recorded_ && is_complete(ctx_->api(), h->get())) done.push_back(gen);
    }
    for (uint64_t gen : done) retire_locked(gen);
  }
  return e;
}

std::shared_ptr<AclEventHandle> AscendEvent::enqueue_wait(aclrtStream stream, uint64_t generation) {
  std::shared_ptr<AclEventHandle> e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (generation > recorded_) {
      throw_invalid_argument("ascend event wait", "generation",
                             std::to_string(generation) + " was never recorded (latest " +
                                 std::to_string(recorded_) + ")");
    }
    auto it = pending_.find(generation);
    if (it == pending_.end()) return nullptr;  // generation 0 or already complete
    e = it->second;
  }
  ctx_->check("aclrtStreamWaitEvent", ctx_->api().aclrtStreamWaitEvent(stream, e->get()));
  return e;
}

uint64_t AscendEvent::recorded_generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return recorded_;
}

void AscendEvent::retire_locked(uint64_t generation) const {
  auto it = pending_.find(generation);
  if (it == pending_.end()) return;
  if (timing_ && generation > latest_completed_) latest_completed_event_ = it->second;
  if (generation > latest_completed_) latest_completed_ = generation;
  pending_.erase(it);
}

bool AscendEvent::completed(uint64_t generation) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (generation > recorded_) return false;
  auto it = pending_.find(generation);
  if (it == pending_.end()) return true;
  if (!capture_status([&] { ctx_->bind_device(device_); }).is_ok()) return false;
  if (!is_complete(ctx_->api(), it->second->get())) return false;  // errors surface via wait()
  retire_locked(generation);
  return true;
}

Status AscendEvent::wait(uint64_t generation) {
  std::shared_ptr<AclEventHandle> e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (generation > recorded_) {
      return Status(StatusCode::kInvalidArgument,
                    "ascend event wait: argument 'generation': " + std::to_string(generation) +
                        " was never recorded (latest " + std::to_string(recorded_) + ")");
    }
    auto it = pending_.find(generation);
    if (it == pending_.end()) return Status();
    e = it->second;  // our reference keeps it alive while we block without mu_
  }
  Status bound = capture_status([&] { ctx_->bind_device(device_); });
  if (!bound.is_ok()) return bound;
  int rc = ctx_->api().aclrtSynchronizeEvent(e->get());
  if (rc != acl::kSuccess) return ctx_->status("aclrtSynchronizeEvent", rc);
  std::lock_guard<std::mutex> lock(mu_);
  retire_locked(generation);
  return Status();
}

int64_t AscendEvent::timestamp_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!timing_) {
    throw_error(StatusCode::kFailedPrecondition,
                "ascend event timestamp: event was created without timing");
  }
  ctx_->bind_device(device_);
  // Refresh: the latest record may have completed without anyone asking.
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    if (is_complete(ctx_->api(), it->second->get())) {
      retire_locked(it->first);
      break;
    }
  }
  if (!latest_completed_event_) {
    throw_error(StatusCode::kFailedPrecondition,
                "ascend event timestamp: no record of this event has completed");
  }
  return ctx_->event_timestamp_ns(device_, latest_completed_event_->get());
}

}  // namespace npurt::ascend
