// runtime/backends/ascend/acl_api.h: the AscendCL function table, resolved with dlopen/dlsym.
//
// One table (NPURT_ACL_FUNCTIONS) lists every AscendCL entry point npurt calls:
// its name, whether the backend can work without it, and its signature. The
// same list generates the pointer members, the resolution loop and (with the
// real headers) the static_asserts that check each signature. Entries newer
// than the baseline (CANN 8.0) are optional and resolved like torch_npu does:
// a missing optional entry leaves a null pointer and the feature that needs it
// reports kUnimplemented naming the symbol; a missing required entry makes the
// whole backend unavailable with a message naming the symbol and the library.
//
// Invariants:
//   - After AclApi::load() succeeds, every required pointer is non-null.
//   - The library handle stays open for the life of the AclApi object (the
//     backend owns it; it outlives every stream/event/segment it created).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/ascend/acl_types.h"

namespace npurt::ascend {

// X(name, required, return type, (parameter types))
#define NPURT_ACL_FUNCTIONS(X)                                                                   \
  /* init, device, errors */                                                                   \
  X(aclInit, true, aclError, (const char*))                                                    \
  X(aclFinalize, true, aclError, ())                                                           \
  X(aclGetRecentErrMsg, true, const char*, ())                                                 \
  X(aclrtSetDevice, true, aclError, (int32_t))                                                 \
  X(aclrtResetDevice, true, aclError, (int32_t))                                               \
  X(aclrtGetDeviceCount, true, aclError, (uint32_t*))                                          \
  X(aclrtGetSocName, true, const char*, ())                                                    \
  X(aclrtGetDeviceInfo, false, aclError, (uint32_t, aclrtDevAttr, int64_t*))                   \
  X(aclrtGetMemInfo, true, aclError, (aclrtMemAttr, size_t*, size_t*))                         \
  /* memory */                                                                                 \
  X(aclrtMalloc, true, aclError, (void**, size_t, aclrtMemMallocPolicy))                       \
  X(aclrtMallocAlign32, false, aclError, (void**, size_t, aclrtMemMallocPolicy))               \
  X(aclrtFree, true, aclError, (void*))                                                        \
  X(aclrtMallocHost, true, aclError, (void**, size_t))                                         \
  X(aclrtFreeHost, true, aclError, (void*))                                                    \
  X(aclrtMemcpy, true, aclError, (void*, size_t, const void*, size_t, aclrtMemcpyKind))        \
  X(aclrtMemcpyAsync, true, aclError,                                                          \
    (void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream))                        \
  X(aclrtMemset, true, aclError, (void*, size_t, int32_t, size_t))                             \
  X(aclrtMemsetAsync, true, aclError, (void*, size_t, int32_t, size_t, aclrtStream))           \
  /* streams */                                                                                \
  X(aclrtCreateStream, true, aclError, (aclrtStream*))                                         \
  X(aclrtDestroyStream, true, aclError, (aclrtStream))                                         \
  X(aclrtSynchronizeStream, true, aclError, (aclrtStream))                                     \
  X(aclrtStreamQuery, false, aclError, (aclrtStream, aclrtStreamStatus*))                      \
  X(aclrtStreamWaitEvent, true, aclError, (aclrtStream, aclrtEvent))                           \
  X(aclrtLaunchHostFunc, false, aclError, (aclrtStream, aclrtHostFunc, void*))                 \
  /* events */                                                                                 \
  X(aclrtCreateEventWithFlag, true, aclError, (aclrtEvent*, uint32_t))                         \
  X(aclrtCreateEventExWithFlag, false, aclError, (aclrtEvent*, uint32_t))                      \
  X(aclrtDestroyEvent, true, aclError, (aclrtEvent))                                           \
  X(aclrtRecordEvent, true, aclError, (aclrtEvent, aclrtStream))                               \
  X(aclrtQueryEventStatus, true, aclError, (aclrtEvent, aclrtEventRecordedStatus*))            \
  X(aclrtSynchronizeEvent, true, aclError, (aclrtEvent))                                       \
  X(aclrtEventElapsedTime, true, aclError, (float*, aclrtEvent, aclrtEvent))                   \
  /* kernel binaries and launch (CANN 8.1 .. 9.0) */                                           \
  X(aclrtBinaryLoadFromFile, false, aclError,                                                  \
    (const char*, aclrtBinaryLoadOptions*, aclrtBinHandle*))                                   \
  X(aclrtBinaryUnLoad, false, aclError, (aclrtBinHandle))                                      \
  X(aclrtBinaryGetFunction, false, aclError, (const aclrtBinHandle, const char*, aclrtFuncHandle*)) \
  X(aclrtKernelArgsInit, false, aclError, (aclrtFuncHandle, aclrtArgsHandle*))                 \
  X(aclrtKernelArgsAppend, false, aclError, (aclrtArgsHandle, void*, size_t, aclrtParamHandle*)) \
  X(aclrtKernelArgsAppendPlaceHolder, false, aclError, (aclrtArgsHandle, aclrtParamHandle*))   \
  X(aclrtKernelArgsGetPlaceHolderBuffer, false, aclError,                                      \
    (aclrtArgsHandle, aclrtParamHandle, size_t, void**))                                       \
  X(aclrtKernelArgsFinalize, false, aclError, (aclrtArgsHandle))                               \
  X(aclrtLaunchKernelWithConfig, false, aclError,                                              \
    (aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, aclrtArgsHandle, void*))   \
  X(aclrtLaunchKernelWithHostArgs, false, aclError,                                            \
    (aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t,             \
     aclrtPlaceHolderInfo*, size_t))                                                           \
  /* graph capture (CANN 8.1+, experimental; used by the stream-graphs issue) */               \
  X(aclmdlRICaptureBegin, false, aclError, (aclrtStream, aclmdlRICaptureMode))                 \
  X(aclmdlRICaptureGetInfo, false, aclError, (aclrtStream, aclmdlRICaptureStatus*, aclmdlRI*)) \
  X(aclmdlRICaptureEnd, false, aclError, (aclrtStream, aclmdlRI*))                             \
  X(aclmdlRICaptureThreadExchangeMode, false, aclError, (aclmdlRICaptureMode*))                \
  X(aclmdlRIExecuteAsync, false, aclError, (aclmdlRI, aclrtStream))                            \
  X(aclmdlRIDestroy, false, aclError, (aclmdlRI))

struct AclApi {
#define NPURT_ACL_DECLARE_POINTER(name, required, ret, params) \
  using name##_fn = ret(*) params;                              \
  name##_fn name = nullptr;
  NPURT_ACL_FUNCTIONS(NPURT_ACL_DECLARE_POINTER)
#undef NPURT_ACL_DECLARE_POINTER

