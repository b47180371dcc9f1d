// Ownership of a launch description on the sim stream: Stream::launch takes the
// KernelLaunch by value (moved or copied into the queue node), so the caller
// may reuse or destroy its object as soon as launch() returns, and the node's
// storage is reused by later launches of other shapes: inline args/tiling,
// heap-spilled ones (more than 8 args, more than kLaunchInlineTiling tiling
// bytes), none. A
// failing launch leaves the stream usable, and many threads may launch at once.
// Run under TSan by tools/test.sh (npurt_test_backends_sim).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};

// Shapes chosen around the inline capacities of KernelLaunch (8 args,
// kLaunchInlineTiling = 384 tiling bytes; 128 and 129 were the old capacity):
// below, exactly at, and past them (the elementwise tiling is 320 bytes).
constexpr size_t kArgCounts[] = {0, 1, 8, 9, 12, 3};
constexpr size_t kTilingSizes[] = {4, 128, 129, 320, kLaunchInlineTiling, kLaunchInlineTiling + 1, 600, 16};
static_assert(kLaunchInlineTiling == 384, "update kTilingSizes around the new inline capacity");

// A launch's content is a pure function of (tag, shape index), so the kernel
// can check what it received without any shared table: scalar slot i holds
// tag * 64 + i + 1, tiling byte j (after the 4-byte tag) holds tag * 7 + j.
struct Shape {
  size_t args;
  size_t tiling;
};
Shape shape_of(uint32_t tag) {
  return Shape{kArgCounts[tag % std::size(kArgCounts)], kTilingSizes[(tag / 3) % std::size(kTilingSizes)]};
}

std::atomic<int> g_bad{0};
std::atomic<int> g_runs{0};

void checking_entry(void* const* slots, size_t n) {
  if (n < 2 || !slots[n - 1]) {
    g_bad++;
    return;
  }
  const uint8_t* tiling = static_cast<const uint8_t*>(slots[n - 1]);
  uint32_t tag;
  std::memcpy(&tag, tiling, sizeof tag);
  const Shape sh = shape_of(tag);
  bool ok = n == sh.args + 2 && slots[n - 2] == nullptr;  // args + workspace + tiling
  for (size_t i = 0; ok && i < sh.args; ++i)
    ok = reinterpret_cast<uintptr_t>(slots[i]) == uint64_t(tag) * 64 + i + 1;
  for (size_t j = sizeof tag; ok && j < sh.tiling; ++j) ok = tiling[j] == uint8_t(tag * 7 + j);
  if (!ok) g_bad++;
  g_runs++;
}

KernelLaunch make_launch(uint32_t tag) {
  const Shape sh = shape_of(tag);
  KernelLaunch l;
  l.kernel_name = "ownership_check";
  l.sim_entry = &checking_entry;
  l.num_blocks = 1;
  for (size_t i = 0; i < sh.args; ++i) {
    l.args.push_back(reinterpret_cast<void*>(uintptr_t(uint64_t(tag) * 64 + i + 1)));
    l.scalar_arg_mask |= uint64_t(1) << i;
  }
  l.tiling.resize(sh.tiling);
  std::memcpy(l.tiling.data(), &tag, sizeof tag);
  for (size_t j = sizeof tag; j < sh.tiling; ++j) l.tiling[j] = uint8_t(tag * 7 + j);
  return l;
}

// Overwrites everything the launch holds, as a caller reusing its object would.
void scribble(KernelLaunch& l) {
  for (auto& a : l.args) a = reinterpret_cast<void*>(uintptr_t(0xdead));
  for (auto& b : l.tiling) b = 0xee;
  l.args.push_back(nullptr);
}

// Keeps the worker busy until released, so launches pile up in the queue and
// their nodes hold the only copy of each launch description.
struct Gate {
  std::atomic<bool> open{false};
  void close_on(const Stream& s) {
    open = false;
    s.host_func([this] {
      while (!open.load()) std::this_thread::yield();
    });
  }
};

TEST(SimLaunchOwnership, QueuedLaunchesOwnTheirDescriptionAcrossNodeReuse) {
  Stream s = Stream::create(kDev);
  g_bad = 0;
  g_runs = 0;
  Gate gate;
  constexpr uint32_t kPerRound = 60;
  uint32_t tag = 0;
  for (int round = 0; round < 4; ++round) {  // later rounds reuse the nodes of earlier ones
    gate.close_on(s);
    for (uint32_t k = 0; k < kPerRound; ++k, ++tag) {
      KernelLaunch l = make_launch(tag);
      if (k % 2) {
        s.launch(l);  // copied: the caller's object stays its own
      } else {
        s.launch(std::move(l));  // moved: the caller's object is left valid but unspecified
      }
      scribble(l);
    }
    gate.open = true;
    s.synchronize();
  }
  EXPECT_EQ(g_bad.load(), 0);
  EXPECT_EQ(g_runs.load(), static_cast<int>(tag));
}

TEST(SimLaunchOwnership, FailingLaunchesLeaveTheStreamUsable) {
  Stream s = Stream::create(kDev);
  Tensor x = Tensor::empty({33}, DType::kFloat32, s);
  std::vector<float> host(33);
  g_bad = 0;
  g_runs = 0;
  // Rejected at enqueue: nothing is taken from the caller's object.
  KernelLaunch bad = make_launch(4);  // 12 args: heap-spilled
  bad.num_blocks = 0;
  EXPECT_THROW(s.launch(std::move(bad)), InvalidArgument);
  EXPECT_EQ(bad.args.size(), 12u) << "a refused launch keeps the caller's description";
  bad.num_blocks = 1;
  s.launch(std::move(bad));
  // Refused when it runs: a host pointer where a device pointer belongs, in a
  // heap-spilled launch, then launches of other shapes reuse the same nodes.
  Gate gate;
  for (int round = 0; round < 3; ++round) {
    gate.close_on(s);
    KernelLaunch fault = make_launch(9 + round);
    fault.args.push_back(x.data());
    fault.args.push_back(host.data());  // not scalar (mask bit clear), not a pool allocation
    s.launch(std::move(fault));
    for (uint32_t tag = 20; tag < 30; ++tag) s.launch(make_launch(tag));
    gate.open = true;
    EXPECT_THROW(s.synchronize(), KernelFault);
    for (uint32_t tag = 30; tag < 35; ++tag) s.launch(make_launch(tag));
    EXPECT_NO_THROW(s.synchronize()) << "the stream must stay usable after a failed launch";
  }
  EXPECT_EQ(g_bad.load(), 0);
  EXPECT_EQ(g_runs.load(), 1 + 3 * 15) << "every launch but the faulting ones ran, once";
}

TEST(SimLaunchOwnership, ManyThreadsLaunchOnOneStream) {
  Stream s = Stream::create(kDev);
  g_bad = 0;
  g_runs = 0;
  constexpr int kThreads = 4;
  constexpr uint32_t kPerThread = 1500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      KernelLaunch reused;  // one object per thread, refilled for every launch
      for (uint32_t k = 0; k < kPerThread; ++k) {
        reused = make_launch(uint32_t(t) * kPerThread + k);
        if (k % 3 == 0)
          s.launch(reused);
        else
          s.launch(std::move(reused));
      }
    });
  for (auto& th : threads) th.join();
  s.synchronize();
  EXPECT_EQ(g_bad.load(), 0);
  EXPECT_EQ(g_runs.load(), kThreads * static_cast<int>(kPerThread));
}

}  // namespace
}  // namespace npurt
