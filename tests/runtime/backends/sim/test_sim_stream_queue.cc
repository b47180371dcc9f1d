// The sim stream's lock-free hand-off (backends/sim/work_queue.h and
// sim_stream.cc) under stress: many producers and one worker, FIFO order per
// producer, exact marks, first failure kept, events across streams, a worker
// that parks and is woken, a deep backlog (node cache bound), and a stream
// released from its own worker while work is still queued. Run under TSan by
// tools/test.sh (npurt_test_backends_sim).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backends/sim/work_queue.h"
#include "npurt/backend.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};

std::unique_ptr<BackendStream> make_stream() { return device_context(kDev).backend().create_stream(0); }

Command host(std::function<void()> fn) {
  Command c;
  c.kind = Command::Kind::kHostFunc;
  c.host_fn = std::move(fn);
  return c;
}

// Waits (without synchronize, whose own wake-up is not under test) until the
// stream reached `mark`; false after 20 s, i.e. a lost wake-up.
bool reached_within(BackendStream& s, uint64_t mark) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!s.reached(mark)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

TEST(WorkQueue, ManyProducersOneConsumerKeepPushOrder) {
  struct Val {
    int producer = -1;
    int seq = -1;
  };
  sim::WorkQueue<Val> q;
  constexpr int kProducers = 4, kPerProducer = 20000;
  constexpr uint64_t kTotal = uint64_t(kProducers) * kPerProducer;
  std::vector<int> next_seq(kProducers, 0);
  uint64_t consumed = 0, out_of_order = 0;
  std::thread consumer([&] {
    while (consumed < kTotal) {
      auto* n = q.front();
      if (!n) {
        std::this_thread::yield();
        continue;
      }
      ++consumed;
      q.pop();
      const Val& v = n->value;
      if (v.seq != next_seq[v.producer]) ++out_of_order;
      next_seq[v.producer] = v.seq + 1;
    }
  });
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        auto* n = q.acquire();  // recycled nodes still hold an old value: overwrite it
        n->value = Val{p, i};
        q.push(n);
      }
    });
  for (auto& t : producers) t.join();
  consumer.join();
  EXPECT_EQ(consumed, kTotal);
  EXPECT_EQ(q.pushed(), kTotal);
  EXPECT_EQ(out_of_order, 0u);
  for (int p = 0; p < kProducers; ++p) EXPECT_EQ(next_seq[p], kPerProducer) << "producer " << p;
  auto* n = q.acquire();  // a node that is given back instead of pushed is reusable
  q.give_back(n);
  EXPECT_EQ(q.acquire(), n);
  q.give_back(n);
}

// Each producer checks that its own mark covers its own command: the n-th push
// must be the n-th command to run, even when several threads submit at once.
TEST(SimStreamQueue, ManyProducersFifoAndExactMarks) {
  auto s = make_stream();
  constexpr int kProducers = 4, kPerProducer = 3000;
  std::vector<int> next_seq(kProducers, 0);  // touched by the worker only
  std::atomic<int> out_of_order{0}, mark_misses{0};
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        auto ran = std::make_shared<std::atomic<bool>>(false);
        s->submit(host([&, p, i, ran] {
          if (next_seq[p] != i) out_of_order++;
          next_seq[p] = i + 1;
          ran->store(true);
        }));
        uint64_t m = s->mark();
        if (i % 16 == 0) {  // wait now and then, so the worker also runs dry and parks
          if (!reached_within(*s, m) || !ran->load()) mark_misses++;
        }
      }
    });
  for (auto& t : producers) t.join();
  EXPECT_TRUE(s->synchronize().is_ok());
  EXPECT_EQ(out_of_order.load(), 0);
  EXPECT_EQ(mark_misses.load(), 0);
  for (int p = 0; p < kProducers; ++p) EXPECT_EQ(next_seq[p], kPerProducer);
}

// Failures in the middle: the first one (in FIFO order) is kept with its
// command's description, later commands still run, and the stream stays usable.
TEST(SimStreamQueue, FirstFailureKeptAndLaterWorkRuns) {
  auto s = make_stream();
  s->set_name("stream q");
  std::atomic<int> ran{0};
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 200; ++i) {
      s->submit(host([&, i] {
        if (i == 57) throw Error(StatusCode::kInternal, "boom 57");
        if (i == 120) throw Error(StatusCode::kInvalidArgument, "boom 120");
        ran++;
      }));
    }
    Status st = s->synchronize();
    EXPECT_EQ(st.code(), StatusCode::kInternal) << st.message();
    EXPECT_NE(st.message().find("stream q: "), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("boom 57"), std::string::npos) << st.message();
    EXPECT_EQ(ran.load(), 198 * (round + 1));
    EXPECT_TRUE(s->synchronize().is_ok()) << "the error is cleared once reported";
  }
  s->submit(host([] { throw Error(StatusCode::kInternal, "late"); }));
  Status err, polled;  // query hands the error over once (possibly before it reports idle)
  bool idle = false;
  while (!idle) {
    idle = s->query(&polled);
    if (!polled.is_ok()) err = polled;
  }
  EXPECT_TRUE(s->synchronize().is_ok()) << "query cleared the error";
  EXPECT_NE(err.message().find("late"), std::string::npos) << err.message();
  Command bad;  // rejected at submit: becomes a failure at its place in the FIFO
  bad.kind = Command::Kind::kHostFunc;
  s->submit(std::move(bad));
  EXPECT_NE(s->synchronize().message().find("empty host function"), std::string::npos);
}

