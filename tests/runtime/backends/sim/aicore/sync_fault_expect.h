// tests/runtime/backends/sim/aicore/sync_fault_expect.h: the common
// expectation of the sync-check tests (test_same_pipe_sync.cc,
// test_gm_order.cc): a launch of run_xz faulted in every block with one
// diagnostic code and API, the detail names each part, and the launch
// message names the kernel and block 0.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "aicore_test_util.h"

namespace aicore_test {

inline void expect_sync_fault(const XzRun& r, uint32_t blocks, const char* kernel, const char* code,
                              const char* api, std::initializer_list<const char*> parts) {
  ASSERT_EQ(r.status.code(), npurt::StatusCode::kKernelFault) << kernel;
  ASSERT_EQ(r.report.diagnostics.size(), blocks) << r.status.message();
  const auto& d = r.report.diagnostics.front();
  EXPECT_EQ(d.code, code);
  EXPECT_EQ(d.api, api);
  for (const char* part : parts)
    EXPECT_NE(d.detail.find(part), std::string::npos) << part << " in: " << d.detail;
  EXPECT_NE(r.status.message().find(std::string("kernel '") + kernel + "' block 0"), std::string::npos)
      << r.status.message();
}

}  // namespace aicore_test
