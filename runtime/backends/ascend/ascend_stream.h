// runtime/backends/ascend/ascend_stream.h: BackendStream on an AscendCL stream.
//
// submit() turns each Command into AscendCL stream work and returns without
// waiting: copies (aclrtMemcpyAsync), memset (aclrtMemsetAsync), launches
// (KernelLauncher), event record/wait, and host functions (aclrtLaunchHostFunc).
//
// Host memory in copies is pageable (npurt does not know otherwise), and
// aclrtMemcpyAsync is truly asynchronous only for pinned memory. So:
//   H2D: host function copies src -> pinned staging at its turn on the stream,
//        then an async copy staging -> device;
//   D2H: async copy device -> pinned staging, then a host function copies
//        staging -> dst at its turn.
// Staging buffers (aclrtMallocHost) and the AscendCL events of records/waits
// are retained by the stream until a mark recorded after their last use is
// reached (AscendCL forbids freeing either while queued work uses it). Without aclrtLaunchHostFunc (CANN older than the
// ACL 1.17 headers) host functions and pageable copies fall back to
// synchronizing the stream and running on the caller's thread: still in
// order, but blocking (reported by Backend info and docs/backends.md).
//
// Invariants:
//   - Errors raised while enqueuing or while running a host function become
//     the stream error (the first wins); synchronize()/query() return and clear it.
//   - mark()/reached(): a mark records a pooled AscendCL event (or reuses the
//     latest one when nothing was submitted since); reached(m) pops completed
//     marks in order, so it is monotonic.
//   - The destructor synchronizes (host functions still reference this object).
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/ascend/acl_context.h"
#include "backends/ascend/kernel_launcher.h"
#include "npurt/backend.h"

namespace npurt::ascend {

class AscendStream final : public BackendStream {
 public:
  AscendStream(std::shared_ptr<AclContext> ctx, std::shared_ptr<KernelLauncher> launcher, int device);
  ~AscendStream() override;

  void submit(Command&& cmd) override;
  Status synchronize() override;
  bool query(Status* error) override;
  uint64_t mark() override;
  bool reached(uint64_t mark) const override;
  void set_name(const std::string& name) override;  // prefix of recorded errors

  aclrtStream handle() const { return stream_; }
  void record_error(Status s);  // first error wins; prefixed with the stream name

 private:
  void enqueue(Command& cmd);
  void enqueue_copy(Command& cmd);
  void enqueue_host_fn(std::function<void()> fn);
  std::shared_ptr<void> acquire_staging(size_t bytes);
  // Keeps `resource` alive until everything submitted so far has run.
  void retain_until_done(std::shared_ptr<void> resource);
  // Records a mark event; without `force`, reuses the latest mark when nothing
  // was submitted since (an idle stream's mark is then reached at once).
  uint64_t record_mark(bool force);
  void advance_marks_locked() const;
  void release_all_marks_locked() const;
  void release_marks_upto_locked(uint64_t upto) const;  // everything up to `upto` has run
  Status take_error();

  std::shared_ptr<AclContext> ctx_;
  std::shared_ptr<KernelLauncher> launcher_;
  const int device_;
  aclrtStream stream_ = nullptr;

  std::mutex error_mu_;
  Status error_;
  std::string name_;  // guarded by error_mu_

  std::atomic<uint64_t> submits_{0};  // submit() calls so far

  mutable std::mutex mark_mu_;
  uint64_t next_mark_ = 0;
  uint64_t submits_at_last_mark_ = 0;
  mutable uint64_t reached_mark_ = 0;
  mutable std::deque<std::pair<uint64_t, std::shared_ptr<AclEventHandle>>> marks_;
  // Released once reached_mark_ >= the mark id they were retained with.
  mutable std::deque<std::pair<uint64_t, std::shared_ptr<void>>> retained_;
};

}  // namespace npurt::ascend
