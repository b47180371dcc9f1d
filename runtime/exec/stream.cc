// runtime/exec/stream.cc: Stream, StreamGuard, StreamImpl, the per-thread
// current stream, and synchronize_device.
#include "npurt/stream.h"

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

#include "core/runtime_internal.h"
#include "exec/deferred_flush.h"
#include "exec/graph_capture.h"
#include "exec/profiler.h"
#include "exec/stream_impl.h"
#include "npurt/status.h"

namespace npurt {

void forget_stream_in_all_pools(StreamImpl* s);  // memory/memory_pool.cc

namespace {

std::atomic<uint64_t> g_next_stream_id{1};

// This thread's current stream per device (few devices: a flat vector).
thread_local std::vector<std::pair<Device, Stream>> t_current_streams;

}  // namespace

// ---- StreamImpl -------------------------------------------------------------

StreamImpl::StreamImpl(Device device, std::unique_ptr<BackendStream> backend, bool is_default)
    : device_(device),
      backend_(std::move(backend)),
      id_(g_next_stream_id.fetch_add(1, std::memory_order_relaxed)),
      is_default_(is_default) {
  backend_->set_name("stream " + std::to_string(id_) + " on " + device_.str());
}

StreamImpl::~StreamImpl() {
  backend_->synchronize();  // drain; errors nobody can observe any more are dropped
  forget_stream_in_all_pools(this);
  backend_.reset();
}

void StreamImpl::submit(Command&& cmd) {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  if (CaptureSink* sink = capture()) {
    sink->record(*this, std::move(cmd));
    return;
  }
  if (profiler::enabled()) cmd.profile_id = profiler::on_submit(cmd, id_, device_);
  backend_->submit(std::move(cmd));
}

Status StreamImpl::close() {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  closed_.store(true, std::memory_order_release);
  return backend_->synchronize();
}

void StreamImpl::check_open(const char* where) const {
  if (closed())
    throw_invalid_argument(where, "stream", "stream " + std::to_string(id_) + " on " + device_.str() + " is closed");
}

StreamImpl* checked_stream(const Stream& s, const char* where) {
  StreamImpl* impl = s.impl();
  if (!impl) throw_invalid_argument(where, "stream", "null stream handle");
  impl->check_open(where);
  return impl;
}

std::shared_ptr<StreamImpl> create_stream_impl(DeviceContextImpl& ctx, bool is_default) {
  auto impl = std::make_shared<StreamImpl>(ctx.device(), ctx.backend().create_stream(ctx.backend_index()), is_default);
  ctx.add_stream(impl);
  return impl;
}

// ---- Stream -----------------------------------------------------------------

Stream Stream::create(Device device) { return Stream(create_stream_impl(device_context_impl(device), false)); }

Stream Stream::default_stream(Device device) { return device_context_impl(device).default_stream(); }

Stream Stream::current(Device device) {
  for (auto& e : t_current_streams)
    if (e.first == device) return e.second;
  return default_stream(device);
}

Stream Stream::current() { return current(current_device()); }

void Stream::set_current(const Stream& s) {
  StreamImpl* impl = checked_stream(s, "npurt.Stream.set_current");
  for (auto& e : t_current_streams)
    if (e.first == impl->device()) {
      e.second = s;
      return;
    }
  t_current_streams.emplace_back(impl->device(), s);
}

Device Stream::device() const { return impl_ ? impl_->device() : Device(); }
uint64_t Stream::id() const { return impl_ ? impl_->id() : 0; }
bool Stream::is_default() const { return impl_ && impl_->is_default(); }

void Stream::synchronize() const {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  StreamImpl* s = checked_stream(*this, "npurt.Stream.synchronize");
  capture_check_sync("npurt.Stream.synchronize", s);
  s->backend().synchronize().throw_if_error();
}

bool Stream::query() const {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  StreamImpl* s = checked_stream(*this, "npurt.Stream.query");
  capture_check_sync("npurt.Stream.query", s);
  Status err;
  bool idle = s->backend().query(&err);
  err.throw_if_error();
  return idle;
}

void Stream::memcpy_async(void* dst, const void* src, size_t bytes, CopyKind kind) const {
  StreamImpl* s = checked_stream(*this, "npurt.Stream.memcpy_async");
  if (bytes == 0) return;
  if (!dst || !src) throw_invalid_argument("npurt.Stream.memcpy_async", dst ? "src" : "dst", "null pointer");
  Command c;
  c.kind = Command::Kind::kCopy;
  c.dst = dst;
  c.src = src;
  c.bytes = bytes;
  c.copy_kind = kind;
  s->submit(std::move(c));
}

void Stream::memset_async(void* dst, int value, size_t bytes) const {
  StreamImpl* s = checked_stream(*this, "npurt.Stream.memset_async");
  if (bytes == 0) return;
  if (!dst) throw_invalid_argument("npurt.Stream.memset_async", "dst", "null pointer");
  Command c;
  c.kind = Command::Kind::kMemset;
  c.dst = dst;
  c.bytes = bytes;
  c.memset_value = value;
  s->submit(std::move(c));
}

// The checks of Stream::launch; they run before anything is taken from the caller.
static StreamImpl* launch_target(const Stream& stream, uint32_t num_blocks) {
  const char* where = "npurt.Stream.launch";
  StreamImpl* s = checked_stream(stream, where);
  if (num_blocks < 1 || num_blocks > 65535)
    throw_invalid_argument(where, "num_blocks", std::to_string(num_blocks) + " is outside [1, 65535]");
  return s;
}

void submit_launch(const Stream& stream, Command&& c) {
  StreamImpl* s = launch_target(stream, c.launch.num_blocks);
  c.kind = Command::Kind::kLaunch;
  s->submit(std::move(c));
}

void Stream::launch(KernelLaunch&& launch) const {
  StreamImpl* s = launch_target(*this, launch.num_blocks);
  Command c;
  c.kind = Command::Kind::kLaunch;
  c.launch = std::move(launch);  // inline args/tiling: a copy of their bytes, no allocation
  s->submit(std::move(c));
}

void Stream::launch(const KernelLaunch& l) const { launch(KernelLaunch(l)); }

void Stream::host_func(std::function<void()> fn) const {
  StreamImpl* s = checked_stream(*this, "npurt.Stream.host_func");
  if (!fn) throw_invalid_argument("npurt.Stream.host_func", "fn", "empty function");
  Command c;
  c.kind = Command::Kind::kHostFunc;
  c.host_fn = std::move(fn);
  s->submit(std::move(c));
}

void Stream::close() {
  if (impl_) impl_->close().throw_if_error();
}

bool Stream::closed() const { return impl_ && impl_->closed(); }

// ---- StreamGuard --------------------------------------------------------------

StreamGuard::StreamGuard(const Stream& s) : previous_(Stream::current(checked_stream(s, "npurt.StreamGuard")->device())) {
  Stream::set_current(s);
}

StreamGuard::~StreamGuard() {
  Device d = previous_.device();
  for (auto& e : t_current_streams)
    if (e.first == d) {
      e.second = previous_;
      return;
    }
}

// ---- synchronize_device -------------------------------------------------------

void synchronize_device(Device device) {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  capture_check_device_sync("npurt.synchronize_device", device);
  Status first;
  for (const Stream& s : device_context_impl(device).streams()) {
    // closed streams are drained too (work submitted while close() ran must
    // not be skipped); their errors were reported by close() or are nobody's.
    Status st = s.impl()->backend().synchronize();
    if (s.closed()) continue;
    if (first.is_ok() && !st.is_ok()) first = st;
  }
  first.throw_if_error();
}

}  // namespace npurt
