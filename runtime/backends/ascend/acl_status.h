// runtime/backends/ascend/acl_status.h: AscendCL error codes -> npurt Status.
//
// One table names the AscendCL codes npurt can meet and gives each the npurt
// StatusCode a caller should see; codes not in the table fall back by class as
// the AscendCL documentation groups them (1xxxxx: usage errors, 2xxxxx:
// resource errors, 5xxxxx: device/internal errors).
//
// Invariants:
//   - status_code_for_acl_error(0) == kOk and nothing else maps to kOk.
//   - Messages read "where: AscendCL error <code> (<NAME>): <aclGetRecentErrMsg>",
//     so the raw code is always visible for lookup in CANN's documentation.
#pragma once

#include <string>

#include "npurt/status.h"

namespace npurt::ascend {

struct AclApi;

StatusCode status_code_for_acl_error(int acl_code);

// Symbolic name ("ACL_ERROR_RT_MEMORY_ALLOCATION"), or "" for unknown codes.
const char* acl_error_name(int acl_code);

// Builds the Status for a failed call; `recent_message` is aclGetRecentErrMsg's text (may be empty).
Status acl_error_status(const std::string& where, int acl_code, const std::string& recent_message);

// Same, fetching (and thereby clearing) the thread's recent message through `api`.
Status acl_error_status(const AclApi& api, const std::string& where, int acl_code);

// Throws the npurt::Error subclass for a failed call; no-op when acl_code == 0.
void check_acl(const AclApi& api, const char* where, int acl_code);

}  // namespace npurt::ascend
