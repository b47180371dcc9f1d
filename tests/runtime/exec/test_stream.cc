// Streams: FIFO order, cross-stream events, concurrency of independent
// streams, query/synchronize, errors surfacing at the right place, current
// stream handling and use from many threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/exec/gate.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

using namespace std::chrono_literals;
const Device kDev{DeviceType::kSim, 0};

TEST(Stream, RunsWorkInSubmitOrder) {
  Stream s = Stream::create(kDev);
  std::vector<int> seen;
  for (int i = 0; i < 2000; ++i) s.host_func([&seen, i] { seen.push_back(i); });
  s.synchronize();
  ASSERT_EQ(seen.size(), 2000u);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(seen[i], i);
}

TEST(Stream, EnqueueDoesNotBlockAndQueryReportsBusy) {
  Stream s = Stream::create(kDev);
  test::Gate gate;
  auto t0 = std::chrono::steady_clock::now();
  gate.block(s);
  s.host_func([] {});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  EXPECT_FALSE(s.query());
  gate.open();
  s.synchronize();
  EXPECT_TRUE(s.query());
}

TEST(Stream, EventWaitOrdersWorkAcrossStreams) {
  Stream producer = Stream::create(kDev), consumer = Stream::create(kDev);
  test::Gate gate;
  std::atomic<int> value{0};
  int observed = -1;
  gate.block(producer);
  producer.host_func([&] { value = 42; });
  Event e(kDev);
  producer.record_event(e);
  EXPECT_FALSE(e.query());
  consumer.wait_event(e);
  consumer.host_func([&] { observed = value.load(); });
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(consumer.query()) << "consumer must wait for the producer's event";
  gate.open();
  consumer.synchronize();
  EXPECT_EQ(observed, 42);
  EXPECT_TRUE(e.query());
}

TEST(Stream, IndependentStreamsRunConcurrently) {
  // Each stream waits for a flag only the other stream sets: serial execution would time out.
  Stream a = Stream::create(kDev), b = Stream::create(kDev);
  test::Gate a_ran, b_ran;
  bool a_saw_b = false, b_saw_a = false;
  a.host_func([&] {
    a_ran.open();
    a_saw_b = b_ran.wait(5s);
  });
  b.host_func([&] {
    b_ran.open();
    b_saw_a = a_ran.wait(5s);
  });
  a.synchronize();
  b.synchronize();
  EXPECT_TRUE(a_saw_b);
  EXPECT_TRUE(b_saw_a);
}

TEST(Stream, ErrorSurfacesAtTheNextSynchronizeOfThatStreamOnly) {
  Stream bad = Stream::create(kDev), good = Stream::create(kDev);
  std::atomic<int> after{0};
  bad.host_func([] { throw InvalidArgument("first failure"); });
  bad.host_func([] { throw KernelFault("second failure"); });
  bad.host_func([&] { after = 1; });  // later work still runs
  good.host_func([] {});
  EXPECT_NO_THROW(good.synchronize());
  try {
    bad.synchronize();
    FAIL() << "expected the recorded error";
  } catch (const InvalidArgument& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("stream " + std::to_string(bad.id()) + " on sim:0: host function: first failure"),
              std::string::npos)
        << m;
  }
  EXPECT_EQ(after.load(), 1);
  EXPECT_NO_THROW(bad.synchronize()) << "the error is cleared once raised";
  bad.host_func([] { throw Error(StatusCode::kInternal, "via query"); });
  while (true) {
    try {
      if (bad.query()) break;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("via query"), std::string::npos);
      break;
    }
  }
  int ran = 0;
  bad.host_func([&] { ran = 1; });
  bad.synchronize();
  EXPECT_EQ(ran, 1) << "stream stays usable";
}

TEST(Stream, EventRecordedAfterAFailureReportsIt) {
  Stream s = Stream::create(kDev);
  Event before(kDev), after(kDev);
  s.record_event(before);
  s.host_func([] { throw KernelFault("fault in kernel"); });
  s.record_event(after);
  EXPECT_NO_THROW(before.synchronize());
  EXPECT_THROW(after.synchronize(), KernelFault);
  EXPECT_THROW(s.synchronize(), KernelFault);
}

