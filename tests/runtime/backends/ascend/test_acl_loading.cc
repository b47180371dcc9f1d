// Library discovery and the reasons the ascend backend is unavailable.
// The "no CANN" tests run against this machine for real; the others load the
// FAKE libascendcl.so variants (not CANN) to produce each failure on purpose.
#include <dlfcn.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>

#include "backends/ascend/acl_api.h"
#include "fake_acl_fixture.h"

namespace npurt::ascend {
namespace {

using testing::fake_env;
using testing::ScopedEnv;

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

// dlopen("libascendcl.so") returns an already loaded library of that soname
// (e.g. a fake loaded by an earlier test in this process), so the "no CANN"
// tests only mean something in a process that has none (ctest runs each test
// in its own process).
std::string why_not_pristine() {
  struct stat st;
  if (::stat("/usr/local/Ascend/ascend-toolkit/latest", &st) == 0) return "CANN is installed here";
  if (void* h = dlopen("libascendcl.so", RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(h);
    return "a libascendcl.so (a test fake) is already loaded in this process";
  }
  return "";
}

TEST(AclLoading, CandidatesFollowTheDocumentedOrder) {
  AclSearchEnv env;
  env.ascend_home_path = "/opt/cann/latest/";
  env.ascend_toolkit_home = "/opt/toolkit";
  std::vector<std::string> c = acl_library_candidates(env);
  std::vector<std::string> expected = {
      "/opt/cann/latest/lib64/libascendcl.so",
      "/opt/cann/latest/runtime/lib64/libascendcl.so",
      "/opt/toolkit/lib64/libascendcl.so",
      "/opt/toolkit/runtime/lib64/libascendcl.so",
      "/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so",
      "/usr/local/Ascend/ascend-toolkit/latest/runtime/lib64/libascendcl.so",
      "libascendcl.so"};
  EXPECT_EQ(c, expected);
}

TEST(AclLoading, OverrideIsTheOnlyCandidate) {
  AclSearchEnv env;
  env.ascend_home_path = "/opt/cann";
  env.library_override = "/x/libfake.so";
  EXPECT_EQ(acl_library_candidates(env), std::vector<std::string>{"/x/libfake.so"});
}

TEST(AclLoading, TableMarksTheBaselineRequired) {
  int required = 0;
  bool capture_optional = false;
  for (const AclEntry& e : acl_entries()) {
    required += e.required;
    if (std::string(e.name) == "aclmdlRICaptureBegin") capture_optional = !e.required;
  }
  EXPECT_GT(required, 20);
  EXPECT_TRUE(capture_optional);
}

// Real, on this machine: no CANN is installed, so discovery must fail and say where it looked.
TEST(AclLoading, NoCannReportsEveryPathTried) {
  if (std::string why = why_not_pristine(); !why.empty()) GTEST_SKIP() << why;
  AclSearchEnv env;
  env.ascend_home_path = "/nonexistent/cann-home";
  std::string why;
  EXPECT_EQ(create_ascend_backend(env, &why), nullptr);
  EXPECT_TRUE(contains(why, "libascendcl.so not found")) << why;
  for (const std::string& path : acl_library_candidates(env)) EXPECT_TRUE(contains(why, path)) << path << "\n" << why;
  EXPECT_TRUE(contains(why, "No such file")) << why;  // dlerror's reason is kept
}

TEST(AclLoading, ProcessEnvironmentWithoutCann) {
  if (std::string why = why_not_pristine(); !why.empty()) GTEST_SKIP() << why;
  ScopedEnv home("ASCEND_HOME_PATH", "/nonexistent/from-env");
  std::string why;
  EXPECT_EQ(create_ascend_backend(&why), nullptr);
  EXPECT_TRUE(contains(why, "/nonexistent/from-env/lib64/libascendcl.so")) << why;
}

TEST(AclLoading, MissingRequiredSymbolIsNamed) {
  std::string why;
  EXPECT_EQ(create_ascend_backend(fake_env("no_memcpy_async"), &why), nullptr);
  EXPECT_TRUE(contains(why, "lacks required symbol aclrtMemcpyAsync")) << why;
  EXPECT_TRUE(contains(why, testing::fake_library("no_memcpy_async"))) << why;
}

TEST(AclLoading, MissingOptionalSymbolsAreListedNotFatal) {
  std::string why;
  std::unique_ptr<AclApi> api = load_acl_api(fake_env("minimal"), &why);
  ASSERT_NE(api, nullptr) << why;
  EXPECT_EQ(api->aclrtLaunchHostFunc, nullptr);
  EXPECT_EQ(api->aclmdlRICaptureBegin, nullptr);
  EXPECT_NE(api->aclrtMemcpyAsync, nullptr);
  EXPECT_TRUE(contains(api->describe_missing_optional(), "aclrtMallocAlign32")) << api->describe_missing_optional();
  EXPECT_TRUE(contains(api->describe_missing_optional(), "aclrtLaunchKernelWithHostArgs"));
}

TEST(AclLoading, InitFailureReportsCodeNameAndRecentMessage) {
  ScopedEnv err("FAKE_ACL_INIT_ERROR", "507899");
  std::string why;
  EXPECT_EQ(create_ascend_backend(fake_env("full"), &why), nullptr);
  EXPECT_TRUE(contains(why, "aclInit")) << why;
  EXPECT_TRUE(contains(why, "507899 (ACL_ERROR_RT_DRV_INTERNAL_ERROR)")) << why;
  EXPECT_TRUE(contains(why, "injected failure")) << why;  // aclGetRecentErrMsg text
}

TEST(AclLoading, ZeroDevicesIsUnavailable) {
  ScopedEnv n("FAKE_ACL_DEVICE_COUNT", "0");
  const long finalized_before = std::max(0l, testing::fake_counter("full", "finalize"));
  // Another backend in this process (the registry's) may have initialised the
  // library already: aclInit then says REPEAT_INITIALIZE and we must not finalize it.
  const bool initialized_by_someone_else = testing::fake_counter("full", "initialized") == 1;
  std::string why;
  EXPECT_EQ(create_ascend_backend(fake_env("full"), &why), nullptr);
  EXPECT_TRUE(contains(why, "reports 0 devices")) << why;
  EXPECT_EQ(testing::fake_counter("full", "finalize"), finalized_before + (initialized_by_someone_else ? 0 : 1));
  EXPECT_EQ(testing::fake_counter("full", "initialized"), initialized_by_someone_else ? 1 : 0);
}

TEST(AclLoading, UnsupportedSocIsUnavailableByName) {
  ScopedEnv soc("FAKE_ACL_SOC", "Ascend310B1");
  std::string why;
  EXPECT_EQ(create_ascend_backend(fake_env("full"), &why), nullptr);
  EXPECT_TRUE(contains(why, "Ascend310B1")) << why;
}

}  // namespace
}  // namespace npurt::ascend
