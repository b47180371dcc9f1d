// runtime/backends/ascend/acl_types.h: the AscendCL types and constants npurt uses.
//
// npurt never links against CANN: it dlopens libascendcl.so (acl_api.h). This
// header therefore declares, in npurt's own words, the few AscendCL types the
// function table needs, with the names and values documented for AscendCL
// (ACL 1.17.0 / the headers shipped in the torch-npu 2.14.0 wheel). Nothing here
// is copied from CANN's headers.
//
// Invariants:
//   - Built normally, the declarations below are the only AscendCL definitions.
//   - Built with -DNPURT_ASCEND_REAL_HEADERS (tools/check_ascend_headers.sh), the
//     real <acl/acl.h> provides the types instead, and acl_constants_check.cc
//     static_asserts that every constant in npurt::ascend::acl equals the real
//     enumerator and that every function-pointer type in the table equals
//     decltype(&aclXxx). So the two modes cannot drift apart silently.
//   - Code uses the constants in namespace npurt::ascend::acl (never the raw
//     ACL_* enumerators), so it compiles identically in both modes.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(NPURT_ASCEND_REAL_HEADERS)
#include <acl/acl.h>
#else
extern "C" {
typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtEvent;
typedef void* aclrtBinHandle;
typedef void* aclrtFuncHandle;
typedef void* aclrtArgsHandle;
typedef void* aclrtParamHandle;
typedef void* aclmdlRI;
typedef void (*aclrtHostFunc)(void* args);

// Enumerations: only the type identity matters for the function signatures;
// the values npurt passes live in npurt::ascend::acl below. The min/max
// enumerators give each enum the full int range, so converting any documented
// value into it is well defined.
typedef enum aclrtMemMallocPolicy { aclrtMemMallocPolicy_npurt_min = 0, aclrtMemMallocPolicy_npurt_max = 0x7fffffff } aclrtMemMallocPolicy;
typedef enum aclrtMemcpyKind { aclrtMemcpyKind_npurt_min = 0, aclrtMemcpyKind_npurt_max = 0x7fffffff } aclrtMemcpyKind;
typedef enum aclrtMemAttr { aclrtMemAttr_npurt_min = 0, aclrtMemAttr_npurt_max = 0x7fffffff } aclrtMemAttr;
typedef enum aclrtDevAttr { aclrtDevAttr_npurt_min = 0, aclrtDevAttr_npurt_max = 0x7fffffff } aclrtDevAttr;
typedef enum aclrtStreamStatus { aclrtStreamStatus_npurt_min = 0, aclrtStreamStatus_npurt_max = 0x7fffffff } aclrtStreamStatus;
typedef enum aclrtEventRecordedStatus { aclrtEventRecordedStatus_npurt_min = 0, aclrtEventRecordedStatus_npurt_max = 0x7fffffff } aclrtEventRecordedStatus;
typedef enum aclmdlRICaptureMode { aclmdlRICaptureMode_npurt_min = 0, aclmdlRICaptureMode_npurt_max = 0x7fffffff } aclmdlRICaptureMode;
typedef enum aclmdlRICaptureStatus { aclmdlRICaptureStatus_npurt_min = 0, aclmdlRICaptureStatus_npurt_max = 0x7fffffff } aclmdlRICaptureStatus;
typedef enum aclrtLaunchKernelAttrId { aclrtLaunchKernelAttrId_npurt_min = 0, aclrtLaunchKernelAttrId_npurt_max = 0x7fffffff } aclrtLaunchKernelAttrId;

// Structures npurt fills in; layouts as documented (checked against the real
// headers by acl_constants_check.cc).
typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  uint32_t dynUBufSize;
  uint32_t blockDimOffset;
  uint16_t timeout;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;
typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;
typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr* attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;
typedef struct {
  uint32_t addrOffset;
  uint32_t dataOffset;
} aclrtPlaceHolderInfo;
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;  // npurt passes nullptr
}  // extern "C"
#endif

namespace npurt::ascend::acl {

// Error codes (acl_base_rt.h, error_codes/rt_error_codes.h).
constexpr int kSuccess = 0;
constexpr int kErrorInvalidParam = 100000;
constexpr int kErrorUninitialize = 100001;
constexpr int kErrorRepeatInitialize = 100002;
constexpr int kErrorInvalidFile = 100003;
constexpr int kErrorKernelNotFound = 100029;
constexpr int kErrorFeatureUnsupported = 200006;
constexpr int kErrorBadAlloc = 200000;
constexpr int kErrorRtParamInvalid = 107000;
constexpr int kErrorRtFeatureNotSupport = 207000;
constexpr int kErrorRtMemoryAllocation = 207001;
constexpr int kErrorRtNoDevice = 207004;

// aclrtMemMallocPolicy
constexpr int kMemMallocHugeFirst = 0;
// aclrtMemcpyKind
constexpr int kMemcpyHostToHost = 0;
constexpr int kMemcpyHostToDevice = 1;
constexpr int kMemcpyDeviceToHost = 2;
constexpr int kMemcpyDeviceToDevice = 3;
// aclrtMemAttr
constexpr int kHbmMem = 1;
// aclrtDevAttr
constexpr int kDevAttrAicoreCoreNum = 101;
constexpr int kDevAttrCubeCoreNum = 102;
constexpr int kDevAttrVectorCoreNum = 201;
constexpr int kDevAttrTotalGlobalMemSize = 301;
constexpr int kDevAttrL2CacheSize = 302;
// aclrtStreamStatus
constexpr int kStreamStatusComplete = 0;
// aclrtEventRecordedStatus
constexpr int kEventRecordedStatusComplete = 1;
// aclrtLaunchKernelAttrId, aclrtEngineType
constexpr int kLaunchAttrSchemMode = 1;
constexpr int kLaunchAttrDynUbufSize = 2;
constexpr int kLaunchAttrEngineType = 3;
constexpr int kLaunchAttrBlockDimOffset = 4;
constexpr int kLaunchAttrTimeoutUs = 8;
constexpr int kEngineTypeAic = 0;
constexpr int kEngineTypeAiv = 1;
// aclmdlRICaptureMode
constexpr int kCaptureModeGlobal = 0;
constexpr int kCaptureModeThreadLocal = 1;
constexpr int kCaptureModeRelaxed = 2;
// Event creation flags (#define in acl_rt.h).
constexpr uint32_t kEventSync = 0x1u;
constexpr uint32_t kEventTimeLine = 0x8u;

}  // namespace npurt::ascend::acl
