// runtime/ops/c_api_internal.h: what the C API's translation units share (internal).
//
// The handle structs behind the opaque C types and the guard that turns every
// C++ exception into a status plus the thread's last error message.
// Invariant: no exception leaves an extern "C" function; every entry point runs
// its body through guarded().
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "npurt/dispatch.h"
#include "npurt/graph.h"
#include "npurt/npurt.h"
#include "npurt/status.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

struct npurtStream_t {
  npurt::Stream stream;
  bool owned;  // created by npurtStreamCreate (vs the device's default stream)
};
struct npurtTensor_t {
  npurt::Tensor tensor;
};
struct npurtOpExecutor_t {
  std::unique_ptr<npurt::PreparedOp> prepared;
};
struct npurtGraph_t {
  npurt::Graph graph;
};

namespace npurt::c_api {

// Sets the calling thread's last error message (npurtGetLastErrorMessage).
void set_last_error(std::string message);

template <class F>
npurtStatus guarded(F&& f) noexcept {
  Status st = capture_status(std::forward<F>(f));
  if (st.is_ok()) return NPURT_SUCCESS;
  set_last_error(st.message());
  return static_cast<npurtStatus>(st.code());
}

inline void require(bool cond, const char* fn, const char* arg, const char* reason) {
  if (!cond) throw_invalid_argument(fn, arg, reason);
}

inline const Stream& stream_arg(npurtStream s, const char* fn) {
  require(s != nullptr, fn, "stream", "is NULL");
  return s->stream;
}

}  // namespace npurt::c_api
