// The sim backend's host side: segment memory and budget, launch argument
// resolution (a pointer outside every allocation is a fault), error messages
// and the mark/reached timeline. (Latency is measured by bench/cpp, not tested.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <vector>

#include "backends/sim/sim_backend.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt {
namespace {

constexpr size_t MiB = 1024 * 1024;
const Device kDev{DeviceType::kSim, 0};

TEST(SimBackend, SegmentsAreAlignedAndBudgeted) {
  sim::SimBackend b(2, 8 * MiB);
  EXPECT_EQ(b.device_count(), 2);
  EXPECT_EQ(b.total_memory(1), 8 * MiB);
  void* a = b.allocate_segment(0, 3 * MiB);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % (2 * MiB), 0u);
  std::memset(a, 0x5a, 3 * MiB);  // the mapping is writable
  EXPECT_EQ(b.reserved(0), 4 * MiB);
  EXPECT_EQ(b.allocate_segment(0, 6 * MiB), nullptr) << "over budget";
  void* c = b.allocate_segment(1, 8 * MiB);  // budgets are per device
  EXPECT_NE(c, nullptr);
  b.free_segment(0, a, 3 * MiB);
  EXPECT_EQ(b.reserved(0), 0u);
  EXPECT_NE((a = b.allocate_segment(0, 8 * MiB)), nullptr);
  b.free_segment(0, a, 8 * MiB);
  b.free_segment(1, c, 8 * MiB);
  EXPECT_THROW(b.allocate_segment(2, MiB), InvalidArgument);
  EXPECT_THROW(b.create_stream(-1), InvalidArgument);
  EXPECT_EQ(b.profile(0).name, default_chip_profile().name);
}

std::atomic<int> g_calls{0};
void counting_entry(void* const*, size_t) { g_calls++; }

KernelLaunch make_launch(std::vector<void*> args, uint64_t scalar_mask = 0) {
  KernelLaunch l;
  l.kernel_name = "count_kernel";
  l.sim_entry = &counting_entry;
  l.num_blocks = 3;
  for (void* a : args) l.args.push_back(a);
  l.scalar_arg_mask = scalar_mask;
  uint32_t tiling[2] = {7, 9};
  l.tiling.assign(reinterpret_cast<uint8_t*>(tiling), reinterpret_cast<uint8_t*>(tiling) + sizeof tiling);
  return l;
}

TEST(SimLaunch, PoolArgumentsRunEveryBlock) {
  Stream s = Stream::create(kDev);
  Tensor x = Tensor::empty({64}, DType::kFloat32, s);
  Tensor ws = Tensor::empty({1024}, DType::kUInt8, s);
  auto l = make_launch({x.data(), reinterpret_cast<void*>(uintptr_t(12345)), nullptr}, /*arg 1 scalar*/ 0b10);
  l.workspace = ws.data();
  l.workspace_bytes = 1024;
  g_calls = 0;
  s.launch(l);
  s.synchronize();
  EXPECT_EQ(g_calls.load(), 3);
}

// Arguments are resolved in chunks of 16 (one pool lock per chunk): a launch
// with more arguments than a chunk, scalars and absent inputs between them,
// runs, and a bad pointer in a later chunk is reported by its own index.
TEST(SimLaunch, ManyArgumentsResolveAcrossChunks) {
  Stream s = Stream::create(kDev);
  std::vector<Tensor> keep;
  std::vector<void*> args;
  uint64_t scalars = 0;
  for (int i = 0; i < 40; ++i) {
    if (i % 7 == 3) {
      scalars |= uint64_t{1} << i;
      args.push_back(reinterpret_cast<void*>(uintptr_t(1000 + i)));  // a scalar value, not a pointer
    } else if (i % 11 == 5) {
      args.push_back(nullptr);  // absent optional input
    } else {
      keep.push_back(Tensor::empty({int64_t(16 + i)}, DType::kFloat32, s));
      args.push_back(keep.back().data());
    }
  }
  g_calls = 0;
  s.launch(make_launch(args, scalars));
  s.synchronize();
  EXPECT_EQ(g_calls.load(), 3);
  for (int bad : {0, 15, 16, 37}) {
    std::vector<float> host(64);
    auto with_bad = args;
    with_bad[bad] = host.data();
    g_calls = 0;
    s.launch(make_launch(with_bad, scalars & ~(uint64_t{1} << bad)));
    try {
      s.synchronize();
      FAIL() << "expected a KernelFault for argument " << bad;
    } catch (const KernelFault& e) {
      std::string m = e.what();
      EXPECT_NE(m.find("argument " + std::to_string(bad) + " ("), std::string::npos) << m;
    }
    EXPECT_EQ(g_calls.load(), 0) << "the kernel must not run";
  }
  s.launch(make_launch(args, scalars));
  EXPECT_NO_THROW(s.synchronize()) << "stream usable after the faults";
}

