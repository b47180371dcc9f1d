// bench/cpp/bench_softmax_bound.cc: the memory-system bound of softmax
// [rows, 1024] float32 on this host (issue 6), without the simulator.
//
// Two threads (one per core), rows split in halves as the sim's two blocks
// do; each iteration reads `rows` x 1024 floats and writes as many into a
// second buffer that is rewritten every iteration (the steady state the
// Python benchmark measures). Kernels, each with plain and streaming
// (non-temporal) stores:
//   copy     the row copied: the floor of any single-pass kernel;
//   fused    max pass, then exp(x - m) + sum into a 4 KiB L1 buffer, then
//            scale into the output: the fewest passes a softmax row needs,
//            with the sim's vector exp (simd/math.inc, the same bits);
//   passes   the row as npurt's kernel issues it: ReduceMax, Exp into UB,
//            ReduceSum, Muls, then DataCopy (memcpy / streaming) to GM;
//            "+pf" variants prefetch the next row's input (x) and/or its
//            output lines for write (y) one line per vector of the Exp loop.
// Prints per kernel the median wall time per iteration and the median thread
// CPU time (both threads summed / 2). Not a test: run it under
// `timeout 60 chrt -f 10` on a quiet machine; it takes ~10 s.
//   bench_softmax_bound [rows=4096] [iterations=300]
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")
#pragma GCC optimize("fp-contract=off")

