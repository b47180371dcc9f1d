// bench/cpp/bench_launch_enqueue.cc: the caller's cost of enqueuing one sim
// kernel launch, by block count (Google Benchmark).
//
// Each iteration times Stream::launch alone with the calling thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID, manual time): the stream worker and the pool run
// the blocks on other threads, so their work is not counted, and the periodic
// synchronize that bounds the queue (which may run blocks on this thread) is
// outside the timed region. The kernel is empty and takes four device
// arguments plus a 64-byte tiling, like a small op. The target (the wave-13
// task "launch enqueue cost per block"): the same cost for 1 and 64 blocks.
// BM_LaunchEnqueueIdle spins 1 ms on registers (untimed) before each launch:
// the stream worker parks meanwhile, so the launch pays its wake-up with warm
// caches. BM_LaunchEnqueueCold writes an 8 MiB buffer (untimed) instead: the
// wake-up plus the caches a large launch's blocks evict (docs/performance.md
// "Launch enqueue cost by block count").
#include <benchmark/benchmark.h>

#include <time.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace {

using namespace npurt;
const Device kDev{DeviceType::kSim, 0};

void empty_entry(void* const*, size_t) {}

double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Times launches of `blocks` blocks; cold: the caches are evicted before each;
// idle: the caller spins 1 ms on registers first (the stream worker parks).
void enqueue_loop(benchmark::State& state, uint32_t blocks, bool cold, bool idle = false) {
  Stream s = Stream::create(kDev);
  Tensor t[4];
  for (auto& x : t) x = Tensor::empty({1024}, DType::kFloat32, s);
  std::vector<char> evict(cold ? size_t(8) << 20 : 0);
  size_t i = 0;
  for (auto _ : state) {
    if (cold) {
      std::memset(evict.data(), static_cast<int>(i), evict.size());
      benchmark::ClobberMemory();
    }
    if (idle) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    KernelLaunch l;
    l.kernel_name = "enqueue_probe";
    l.sim_entry = &empty_entry;
    l.num_blocks = blocks;
    for (auto& x : t) l.args.push_back(x.data());
    l.tiling.resize(64);
    const double t0 = thread_seconds();
    s.launch(std::move(l));
    state.SetIterationTime(thread_seconds() - t0);
    if (++i % 64 == 0) s.synchronize();  // bound the queue (untimed)
  }
  s.synchronize();
}

void BM_LaunchEnqueue(benchmark::State& state) { enqueue_loop(state, static_cast<uint32_t>(state.range(0)), false); }
void BM_LaunchEnqueueCold(benchmark::State& state) { enqueue_loop(state, static_cast<uint32_t>(state.range(0)), true); }
void BM_LaunchEnqueueIdle(benchmark::State& state) { enqueue_loop(state, static_cast<uint32_t>(state.range(0)), false, true); }

}  // namespace

BENCHMARK(BM_LaunchEnqueue)->Arg(1)->Arg(2)->Arg(8)->Arg(16)->Arg(40)->Arg(64)->UseManualTime();
BENCHMARK(BM_LaunchEnqueueCold)->Arg(1)->Arg(64)->UseManualTime();
BENCHMARK(BM_LaunchEnqueueIdle)->Arg(1)->UseManualTime();
BENCHMARK_MAIN();