TEST(SimLaunch, PointerOutsideEveryAllocationIsAFault) {
  Stream s = Stream::create(kDev);
  Tensor x = Tensor::empty({64}, DType::kFloat32, s);
  std::vector<float> host(64);
  g_calls = 0;
  s.launch(make_launch({x.data(), host.data()}));
  try {
    s.synchronize();
    FAIL() << "expected a KernelFault";
  } catch (const KernelFault& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("stream " + std::to_string(s.id()) + " on sim:0: launch count_kernel: argument 1"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("not a device allocation"), std::string::npos) << m;
  }
  EXPECT_EQ(g_calls.load(), 0) << "the kernel must not run";
  auto l = make_launch({x.data()});
  l.workspace = x.data();
  l.workspace_bytes = 1 << 20;  // larger than the allocation
  s.launch(l);
  EXPECT_THROW(s.synchronize(), KernelFault);
  s.launch(make_launch({x.data()}));
  EXPECT_NO_THROW(s.synchronize()) << "stream usable after a fault";
}

TEST(SimLaunch, InvalidLaunchesAreRejectedAtEnqueue) {
  Stream s = Stream::create(kDev);
  auto l = make_launch({});
  l.num_blocks = 0;
  EXPECT_THROW(s.launch(l), InvalidArgument);
  auto no_entry = make_launch({});
  no_entry.sim_entry = nullptr;
  s.launch(no_entry);
  try {
    s.synchronize();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kUnimplemented);
    EXPECT_NE(std::string(e.what()).find("no sim entry"), std::string::npos);
  }
}

TEST(SimStream, MarksFormAMonotonicTimeline) {
  DeviceContext& ctx = device_context(kDev);
  auto bs = ctx.backend().create_stream(0);
  uint64_t m0 = bs->mark();
  EXPECT_TRUE(bs->reached(m0));
  std::atomic<bool> release{false};
  Command c;
  c.kind = Command::Kind::kHostFunc;
  c.host_fn = [&] {
    while (!release) std::this_thread::yield();
  };
  bs->submit(std::move(c));
  uint64_t m1 = bs->mark();
  EXPECT_EQ(m1, m0 + 1);
  EXPECT_FALSE(bs->reached(m1));
  Status st;
  EXPECT_FALSE(bs->query(&st));
  release = true;
  EXPECT_TRUE(bs->synchronize().is_ok());
  EXPECT_TRUE(bs->reached(m1));
  EXPECT_TRUE(bs->query(&st));
  EXPECT_TRUE(st.is_ok());
}