namespace bound {
namespace {

constexpr int K = 16;
#include "backends/sim/aicore/simd/lane_types.inc"
inline VF isa_fma(VF a, VF b, VF c) { return (VF)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c); }
#define NPURT_ISA_SCALEF 1
inline VF isa_scalef(VF x, VF n) {
  return (VF)_mm512_maskz_scalef_round_ps(0xffff, (__m512)x, (__m512)n, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
#include "backends/sim/aicore/simd/math.inc"

constexpr int kCols = 1024;
constexpr int kVecs = kCols / K;

inline void put(float* d, VF v, bool nt) {
  if (nt) _mm512_stream_ps(d, (__m512)v);
  else _mm512_store_ps(d, (__m512)v);
}

void copy_row(float* y, const float* x, bool nt) {
  for (int j = 0; j < kVecs; ++j) put(y + j * K, vload<VF>(x + j * K), nt);
}

float hmax(VF v) {
  float m = v[0];
  for (int i = 1; i < K; ++i) m = std::max(m, v[i]);
  return m;
}
float hsum(VF v) {
  float s = 0;
  for (int i = 0; i < K; ++i) s += v[i];
  return s;
}

// max, exp + sum into tmp (L1), scale into y: two reads of x's row, one of tmp.
void fused_row(float* y, const float* x, float* tmp, bool nt) {
  VF m = vload<VF>(x);
  for (int j = 1; j < kVecs; ++j) m = __builtin_ia32_maxps512_mask((__m512)m, (__m512)vload<VF>(x + j * K), (__m512)m, 0xffff, 4);
  const VF mv = VF{} + hmax(m);
  VF s{};
  for (int j = 0; j < kVecs; ++j) {
    const VF e = vexp(vload<VF>(x + j * K) - mv);
    vstore(tmp + j * K, e);
    s += e;
  }
  const VF r = VF{} + 1.0f / hsum(s);
  for (int j = 0; j < kVecs; ++j) put(y + j * K, vload<VF>(tmp + j * K) * r, nt);
}

// npurt's pass sequence: each vector API call a separate loop over the row;
// pf: 1 prefetches the next row of x inside the Exp loop (one line per
// vector), 2 the next row of y for write, 3 both.
void passes_row(float* y, const float* x, float* ub, bool nt, int pf) {
  VF m = vload<VF>(x);
  for (int j = 1; j < kVecs; ++j) m = __builtin_ia32_maxps512_mask((__m512)m, (__m512)vload<VF>(x + j * K), (__m512)m, 0xffff, 4);
  const float mx = hmax(m);
  for (int j = 0; j < kVecs; ++j) {
    if (pf & 1) _mm_prefetch(reinterpret_cast<const char*>(x + kCols + j * K), _MM_HINT_T0);
    if (pf & 2) _mm_prefetch(reinterpret_cast<const char*>(y + kCols + j * K), _MM_HINT_ET0);
    vstore(ub + j * K, vexp(vload<VF>(x + j * K)));  // 0 <= max <= 64: no shift
  }
  (void)mx;
  VF s{};
  for (int j = 0; j < kVecs; ++j) s += vload<VF>(ub + j * K);
  const VF r = VF{} + 1.0f / hsum(s);
  for (int j = 0; j < kVecs; ++j) vstore(ub + j * K, vload<VF>(ub + j * K) * r);
  if (nt) copy_row(y, ub, true);
  else std::memcpy(y, ub, kCols * sizeof(float));
}

enum Kind { kCopy, kFused, kPasses, kPassesPfRead, kPassesPfWrite, kPassesPfBoth, kKinds };
const char* const kNames[] = {"copy", "fused", "passes", "passes+pf x", "passes+pf y", "passes+pf x,y"};

void run_rows(Kind k, bool nt, float* y, const float* x, int r0, int r1) {
  alignas(64) static thread_local float tmp[kCols];
  for (int r = r0; r < r1; ++r) {
    const size_t o = size_t(r) * kCols;
    if (k == kCopy) copy_row(y + o, x + o, nt);
    else if (k == kFused) fused_row(y + o, x + o, tmp, nt);
    else passes_row(y + o, x + o, tmp, nt, k - kPasses);
  }
  if (nt) _mm_sfence();
}

}  // namespace
}  // namespace bound
#pragma GCC pop_options

namespace {

double now_s(clockid_t c) {
  timespec t;
  clock_gettime(c, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

struct Shared {
  std::atomic<int> go{0};    // iteration number released to the helper
  std::atomic<int> done{0};  // iterations the helper finished
  int kind = 0;
  bool nt = false;
  bool quit = false;
  float* y = nullptr;
  const float* x = nullptr;
  int rows = 0;
  double helper_cpu = 0;  // helper's thread CPU seconds of the last iteration
};

void helper(Shared* s) {
  for (int it = 1;; ++it) {
    while (s->go.load(std::memory_order_acquire) < it) _mm_pause();
    if (s->quit) return;
    const double c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
    bound::run_rows(static_cast<bound::Kind>(s->kind), s->nt, s->y, s->x, s->rows / 2, s->rows);
    s->helper_cpu = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    s->done.store(it, std::memory_order_release);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx512f")) {
    std::puts("bench_softmax_bound: needs AVX-512F");
    return 0;
  }
  const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 300;
  const size_t n = size_t(rows) * bound::kCols;
  float* x = static_cast<float*>(std::aligned_alloc(64, n * sizeof(float)));
  float* y = static_cast<float*>(std::aligned_alloc(64, n * sizeof(float)));
  uint32_t seed = 1;
  for (size_t i = 0; i < n; ++i) {  // uniform in [0, 4): rows with 0 <= max <= 64, as the benchmark's
    seed = seed * 1664525u + 1013904223u;
    x[i] = (seed >> 8) * (4.0f / 16777216.0f);
  }
  std::memset(y, 0, n * sizeof(float));
  Shared s;
  s.x = x, s.y = y, s.rows = rows;
  std::thread t(helper, &s);
  int it = 0;
  std::printf("rows %d x 1024 float32 (%.1f MiB in + out), %d iterations, 2 threads\n", rows,
              2.0 * n * 4 / 1048576.0, iters);
  for (int kind = 0; kind < bound::kKinds; ++kind) {
    for (int nt = 0; nt < 2; ++nt) {
      if (nt && kind >= bound::kPassesPfWrite) continue;  // prefetchw + streaming stores: meaningless
      s.kind = kind, s.nt = nt != 0;
      std::vector<double> wall, cpu;
      for (int i = 0; i < iters + 20; ++i) {
        const double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
        s.go.store(++it, std::memory_order_release);
        bound::run_rows(static_cast<bound::Kind>(kind), s.nt, y, x, 0, rows / 2);
        const double c1 = now_s(CLOCK_THREAD_CPUTIME_ID);
        while (s.done.load(std::memory_order_acquire) < it) _mm_pause();
        const double w1 = now_s(CLOCK_MONOTONIC);
        if (i < 20) continue;  // warm-up
        wall.push_back(w1 - w0);
        cpu.push_back((c1 - c0 + s.helper_cpu) / 2);
      }
      const double gbs = 2.0 * n * 4 / median(wall) / 1e9;
      std::printf("%-14s %-9s wall %.3f ms  cpu/thread %.3f ms  %.1f GB/s (in + out)\n", bound::kNames[kind],
                  nt ? "streaming" : "plain", median(wall) * 1e3, median(cpu) * 1e3, gbs);
    }
  }
  double chk = 0;
  for (size_t i = 0; i < n; i += 4099) chk += y[i];
  std::printf("checksum %.6g\n", chk);
  s.quit = true;
  s.go.store(++it, std::memory_order_release);
  t.join();
  std::free(x);
  std::free(y);
  return 0;
}
