// runtime/exec/copy.cc: host<->device copies and fills on a stream (npurt/copy.h).
//
// Non-blocking H2D: sources up to kStageBytes are copied into a host staging
// buffer owned by the command, so the call returns at once. Larger sources are
// not duplicated; the call returns once the copy ran (an event after it), like
// cudaMemcpyAsync from pageable memory. Blocking copies synchronize the stream
// and rethrow its error.
#include "npurt/copy.h"

#include <cstring>
#include <memory>

#include "exec/graph_capture.h"
#include "exec/stream_impl.h"
#include "npurt/status.h"

namespace npurt {

namespace {

constexpr size_t kStageBytes = size_t(1) << 20;

void check_device_tensor(const Tensor& t, const Stream& stream, const char* where, const char* arg) {
  if (!t.defined()) throw_invalid_argument(where, arg, "undefined tensor");
  if (!t.is_contiguous())
    throw_invalid_argument(where, arg, "tensor " + t.describe() + " is not contiguous (strided copies are kernels)");
  StreamImpl* s = checked_stream(stream, where);
  if (s->device() != t.device())
    throw_invalid_argument(where, "stream", "stream is on " + s->device().str() + " but tensor " + t.describe() +
                                                " is on " + t.device().str());
}

// A copy's destination: a read-only view (nr.broadcast_to's) is never written.
void check_writable(const Tensor& t, const char* where, const char* arg) {
  if (t.read_only())
    throw_invalid_argument(where, arg, "tensor " + t.describe() + " is a read-only view (its elements may alias)");
}

void check_bytes(size_t bytes, const Tensor& t, const void* host, const char* where, const char* host_arg) {
  if (bytes > t.nbytes())
    throw_invalid_argument(where, "bytes", std::to_string(bytes) + " bytes exceed tensor " + t.describe() + " (" +
                                               std::to_string(t.nbytes()) + " bytes)");
  if (bytes && !host) throw_invalid_argument(where, host_arg, "null host pointer");
}

}  // namespace

void copy_from_host(const Tensor& dst, const void* src, size_t bytes, const Stream& stream, bool blocking) {
  const char* where = "npurt.copy_from_host";
  check_device_tensor(dst, stream, where, "dst");
  check_writable(dst, where, "dst");
  check_bytes(bytes, dst, src, where, "src");
  if (bytes == 0) return;
  if (blocking || bytes > kStageBytes) capture_check_sync(where, stream.impl());  // it waits: illegal in capture
  Command c;
  c.kind = Command::Kind::kCopy;
  c.dst = dst.data();
  c.bytes = bytes;
  c.copy_kind = CopyKind::kHostToDevice;
  if (blocking || bytes > kStageBytes) {
    c.src = src;
    stream.impl()->submit(std::move(c));
    if (blocking) {
      stream.synchronize();
    } else {
      Event done(stream.device(), false);
      stream.record_event(done);
      // The error (if any) stays on the stream for its next synchronize.
      Status ignored = capture_status([&] { done.synchronize(); });
      (void)ignored;
    }
    return;
  }
  std::shared_ptr<char> staging(new char[bytes], std::default_delete<char[]>());
  std::memcpy(staging.get(), src, bytes);
  c.src = staging.get();
  c.keep_alive = std::move(staging);
  stream.impl()->submit(std::move(c));
}

void copy_to_host(void* dst, const Tensor& src, size_t bytes, const Stream& stream, bool blocking) {
  const char* where = "npurt.copy_to_host";
  check_device_tensor(src, stream, where, "src");
  check_bytes(bytes, src, dst, where, "dst");
  if (blocking) capture_check_sync(where, stream.impl());  // a host read waits: illegal in capture
  if (bytes == 0) {
    if (blocking) stream.synchronize();
    return;
  }
  stream.memcpy_async(dst, src.data(), bytes, CopyKind::kDeviceToHost);
  if (blocking) stream.synchronize();
}

void copy_device_to_device(const Tensor& dst, const Tensor& src, const Stream& stream) {
  const char* where = "npurt.copy_device_to_device";
  check_device_tensor(dst, stream, where, "dst");
  check_writable(dst, where, "dst");
  check_device_tensor(src, stream, where, "src");
  if (dst.nbytes() != src.nbytes())
    throw_invalid_argument(where, "src", "size " + std::to_string(src.nbytes()) + " bytes differs from dst " +
                                             std::to_string(dst.nbytes()) + " bytes");
  if (dst.nbytes()) stream.memcpy_async(dst.data(), src.data(), dst.nbytes(), CopyKind::kDeviceToDevice);
}

void fill_bytes(const Tensor& dst, int value, const Stream& stream) {
  check_device_tensor(dst, stream, "npurt.fill_bytes", "dst");
  check_writable(dst, "npurt.fill_bytes", "dst");
  if (dst.nbytes()) stream.memset_async(dst.data(), value, dst.nbytes());
}

}  // namespace npurt
