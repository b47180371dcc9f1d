// runtime/exec/stream_impl.h: the object behind a Stream handle (internal).
//
// A StreamImpl owns one BackendStream and is the single enqueue path: every
// Stream method that adds work calls submit(). While a CaptureSink is attached
// (graph capture, exec/graph), submit() hands Commands to it instead of the
// backend.
//
// Invariants:
//   - id() is unique in the process and never reused.
//   - mark()/reached() expose the backend timeline to the memory pool.
//   - Destruction drains the backend stream, then tells every memory pool to
//     forget this stream (so no pool keeps a dangling pointer), then releases it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "npurt/export.h"
#include "npurt/backend.h"
#include "npurt/device.h"
#include "npurt/status.h"

namespace npurt {

class Stream;
class StreamImpl;

// Receives the Commands of a capturing stream (implemented by exec/graph).
class CaptureSink {
 public:
  virtual ~CaptureSink() = default;
  virtual void record(StreamImpl& stream, Command&& cmd) = 0;
};

class NPURT_HIDDEN StreamImpl {
 public:
  StreamImpl(Device device, std::unique_ptr<BackendStream> backend, bool is_default);
  ~StreamImpl();
  StreamImpl(const StreamImpl&) = delete;
  StreamImpl& operator=(const StreamImpl&) = delete;

  Device device() const { return device_; }
  uint64_t id() const { return id_; }
  bool is_default() const { return is_default_; }
  BackendStream& backend() const { return *backend_; }

  // The single enqueue path (capture hook or backend).
  void submit(Command&& cmd);

  uint64_t mark() { return backend_->mark(); }
  bool reached(uint64_t m) const { return backend_->reached(m); }

  // Graph capture hook; nullptr detaches. The sink must outlive the attachment.
  void set_capture(CaptureSink* sink) { capture_.store(sink, std::memory_order_release); }
  CaptureSink* capture() const { return capture_.load(std::memory_order_acquire); }

  // Marks the stream closed (later submits are refused by check_open), then
  // drains the work already enqueued and returns its status: arrays of a closed
  // stream are read through other streams, so its pending work (an upload) must
  // have landed by then.
  Status close();
  bool closed() const { return closed_.load(std::memory_order_acquire); }
  // Throws InvalidArgument "<where>: argument 'stream': stream <id> is closed".
  void check_open(const char* where) const;

 private:
  Device device_;
  std::unique_ptr<BackendStream> backend_;
  uint64_t id_;
  bool is_default_;
  std::atomic<CaptureSink*> capture_{nullptr};
  std::atomic<bool> closed_{false};
};

// Checks that a Stream handle is valid and open for `where`; returns its impl.
StreamImpl* checked_stream(const Stream& s, const char* where);

// Stream::launch for a Command whose KernelLaunch the caller filled in place
// (c.launch; the kind is set here): the dispatcher builds its launch inside the
// Command, which saves a move of the inline args and tiling bytes per launch.
// Same checks and errors as Stream::launch.
void submit_launch(const Stream& stream, Command&& c);

}  // namespace npurt
