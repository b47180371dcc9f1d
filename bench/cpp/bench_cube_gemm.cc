// bench/cpp/bench_cube_gemm.cc: the simulated cube's Mmad host kernels alone
// (Google Benchmark), on operands that stay in the host's L1 / L2 between
// iterations: what the micro-kernels and packers reach without the GM -> L1 ->
// L0 data path around them, to compare with the machine's FMA / AMX peak
// (bench/matmul.py prints PyTorch's in-cache 512^3 GEMM rate as a reference).
//
// Shapes are those of one Mmad of the matmul kernel's 256 x 128 output tile
// (float: k = 64, bfloat16: k = 128, bounded by L0A / L0B), so C (128 KiB) is
// read and written from L2 each call as in a real tile. Counters: "GFLOP/s"
// (2 m n k per call) for the kernels, "GB/s" (bytes written) for the packers.
// Kernels missing on this CPU (no AVX-512 / AMX) skip with a message.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "backends/sim/aicore/cube_gemm.h"

namespace {

using namespace npurt::sim::cube;

constexpr uint32_t kM = 256, kN = 128, kKf = 64, kKb = 128;

void set_flops(benchmark::State& state, uint32_t m, uint32_t n, uint32_t k) {
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * m * n * k * double(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

void set_bytes(benchmark::State& state, uint64_t bytes) {
  state.counters["GB/s"] = benchmark::Counter(double(bytes) * double(state.iterations()) / 1e9,
                                              benchmark::Counter::kIsRate);
}

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i % 17) - 8) * 0.125f;
  return v;
}

std::vector<uint16_t> ramp_bf16(size_t n) {  // small exact bf16 values (x / 8, |x| <= 8)
  std::vector<uint16_t> v(n);
  const std::vector<float> f = ramp(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    __builtin_memcpy(&bits, &f[i], 4);
    v[i] = uint16_t(bits >> 16);
  }
  return v;
}

// float Mmad, A packed as rows [m16][k] (state.range(0) = 0) or read from L0A's Zz fractals (1).
void BM_GemmF32(benchmark::State& state) {
  const bool zz = state.range(0) != 0;
  GemmFn fn = zz ? gemm_zz_best() : gemm_best();
  if (fn == nullptr) {
    state.SkipWithError("no AVX-512 Zz kernel on this CPU");
    return;
  }
  std::vector<float> c(kM * kN), a = ramp(kM * kKf), b = ramp(kN * kKf);
  for (auto _ : state) {
    fn(c.data(), kM, kN / 16, kKf, a.data(), b.data(), false);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, kM, kN, kKf);
  state.SetLabel(gemm_isa_name());
}
BENCHMARK(BM_GemmF32)->Arg(0)->Arg(1);

// bfloat16 Mmad on AMX (TDPBF16PS, 2 x 2 tiles per step).
void BM_AmxBf16(benchmark::State& state) {
  AmxBf16Fn fn = amx_best();
  if (fn == nullptr) {
    state.SkipWithError("no AMX-BF16 on this CPU / OS");
    return;
  }
  std::vector<float> c(kM * kN);
  std::vector<uint16_t> a = ramp_bf16(kM * kKb), b = ramp_bf16(kN * kKb);
  for (auto _ : state) {
    fn(c.data(), kM, kN / 16, kKb, a.data(), b.data(), false);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, kM, kN, kKb);
}
BENCHMARK(BM_AmxBf16);

// The attention forward's two bfloat16 Mmads per kv step, C starting at +0:
// S = Q K^T (m 128, n 128, k 64) and P V (m 128, n 64, k 128). Args: m, n, k,
// A packed as rows (0: A's packing not timed) or read in place from Zz fractals (1).
void BM_AmxBf16Attention(benchmark::State& state) {
  AmxBf16Fn fn = state.range(3) != 0 ? amx_zz_best() : amx_best();
  if (fn == nullptr) {
    state.SkipWithError("no AMX-BF16 on this CPU / OS");
    return;
  }
  const auto m = uint32_t(state.range(0)), n = uint32_t(state.range(1)), k = uint32_t(state.range(2));
  std::vector<float> c(uint64_t{m} * n);
  std::vector<uint16_t> a = ramp_bf16(uint64_t{m} * k), b = ramp_bf16(uint64_t{n} * k);
  for (auto _ : state) {
    fn(c.data(), m, n / 16, k, a.data(), b.data(), true);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, m, n, k);
}
BENCHMARK(BM_AmxBf16Attention)->ArgsProduct({{128}, {128, 64}, {64, 128}, {0, 1}});

// The per-Mmad packing of the AMX path: A Zz -> rows [m16][k32], B Zn -> VNNI panels.
void BM_PackABf16(benchmark::State& state) {
  std::vector<uint16_t> src = ramp_bf16(kM * kKb), dst(kM * kKb);
  for (auto _ : state) {
    pack_a_bf16(dst.data(), src.data(), kM, kM, kKb, kKb);
    benchmark::DoNotOptimize(dst.data());
  }
  set_bytes(state, uint64_t{kM} * kKb * 2);
}
BENCHMARK(BM_PackABf16);

void BM_PackBBf16(benchmark::State& state) {
  std::vector<uint16_t> src = ramp_bf16(kN * kKb), dst(kN * kKb);
  for (auto _ : state) {
    pack_b_bf16(dst.data(), src.data(), kN, kKb, kKb);
    benchmark::DoNotOptimize(dst.data());
  }
  set_bytes(state, uint64_t{kN} * kKb * 2);
}
BENCHMARK(BM_PackBBf16);

// The float path's B packing (Zn fractals -> panels [n16 / 16][k][16]).
void BM_PackBF32(benchmark::State& state) {
  PackBF32Fn fn = pack_b_f32_avx512();
  if (fn == nullptr) {
    state.SkipWithError("no AVX-512 packer on this CPU");
    return;
  }
  std::vector<float> src = ramp(kN * kKf), dst(kN * kKf);
  for (auto _ : state) {
    fn(dst.data(), src.data(), kN, kKf);
    benchmark::DoNotOptimize(dst.data());
  }
  set_bytes(state, uint64_t{kN} * kKf * 4);
}
BENCHMARK(BM_PackBF32);

}  // namespace

BENCHMARK_MAIN();
