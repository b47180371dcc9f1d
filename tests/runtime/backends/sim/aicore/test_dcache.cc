// tests/runtime/backends/sim/aicore/test_dcache.cc: the DCache checks of GM
// scalar writes (aicore/dcache.h): a line left dirty at block end and a line
// scalar-written by two blocks are faults at basic and full; cleaned writes,
// writes >= 64 B apart, DataCopy writes and level off are not. The checks are
// on by default: NPURT_SIM_DCACHE_CHECK=0 turns them off.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "aicore_test_util.h"
#include "backends/sim/aicore/dcache_check.h"

using namespace aicore_test;

namespace dcache {

using namespace AscendC;

// Each block writes 4-byte value i at z[block * stride + i], i < count; the
// tiling picks stride, count and how the block cleans (0 none, 1 each line
// once, 2 whole cache, 3 clean then write again, 4 only the first line, 5
// whole cache, then every value again backwards, then whole cache).
struct Tiling {
  uint32_t stride, count, mode;
};

AICORE_TEST_KERNEL(scalar_writes) {
  GET_TILING_DATA_WITH_STRUCT(Tiling, t, tiling);
  GlobalTensor<int32_t> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z) + GetBlockIdx() * t.stride, t.count);
  for (uint32_t i = 0; i < t.count; ++i) zGm.SetValue(i, int32_t(i));
  if (t.mode == 1 || t.mode == 3)
    for (uint32_t i = 0; i < t.count; i += 16)  // 16 int32 per 64 B line (z is 64 B aligned)
      DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm[i]);
  if (t.mode == 4)
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm);
  if (t.mode == 2) DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(zGm);
  if (t.mode == 3) zGm(t.count - 1) = 7;  // dirty again after the clean
  if (t.mode == 5) {
    for (uint32_t i = t.count; i-- > 0;) zGm.SetValue(i, int32_t(i));
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(zGm);
  }
}

// Each block DataCopies 16 floats (64 B) to z at block * 16: adjacent blocks
// share nothing but a line boundary, and DataCopy bypasses the DCache anyway.
AICORE_TEST_KERNEL(datacopy_writes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, float(GetBlockIdx()), 16);
  PipeBarrier<PIPE_ALL>();
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + GetBlockIdx() * 16, 16);
  DataCopy(zGm, t, 16);
}

}  // namespace dcache

