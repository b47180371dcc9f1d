// tests/runtime/backends/sim/aicore/test_gm_order.cc: the full-level in-core
// GM ordering check (runtime/backends/sim/aicore/gm_order.h). An MTE2 read of
// GM bytes the same core's MTE3 wrote with nothing ordering it is ErrorSync2,
// and two overlapping MTE3 writes without PipeBarrier<PIPE_MTE3> are
// ErrorSync1, each naming the kernel, block, API, GM offset and the fix;
// ordered, disjoint, atomic and cross-launch accesses are clean and compute
// the right data; basic never reports them.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "aicore_test_util.h"
#include "sync_fault_expect.h"
#include "kernels/gm_order_kernels.h"

using namespace aicore_test;

namespace {

using GmRun = XzRun;

GmRun launch(npurt::SimKernelEntry entry, const char* name, npurt::SimCheckLevel level,
             npurt::SimKernelEntry second = nullptr) {
  if (second == nullptr) return run_xz(entry, name, level, gm_order::kGmFloats, 4);
  return run_xz(entry, name, level, gm_order::kGmFloats, 4, {second});
}

#define GM_ENTRY(k) NPURT_SIM_ENTRY(gm_order::k), #k

struct Flagged {
  npurt::SimKernelEntry entry;
  const char* name;
  const char* code;
  const char* where;  // the first GM byte both copies touch
  const char* fix;
};

class UnorderedGmAccesses : public ::testing::TestWithParam<Flagged> {};

TEST_P(UnorderedGmAccesses, AreFlaggedAtFullOnly) {
  const Flagged& f = GetParam();
  expect_sync_fault(launch(f.entry, f.name, kFull), 4, f.name, f.code, "DataCopy",
                    {f.where, "PIPE_MTE3", f.fix});
  GmRun basic = launch(f.entry, f.name, kBasic);  // no pipe model at basic
  EXPECT_TRUE(basic.status.is_ok()) << basic.status.message();
}

INSTANTIATE_TEST_SUITE_P(
    Aicore, UnorderedGmAccesses,
    ::testing::Values(
        Flagged{GM_ENTRY(raw_unordered), "ErrorSync2", "GM 'z'+0x0:", "<MTE3_MTE2>"},
        Flagged{GM_ENTRY(raw_barrier_mte3), "ErrorSync2", "GM 'z'+0x0:", "<MTE3_MTE2>"},
        Flagged{GM_ENTRY(raw_tail_unordered), "ErrorSync2", "GM 'z'+0xe0:", "PIPE_ALL"},
        Flagged{GM_ENTRY(strided_hit_read), "ErrorSync2", "GM 'z'+0x40:", "<MTE3_MTE2>"},
        Flagged{GM_ENTRY(waw_unordered), "ErrorSync1", "GM 'z'+0xe0:", "PipeBarrier<PIPE_MTE3>"}),
    [](const ::testing::TestParamInfo<Flagged>& i) { return std::string(i.param.name); });

TEST(AicoreGmOrder, OrderedReadsAreCleanAndSeeTheWrite) {
  for (auto [entry, name] : {std::pair{NPURT_SIM_ENTRY(gm_order::raw_flag), "flag"},
                             std::pair{NPURT_SIM_ENTRY(gm_order::raw_barrier_all), "all"},
                             std::pair{NPURT_SIM_ENTRY(gm_order::raw_chain), "chain"}}) {
    GmRun r = launch(entry, name, kFull);
    ASSERT_TRUE(r.status.is_ok()) << name << ": " << r.status.message();
    for (uint32_t i = 0; i < gm_order::kGmFloats; ++i) ASSERT_EQ(r.z[i], r.x[i] + 1.0f) << name << i;
  }
}

TEST(AicoreGmOrder, DisjointReadsAreClean) {
  for (auto [entry, name] : {std::pair{NPURT_SIM_ENTRY(gm_order::raw_disjoint), "disjoint"},
                             std::pair{NPURT_SIM_ENTRY(gm_order::strided_gap_read), "gap"}}) {
    GmRun r = launch(entry, name, kFull);
    EXPECT_TRUE(r.status.is_ok()) << name << ": " << r.status.message();
  }
}

TEST(AicoreGmOrder, BarrierOrderedOverlappingWritesKeepTheLastOne) {
  GmRun r = launch(NPURT_SIM_ENTRY(gm_order::waw_barrier_mte3), "waw", kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t i = 0; i < gm_order::kGmFloats; ++i)
    EXPECT_EQ(r.z[i], i % 64 >= 56 ? 2.0f * r.x[i] : r.x[i]) << i;
}

TEST(AicoreGmOrder, OverlappingAtomicAddsAreClean) {
  GmRun r = launch(NPURT_SIM_ENTRY(gm_order::waw_atomic_adds), "atomic", kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t i = 0; i < gm_order::kGmFloats; ++i) EXPECT_EQ(r.z[i], 2.0f * r.x[i]) << i;
}

// The pending writes belong to one block of one launch: the next launch
// reads what the first wrote with no flag.
TEST(AicoreGmOrder, AnEarlierLaunchsWritesAreNotPending) {
  GmRun r = launch(NPURT_SIM_ENTRY(gm_order::raw_flag), "first", kFull,
                   NPURT_SIM_ENTRY(gm_order::read_z_only));
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t i = 0; i < gm_order::kGmFloats; ++i) EXPECT_EQ(r.z[i], r.x[i] + 2.0f) << i;
}

}  // namespace
