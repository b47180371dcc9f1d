// runtime/exec/graph_capture.h: capture-rule checks the rest of the runtime calls.
//
// Stream, Event and copy code call these before doing anything that is illegal
// while a capture is active, so the illegal call throws CaptureError before it
// records or executes anything. Every check is one relaxed atomic load when no
// capture is active anywhere in the process.
//
// Error codes in messages follow CANN (ascend-facts.md §4.6): 107027 stream
// captured, 107041 sync op while capturing, 107024 capture dependency.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace npurt {

class Stream;
class StreamImpl;
class BackendEvent;
struct Device;

namespace capture_detail {
extern std::atomic<int> g_active_captures;
void check_sync_slow(const char* where, const StreamImpl* stream);
void check_event_sync_slow(const char* where, const BackendEvent* event);
void check_device_sync_slow(const char* where, const Device& device);
bool on_wait_event_slow(const Stream& stream, const std::shared_ptr<BackendEvent>& event);
}  // namespace capture_detail

inline bool any_capture_active() {
  return capture_detail::g_active_captures.load(std::memory_order_relaxed) != 0;
}

// Synchronizing/querying `stream` (nullptr: no particular stream, e.g. a blocking
// copy's implicit wait) from this thread: throws CaptureError when `stream` is
// capturing or this thread is prohibited from unsafe calls by the capture modes.
inline void capture_check_sync(const char* where, const StreamImpl* stream) {
  if (any_capture_active()) capture_detail::check_sync_slow(where, stream);
}

// Event::synchronize/query: throws when the event's latest record is inside an
// active capture, or the thread is prohibited from unsafe calls.
inline void capture_check_event_sync(const char* where, const BackendEvent* event) {
  if (any_capture_active()) capture_detail::check_event_sync_slow(where, event);
}

// synchronize_device: throws when a capture is active on the device.
inline void capture_check_device_sync(const char* where, const Device& device) {
  if (any_capture_active()) capture_detail::check_device_sync_slow(where, device);
}

// Memory pool hook (through profiler::on_memory): an allocation of `bytes` at
// `ptr` on stream `stream_id`. While a capture runs, graph-pool allocations are
// remembered with the capture's node clock, so that a binding of a tensor
// allocated inside the capture patches only nodes recorded after its allocation
// (not a temporary freed earlier at the same address). Called under the pool's
// lock: takes only a leaf mutex.
void capture_note_allocation(const void* ptr, uint64_t bytes, uint64_t stream_id, const char* pool);

// Stream::wait_event: returns true when capture handled the wait (the stream is
// capturing, or the event was recorded inside a capture and `stream` joins it).
inline bool capture_on_wait_event(const Stream& stream, const std::shared_ptr<BackendEvent>& event) {
  return any_capture_active() && capture_detail::on_wait_event_slow(stream, event);
}

}  // namespace npurt
