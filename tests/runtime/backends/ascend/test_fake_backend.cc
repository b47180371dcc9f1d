// The ascend backend end to end against the FAKE AscendCL (not CANN; see
// fake/fake_ascendcl.cpp). Run for both fakes: "full" (every optional entry
// point: host functions, WithHostArgs launches, MallocAlign32, device info)
// and "minimal" (required entry points only: the documented fallbacks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "fake_backend_fixture.h"

namespace npurt::ascend {
namespace {

using testing::fake_counter;
using testing::ScopedEnv;

TEST_P(FakeAscendBackend, DevicesAndProfiles) {
  EXPECT_EQ(backend_->type(), DeviceType::kAscend);
  ASSERT_EQ(backend_->device_count(), 2);
  const ChipProfile& p = backend_->profile(1);
  EXPECT_EQ(p.name, "Ascend910B3");
  // The full fake reports 18 AIC / 36 AIV and 32 GiB; the minimal one has no
  // aclrtGetDeviceInfo, so the built-in core counts and aclrtGetMemInfo's 16 GiB apply.
  EXPECT_EQ(p.cube_cores, full() ? 18u : chip_profile("Ascend910B3").cube_cores);
  EXPECT_EQ(p.vector_cores, full() ? 36u : chip_profile("Ascend910B3").vector_cores);
  EXPECT_EQ(backend_->total_memory(0), full() ? (32ull << 30) : (16ull << 30));
  EXPECT_THROW(backend_->profile(2), InvalidArgument);
  EXPECT_NE(describe_ascend_backend(*backend_).find("Ascend910B3"), std::string::npos);
}

TEST_P(FakeAscendBackend, SegmentsAre128ByteAlignedEvenWhenAclReturns64) {
  const long live0 = counter("live_device_allocs");
  EXPECT_EQ(backend_->segment_alignment(), 128u);
  for (const char* misalign : {"0", "1"}) {
    ScopedEnv m("FAKE_ACL_MISALIGN", misalign);
    std::vector<void*> segs;
    for (size_t bytes : {size_t(1), size_t(512), size_t(2) << 20, size_t(20) << 20}) {
      void* p = backend_->allocate_segment(0, bytes);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 128, 0u) << "misalign=" << misalign << " bytes=" << bytes;
      segs.push_back(p);
    }
    for (void* p : segs) backend_->free_segment(0, p, 0);
  }
  EXPECT_EQ(counter("live_device_allocs"), live0);
  EXPECT_GT(counter(full() ? "malloc_align32" : "malloc"), 0);
}

TEST_P(FakeAscendBackend, OutOfMemoryReturnsNullAndBadSizeThrows) {
  ScopedEnv limit("FAKE_ACL_MEMORY_LIMIT", std::to_string(1 << 20));
  EXPECT_EQ(backend_->allocate_segment(0, size_t(4) << 20), nullptr);
  EXPECT_THROW(backend_->allocate_segment(0, 0), InvalidArgument);
  EXPECT_THROW(backend_->allocate_segment(5, 64), InvalidArgument);
}

TEST_P(FakeAscendBackend, CopyLaunchCopyBackMatchesReference) {
  for (size_t n : {size_t(1), size_t(15), size_t(33), size_t(1023), size_t(100000)}) {
    std::vector<float> host(n), out(n, -1.0f);
    for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.5f - 3.0f;
    void* d_in = alloc(n * 4);
    void* d_out = alloc(n * 4);
    auto stream = backend_->create_stream(0);
    stream->submit(copy(d_in, host.data(), n * 4, CopyKind::kHostToDevice));
    stream->submit(launch(add_one(d_in, d_out, n, 2.25f, 7)));
    stream->submit(copy(out.data(), d_out, n * 4, CopyKind::kDeviceToHost));
    Status s = stream->synchronize();
    ASSERT_TRUE(s.is_ok()) << s.message();
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], host[i] + 2.25f) << "n=" << n << " i=" << i;
    stream.reset();
    backend_->free_segment(0, d_in, n * 4);
    backend_->free_segment(0, d_out, n * 4);
  }
  EXPECT_EQ(counter("live_pinned_allocs"), 0);  // staging released
  EXPECT_GT(counter(full() ? "launch_host_args" : "launch_with_config"), 0);
}