// Stream B waits on events recorded by stream A, each round from a different
// producer thread; B's host function must see A's work of that round.
TEST(SimStreamQueue, EventsOrderWorkAcrossStreams) {
  auto a = make_stream(), b = make_stream();
  Backend& be = device_context(kDev).backend();
  constexpr int kRounds = 300;
  std::vector<std::atomic<bool>> a_done(kRounds);
  std::atomic<int> wrong{0};
  auto round = [&](int r) {
    auto ev = be.create_event(0, false);
    a->submit(host([&, r] {
      if (r % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
      a_done[r].store(true);
    }));
    Command rec;
    rec.kind = Command::Kind::kEventRecord;
    rec.event = ev;
    a->submit(std::move(rec));
    Command wait;
    wait.kind = Command::Kind::kEventWait;
    wait.event = ev;
    wait.event_generation = ev->recorded_generation();
    b->submit(std::move(wait));
    b->submit(host([&, r] {
      if (!a_done[r].load()) wrong++;
    }));
  };
  std::thread t1([&] {
    for (int r = 0; r < kRounds; r += 2) round(r);
  });
  t1.join();
  std::thread t2([&] {
    for (int r = 1; r < kRounds; r += 2) round(r);
  });
  t2.join();
  EXPECT_TRUE(b->synchronize().is_ok());
  EXPECT_TRUE(a->synchronize().is_ok());
  EXPECT_EQ(wrong.load(), 0);
}

// The worker parks after its idle spin budget (kIdleSpinBudget, 250 us);
// submits spaced around that budget must always wake it (a lost wake-up shows
// as a mark never reached).
TEST(SimStreamQueue, ParkedWorkerIsAlwaysWoken) {
  auto s = make_stream();
  std::atomic<int> ran{0};
  const int gaps_us[] = {0, 5, 45, 200, 240, 300, 1000};
  for (int i = 0; i < 350; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(gaps_us[i % 7]));
    s->submit(host([&] { ran++; }));
    ASSERT_TRUE(reached_within(*s, s->mark())) << "lost wake-up at submit " << i;
  }
  EXPECT_EQ(ran.load(), 350);
  // Several threads synchronize while one submits.
  std::atomic<bool> stop{false};
  std::vector<std::thread> syncers;
  for (int t = 0; t < 3; ++t)
    syncers.emplace_back([&] {
      while (!stop) EXPECT_TRUE(s->synchronize().is_ok());
    });
  for (int i = 0; i < 2000; ++i) s->submit(host([&] { ran++; }));
  stop = true;
  for (auto& t : syncers) t.join();
  EXPECT_TRUE(s->synchronize().is_ok());
  EXPECT_EQ(ran.load(), 2350);
}

// A backlog much deeper than the node cache: every command runs once, in order.
TEST(SimStreamQueue, DeepBacklogRunsInOrder) {
  auto s = make_stream();
  std::atomic<bool> gate{false};
  s->submit(host([&] {
    while (!gate) std::this_thread::yield();
  }));
  constexpr int kItems = 5000;  // > WorkQueue::kMaxSpare
  int next = 0, bad = 0;        // worker only
  for (int i = 0; i < kItems; ++i) s->submit(host([&, i] { bad += (i != next++); }));
  gate = true;
  EXPECT_TRUE(s->synchronize().is_ok());
  EXPECT_EQ(next, kItems);
  EXPECT_EQ(bad, 0);
  for (int i = 0; i < kItems; ++i) s->submit(host([&, i] { bad += (i + kItems != next++); }));
  EXPECT_TRUE(s->synchronize().is_ok());
  EXPECT_EQ(next, 2 * kItems);
  EXPECT_EQ(bad, 0);
}

// Releasing the stream from inside its own work: the destructor does not wait
// for itself, and what was queued behind still runs (destruction drains).
TEST(SimStreamQueue, ReleasedFromItsOwnWorkerDrains) {
  for (int round = 0; round < 20; ++round) {
    auto holder = std::make_shared<std::unique_ptr<BackendStream>>(make_stream());
    BackendStream* s = holder->get();
    auto ran = std::make_shared<std::atomic<int>>(0);
    auto keep = std::make_shared<int>(7);  // a capture released on the worker
    std::weak_ptr<int> watch = keep;
    auto gate = std::make_shared<std::atomic<bool>>(false);  // nothing runs before all is queued
    s->submit(host([gate] {
      while (!gate->load()) std::this_thread::yield();
    }));
    s->submit(host([ran, keep] { (*ran)++; }));
    keep.reset();
    s->submit(host([holder] { holder->reset(); }));  // the stream dies here, on its worker
    for (int i = 0; i < 50; ++i) s->submit(host([ran] { (*ran)++; }));
    holder.reset();  // the last owner is now the queued host function
    gate->store(true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (ran->load() < 51 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(ran->load(), 51) << "round " << round;
    EXPECT_TRUE(watch.expired()) << "captures are released once their command ran";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // detached workers exit
}

}  // namespace
}  // namespace npurt
