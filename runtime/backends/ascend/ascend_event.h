// runtime/backends/ascend/ascend_event.h: BackendEvent on AscendCL events.
//
// npurt events count records by generation; AscendCL events only know their
// latest record. So every record takes its own AscendCL event (from the
// context's pool) and the generation -> event map keeps each one until that
// record is seen complete; a wait for an older generation therefore waits for
// exactly that record, as the Command contract requires.
//
// Invariants:
//   - recorded_generation() grows by one per record(); generation 0 is complete.
//   - A generation absent from pending_ and <= recorded_ is complete.
//   - AscendCL events are shared (AclEventHandle): the streams that recorded or
//     wait on one keep it alive until they have passed that point, so dropping
//     it here (completion, destruction) never destroys an event in use.
//   - For timing events the handle of the latest completed record is kept so
//     timestamp_ns() can measure it.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "backends/ascend/acl_context.h"
#include "npurt/backend.h"

namespace npurt::ascend {

class AscendEvent final : public BackendEvent {
 public:
  AscendEvent(std::shared_ptr<AclContext> ctx, int device, bool timing);

  // Called by the stream on kEventRecord: enqueues a record on `stream`; returns
  // the AscendCL event, which the stream retains until the record has run.
  std::shared_ptr<AclEventHandle> record(aclrtStream stream);
  // Called by the stream on kEventWait: makes `stream` wait for record
  // `generation`; returns the event to retain (nullptr: nothing to wait for).
  std::shared_ptr<AclEventHandle> enqueue_wait(aclrtStream stream, uint64_t generation);

  uint64_t recorded_generation() const override;
  bool completed(uint64_t generation) const override;
  Status wait(uint64_t generation) override;
  int64_t timestamp_ns() const override;

 private:
  void retire_locked(uint64_t generation) const;

  std::shared_ptr<AclContext> ctx_;
  const int device_;
  const bool timing_;
  mutable std::mutex mu_;
  uint64_t recorded_ = 0;
  mutable std::map<uint64_t, std::shared_ptr<AclEventHandle>> pending_;
  mutable uint64_t latest_completed_ = 0;
  mutable std::shared_ptr<AclEventHandle> latest_completed_event_;  // timing events only
};

}  // namespace npurt::ascend
