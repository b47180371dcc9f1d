// runtime/backends/ascend/acl_status.cc: the AscendCL error-code table.
#include "backends/ascend/acl_status.h"

#include <cstddef>

#include "backends/ascend/acl_api.h"

namespace npurt::ascend {

namespace {

struct AclCodeRow {
  int code;
  const char* name;
  StatusCode status;
};

// Codes from acl_base_rt.h and error_codes/rt_error_codes.h (ACL 1.17.0).
constexpr AclCodeRow kAclCodes[] = {
    {0, "ACL_SUCCESS", StatusCode::kOk},
    {100000, "ACL_ERROR_INVALID_PARAM", StatusCode::kInvalidArgument},
    {100001, "ACL_ERROR_UNINITIALIZE", StatusCode::kFailedPrecondition},
    {100002, "ACL_ERROR_REPEAT_INITIALIZE", StatusCode::kFailedPrecondition},
    {100003, "ACL_ERROR_INVALID_FILE", StatusCode::kInvalidArgument},
    {100029, "ACL_ERROR_KERNEL_NOT_FOUND", StatusCode::kNotFound},
    {100037, "ACL_ERROR_REPEAT_FINALIZE", StatusCode::kFailedPrecondition},
    {200000, "ACL_ERROR_BAD_ALLOC", StatusCode::kOutOfMemory},
    {200006, "ACL_ERROR_FEATURE_UNSUPPORTED", StatusCode::kUnimplemented},
    {107000, "ACL_ERROR_RT_PARAM_INVALID", StatusCode::kInvalidArgument},
    {107001, "ACL_ERROR_RT_INVALID_DEVICEID", StatusCode::kInvalidArgument},
    {107002, "ACL_ERROR_RT_CONTEXT_NULL", StatusCode::kFailedPrecondition},
    {107003, "ACL_ERROR_RT_STREAM_CONTEXT", StatusCode::kInvalidArgument},
    {107008, "ACL_ERROR_RT_MEMORY_ADDRESS_UNALIGNED", StatusCode::kInvalidArgument},
    {107009, "ACL_ERROR_RT_FILE_OPEN", StatusCode::kNotFound},
    {107017, "ACL_ERROR_RT_INVALID_HANDLE", StatusCode::kInvalidArgument},
    {107019, "ACL_ERROR_RT_WAIT_TIMEOUT", StatusCode::kKernelFault},
    {107020, "ACL_ERROR_RT_TASK_TIMEOUT", StatusCode::kKernelFault},
    {107022, "ACL_ERROR_RT_DEVICE_TASK_ABORT", StatusCode::kFailedPrecondition},
    {107023, "ACL_ERROR_RT_STREAM_ABORT", StatusCode::kFailedPrecondition},
    {107024, "ACL_ERROR_RT_STREAM_CAPTURE_DEPENDENCY", StatusCode::kCaptureError},
    {107025, "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED_MODEL", StatusCode::kCaptureError},
    {107027, "ACL_ERROR_RT_STREAM_CAPTURED", StatusCode::kCaptureError},
    {107029, "ACL_ERROR_RT_STREAM_NOT_CAPTURED", StatusCode::kCaptureError},
    {107030, "ACL_ERROR_RT_STREAM_CAPTURE_UNSUPPORTED", StatusCode::kCaptureError},
    {107031, "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT", StatusCode::kCaptureError},
    {107036, "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED", StatusCode::kCaptureError},
    {107038, "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD", StatusCode::kCaptureError},
    {107041, "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC", StatusCode::kCaptureError},
    {107042, "ACL_ERROR_RT_SYMBOL_NOT_FOUND", StatusCode::kNotFound},
    {107044, "ACL_ERROR_RT_INVALID_DEVICE_FUNCTION", StatusCode::kNotFound},
    {207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", StatusCode::kUnimplemented},
    {207001, "ACL_ERROR_RT_MEMORY_ALLOCATION", StatusCode::kOutOfMemory},
    {207004, "ACL_ERROR_RT_NO_DEVICE", StatusCode::kUnavailable},
    {207006, "ACL_ERROR_RT_NO_PERMISSION", StatusCode::kUnavailable},
    {207018, "ACL_ERROR_RT_DEVICE_OOM", StatusCode::kOutOfMemory},
    {507000, "ACL_ERROR_RT_INTERNAL_ERROR", StatusCode::kKernelFault},
    {507011, "ACL_ERROR_RT_MODEL_EXECUTE", StatusCode::kKernelFault},
    {507014, "ACL_ERROR_RT_AICORE_TIMEOUT", StatusCode::kKernelFault},
    {507015, "ACL_ERROR_RT_AICORE_EXCEPTION", StatusCode::kKernelFault},
    {507016, "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION", StatusCode::kKernelFault},
    {507027, "ACL_ERROR_RT_KERNEL_LOOKUP", StatusCode::kNotFound},
    {507035, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION", StatusCode::kKernelFault},
    {507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", StatusCode::kKernelFault},
    {507047, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT", StatusCode::kKernelFault},
    {507053, "ACL_ERROR_RT_DEVICE_MEM_ERROR", StatusCode::kKernelFault},
    {507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR", StatusCode::kKernelFault},
    {507903, "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED", StatusCode::kCaptureError},
};

const AclCodeRow* find_row(int code) {
  for (const AclCodeRow& row : kAclCodes) {
    if (row.code == code) return &row;
  }
  return nullptr;
}

}  // namespace

StatusCode status_code_for_acl_error(int acl_code) {
  if (const AclCodeRow* row = find_row(acl_code)) return row->status;
  // Capture-family codes without their own row (107024..107041 block).
  if (acl_code >= 107024 && acl_code <= 107041) return StatusCode::kCaptureError;
  switch (acl_code / 100000) {
    case 1: return StatusCode::kInvalidArgument;  // usage errors
    case 2: return StatusCode::kUnavailable;      // resource errors
    case 5: return StatusCode::kKernelFault;      // device / runtime errors
    default: return StatusCode::kInternal;        // not an AscendCL code
  }
}

const char* acl_error_name(int acl_code) {
  const AclCodeRow* row = find_row(acl_code);
  return row ? row->name : "";
}

Status acl_error_status(const std::string& where, int acl_code, const std::string& recent_message) {
  std::string msg = where + ": AscendCL error " + std::to_string(acl_code);
  const char* name = acl_error_name(acl_code);
  if (*name) msg += std::string(" (") + name + ")";
  if (!recent_message.empty()) msg += ": " + recent_message;
  return Status(status_code_for_acl_error(acl_code), msg);
}

Status acl_error_status(const AclApi& api, const std::string& where, int acl_code) {
  const char* recent = api.aclGetRecentErrMsg ? api.aclGetRecentErrMsg() : nullptr;
  return acl_error_status(where, acl_code, recent ? std::string(recent) : std::string());
}

void check_acl(const AclApi& api, const char* where, int acl_code) {
  if (acl_code == 0) return;
  Status s = acl_error_status(api, where, acl_code);
  s.throw_if_error();
}

}  // namespace npurt::ascend