TEST_P(FakeAscendBackend, CopyReadsHostMemoryInStreamOrder) {
  // A host function writes the source buffer; the H2D copy after it must see the new value.
  // (full: both run on the stream; minimal: both run in order on the caller after a synchronize.)
  std::vector<float> src(64, 1.0f), out(64, 0.0f);
  void* d = alloc(64 * 4);
  auto stream = backend_->create_stream(0);
  Command fn;
  fn.kind = Command::Kind::kHostFunc;
  fn.host_fn = [&src] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (float& v : src) v = 7.0f;
  };
  stream->submit(std::move(fn));
  stream->submit(copy(d, src.data(), 64 * 4, CopyKind::kHostToDevice));
  stream->submit(copy(out.data(), d, 64 * 4, CopyKind::kDeviceToHost));
  ASSERT_TRUE(stream->synchronize().is_ok());
  for (float v : out) ASSERT_EQ(v, 7.0f);
  backend_->free_segment(0, d, 0);
}

TEST_P(FakeAscendBackend, HostFunctionErrorBecomesStreamErrorOnce) {
  auto stream = backend_->create_stream(0);
  Command fn;
  fn.kind = Command::Kind::kHostFunc;
  fn.host_fn = [] { throw InvalidArgument("user_fn: argument 'x': bad"); };
  stream->set_name("stream 3 on ascend:0");
  stream->submit(std::move(fn));
  Status s = stream->synchronize();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("stream 3 on ascend:0: ", 0), 0u) << s.message();
  EXPECT_NE(s.message().find("user_fn: argument 'x': bad"), std::string::npos) << s.message();
  EXPECT_TRUE(stream->synchronize().is_ok());  // cleared
}

TEST_P(FakeAscendBackend, DeviceFaultSurfacesWithAclCodeAndLaterWorkRuns) {
  auto stream = backend_->create_stream(0);
  KernelLaunch bad;
  bad.kernel_name = "fake_fail";
  stream->submit(launch(bad));
  Status s = stream->synchronize();
  EXPECT_EQ(s.code(), StatusCode::kKernelFault);
  EXPECT_NE(s.message().find("507015"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("fake_fail"), std::string::npos) << s.message();
  void* d = alloc(128);
  std::vector<uint8_t> out(128, 0);
  Command ms;
  ms.kind = Command::Kind::kMemset;
  ms.dst = d;
  ms.bytes = 128;
  ms.memset_value = 0x5A;
  stream->submit(std::move(ms));
  stream->submit(copy(out.data(), d, 128, CopyKind::kDeviceToHost));
  ASSERT_TRUE(stream->synchronize().is_ok());
  for (uint8_t v : out) ASSERT_EQ(v, 0x5A);
  backend_->free_segment(0, d, 0);
}

TEST_P(FakeAscendBackend, UnknownKernelIsNotFoundOnTheStream) {
  auto stream = backend_->create_stream(0);
  KernelLaunch l;
  l.kernel_name = "no_such_kernel";
  stream->submit(launch(l));
  Status s = stream->synchronize();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("no_such_kernel"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(kernel_dir_), std::string::npos) << s.message();
}

// Backend::kernel_function (what the dispatcher calls before allocating):
// resolved from the binaries once per (device, name), then cached.
TEST_P(FakeAscendBackend, KernelFunctionIsResolvedOnceAndCached) {
  void* fn = backend_->kernel_function(0, "fake_add_one");
  ASSERT_NE(fn, nullptr);
  const long loads = counter("binary_loads");
  EXPECT_EQ(backend_->kernel_function(0, "fake_add_one"), fn);
  EXPECT_NE(backend_->kernel_function(0, "fake_fail"), fn);
  EXPECT_EQ(counter("binary_loads"), loads);  // the binary is not loaded again
  try {
    backend_->kernel_function(0, "no_such_kernel");
    FAIL() << "an unknown kernel resolved";
  } catch (const NotFound& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(kernel_dir_), std::string::npos) << e.what();
  }
  EXPECT_THROW(backend_->kernel_function(5, "fake_add_one"), InvalidArgument);  // no such device
  // A launch carrying the resolved function runs it.
  const size_t n = 33;
  void* in = alloc(n * 4);
  void* out = alloc(n * 4);
  std::vector<float> host(n, 1.5f), result(n, 0.0f);
  auto stream = backend_->create_stream(0);
  stream->submit(copy(in, host.data(), n * 4, CopyKind::kHostToDevice));
  KernelLaunch l = add_one(in, out, n, 2.0f, 2);
  l.device_function = fn;
  stream->submit(launch(l));
  stream->submit(copy(result.data(), out, n * 4, CopyKind::kDeviceToHost));
  ASSERT_TRUE(stream->synchronize().is_ok());
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], 3.5f) << i;
  stream.reset();
  backend_->free_segment(0, in, n * 4);
  backend_->free_segment(0, out, n * 4);
}

