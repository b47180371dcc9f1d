// tests/runtime/backends/sim/aicore/test_faults.cc: every kernel of the faulty
// corpus is caught with the right code, block and API; correct kernels are
// clean at full; a faulting launch leaves the next launch unaffected.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "aicore_test_util.h"
#include "kernels/faulty_kernels.h"

using namespace aicore_test;

namespace {

struct FaultCase {
  const char* name;
  npurt::SimKernelEntry entry;
  npurt::SimCheckLevel level;  // lowest level that must catch it
  uint32_t blocks;
  const char* code;
  const char* api;
  uint32_t block;              // first faulting block
  const char* detail_has;      // a fragment the detail must contain
};

#define ENTRY(k) NPURT_SIM_ENTRY(faulty::k)
const FaultCase kCases[] = {
    {"ub_overflow", ENTRY(ub_overflow), kBasic, 2, "ErrorInitBuffer", "TPipe::InitBuffer", 0, "capacity of 196352"},
    {"too_many_buffers", ENTRY(too_many_buffers), kBasic, 1, "ErrorBufferCount", "TPipe::InitBuffer", 0, "65 buffers"},
    {"misaligned_datacopy", ENTRY(misaligned_datacopy), kBasic, 1, "ErrorWrite4", "DataCopy", 0, "UB+0xc"},
    {"datacopy_count", ENTRY(datacopy_count_not_32b), kBasic, 1, "ErrorDataCopyCount", "DataCopy", 0, "40 B"},
    {"gm_read_past_end", ENTRY(gm_read_past_end), kBasic, 4, "ErrorGmRead", "DataCopy", 3, "outside its allocation 'x'"},
    {"gm_write_past_end", ENTRY(gm_write_past_end), kBasic, 4, "ErrorGmWrite", "DataCopy", 2, "outside its allocation 'z'"},
    {"gm_write_past_size", ENTRY(gm_write_past_size), kBasic, 3, "ErrorGmWrite", "DataCopy", 0, "SetGlobalBuffer size"},
    {"gm_scalar_read", ENTRY(gm_scalar_read_past_size), kBasic, 1, "ErrorGmRead", "GlobalTensor::GetValue", 0, "SetGlobalBuffer size"},
    {"gm_outside_regions", ENTRY(gm_pointer_outside_regions), kBasic, 1, "ErrorGmRead", "GlobalTensor::GetValue", 0, "not inside any GM allocation"},
    {"alloc_no_free_buffer", ENTRY(alloc_without_free_buffer), kBasic, 1, "ErrorQueue", "TQue::AllocTensor", 0, "no FREE buffer"},
    {"deque_empty", ENTRY(deque_empty), kBasic, 1, "ErrorQueue", "TQue::DeQue", 0, "empty"},
    {"double_free", ENTRY(double_free), kBasic, 1, "ErrorFree", "TQue::FreeTensor", 0, "already FREE"},
    {"enque_foreign", ENTRY(enque_foreign_tensor), kBasic, 1, "ErrorBuffer1", "TQue::EnQue", 0, "another queue"},
    {"enque_full", ENTRY(enque_full_queue), kBasic, 1, "ErrorQueue", "TQue::EnQue", 0, "already holds 1"},
    {"free_enqueued", ENTRY(free_enqueued), kBasic, 1, "ErrorQueue", "TQue::FreeTensor", 0, "DeQue it before FreeTensor"},
    {"enque_freed", ENTRY(enque_freed), kBasic, 1, "ErrorQueue", "TQue::EnQue", 0, "is FREE; EnQue needs"},
    {"alloc_uninitialised", ENTRY(alloc_uninitialised), kBasic, 1, "ErrorBuffer0", "TQue::AllocTensor", 0, "not initialised"},
    {"leak", ENTRY(leak_tensor), kBasic, 4, "ErrorLeak", "kernel end", uint32_t(faulty::kFaultBlock), "OCCUPIED"},
    {"use_after_free", ENTRY(use_after_free), kBasic, 1, "ErrorRead1", "DataCopy", 0, "FREE"},
    {"local_write_past", ENTRY(local_write_past_tensor), kBasic, 1, "ErrorWrite2", "DataCopy", 0, "only 256 bytes"},
    {"local_scalar_read_past", ENTRY(local_scalar_read_past_tensor), kBasic, 1, "ErrorRead3", "LocalTensor::GetValue", 0, "only 64 bytes"},
    {"not_from_initbuffer", ENTRY(tensor_not_from_initbuffer), kBasic, 1, "ErrorBuffer0", "DataCopy", 0, "default-constructed"},
    {"second_tpipe", ENTRY(second_tpipe), kBasic, 1, "ErrorBuffer4", "TPipe::TPipe", 0, "one TPipe"},
    {"bad_event_id", ENTRY(bad_event_id), kBasic, 1, "ErrorParam", "SetFlag", 0, "outside 0..7"},
    {"reset_with_live_tensor", ENTRY(reset_with_live_tensor), kBasic, 3, "ErrorBuffer4", "TPipe::Reset", 1, "still in use"},
    {"throws", ENTRY(throws_exception), kBasic, 1, "ErrorException", "kernel", 0, "tiling says no"},
    {"tiling_too_small", ENTRY(tiling_too_small), kBasic, 1, "ErrorGmRead", "GET_TILING_DATA", 0, "'tiling'"},
    {"missing_sync", ENTRY(missing_sync), kFull, 3, "ErrorSync2", "DataCopy", 0, "PIPE_MTE2"},
    {"scalar_read_without_v_s", ENTRY(scalar_read_without_v_s), kFull, 2, "ErrorSync2", "LocalTensor::GetValue", 0, "PIPE_V (Duplicate)"},
    {"vector_op_on_l1", ENTRY(vector_op_on_l1), kBasic, 1, "ErrorBuffer2", "Duplicate", 0, "needs UB"},
    {"wait_without_set", ENTRY(wait_without_set), kFull, 1, "ErrorSync3", "WaitFlag", 0, "without a preceding SetFlag"},
    {"set_without_wait", ENTRY(set_without_wait), kFull, 1, "ErrorSync3", "kernel end", 0, "V_MTE3"},
    {"double_set_flag", ENTRY(double_set_flag), kFull, 1, "ErrorSync4", "SetFlag", 0, "still set"},
    {"overlapping_writes", ENTRY(overlapping_block_writes), kFull, 5, "ErrorMultiCoreWrite", "GM write", 1, "blocks 0 and 1"},
    {"uninitialised_read", ENTRY(uninitialised_read), kFull, 2, "ErrorRead2", "DataCopy", 0, "never written"},
    {"overwrite_enqueued", ENTRY(overwrite_enqueued), kFull, 1, "ErrorWrite3", "DataCopy", 0, "not yet dequeued"},
};
#undef ENTRY

// readonly_x: mark x read-only, so its GM -> UB copies are elided (copy_elision.h):
// every fault must still be raised exactly as with eager copies.
npurt::Status run_case(const FaultCase& c, npurt::SimCheckLevel level,
                       npurt::sim::AicoreReport* report, bool readonly_x = false) {
  SimLaunch L(c.entry, c.name);
  if (readonly_x) L.launch().readonly_arg_mask = 1;
  float* x = L.gm<float>(faulty::kFaultGmFloats, "x");
  L.gm<float>(faulty::kFaultGmFloats, "z");
  for (uint32_t i = 0; i < faulty::kFaultGmFloats; ++i) x[i] = float(i);
  L.tiling(uint32_t{7});
  return L.run(c.blocks, level, report);
}

// After any fault, a correct kernel on the same threads runs clean at full.
void expect_next_launch_clean() {
  SimLaunch L(NPURT_SIM_ENTRY(faulty::synced_with_flags), "synced_with_flags");
  const uint32_t total = faulty::kFaultGmFloats;  // 4 blocks x 64 floats
  float* x = L.gm<float>(total);
  float* z = L.gm<float>(total);
  for (uint32_t i = 0; i < total; ++i) x[i] = float(i) + 0.25f;
  npurt::Status s = L.run(4, kFull);
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(0, std::memcmp(x, z, total * sizeof(float)));
}

class FaultCorpus : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultCorpus, CaughtWithCodeBlockAndApi) {
  const FaultCase& c = GetParam();
  for (int readonly_x = 0; readonly_x < 2; ++readonly_x)
  for (auto level : {kBasic, kFull}) {
    if (level < c.level) continue;
    npurt::sim::AicoreReport report;
    npurt::Status s = run_case(c, level, &report, readonly_x != 0);
    ASSERT_EQ(s.code(), npurt::StatusCode::kKernelFault) << c.name << " at " << level_name(level);
    ASSERT_FALSE(report.diagnostics.empty());
    const auto& d = report.diagnostics.front();
    EXPECT_EQ(d.code, c.code) << s.message();
    EXPECT_EQ(d.api, c.api) << s.message();
    EXPECT_EQ(d.block, c.block) << s.message();
    EXPECT_NE(d.detail.find(c.detail_has), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(std::string("kernel '") + c.name + "' block " + std::to_string(c.block)),
              std::string::npos) << s.message();
    EXPECT_NE(s.message().find(c.code), std::string::npos);
    expect_next_launch_clean();
  }
}

