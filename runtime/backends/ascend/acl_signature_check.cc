// runtime/backends/ascend/acl_signature_check.cc: npurt's AscendCL declarations vs the real headers.
//
// Compiled with -DNPURT_ASCEND_REAL_HEADERS by tools/check_ascend_headers.sh
// against the include/acl headers of the torch-npu wheel. Every function-pointer
// type of the table must equal decltype(&aclXxx) of the real declaration, every
// constant npurt passes must equal the real enumerator or macro, and the structs
// npurt fills must have the real layout. In a normal build this file is empty.
#if defined(NPURT_ASCEND_REAL_HEADERS)

#include <cstddef>
#include <type_traits>

#include "backends/ascend/acl_api.h"

namespace npurt::ascend {

#define NPURT_ACL_CHECK_SIGNATURE(name, required, ret, params)                   \
  static_assert(std::is_same<AclApi::name##_fn, decltype(&::name)>::value,      \
                "npurt's signature of " #name " differs from <acl/acl.h>");
NPURT_ACL_FUNCTIONS(NPURT_ACL_CHECK_SIGNATURE)
#undef NPURT_ACL_CHECK_SIGNATURE

static_assert(acl::kSuccess == ACL_SUCCESS, "ACL_SUCCESS");
static_assert(acl::kErrorInvalidParam == ACL_ERROR_INVALID_PARAM, "ACL_ERROR_INVALID_PARAM");
static_assert(acl::kErrorUninitialize == ACL_ERROR_UNINITIALIZE, "ACL_ERROR_UNINITIALIZE");
static_assert(acl::kErrorRepeatInitialize == ACL_ERROR_REPEAT_INITIALIZE, "ACL_ERROR_REPEAT_INITIALIZE");
static_assert(acl::kErrorInvalidFile == ACL_ERROR_INVALID_FILE, "ACL_ERROR_INVALID_FILE");
static_assert(acl::kErrorKernelNotFound == ACL_ERROR_KERNEL_NOT_FOUND, "ACL_ERROR_KERNEL_NOT_FOUND");
static_assert(acl::kErrorFeatureUnsupported == ACL_ERROR_FEATURE_UNSUPPORTED, "ACL_ERROR_FEATURE_UNSUPPORTED");
static_assert(acl::kErrorBadAlloc == ACL_ERROR_BAD_ALLOC, "ACL_ERROR_BAD_ALLOC");
static_assert(acl::kErrorRtParamInvalid == ACL_ERROR_RT_PARAM_INVALID, "ACL_ERROR_RT_PARAM_INVALID");
static_assert(acl::kErrorRtFeatureNotSupport == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "RT_FEATURE_NOT_SUPPORT");
static_assert(acl::kErrorRtMemoryAllocation == ACL_ERROR_RT_MEMORY_ALLOCATION, "RT_MEMORY_ALLOCATION");
static_assert(acl::kErrorRtNoDevice == ACL_ERROR_RT_NO_DEVICE, "ACL_ERROR_RT_NO_DEVICE");

static_assert(acl::kMemMallocHugeFirst == ACL_MEM_MALLOC_HUGE_FIRST, "ACL_MEM_MALLOC_HUGE_FIRST");
static_assert(acl::kMemcpyHostToHost == ACL_MEMCPY_HOST_TO_HOST, "ACL_MEMCPY_HOST_TO_HOST");
static_assert(acl::kMemcpyHostToDevice == ACL_MEMCPY_HOST_TO_DEVICE, "ACL_MEMCPY_HOST_TO_DEVICE");
static_assert(acl::kMemcpyDeviceToHost == ACL_MEMCPY_DEVICE_TO_HOST, "ACL_MEMCPY_DEVICE_TO_HOST");
static_assert(acl::kMemcpyDeviceToDevice == ACL_MEMCPY_DEVICE_TO_DEVICE, "ACL_MEMCPY_DEVICE_TO_DEVICE");
static_assert(acl::kHbmMem == ACL_HBM_MEM, "ACL_HBM_MEM");
static_assert(acl::kDevAttrAicoreCoreNum == ACL_DEV_ATTR_AICORE_CORE_NUM, "ACL_DEV_ATTR_AICORE_CORE_NUM");
static_assert(acl::kDevAttrCubeCoreNum == ACL_DEV_ATTR_CUBE_CORE_NUM, "ACL_DEV_ATTR_CUBE_CORE_NUM");
static_assert(acl::kDevAttrVectorCoreNum == ACL_DEV_ATTR_VECTOR_CORE_NUM, "ACL_DEV_ATTR_VECTOR_CORE_NUM");
static_assert(acl::kDevAttrTotalGlobalMemSize == ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, "TOTAL_GLOBAL_MEM_SIZE");
static_assert(acl::kDevAttrL2CacheSize == ACL_DEV_ATTR_L2_CACHE_SIZE, "ACL_DEV_ATTR_L2_CACHE_SIZE");
static_assert(acl::kStreamStatusComplete == ACL_STREAM_STATUS_COMPLETE, "ACL_STREAM_STATUS_COMPLETE");
static_assert(acl::kEventRecordedStatusComplete == ACL_EVENT_RECORDED_STATUS_COMPLETE,
              "ACL_EVENT_RECORDED_STATUS_COMPLETE");
static_assert(acl::kCaptureModeGlobal == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, "CAPTURE_MODE_GLOBAL");
static_assert(acl::kCaptureModeThreadLocal == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, "CAPTURE_MODE_THREAD_LOCAL");
static_assert(acl::kCaptureModeRelaxed == ACL_MODEL_RI_CAPTURE_MODE_RELAXED, "CAPTURE_MODE_RELAXED");
static_assert(acl::kEventSync == ACL_EVENT_SYNC, "ACL_EVENT_SYNC");
static_assert(acl::kLaunchAttrSchemMode == ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, "ATTR_SCHEM_MODE");
static_assert(acl::kLaunchAttrDynUbufSize == ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, "ATTR_DYN_UBUF_SIZE");
static_assert(acl::kLaunchAttrEngineType == ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, "ATTR_ENGINE_TYPE");
static_assert(acl::kLaunchAttrBlockDimOffset == ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, "ATTR_BLOCKDIM_OFFSET");
static_assert(acl::kLaunchAttrTimeoutUs == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, "ATTR_TIMEOUT_US");
static_assert(acl::kEngineTypeAic == ACL_RT_ENGINE_TYPE_AIC && acl::kEngineTypeAiv == ACL_RT_ENGINE_TYPE_AIV,
              "aclrtEngineType");
// launch_config.cc writes engineType and timeoutUs through rsv[0..1] (the own
// declaration has no such members): they must overlay them exactly.
static_assert(offsetof(aclrtLaunchKernelAttrValue, engineType) == offsetof(aclrtLaunchKernelAttrValue, rsv) &&
                  sizeof(aclrtEngineType) == sizeof(uint32_t), "engineType overlays rsv[0]");
static_assert(offsetof(aclrtTimeoutUs, timeoutLow) == 0 && offsetof(aclrtTimeoutUs, timeoutHigh) == 4,
              "timeoutUs overlays rsv[0], rsv[1]");
static_assert(acl::kEventTimeLine == ACL_EVENT_TIME_LINE, "ACL_EVENT_TIME_LINE");

// Layouts of the structs npurt builds (the own declarations in acl_types.h
// mirror these; the placeholder pair is what kernel_args.h produces).
static_assert(sizeof(aclrtPlaceHolderInfo) == 8, "aclrtPlaceHolderInfo size");
static_assert(offsetof(aclrtPlaceHolderInfo, addrOffset) == 0, "aclrtPlaceHolderInfo.addrOffset");
static_assert(offsetof(aclrtPlaceHolderInfo, dataOffset) == 4, "aclrtPlaceHolderInfo.dataOffset");
static_assert(std::is_same<decltype(aclrtPlaceHolderInfo::addrOffset), uint32_t>::value, "addrOffset type");
static_assert(sizeof(aclrtLaunchKernelCfg) == sizeof(void*) + sizeof(size_t), "aclrtLaunchKernelCfg size");
static_assert(sizeof(aclrtLaunchKernelAttrValue) == 16, "aclrtLaunchKernelAttrValue size");

}  // namespace npurt::ascend

#endif  // NPURT_ASCEND_REAL_HEADERS