namespace {

// Opt-in (dcache_check.h): on for this file's tests whatever the environment says.
struct DCacheCheckOn : ::testing::Environment {
  void SetUp() override { npurt::sim::set_dcache_check(true); }
};
const auto* const kOn = ::testing::AddGlobalTestEnvironment(new DCacheCheckOn);

npurt::Status run_writes(uint32_t blocks, dcache::Tiling t, npurt::SimCheckLevel level,
                         npurt::sim::AicoreReport* report = nullptr) {
  SimLaunch l(NPURT_SIM_ENTRY(dcache::scalar_writes), "dcache_writes");
  l.gm<float>(16, "x");
  l.gm<int32_t>(blocks * t.stride + t.count, "z");
  l.workspace(64);
  l.tiling(t);
  return l.run(blocks, level, report);
}

// The first diagnostic has `code`, `block` and every fragment in its detail.
void expect_first(const npurt::sim::AicoreReport& rep, const char* code, uint32_t block,
                  std::initializer_list<const char*> has) {
  ASSERT_FALSE(rep.diagnostics.empty());
  const auto& d = rep.diagnostics[0];
  EXPECT_EQ(d.code, code);
  EXPECT_EQ(d.block, block);
  for (const char* h : has) EXPECT_NE(d.detail.find(h), std::string::npos) << h << " in " << d.detail;
}

TEST(SimDCache, UncleanedScalarWriteIsAFault) {
  for (npurt::SimCheckLevel level : {kBasic, kFull}) {
    npurt::sim::AicoreReport rep;
    npurt::Status s = run_writes(2, {64, 20, 0}, level, &rep);
    ASSERT_FALSE(s.is_ok()) << level_name(level);
    ASSERT_EQ(rep.diagnostics.size(), 2u);
    expect_first(rep, "ErrorDCacheClean", 0, {"'z'+0x0 was", "2 such lines", "DataCacheCleanAndInvalid"});
    EXPECT_NE(rep.diagnostics[0].message.find("kernel 'dcache_writes' block 0/2"), std::string::npos);
    EXPECT_NE(rep.diagnostics[1].detail.find("'z'+0x100"), std::string::npos);  // block 1: 64 int32 on
  }
}

TEST(SimDCache, CleanedWritesOfSeparateLinesPass) {
  for (npurt::SimCheckLevel level : {kBasic, kFull}) {
    EXPECT_TRUE(run_writes(4, {16, 16, 1}, level).is_ok()) << level_name(level);  // exactly 64 B apart
    EXPECT_TRUE(run_writes(4, {32, 20, 1}, level).is_ok()) << level_name(level);  // two lines each
    EXPECT_TRUE(run_writes(4, {16, 16, 2}, level).is_ok()) << level_name(level);  // ENTIRE_DATA_CACHE
  }
}

TEST(SimDCache, WriteAfterCleanIsDirtyAgain) {
  npurt::sim::AicoreReport rep;
  ASSERT_FALSE(run_writes(1, {16, 16, 3}, kBasic, &rep).is_ok());
  expect_first(rep, "ErrorDCacheClean", 0, {"'z'+0x0 was written"});
}

TEST(SimDCache, CleanOfOneLineLeavesTheNextDirty) {
  npurt::sim::AicoreReport rep;  // 20 values span two lines; mode 4 cleans the first only
  ASSERT_FALSE(run_writes(1, {20, 20, 4}, kBasic, &rep).is_ok());
  expect_first(rep, "ErrorDCacheClean", 0, {"'z'+0x40 was written"});
  EXPECT_EQ(rep.diagnostics[0].detail.find("such lines"), std::string::npos);
}

TEST(SimDCache, TwoBlocksSharingALineIsAFaultEvenWhenCleaned) {
  for (npurt::SimCheckLevel level : {kBasic, kFull}) {
    npurt::sim::AicoreReport rep;
    // block b writes z[8b .. 8b+8): blocks 0 and 1 share line 0 (cleaned: mode 2).
    npurt::Status s = run_writes(4, {8, 8, 2}, level, &rep);
    ASSERT_FALSE(s.is_ok()) << level_name(level);
    ASSERT_EQ(rep.diagnostics.size(), 1u);
    expect_first(rep, "ErrorDCacheShare", 1, {"blocks 0 and 1", "line at 'z'+0x0 ", ">= 64 B"});
  }
}

TEST(SimDCache, LevelOffChecksNothing) {
  EXPECT_TRUE(run_writes(4, {8, 8, 0}, kOff).is_ok());
}

TEST(SimDCache, DataCopyWritesAreNotScalarWrites) {
  for (npurt::SimCheckLevel level : {kBasic, kFull}) {
    SimLaunch l(NPURT_SIM_ENTRY(dcache::datacopy_writes), "dcache_datacopy");
    l.gm<float>(16, "x");
    float* z = l.gm<float>(4 * 16, "z");
    l.workspace(64);
    ASSERT_TRUE(l.run(4, level).is_ok()) << level_name(level);
    EXPECT_EQ(z[3 * 16 + 15], 3.0f);
  }
}

// Thousands of lines, each written many times: the log holds each line once
// (its table grows past its first size), a whole-cache clean covers them all,
// and without one the fault counts every line.
TEST(SimDCache, ManyLinesAreCountedOnceAndCleanedTogether) {
  const uint32_t lines = 5000;
  for (uint32_t mode : {2u, 5u, 1u}) EXPECT_TRUE(run_writes(2, {16 * lines, 16 * lines, mode}, kBasic).is_ok()) << mode;
  npurt::sim::AicoreReport rep;
  ASSERT_FALSE(run_writes(2, {16 * lines, 16 * lines, 0}, kBasic, &rep).is_ok());
  expect_first(rep, "ErrorDCacheClean", 0, {"'z'+0x0 was", "(5000 such lines)"});
}

// With the variable unset (or anything but "1") the check is off; "1" turns it on.
TEST(SimDCache, OnByDefaultAndTheVariableTurnsItOff) {
  const char* saved = std::getenv("NPURT_SIM_DCACHE_CHECK");
  const std::string keep = saved ? saved : "";
  auto enabled_with = [](const char* value) {
    if (value) setenv("NPURT_SIM_DCACHE_CHECK", value, 1);
    else unsetenv("NPURT_SIM_DCACHE_CHECK");
    npurt::sim::reset_dcache_check();
    return npurt::sim::dcache_check_enabled();
  };
  EXPECT_TRUE(enabled_with(nullptr));
  EXPECT_TRUE(enabled_with("1"));
  EXPECT_TRUE(enabled_with(""));
  EXPECT_FALSE(enabled_with("0"));
  EXPECT_TRUE(enabled_with(nullptr));
  EXPECT_FALSE(run_writes(4, {8, 8, 0}, kBasic).is_ok());  // on: unclean and shared lines fault
  EXPECT_FALSE(enabled_with("0"));
  EXPECT_TRUE(run_writes(4, {8, 8, 0}, kBasic).is_ok());  // off: unclean and shared lines pass
  if (saved) setenv("NPURT_SIM_DCACHE_CHECK", keep.c_str(), 1);
  else unsetenv("NPURT_SIM_DCACHE_CHECK");
  npurt::sim::set_dcache_check(true);
}

}  // namespace