std::string case_name(const ::testing::TestParamInfo<FaultCase>& i) { return i.param.name; }

INSTANTIATE_TEST_SUITE_P(Aicore, FaultCorpus, ::testing::ValuesIn(kCases), case_name);

std::vector<FaultCase> full_only_cases() {
  std::vector<FaultCase> v;
  for (const FaultCase& c : kCases)
    if (c.level == kFull) v.push_back(c);
  return v;
}

class FullOnlyFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FullOnlyFaults, StayQuietAtBasic) {
  const FaultCase& c = GetParam();
  for (bool readonly_x : {false, true}) {
    npurt::Status s = run_case(c, kBasic, nullptr, readonly_x);
    EXPECT_TRUE(s.is_ok()) << c.name << ": " << s.message();
  }
}

INSTANTIATE_TEST_SUITE_P(Aicore, FullOnlyFaults, ::testing::ValuesIn(full_only_cases()), case_name);

TEST(AicoreFaults, SyncedVariantsOfTheMissingSyncKernelAreClean) {
  for (auto entry : {NPURT_SIM_ENTRY(faulty::synced_with_flags),
                     NPURT_SIM_ENTRY(faulty::synced_with_barrier)}) {
    SimLaunch L(entry, "synced");
    float* x = L.gm<float>(faulty::kFaultGmFloats);
    float* z = L.gm<float>(faulty::kFaultGmFloats);
    for (uint32_t i = 0; i < faulty::kFaultGmFloats; ++i) x[i] = float(i) * 3;
    npurt::Status s = L.run(4, kFull);
    ASSERT_TRUE(s.is_ok()) << s.message();
    ASSERT_EQ(0, std::memcmp(x, z, faulty::kFaultGmFloats * sizeof(float)));
  }
}