// The resolver is read without a lock: a replaced one must stay callable (a
// submitting thread may hold it), and clearing it makes every pointer unknown.
TEST(SimBackend, ReplacedResolverStaysValid) {
  sim::SimBackend b(1, 8 * MiB);
  EXPECT_EQ(b.resolver(0), nullptr);
  sim::GmRegion r;
  EXPECT_FALSE(b.resolve(0, &r, &r));
  b.set_resolver(0, [](const void* const* p, size_t n, sim::GmRegion* out) {
    for (size_t i = 0; i < n; ++i) {
      out[i].begin = reinterpret_cast<uintptr_t>(p[i]);
      out[i].end = out[i].begin + 16;
    }
    return n;
  });
  const sim::GmResolver* first = b.resolver(0);
  ASSERT_NE(first, nullptr);
  b.set_resolver(0, [](const void* const* p, size_t n, sim::GmRegion* out) {
    for (size_t i = 0; i < n; ++i) {
      out[i].begin = reinterpret_cast<uintptr_t>(p[i]);
      out[i].end = out[i].begin + 32;
    }
    return n;
  });
  ASSERT_NE(b.resolver(0), first);
  int x = 0;
  const void* px = &x;
  ASSERT_EQ((*first)(&px, 1, &r), 1u);
  EXPECT_EQ(r.end - r.begin, 16u) << "the replaced resolver still works";
  ASSERT_TRUE(b.resolve(0, &x, &r));
  EXPECT_EQ(r.end - r.begin, 32u) << "lookups use the newest resolver";
  b.set_resolver(0, nullptr);
  EXPECT_EQ(b.resolver(0), nullptr);
  EXPECT_FALSE(b.resolve(0, &x, &r));
  EXPECT_THROW(b.resolver(1), InvalidArgument);
}

// Launch state is reused across launches (the queue node's region vector, the
// worker's LaunchRun): every launch must see exactly its own slots, whatever
// the argument count of the launch before it, and a fault must not leak into
// the next launch.
std::atomic<int> g_bad_slots{0};
std::atomic<size_t> g_expect_n{0};
std::atomic<bool> g_throw{false};
void *g_expect_slots[8];
void checking_entry(void* const* slots, size_t n) {
  if (g_throw) throw std::runtime_error("asked to fail");
  if (n != g_expect_n.load()) {
    g_bad_slots++;
    return;
  }
  // The last slot is the tiling: the bytes inside the queue node (the launch
  // was moved there), so its contents are checked, not the caller's address.
  for (size_t i = 0; i + 1 < n; ++i)
    if (slots[i] != g_expect_slots[i]) g_bad_slots++;
  const uint32_t tiling[2] = {7, 9};
  if (n == 0 || !slots[n - 1] || std::memcmp(slots[n - 1], tiling, sizeof tiling) != 0) g_bad_slots++;
  g_calls++;
}

TEST(SimLaunch, ReusedLaunchStorageSeesOnlyItsOwnArguments) {
  Stream s = Stream::create(kDev);
  std::vector<Tensor> t;
  for (int i = 0; i < 5; ++i) t.push_back(Tensor::empty({33}, DType::kFloat32, s));
  std::vector<float> host(4);
  g_bad_slots = 0;
  g_calls = 0;
  const size_t counts[] = {1, 5, 0, 2, 5, 1, 3};
  int expected_calls = 0;
  for (int round = 0; round < 3; ++round) {
    for (size_t k = 0; k < std::size(counts); ++k) {
      size_t n = counts[k];
      std::vector<void*> args;
      for (size_t i = 0; i < n; ++i) args.push_back(t[(i + k) % t.size()].data());
      auto l = make_launch(args);
      l.sim_entry = &checking_entry;
      l.num_blocks = 1 + static_cast<uint32_t>(k % 3);
      if (k == 3) {  // with a workspace: one more region than the launch before
        l.workspace = t[4].data();
        l.workspace_bytes = 33 * 4;
      }
      for (size_t i = 0; i < n; ++i) g_expect_slots[i] = args[i];
      g_expect_slots[n] = l.workspace;
      g_expect_n = n + 2;
      s.launch(l);
      s.synchronize();  // the expectations are globals: one launch at a time
      expected_calls += static_cast<int>(l.num_blocks);
      if (k == 1) {  // an unresolvable argument, then a kernel fault, between launches
        s.launch(make_launch({t[0].data(), host.data()}));
        EXPECT_THROW(s.synchronize(), KernelFault);
        g_throw = true;
        s.launch(l);
        try {
          s.synchronize();
          ADD_FAILURE() << "expected a KernelFault";
        } catch (const KernelFault& e) {
          EXPECT_NE(std::string(e.what()).find("asked to fail"), std::string::npos) << e.what();
        }
        g_throw = false;
      }
    }
  }
  EXPECT_EQ(g_bad_slots.load(), 0);
  EXPECT_EQ(g_calls.load(), expected_calls);
}

}  // namespace
}  // namespace npurt
