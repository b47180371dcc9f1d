// Tests of the AscendCL error-code -> npurt Status mapping (no device needed).
#include <gtest/gtest.h>

#include "backends/ascend/acl_status.h"

namespace npurt::ascend {
namespace {

TEST(AclStatus, SuccessIsTheOnlyOk) {
  EXPECT_EQ(status_code_for_acl_error(0), StatusCode::kOk);
  for (int code : {1, 100000, 107000, 200000, 207001, 507000, 507903, 999999}) {
    EXPECT_NE(status_code_for_acl_error(code), StatusCode::kOk) << code;
  }
}

TEST(AclStatus, KnownCodesMapToTheirMeaning) {
  EXPECT_EQ(status_code_for_acl_error(100000), StatusCode::kInvalidArgument);
  EXPECT_EQ(status_code_for_acl_error(107000), StatusCode::kInvalidArgument);
  EXPECT_EQ(status_code_for_acl_error(100001), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status_code_for_acl_error(200000), StatusCode::kOutOfMemory);
  EXPECT_EQ(status_code_for_acl_error(207001), StatusCode::kOutOfMemory);
  EXPECT_EQ(status_code_for_acl_error(207018), StatusCode::kOutOfMemory);
  EXPECT_EQ(status_code_for_acl_error(207000), StatusCode::kUnimplemented);
  EXPECT_EQ(status_code_for_acl_error(207004), StatusCode::kUnavailable);
  EXPECT_EQ(status_code_for_acl_error(100029), StatusCode::kNotFound);
  EXPECT_EQ(status_code_for_acl_error(507027), StatusCode::kNotFound);
  EXPECT_EQ(status_code_for_acl_error(507015), StatusCode::kKernelFault);
  EXPECT_EQ(status_code_for_acl_error(507035), StatusCode::kKernelFault);
  EXPECT_EQ(status_code_for_acl_error(107041), StatusCode::kCaptureError);
  EXPECT_EQ(status_code_for_acl_error(507903), StatusCode::kCaptureError);
}

TEST(AclStatus, UnknownCodesFallBackByClass) {
  EXPECT_EQ(status_code_for_acl_error(107026), StatusCode::kCaptureError);  // capture block, no row
  EXPECT_EQ(status_code_for_acl_error(145000), StatusCode::kInvalidArgument);
  EXPECT_EQ(status_code_for_acl_error(248000), StatusCode::kUnavailable);
  EXPECT_EQ(status_code_for_acl_error(507998), StatusCode::kKernelFault);
  EXPECT_EQ(status_code_for_acl_error(42), StatusCode::kInternal);
  EXPECT_EQ(status_code_for_acl_error(-1), StatusCode::kInternal);
}

TEST(AclStatus, MessageCarriesWhereCodeNameAndRecentText) {
  Status s = acl_error_status("aclrtMalloc(4096 bytes)", 207001, "device memory exhausted");
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(s.message(),
            "aclrtMalloc(4096 bytes): AscendCL error 207001 (ACL_ERROR_RT_MEMORY_ALLOCATION): "
            "device memory exhausted");
  Status unknown = acl_error_status("aclrtFoo", 123456, "");
  EXPECT_EQ(unknown.message(), "aclrtFoo: AscendCL error 123456");
}

TEST(AclStatus, NamesOnlyForKnownCodes) {
  EXPECT_STREQ(acl_error_name(107041), "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC");
  EXPECT_STREQ(acl_error_name(654321), "");
}

}  // namespace
}  // namespace npurt::ascend