TEST_P(FakeAscendBackend, EventsOrderTwoStreams) {
  const size_t n = 4096;
  std::vector<float> host(n, 1.0f), out(n, 0.0f);
  void* a = alloc(n * 4);
  void* b = alloc(n * 4);
  auto s1 = backend_->create_stream(0);
  auto s2 = backend_->create_stream(0);
  auto ev = backend_->create_event(0, false);
  EXPECT_TRUE(ev->completed(0));
  s1->submit(copy(a, host.data(), n * 4, CopyKind::kHostToDevice));
  s1->submit(launch(add_one(a, a, n, 1.0f, 4)));
  Command rec;
  rec.kind = Command::Kind::kEventRecord;
  rec.event = ev;
  s1->submit(std::move(rec));
  const uint64_t gen = ev->recorded_generation();
  EXPECT_EQ(gen, 1u);
  Command wait;
  wait.kind = Command::Kind::kEventWait;
  wait.event = ev;
  wait.event_generation = gen;
  s2->submit(std::move(wait));
  s2->submit(launch(add_one(a, b, n, 10.0f, 2)));
  s2->submit(copy(out.data(), b, n * 4, CopyKind::kDeviceToHost));
  ASSERT_TRUE(s2->synchronize().is_ok());
  EXPECT_TRUE(ev->wait(gen).is_ok());
  EXPECT_TRUE(ev->completed(gen));
  EXPECT_FALSE(ev->completed(gen + 1));
  EXPECT_FALSE(ev->wait(gen + 1).is_ok());
  for (float v : out) ASSERT_EQ(v, 12.0f);
  ASSERT_TRUE(s1->synchronize().is_ok());
  backend_->free_segment(0, a, 0);
  backend_->free_segment(0, b, 0);
}

TEST_P(FakeAscendBackend, MarksAreMonotonicAndReachedAfterSync) {
  auto stream = backend_->create_stream(0);
  Command slow;
  slow.kind = Command::Kind::kHostFunc;
  slow.host_fn = [] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); };
  uint64_t m0 = stream->mark();
  stream->submit(std::move(slow));
  uint64_t m1 = stream->mark();
  EXPECT_LT(m0, m1);
  if (full()) {
    EXPECT_FALSE(stream->reached(m1));  // the host function is still sleeping
  }
  ASSERT_TRUE(stream->synchronize().is_ok());
  EXPECT_TRUE(stream->reached(m1));
  EXPECT_TRUE(stream->reached(m0));
  Status err;
  EXPECT_TRUE(stream->query(&err));
  EXPECT_TRUE(err.is_ok());
}

TEST_P(FakeAscendBackend, TimingEventsGiveIncreasingTimestamps) {
  auto stream = backend_->create_stream(0);
  auto e1 = backend_->create_event(0, true);
  auto e2 = backend_->create_event(0, true);
  Command r1;
  r1.kind = Command::Kind::kEventRecord;
  r1.event = e1;
  stream->submit(std::move(r1));
  Command sleep;
  sleep.kind = Command::Kind::kHostFunc;
  sleep.host_fn = [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); };
  stream->submit(std::move(sleep));
  Command r2;
  r2.kind = Command::Kind::kEventRecord;
  r2.event = e2;
  stream->submit(std::move(r2));
  ASSERT_TRUE(stream->synchronize().is_ok());
  ASSERT_TRUE(e2->completed(1));
  int64_t t1 = e1->timestamp_ns(), t2 = e2->timestamp_ns();
  EXPECT_GE(t2 - t1, 25'000'000) << t1 << " " << t2;
  EXPECT_LT(t2 - t1, 5'000'000'000) << t1 << " " << t2;
  auto plain = backend_->create_event(0, false);
  EXPECT_THROW(plain->timestamp_ns(), Error);
}

