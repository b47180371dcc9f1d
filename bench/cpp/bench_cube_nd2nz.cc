// bench/cpp/bench_cube_nd2nz.cc: the simulated cube's GM -> L1 Nd2Nz copy of
// the matmul kernel's A operand alone (Google Benchmark), from cold GM: what
// one L1 chunk of a [2048, 2048] float32 a costs, by chunk length.
//
// Each iteration copies 256 rows x kc floats (Arg: kc = 64, one kStep; 128,
// the plan's kL1A for 2048^3; 192; 256) from a row stride of 8 KiB into L1's
// Nz layout (16-row column blocks), as CubeTile::CopyA does. The source walks four
// 16 MiB matrices (64 MiB: beyond the host's L2, in its L3 or DRAM) so every
// copy reads lines no earlier copy touched. Checks are off (the kernel's
// instruction only). Counter "GB/s": source bytes per second.
#include <benchmark/benchmark.h>

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "aicore/cube.h"

namespace {

constexpr uint32_t kRows = 256, kLd = 2048;                 // a's tile rows and row length
constexpr uint64_t kMatBytes = uint64_t{kLd} * kLd * 4;     // 16 MiB
constexpr int kMats = 4;

void BM_Nd2NzA(benchmark::State& state) {
  const uint32_t kc = static_cast<uint32_t>(state.range(0));
  std::vector<uint8_t*> mats;
  for (int i = 0; i < kMats; ++i) {
    void* p = std::aligned_alloc(2u << 20, kMatBytes);
    madvise(p, kMatBytes, MADV_HUGEPAGE);  // like the sim's GM arena
    std::memset(p, i + 1, kMatBytes);
    mats.push_back(static_cast<uint8_t*>(p));
  }
  std::vector<uint8_t> l1(uint64_t{kRows} * kc * 4);
  npurt::sim::CoreContext ctx;
  ctx.level = npurt::SimCheckLevel::kOff;
  npurt::sim::LocalRef dst;
  dst.ptr = l1.data();
  dst.bytes = static_cast<uint32_t>(l1.size());
  // Nd2Nz of rows x kc: column blocks of 16-row-rounded rows (CubeTile::Nd2Nz).
  AscendC::Nd2NzParams p(1, kRows, static_cast<uint16_t>(kc), 0, kLd, kRows, 1, 0);
  const uint64_t per_panel = kLd / kc, panels = kLd / kRows;
  uint64_t i = 0;
  for (auto _ : state) {
    // Next K chunk of the same rows, then the next row panel, then the next matrix.
    const uint64_t col = i % per_panel, panel = i / per_panel % panels, mat = i / per_panel / panels % kMats;
    npurt::sim::GmRef src;
    src.ptr = mats[mat] + (panel * kRows * kLd + col * kc) * 4;
    npurt::sim::cube_nd2nz(&ctx, dst, src, 4, p);
    benchmark::DoNotOptimize(l1.data());
    ++i;
  }
  state.counters["GB/s"] = benchmark::Counter(double(kRows) * kc * 4 * double(state.iterations()) / 1e9,
                                              benchmark::Counter::kIsRate);
  for (uint8_t* m : mats) std::free(m);
}
BENCHMARK(BM_Nd2NzA)->Arg(64)->Arg(128)->Arg(192)->Arg(256)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