TEST(AicoreFaults, ScalarReadAfterVectorWithFlagsIsClean) {
  SimLaunch L(NPURT_SIM_ENTRY(faulty::scalar_read_with_v_s), "v_s");
  L.gm<float>(faulty::kFaultGmFloats);
  float* z = L.gm<float>(faulty::kFaultGmFloats);
  npurt::Status s = L.run(4, kFull);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int b = 0; b < 4; ++b) EXPECT_EQ(z[16 * b], 3.0f);
}

TEST(AicoreFaults, EveryFaultingBlockIsReportedAndOthersFinish) {
  // gm_read_past_end faults only in block 3 of 4; every block of a launch
  // where all fault is listed once, in block order.
  npurt::sim::AicoreReport report;
  SimLaunch L(NPURT_SIM_ENTRY(faulty::datacopy_count_not_32b), "count");
  L.gm<float>(faulty::kFaultGmFloats);
  L.gm<float>(faulty::kFaultGmFloats);
  npurt::Status s = L.run(6, kBasic, &report);
  ASSERT_EQ(report.diagnostics.size(), 6u);
  for (uint32_t b = 0; b < 6; ++b) EXPECT_EQ(report.diagnostics[b].block, b);
  EXPECT_NE(s.message().find("5 more block(s) faulted"), std::string::npos) << s.message();
}

TEST(AicoreFaults, OffLevelSkipsChecksButStillRunsCorrectKernels) {
  // At off the non-32-B count is rounded down like on the NPU, no diagnostic.
  SimLaunch L(NPURT_SIM_ENTRY(faulty::datacopy_count_not_32b), "count");
  L.gm<float>(faulty::kFaultGmFloats);
  L.gm<float>(faulty::kFaultGmFloats);
  EXPECT_TRUE(L.run(2, kOff).is_ok());
  expect_next_launch_clean();
}

TEST(AicoreFaults, DataCopyPadUnsupportedOn310P) {
  SimLaunch L(NPURT_SIM_ENTRY(faulty::datacopy_pad_unsupported), "pad310p");
  L.set_profile(npurt::chip_profile("Ascend310P3"));
  L.gm<float>(faulty::kFaultGmFloats);
  L.gm<float>(faulty::kFaultGmFloats);
  npurt::sim::AicoreReport report;
  npurt::Status s = L.run(1, kBasic, &report);
  ASSERT_EQ(report.diagnostics.size(), 1u) << s.message();
  EXPECT_EQ(report.diagnostics[0].code, "ErrorParam");
  EXPECT_NE(s.message().find("not supported on Ascend310P3"), std::string::npos) << s.message();
}