TEST_P(FakeAscendBackend, WorksFromOtherThreads) {
  // AscendCL's current device is per thread; the backend must bind it itself.
  std::vector<float> out(256, 0.0f);
  std::thread t([&] {
    void* d = backend_->allocate_segment(1, 256 * 4);
    auto stream = backend_->create_stream(1);
    Command ms;
    ms.kind = Command::Kind::kMemset;
    ms.dst = d;
    ms.bytes = 256 * 4;
    stream->submit(std::move(ms));
    stream->submit(copy(out.data(), d, 256 * 4, CopyKind::kDeviceToHost));
    EXPECT_TRUE(stream->synchronize().is_ok());
    stream.reset();
    backend_->free_segment(1, d, 0);
  });
  t.join();
  for (float v : out) ASSERT_EQ(v, 0.0f);
}

TEST_P(FakeAscendBackend, CopySyncAllKinds) {
  std::vector<int32_t> a(100), b(100, 0), c(100, 0);
  for (int i = 0; i < 100; ++i) a[i] = i * i;
  void* d1 = alloc(400);
  void* d2 = alloc(400);
  backend_->copy_sync(d1, a.data(), 400, CopyKind::kHostToDevice, 0);
  backend_->copy_sync(d2, d1, 400, CopyKind::kDeviceToDevice, 0);
  backend_->copy_sync(b.data(), d2, 400, CopyKind::kDeviceToHost, 0);
  backend_->copy_sync(c.data(), b.data(), 400, CopyKind::kHostToHost, 0);
  EXPECT_EQ(c, a);
  // Wrong kind: the fake rejects it like AscendCL; the error names the call and the code.
  try {
    backend_->copy_sync(b.data(), a.data(), 400, CopyKind::kDeviceToHost, 0);
    FAIL() << "bad copy accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("aclrtMemcpy: AscendCL error 107000"), std::string::npos) << e.what();
  }
  backend_->free_segment(0, d1, 0);
  backend_->free_segment(0, d2, 0);
}

TEST_P(FakeAscendBackend, NothingLeaksAfterTeardown) {
  const long streams0 = counter("live_streams");
  {
    auto stream = backend_->create_stream(0);
    auto ev = backend_->create_event(0, false);
    std::vector<float> host(1000, 1.0f);
    void* d = alloc(4000);
    stream->submit(copy(d, host.data(), 4000, CopyKind::kHostToDevice));
    Command rec;
    rec.kind = Command::Kind::kEventRecord;
    rec.event = ev;
    stream->submit(std::move(rec));
    stream->mark();
    ASSERT_TRUE(stream->synchronize().is_ok());
    backend_->free_segment(0, d, 0);
  }
  EXPECT_EQ(counter("live_streams"), streams0);
  EXPECT_EQ(counter("live_pinned_allocs"), 0);
  auto l = add_one(nullptr, nullptr, 0, 0.0f, 1);  // loads the kernel binary
  auto stream = backend_->create_stream(0);
  stream->submit(launch(l));
  EXPECT_FALSE(stream->synchronize().is_ok());  // n=0 with null pointers: the fake kernel faults
  stream.reset();
  EXPECT_EQ(counter("binary_loads"), binaries_before_ + 1);
  backend_.reset();
  EXPECT_EQ(counter("binary_loads"), binaries_before_);   // unloaded with the backend
  EXPECT_EQ(counter("live_events"), events_before_);      // pooled events destroyed with the context
}

INSTANTIATE_TEST_SUITE_P(Variants, FakeAscendBackend, ::testing::Values("full", "minimal"));

}  // namespace
}  // namespace npurt::ascend
