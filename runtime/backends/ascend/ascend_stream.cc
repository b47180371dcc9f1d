// runtime/backends/ascend/ascend_stream.cc
#include "backends/ascend/ascend_stream.h"

#include <cstring>
#include <string>

#include "backends/ascend/ascend_event.h"

namespace npurt::ascend {

namespace {

struct HostTask {
  AscendStream* stream;
  std::function<void()> fn;
};

// Runs on AscendCL's callback thread, in stream order.
void run_host_task(void* p) {
  std::unique_ptr<HostTask> task(static_cast<HostTask*>(p));
  Status s = capture_status([&] { task->fn(); });
  if (!s.is_ok()) task->stream->record_error(Status(s.code(), "host function: " + s.message()));
}

int memcpy_kind(CopyKind k) {
  switch (k) {
    case CopyKind::kHostToHost: return acl::kMemcpyHostToHost;
    case CopyKind::kHostToDevice: return acl::kMemcpyHostToDevice;
    case CopyKind::kDeviceToHost: return acl::kMemcpyDeviceToHost;
    case CopyKind::kDeviceToDevice: return acl::kMemcpyDeviceToDevice;
  }
  return acl::kMemcpyDeviceToDevice;
}

bool is_complete(const AclApi& api, aclrtEvent e) {
  aclrtEventRecordedStatus status{};
  return api.aclrtQueryEventStatus(e, &status) == acl::kSuccess &&
         static_cast<int>(status) == acl::kEventRecordedStatusComplete;
}

}  // namespace

AscendStream::AscendStream(std::shared_ptr<AclContext> ctx, std::shared_ptr<KernelLauncher> launcher,
                           int device)
    : ctx_(std::move(ctx)), launcher_(std::move(launcher)), device_(device) {
  ctx_->bind_device(device_);
  ctx_->check("aclrtCreateStream", ctx_->api().aclrtCreateStream(&stream_));
}

AscendStream::~AscendStream() {
  capture_status([&] { ctx_->bind_device(device_); });
  ctx_->api().aclrtSynchronizeStream(stream_);  // host tasks reference this object
  {
    std::lock_guard<std::mutex> lock(mark_mu_);
    release_all_marks_locked();
  }
  ctx_->api().aclrtDestroyStream(stream_);
}

void AscendStream::record_error(Status s) {
  std::lock_guard<std::mutex> lock(error_mu_);
  if (!error_.is_ok()) return;
  std::string prefix = name_.empty() ? "stream on ascend:" + std::to_string(device_) : name_;
  error_ = Status(s.code(), prefix + ": " + s.message());
}

void AscendStream::set_name(const std::string& name) {
  std::lock_guard<std::mutex> lock(error_mu_);
  name_ = name;
}

Status AscendStream::take_error() {
  std::lock_guard<std::mutex> lock(error_mu_);
  Status s = std::move(error_);
  error_ = Status();
  return s;
}

void AscendStream::submit(Command&& cmd) {
  submits_.fetch_add(1);
  Status s = capture_status([&] {
    ctx_->bind_device(device_);
    enqueue(cmd);
  });
  if (cmd.keep_alive) {
    // Command contract (npurt/backend.h): keep_alive lives until the command ran,
    // e.g. the staging copy of a non-blocking H2D source, which a host function
    // on the stream reads later. Also on failure: part of the work may be queued.
    Status kept = capture_status([&] { retain_until_done(std::move(cmd.keep_alive)); });
    if (s.is_ok()) s = std::move(kept);
  }
  if (!s.is_ok()) record_error(Status(s.code(), cmd.describe() + ": " + s.message()));
}

void AscendStream::enqueue(Command& cmd) {
  const AclApi& api = ctx_->api();
  switch (cmd.kind) {
    case Command::Kind::kCopy:
      enqueue_copy(cmd);
      return;
    case Command::Kind::kMemset:
      if (cmd.bytes == 0) return;
      ctx_->check("aclrtMemsetAsync",
                  api.aclrtMemsetAsync(cmd.dst, cmd.bytes, cmd.memset_value, cmd.bytes, stream_));
      return;
    case Command::Kind::kLaunch:
      launcher_->launch(device_, stream_, cmd.launch);
      return;
    case Command::Kind::kHostFunc:
      enqueue_host_fn(std::move(cmd.host_fn));
      return;
    case Command::Kind::kEventRecord:
    case Command::Kind::kEventWait: {
      auto* ev = dynamic_cast<AscendEvent*>(cmd.event.get());
      if (ev == nullptr) throw_invalid_argument("ascend stream submit", "event", "is not an ascend event");
      std::shared_ptr<AclEventHandle> used = cmd.kind == Command::Kind::kEventRecord
                                                 ? ev->record(stream_)
                                                 : ev->enqueue_wait(stream_, cmd.event_generation);
      if (used) retain_until_done(std::move(used));
      return;
    }
  }
}

void AscendStream::enqueue_copy(Command& cmd) {
  const AclApi& api = ctx_->api();
  const size_t n = cmd.bytes;
  if (n == 0) return;
  void* dst = cmd.dst;
  const void* src = cmd.src;
  if (cmd.copy_kind == CopyKind::kDeviceToDevice) {
    ctx_->check("aclrtMemcpyAsync", api.aclrtMemcpyAsync(dst, n, src, n,
                                                         static_cast<aclrtMemcpyKind>(memcpy_kind(cmd.copy_kind)),
                                                         stream_));
    return;
  }
  if (!ctx_->has_host_func()) {
    // Documented fallback: in order, but the caller waits for the stream.
    ctx_->check("aclrtSynchronizeStream", api.aclrtSynchronizeStream(stream_));
    ctx_->check("aclrtMemcpy", api.aclrtMemcpy(dst, n, src, n,
                                               static_cast<aclrtMemcpyKind>(memcpy_kind(cmd.copy_kind))));
    return;
  }
  if (cmd.copy_kind == CopyKind::kHostToHost) {
    enqueue_host_fn([dst, src, n] { std::memcpy(dst, src, n); });
    return;
  }
  std::shared_ptr<void> staging = acquire_staging(n);
  void* pinned = staging.get();
  Status s = capture_status([&] {
    if (cmd.copy_kind == CopyKind::kHostToDevice) {
      enqueue_host_fn([pinned, src, n] { std::memcpy(pinned, src, n); });
      ctx_->check("aclrtMemcpyAsync", api.aclrtMemcpyAsync(dst, n, pinned, n,
                                                           static_cast<aclrtMemcpyKind>(acl::kMemcpyHostToDevice),
                                                           stream_));
    } else {
      ctx_->check("aclrtMemcpyAsync", api.aclrtMemcpyAsync(pinned, n, src, n,
                                                           static_cast<aclrtMemcpyKind>(acl::kMemcpyDeviceToHost),
                                                           stream_));
      enqueue_host_fn([dst, pinned, n] { std::memcpy(dst, pinned, n); });
    }
  });
  retain_until_done(std::move(staging));  // also on failure: queued work may use it
  s.throw_if_error();
}

void AscendStream::enqueue_host_fn(std::function<void()> fn) {
  if (!ctx_->has_host_func()) {
    ctx_->check("aclrtSynchronizeStream", ctx_->api().aclrtSynchronizeStream(stream_));
    fn();  // a thrown npurt::Error becomes the stream error via submit()
    return;
  }
  auto* task = new HostTask{this, std::move(fn)};
  int rc = ctx_->api().aclrtLaunchHostFunc(stream_, &run_host_task, task);
  if (rc != acl::kSuccess) {
    delete task;
    ctx_->check("aclrtLaunchHostFunc", rc);
  }
}

std::shared_ptr<void> AscendStream::acquire_staging(size_t bytes) {
  void* p = nullptr;
  int rc = ctx_->api().aclrtMallocHost(&p, bytes);
  if (rc != acl::kSuccess || p == nullptr) {
    Status s = ctx_->status("aclrtMallocHost(" + std::to_string(bytes) + " bytes, pinned staging)", rc);
    throw OutOfMemoryError(s.message());
  }
  std::shared_ptr<AclContext> ctx = ctx_;
  return std::shared_ptr<void>(p, [ctx](void* q) { ctx->api().aclrtFreeHost(q); });
}

void AscendStream::retain_until_done(std::shared_ptr<void> resource) {
  // Forced: work enqueued by the current submit must be covered. If recording
  // fails, record_mark synchronizes, so id is reached.
  const uint64_t id = record_mark(/*force=*/true);
  std::lock_guard<std::mutex> lock(mark_mu_);
  if (id <= reached_mark_) return;  // drops `resource` now: the work has run
  retained_.emplace_back(id, std::move(resource));
}

Status AscendStream::synchronize() {
  uint64_t upto = 0;
  {
    std::lock_guard<std::mutex> lock(mark_mu_);
    upto = next_mark_;  // marks recorded by other threads after this point are not covered
  }
  Status s = capture_status([&] {
    ctx_->bind_device(device_);
    ctx_->check("aclrtSynchronizeStream", ctx_->api().aclrtSynchronizeStream(stream_));
  });
  {
    std::lock_guard<std::mutex> lock(mark_mu_);
    if (s.is_ok()) release_marks_upto_locked(upto);
    advance_marks_locked();
  }
  if (!s.is_ok()) record_error(std::move(s));
  return take_error();
}

bool AscendStream::query(Status* error) {
  bool idle = false;
  Status s = capture_status([&] {
    ctx_->bind_device(device_);
    if (ctx_->api().aclrtStreamQuery) {
      aclrtStreamStatus status{};
      ctx_->check("aclrtStreamQuery", ctx_->api().aclrtStreamQuery(stream_, &status));
      idle = static_cast<int>(status) == acl::kStreamStatusComplete;
    } else {
      // Without aclrtStreamQuery: a mark covering the latest submit tells
      // (mark() reuses the last one when nothing was submitted since, so a
      // polling loop converges instead of chasing a fresh record).
      idle = reached(mark());
    }
    std::lock_guard<std::mutex> lock(mark_mu_);
    advance_marks_locked();
  });
  if (!s.is_ok()) record_error(std::move(s));
  if (error != nullptr) *error = take_error();
  return idle;
}

uint64_t AscendStream::mark() { return record_mark(/*force=*/false); }

uint64_t AscendStream::record_mark(bool force) {
  std::lock_guard<std::mutex> lock(mark_mu_);
  const uint64_t submits = submits_.load();  // read before recording: covers every earlier submit
  if (!force && next_mark_ > 0 && submits == submits_at_last_mark_) return next_mark_;
  submits_at_last_mark_ = submits;
  const uint64_t id = ++next_mark_;
  std::shared_ptr<AclEventHandle> e;
  Status s = capture_status([&] {
    ctx_->bind_device(device_);
    e = ctx_->make_event(device_, false);
    ctx_->check("aclrtRecordEvent (stream mark)", ctx_->api().aclrtRecordEvent(e->get(), stream_));
  });
  if (s.is_ok()) {
    marks_.emplace_back(id, std::move(e));
    return id;
  }
  // The pool must never wait forever on a mark that was not recorded: make it
  // reached by waiting for the stream, and report the failure on the stream.
  record_error(std::move(s));
  ctx_->api().aclrtSynchronizeStream(stream_);
  release_all_marks_locked();
  return id;
}

void AscendStream::release_all_marks_locked() const { release_marks_upto_locked(next_mark_); }

void AscendStream::release_marks_upto_locked(uint64_t upto) const {
  while (!marks_.empty() && marks_.front().first <= upto) marks_.pop_front();
  if (upto > reached_mark_) reached_mark_ = upto;
  while (!retained_.empty() && retained_.front().first <= reached_mark_) retained_.pop_front();
}

void AscendStream::advance_marks_locked() const {
  while (!marks_.empty() && is_complete(ctx_->api(), marks_.front().second->get())) {
    reached_mark_ = marks_.front().first;
    marks_.pop_front();
  }
  while (!retained_.empty() && retained_.front().first <= reached_mark_) retained_.pop_front();
}

bool AscendStream::reached(uint64_t mark) const {
  std::lock_guard<std::mutex> lock(mark_mu_);
  if (mark <= reached_mark_) return true;
  // The pool may ask from any thread; AscendCL needs the device bound there.
  if (!capture_status([&] { ctx_->bind_device(device_); }).is_ok()) return false;
  advance_marks_locked();
  return mark <= reached_mark_;
}

}  // namespace npurt::ascend