TEST(AicoreFaults, WrongArgumentCountIsErrorArgs) {
  SimLaunch L(NPURT_SIM_ENTRY(faulty::deque_empty), "args");
  L.gm<float>(4);  // the entry takes x, z, workspace, tiling: one argument missing
  npurt::sim::AicoreReport report;
  npurt::Status s = L.run(2, kBasic, &report);
  ASSERT_EQ(report.diagnostics.size(), 2u);
  EXPECT_EQ(report.diagnostics[0].code, "ErrorArgs");
  EXPECT_NE(s.message().find("3 argument slots"), std::string::npos) << s.message();
}

// Destructors of kernel objects run when a check unwinds the kernel.
std::atomic<int> g_destroyed{0};
struct Sentinel {
  ~Sentinel() { g_destroyed.fetch_add(1); }
};
extern "C" __global__ __aicore__ void faults_after_raii(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  Sentinel s;
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x, 8);
  AscendC::LocalTensor<float> t = q.AllocTensor<float>();
  AscendC::DataCopy(t, g, 64);  // past SetGlobalBuffer's size
}

TEST(AicoreFaults, FaultUnwindsKernelRunningDestructors) {
  g_destroyed = 0;
  SimLaunch L(NPURT_SIM_ENTRY(faults_after_raii), "raii");
  L.gm<float>(64);
  npurt::Status s = L.run(9, kBasic);
  EXPECT_EQ(s.code(), npurt::StatusCode::kKernelFault);
  EXPECT_EQ(g_destroyed.load(), 9);
  expect_next_launch_clean();  // the TPipe of the faulted kernel is gone
}

TEST(AicoreFaults, MissingTilingIsCaughtEvenWithChecksOff) {
  SimLaunch L(NPURT_SIM_ENTRY(faulty::tiling_too_small), "no_tiling");
  L.gm<float>(4);
  L.gm<float>(4);
  npurt::sim::AicoreReport report;
  npurt::Status s = L.run(2, kOff, &report);
  ASSERT_EQ(report.diagnostics.size(), 2u) << s.message();
  EXPECT_EQ(report.diagnostics[0].code, "ErrorGmRead");
  EXPECT_NE(s.message().find("no tiling data"), std::string::npos) << s.message();
}

TEST(AicoreFaults, ConcurrentLaunchesStayIsolated) {
  // Two "streams" launch at once on the shared pool: faults of one never leak
  // into the other, in either direction.
  std::atomic<int> clean_ok{0}, faults_seen{0};
  auto clean = [&] {
    for (int i = 0; i < 20; ++i) {
      SimLaunch L(NPURT_SIM_ENTRY(faulty::synced_with_flags), "clean");
      float* x = L.gm<float>(faulty::kFaultGmFloats);
      float* z = L.gm<float>(faulty::kFaultGmFloats);
      for (uint32_t k = 0; k < faulty::kFaultGmFloats; ++k) x[k] = float(k + i);
      if (L.run(4, kFull).is_ok() && std::memcmp(x, z, faulty::kFaultGmFloats * 4) == 0) ++clean_ok;
    }
  };
  auto faulty_loop = [&] {
    for (int i = 0; i < 20; ++i) {
      SimLaunch L(NPURT_SIM_ENTRY(faulty::leak_tensor), "leaky");
      L.gm<float>(4);
      L.gm<float>(4);
      npurt::sim::AicoreReport r;
      L.run(4, kFull, &r);
      if (r.diagnostics.size() == 1 && r.diagnostics[0].code == "ErrorLeak") ++faults_seen;
    }
  };
  std::thread a(clean), b(faulty_loop);
  a.join();
  b.join();
  EXPECT_EQ(clean_ok.load(), 20);
  EXPECT_EQ(faults_seen.load(), 20);
}

TEST(AicoreFaults, InvalidLaunchesAreRejected) {
  SimLaunch L(nullptr, "no_entry");
  EXPECT_EQ(L.run(1, kBasic).code(), npurt::StatusCode::kInvalidArgument);
  SimLaunch M(NPURT_SIM_ENTRY(faulty::deque_empty), "blocks");
  EXPECT_EQ(M.run(0, kBasic).code(), npurt::StatusCode::kInvalidArgument);
  EXPECT_EQ(M.run(65536, kBasic).code(), npurt::StatusCode::kInvalidArgument);
}

TEST(AicoreFaults, KernelApiOutsideALaunchIsAnError) {
  EXPECT_THROW(AscendC::GetBlockIdx(), npurt::Error);
}

}  // namespace
