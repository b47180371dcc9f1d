// tests/runtime/backends/sim/aicore/test_same_pipe_sync.cc: the full-level
// same-pipe ordering check (ErrorSync1, pipe_model.h): two GM -> UB copies
// into one 32-B UB block without PipeBarrier<PIPE_MTE2>, PIPE_ALL or a flag /
// queue round trip in between are flagged with the kernel, API, UB address and
// the missing barrier; correctly ordered, disjoint and queue-ordered copies
// are clean and copy the right data; basic never reports it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "aicore_test_util.h"
#include "sync_fault_expect.h"
#include "kernels/same_pipe_kernels.h"

using namespace aicore_test;

namespace {

using CopyRun = XzRun;

CopyRun launch(npurt::SimKernelEntry entry, const char* name, npurt::SimCheckLevel level) {
  return run_xz(entry, name, level, same_pipe::kSameFloats, 4);
}

#define SP_ENTRY(k) NPURT_SIM_ENTRY(same_pipe::k), #k

struct Flagged {
  npurt::SimKernelEntry entry;
  const char* name;
  const char* api;
  const char* where;  // the UB block both copies write
};

class UnorderedSamePipeWrites : public ::testing::TestWithParam<Flagged> {};

TEST_P(UnorderedSamePipeWrites, AreErrorSync1AtFullOnly) {
  const Flagged& f = GetParam();
  expect_sync_fault(launch(f.entry, f.name, kFull), 4, f.name, "ErrorSync1", f.api,
                    {f.where, "PIPE_MTE2", "PipeBarrier<PIPE_MTE2>", "write-after-write"});
  // The sim runs each copy synchronously: basic has no pipe model, no report.
  CopyRun basic = launch(f.entry, f.name, kBasic);
  EXPECT_TRUE(basic.status.is_ok()) << basic.status.message();
}

INSTANTIATE_TEST_SUITE_P(
    Aicore, UnorderedSamePipeWrites,
    ::testing::Values(Flagged{SP_ENTRY(reload_unordered), "DataCopy", "UB+0x80"},
                      Flagged{SP_ENTRY(reload_one_way_flag), "DataCopy", "UB+0x80"},
                      Flagged{SP_ENTRY(reload_other_barrier), "DataCopy", "UB+0x80"},
                      Flagged{SP_ENTRY(pad_rows_unordered), "DataCopyPad", "UB+0x0"}),
    [](const ::testing::TestParamInfo<Flagged>& i) { return std::string(i.param.name); });

// Ordered variants copy x to z unchanged and are clean at full.
TEST(AicoreSamePipeSync, OrderedReloadsAreClean) {
  for (auto [entry, name] : {std::pair{NPURT_SIM_ENTRY(same_pipe::reload_barrier_mte2), "mte2"},
                             std::pair{NPURT_SIM_ENTRY(same_pipe::reload_barrier_all), "all"},
                             std::pair{NPURT_SIM_ENTRY(same_pipe::reload_round_trip), "trip"},
                             std::pair{NPURT_SIM_ENTRY(same_pipe::reload_disjoint), "disjoint"},
                             std::pair{NPURT_SIM_ENTRY(same_pipe::queue_reload), "queue"}}) {
    CopyRun r = launch(entry, name, kFull);
    ASSERT_TRUE(r.status.is_ok()) << name << ": " << r.status.message();
    EXPECT_EQ(r.x, r.z) << name;
  }
}

TEST(AicoreSamePipeSync, PadRowsWithBarrierAreCleanAndCopyTheSecondLoad) {
  CopyRun r = launch(NPURT_SIM_ENTRY(same_pipe::pad_rows_barrier), "pad", kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 10; ++i) EXPECT_EQ(r.z[64 * b + i], r.x[64 * b + 8 + i]) << b << " " << i;
}

TEST(AicoreSamePipeSync, VectorWriteIntoOutgoingCopyIsErrorSync2) {
  CopyRun r = launch(NPURT_SIM_ENTRY(same_pipe::vector_overwrites_outgoing), "v_after_mte3", kFull);
  ASSERT_EQ(r.status.code(), npurt::StatusCode::kKernelFault);
  const auto& d = r.report.diagnostics.front();
  EXPECT_EQ(d.code, "ErrorSync2");
  EXPECT_EQ(d.api, "Duplicate");
  EXPECT_NE(d.detail.find("write-after-read"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("PIPE_MTE3"), std::string::npos) << d.detail;
}

}  // namespace
