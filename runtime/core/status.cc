// runtime/core/status.cc: status codes, messages and the code -> exception map.
#include "npurt/status.h"

namespace npurt {

const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kOutOfMemory: return "OUT_OF_MEMORY";
    case StatusCode::kKernelFault: return "KERNEL_FAULT";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kAlreadyExists: return "ALREADY_EXISTS";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kCaptureError: return "CAPTURE_ERROR";
    case StatusCode::kCompileError: return "COMPILE_ERROR";
    case StatusCode::kUnsupportedDtype: return "UNSUPPORTED_DTYPE";
  }
  return "UNKNOWN";
}

std::string Status::to_string() const {
  if (is_ok()) return "OK";
  return std::string(status_code_name(code_)) + ": " + message_;
}

void Status::throw_if_error() const {
  if (!is_ok()) throw_error(code_, message_);
}

void throw_error(StatusCode code, const std::string& message) {
  switch (code) {
    case StatusCode::kInvalidArgument: throw InvalidArgument(message);
    case StatusCode::kOutOfMemory: throw OutOfMemoryError(message);
    case StatusCode::kKernelFault: throw KernelFault(message);
    case StatusCode::kNotFound: throw NotFound(message);
    case StatusCode::kUnavailable: throw Unavailable(message);
    case StatusCode::kCaptureError: throw CaptureError(message);
    case StatusCode::kUnsupportedDtype: throw UnsupportedDtype(message);
    case StatusCode::kOk:  // throwing "OK" is a bug in the caller
      throw Error(StatusCode::kInternal, "throw_error called with OK status: " + message);
    default: throw Error(code, message);
  }
}

void throw_invalid_argument(const std::string& where, const std::string& arg,
                            const std::string& reason) {
  throw InvalidArgument(where + ": argument '" + arg + "': " + reason);
}

void throw_unsupported_dtype(const std::string& where, const std::string& arg, const std::string& reason) {
  throw UnsupportedDtype(where + ": argument '" + arg + "': " + reason);
}

void rethrow_invalid_argument(const InvalidArgument& e, const std::string& message) {
  if (e.code() == StatusCode::kUnsupportedDtype) throw UnsupportedDtype(message);
  throw InvalidArgument(message);
}

}  // namespace npurt
