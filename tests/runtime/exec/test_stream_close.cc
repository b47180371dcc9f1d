// Closing a stream with work still queued: close() drains it (the regression
// behind tests/python/test_errors.py::test_closed_stream, where an upload
// queued on a stream that was then closed was read back before it had run,
// because reads of a closed stream's arrays fall back to synchronize_device,
// which skipped closed streams). Each case holds the stream busy while close()
// is called, so the pending-work window is hit on every iteration.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

using namespace std::chrono_literals;
const Device kDev{DeviceType::kSim, 0};

TEST(StreamClose, DrainsAPendingUploadBeforeReturning) {
  constexpr int kIters = 300;
  constexpr size_t kN = 64;
  for (int it = 0; it < kIters; ++it) {
    Stream s = Stream::create(kDev);
    Tensor t = Tensor::empty({static_cast<int64_t>(kN)}, DType::kFloat32, s);
    std::vector<float> src(kN), back(kN, -1.0f);
    for (size_t i = 0; i < kN; ++i) src[i] = static_cast<float>(i + it);
    s.host_func([] { std::this_thread::sleep_for(50us); });  // keeps the upload pending
    copy_from_host(t, src.data(), kN * sizeof(float), s, /*blocking=*/false);
    s.close();
    ASSERT_TRUE(s.closed());
    // What the Python layer does to read an array of a closed stream.
    synchronize_device(kDev);
    Stream reader = Stream::default_stream(kDev);
    copy_to_host(back.data(), t, kN * sizeof(float), reader, /*blocking=*/true);
    ASSERT_EQ(0, std::memcmp(src.data(), back.data(), kN * sizeof(float))) << "iteration " << it;
  }
}

TEST(StreamClose, RunsEveryQueuedHostFunction) {
  for (int it = 0; it < 200; ++it) {
    Stream s = Stream::create(kDev);
    std::atomic<int> ran{0};
    for (int k = 0; k < 4; ++k)
      s.host_func([&ran] {
        std::this_thread::sleep_for(20us);
        ran.fetch_add(1, std::memory_order_relaxed);
      });
    s.close();
    ASSERT_EQ(ran.load(), 4) << "iteration " << it;
    EXPECT_THROW(s.host_func([] {}), InvalidArgument);  // closed: refused cleanly, nothing queued
  }
}

TEST(StreamClose, ReportsAFaultOfTheDrainedWorkOnce) {
  Stream s = Stream::create(kDev);
  std::vector<char> not_device(64), host(64);
  // A raw copy into memory the pool does not own fails on the stream (see test_copy.cc).
  s.memcpy_async(not_device.data(), host.data(), 64, CopyKind::kHostToDevice);
  EXPECT_THROW(s.close(), Error);
  EXPECT_TRUE(s.closed());
  EXPECT_NO_THROW(s.close());  // the fault was reported; closing again is a no-op drain
}

TEST(StreamClose, ConcurrentCloseAndDeviceSynchronizeAreSafe) {
  for (int it = 0; it < 50; ++it) {
    Stream s = Stream::create(kDev);
    std::atomic<int> ran{0};
    for (int k = 0; k < 8; ++k) s.host_func([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    std::thread other([] { synchronize_device(kDev); });
    s.close();
    other.join();
    ASSERT_EQ(ran.load(), 8);
  }
}

}  // namespace
}  // namespace npurt
