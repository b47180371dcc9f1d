// runtime/backends/ascend/ascend_backend.h: factory of the AscendCL backend (internal).
//
// The backend loads libascendcl.so with dlopen at run time (ASCEND_HOME_PATH,
// ASCEND_TOOLKIT_HOME, the standard install prefix, LD_LIBRARY_PATH), so one
// build of npurt works with and without CANN. NPURT_ASCENDCL_LIBRARY names an
// exact file instead (used by the tests to load a fake library).
//
// Invariants:
//   - nullptr is returned (never an exception) when the backend cannot be used,
//     with *unavailable_reason saying exactly why.
//   - A returned backend has called aclInit and found >= 1 device whose SoC
//     npurt has a chip profile for; aclFinalize runs when the backend and every
//     stream/event it created are gone.
#pragma once

#include <memory>
#include <string>

#include "backends/ascend/acl_api.h"
#include "npurt/backend.h"

namespace npurt::ascend {

// Returns the backend when AscendCL loads and reports at least one device;
// otherwise nullptr and *unavailable_reason says exactly why (library not
// found and where it looked, missing symbol, driver error code and message).
std::unique_ptr<Backend> create_ascend_backend(std::string* unavailable_reason);

// Same, with the search environment given explicitly (tests).
std::unique_ptr<Backend> create_ascend_backend(const AclSearchEnv& env, std::string* unavailable_reason);

// One line about a backend made by this factory: library path, SoC, devices,
// optional AscendCL entry points that are missing (for `python -m npurt info`).
// Returns "" for other backends.
std::string describe_ascend_backend(const Backend& backend);

}  // namespace npurt::ascend
