// npurt/status.h: error codes, Status values and the C++ exception hierarchy.
//
// Invariants:
//  - Every failure carries a code and a message that names the op or function,
//    the argument and the reason ("npurt.empty: argument 'shape': dimension 1 is
//    negative (-3)"). Helpers below build messages in that form.
//  - The C++ API reports failures by throwing npurt::Error (or a subclass chosen
//    by code); stream work records a Status that the next synchronize/query of
//    that stream or event rethrows. The C API (npurt.h) turns both into codes.
//  - kUnsupportedDtype refines kInvalidArgument: "this op does not take this
//    dtype (or dtype combination)". Its exception UnsupportedDtype derives from
//    InvalidArgument, so `catch (const InvalidArgument&)` still catches it; use
//    is_invalid_argument(code) where a code (not an exception) is compared.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,   // bad shape, dtype, axis, value ...
  kOutOfMemory = 2,       // pool exhausted or limit reached
  kKernelFault = 3,       // a simulated-core check or device fault
  kNotFound = 4,          // unknown op, device, symbol, file
  kAlreadyExists = 5,     // duplicate registration
  kFailedPrecondition = 6,// illegal in the current state (e.g. while capturing)
  kUnimplemented = 7,     // valid request the backend or op cannot do
  kUnavailable = 8,       // backend not present (no CANN, no device)
  kInternal = 9,          // a bug in npurt
  kCaptureError = 10,     // stream-capture rule broken
  kCompileError = 11,     // building a user kernel failed
  kUnsupportedDtype = 12, // the op does not take this dtype or dtype combination
                          // (a kind of kInvalidArgument; Python raises a TypeError)
};

// True for kInvalidArgument and its refinement kUnsupportedDtype.
inline bool is_invalid_argument(StatusCode code) {
  return code == StatusCode::kInvalidArgument || code == StatusCode::kUnsupportedDtype;
}

const char* status_code_name(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string to_string() const;

  // Throws the exception type matching code() when not ok.
  void throw_if_error() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Base of every exception npurt throws. what() is the full message.
class Error : public std::runtime_error {
 public:
  Error(StatusCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  StatusCode code() const { return code_; }
  Status status() const { return Status(code_, what()); }

 private:
  StatusCode code_;
};

class InvalidArgument : public Error {
 public:
  explicit InvalidArgument(const std::string& m) : Error(StatusCode::kInvalidArgument, m) {}

 protected:
  InvalidArgument(StatusCode code, const std::string& m) : Error(code, m) {}  // for refinements
};
// A dtype refusal: an InvalidArgument whose code is kUnsupportedDtype.
class UnsupportedDtype : public InvalidArgument {
 public:
  explicit UnsupportedDtype(const std::string& m) : InvalidArgument(StatusCode::kUnsupportedDtype, m) {}
};
class OutOfMemoryError : public Error {
 public:
  explicit OutOfMemoryError(const std::string& m) : Error(StatusCode::kOutOfMemory, m) {}
};
class KernelFault : public Error {
 public:
  explicit KernelFault(const std::string& m) : Error(StatusCode::kKernelFault, m) {}
};
class NotFound : public Error {
 public:
  explicit NotFound(const std::string& m) : Error(StatusCode::kNotFound, m) {}
};
class Unavailable : public Error {
 public:
  explicit Unavailable(const std::string& m) : Error(StatusCode::kUnavailable, m) {}
};
class CaptureError : public Error {
 public:
  explicit CaptureError(const std::string& m) : Error(StatusCode::kCaptureError, m) {}
};

// Throws the subclass for `code` with `message`.
[[noreturn]] void throw_error(StatusCode code, const std::string& message);

// "where: argument 'arg': reason" -> InvalidArgument.
[[noreturn]] void throw_invalid_argument(const std::string& where, const std::string& arg,
                                         const std::string& reason);

// "where: argument 'arg': reason" -> UnsupportedDtype (the dtype, not its value
// or shape, is what the op refuses).
[[noreturn]] void throw_unsupported_dtype(const std::string& where, const std::string& arg,
                                          const std::string& reason);

// Rethrows `e` (an InvalidArgument or a refinement) with `message`, keeping its code.
[[noreturn]] void rethrow_invalid_argument(const InvalidArgument& e, const std::string& message);

// Runs f and converts any exception into a Status (for stream work and the C API).
template <class F>
Status capture_status(F&& f) noexcept {
  try {
    f();
    return Status();
  } catch (const Error& e) {
    return e.status();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "host allocation failed (std::bad_alloc)");
  } catch (const std::exception& e) {
    return Status(StatusCode::kInternal, e.what());
  } catch (...) {
    return Status(StatusCode::kInternal, "unknown exception");
  }
}

}  // namespace npurt
NPURT_PUBLIC_END
