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
#include <benchmark/benchmark.h>

#include <time.h>

#include <cstddef>
#include <cstdint>

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

void BM_LaunchEnqueue(benchmark::State& state) {
  const uint32_t blocks = static_cast<uint32_t>(state.range(0));
  Stream s = Stream::create(kDev);
  Tensor t[4];
  for (auto& x : t) x = Tensor::empty({1024}, DType::kFloat32, s);
  size_t i = 0;
  for (auto _ : state) {
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

}  // namespace

BENCHMARK(BM_LaunchEnqueue)->Arg(1)->Arg(2)->Arg(8)->Arg(16)->Arg(40)->Arg(64)->UseManualTime();
BENCHMARK_MAIN();
