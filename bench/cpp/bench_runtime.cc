// bench/cpp/bench_runtime.cc: runtime core micro-benchmarks (Google Benchmark).
//
// Side by side in one run: pool allocate+free vs malloc / aligned_alloc(128);
// enqueue latency of an empty stream task; enqueue+synchronize round trip;
// H2D / D2H copy bandwidth vs memcpy and a 2-thread STREAM-style copy.
// Targets (issue 2): cached pool pair <= 50 ns, round trip <= 5 us,
// copy bandwidth >= 0.8x the 2-thread copy at 64 MiB.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "npurt/copy.h"
#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace {

using namespace npurt;
const Device kDev{DeviceType::kSim, 0};

void BM_PoolAllocFree(benchmark::State& state) {
  size_t n = static_cast<size_t>(state.range(0));
  MemoryPool& pool = device_context(kDev).pool();
  Stream s = Stream::current(kDev);
  pool.allocate(n, s).reset();  // warm the cache
  for (auto _ : state) {
    DataPtr p = pool.allocate(n, s);
    benchmark::DoNotOptimize(p.get());
  }
}

void BM_Malloc(benchmark::State& state) {
  size_t n = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    void* p = std::malloc(n);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}

void BM_AlignedAlloc128(benchmark::State& state) {
  size_t n = (static_cast<size_t>(state.range(0)) + 127) / 128 * 128;
  for (auto _ : state) {
    void* p = std::aligned_alloc(128, n);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}

void BM_EnqueueEmptyTask(benchmark::State& state) {
  Stream s = Stream::create(kDev);
  size_t i = 0;
  for (auto _ : state) {
    s.host_func([] {});
    if (++i % 1024 == 0) s.synchronize();  // bound the queue; amortized
  }
  s.synchronize();
}

void BM_EnqueueSynchronize(benchmark::State& state) {
  Stream s = Stream::create(kDev);
  for (auto _ : state) {
    s.host_func([] {});
    s.synchronize();
  }
}

constexpr size_t kCopyBytes = size_t(64) << 20;

std::vector<char>& host_buffer(int which) {
  static std::vector<char> bufs[2] = {std::vector<char>(kCopyBytes, 1), std::vector<char>(kCopyBytes, 2)};
  return bufs[which];
}

void BM_CopyH2D(benchmark::State& state) {
  Stream s = Stream::create(kDev);
  Tensor t = Tensor::empty({static_cast<int64_t>(kCopyBytes)}, DType::kUInt8, s);
  copy_from_host(t, host_buffer(0).data(), kCopyBytes, s, true);  // fault pages in once
  for (auto _ : state) copy_from_host(t, host_buffer(0).data(), kCopyBytes, s, /*blocking=*/true);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kCopyBytes));
}

void BM_CopyD2H(benchmark::State& state) {
  Stream s = Stream::create(kDev);
  Tensor t = Tensor::empty({static_cast<int64_t>(kCopyBytes)}, DType::kUInt8, s);
  copy_from_host(t, host_buffer(0).data(), kCopyBytes, s, true);
  for (auto _ : state) copy_to_host(host_buffer(1).data(), t, kCopyBytes, s, /*blocking=*/true);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kCopyBytes));
}

void BM_Memcpy(benchmark::State& state) {
  char* dst = host_buffer(1).data();
  const char* src = host_buffer(0).data();
  for (auto _ : state) {
    std::memcpy(dst, src, kCopyBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kCopyBytes));
}

// STREAM "copy" kernel split over two threads (the machine has two cores).
void BM_StreamCopy2Threads(benchmark::State& state) {
  char* dst = host_buffer(1).data();
  const char* src = host_buffer(0).data();
  size_t half = kCopyBytes / 2;
  for (auto _ : state) {
    std::thread helper([&] { std::memcpy(dst + half, src + half, kCopyBytes - half); });
    std::memcpy(dst, src, half);
    helper.join();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kCopyBytes));
}

}  // namespace

BENCHMARK(BM_PoolAllocFree)->Arg(1 << 10)->Arg(1 << 20)->Arg(256 << 20);
BENCHMARK(BM_Malloc)->Arg(1 << 10)->Arg(1 << 20)->Arg(256 << 20);
BENCHMARK(BM_AlignedAlloc128)->Arg(1 << 10)->Arg(1 << 20)->Arg(256 << 20);
BENCHMARK(BM_EnqueueEmptyTask);
BENCHMARK(BM_EnqueueSynchronize);
BENCHMARK(BM_CopyH2D)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CopyD2H)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StreamCopy2Threads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