  std::string library_path;             // the file that was loaded
  std::vector<std::string> missing_optional;  // optional entries not exported

  AclApi() = default;
  AclApi(const AclApi&) = delete;
  AclApi& operator=(const AclApi&) = delete;
  ~AclApi();

  // Human-readable list of the optional entry points the library lacks.
  std::string describe_missing_optional() const;

 private:
  friend class AclLibraryLoader;
  void* handle_ = nullptr;  // dlopen handle, closed in the destructor
};

// One row of the table, for iteration and tests (name, required, address of the member).
struct AclEntry {
  const char* name;
  bool required;
};
const std::vector<AclEntry>& acl_entries();

// Where libascendcl.so is looked for, in order. Each element is a full path to
// try, except the last, "libascendcl.so", which lets dlopen search
// LD_LIBRARY_PATH and the system default paths.
struct AclSearchEnv {
  std::string ascend_home_path;     // $ASCEND_HOME_PATH
  std::string ascend_toolkit_home;  // $ASCEND_TOOLKIT_HOME
  std::string library_override;     // $NPURT_ASCENDCL_LIBRARY: exact file, skips the search
  static AclSearchEnv from_environment();
};
std::vector<std::string> acl_library_candidates(const AclSearchEnv& env);

// Opens the first candidate that dlopen accepts and resolves the table.
// Returns nullptr and sets *why (every path tried with dlerror's reason, or the
// missing required symbol and the library it was missing from).
std::unique_ptr<AclApi> load_acl_api(const AclSearchEnv& env, std::string* why);

}  // namespace npurt::ascend