TEST(Stream, ElapsedTimeBetweenEvents) {
  Stream s = Stream::create(kDev);
  Event start(kDev), end(kDev);
  EXPECT_THROW(start.elapsed_ms(end), InvalidArgument) << "never recorded";
  s.record_event(start);
  s.host_func([] { std::this_thread::sleep_for(30ms); });
  s.record_event(end);
  end.synchronize();
  double ms = start.elapsed_ms(end);
  EXPECT_GE(ms, 25.0);
  EXPECT_LT(ms, 2000.0);
  Event untimed(kDev, false);
  s.record_event(untimed);
  s.synchronize();
  EXPECT_THROW(start.elapsed_ms(untimed), InvalidArgument);
}

TEST(Stream, CurrentStreamIsPerThreadAndGuardRestoresIt) {
  Stream def = Stream::default_stream(kDev);
  EXPECT_TRUE(def.is_default());
  EXPECT_EQ(Stream::current(kDev), def);
  Stream s = Stream::create(kDev);
  {
    StreamGuard g(s);
    EXPECT_EQ(Stream::current(kDev), s);
    EXPECT_EQ(Stream::current(), s);
    Stream seen_by_other;
    std::thread([&] { seen_by_other = Stream::current(kDev); }).join();
    EXPECT_EQ(seen_by_other, def);
  }
  EXPECT_EQ(Stream::current(kDev), def);
  EXPECT_NE(s.id(), def.id());
}

TEST(Stream, ClosedAndNullStreamsAreRejected) {
  Stream s = Stream::create(kDev);
  s.close();
  EXPECT_TRUE(s.closed());
  try {
    s.synchronize();
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.Stream.synchronize: argument 'stream': stream"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("is closed"), std::string::npos);
  }
  EXPECT_THROW(s.host_func([] {}), InvalidArgument);
  EXPECT_THROW(Stream().synchronize(), InvalidArgument);
  EXPECT_THROW(Stream::create(Device{DeviceType::kSim, 99}), NotFound);
  EXPECT_THROW(Stream::create(kDev).host_func(nullptr), InvalidArgument);
}

TEST(Stream, LastHandleReleasedInsideItsOwnWork) {
  std::atomic<bool> done{false};
  {
    auto holder = std::make_shared<Stream>(Stream::create(kDev));
    Stream copy = *holder;
    copy.host_func([holder, &done]() mutable {
      holder.reset();
      done = true;
    });
  }  // the host function now owns the only handle; must not deadlock
  for (int i = 0; i < 2000 && !done; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(done.load());
}

TEST(Stream, ManyThreadsUseStreamsAtOnce) {
  Stream shared = Stream::create(kDev);
  std::atomic<int> counter{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      Stream own = Stream::create(kDev);
      for (int i = 0; i < 300; ++i) {
        own.host_func([&] { counter++; });
        if (i % 3 == 0) own.synchronize();
        shared.host_func([&] { counter++; });
        if (t % 2 && i % 50 == 0) shared.synchronize();
      }
      own.synchronize();
    });
  for (auto& th : threads) th.join();
  shared.synchronize();
  EXPECT_EQ(counter.load(), 8 * 300 * 2);
}

TEST(Stream, SynchronizeDeviceWaitsForEveryStreamAndRaises) {
  Stream a = Stream::create(kDev), b = Stream::create(kDev);
  std::atomic<int> ran{0};
  a.host_func([&] {
    std::this_thread::sleep_for(10ms);
    ran++;
  });
  b.host_func([&] {
    std::this_thread::sleep_for(10ms);
    ran++;
  });
  b.host_func([] { throw InvalidArgument("device-level failure"); });
  EXPECT_THROW(synchronize_device(kDev), InvalidArgument);
  EXPECT_EQ(ran.load(), 2);
  EXPECT_NO_THROW(synchronize_device(kDev));
}

}  // namespace
}  // namespace npurt
