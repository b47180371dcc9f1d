// runtime/backends/sim/aicore/load_copy.cc: prefetching memcpy for GM -> local
// copies (load_copy.h says when and why). The widest vector copy the host
// supports is chosen once; each step copies 256 bytes and prefetches the
// 256 bytes kAhead further on into L1.
#include "backends/sim/aicore/load_copy.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace npurt::sim {

#if defined(__x86_64__)
namespace {

// Prefetch distance: one 4 KiB page ahead of the read, so the lines of the
// next page are requested before the copy reaches the page boundary where
// the hardware prefetcher stops (2 KiB and 4 KiB measured; 4 KiB was at
// least as fast, docs/performance.md "Reductions (wave 5)").
constexpr uint64_t kAhead = 4096;

using StepCopy = void (*)(uint8_t* dst, const uint8_t* src, uint64_t steps, uint64_t ahead);

void prefetch_step(const uint8_t* p) {
  _mm_prefetch(reinterpret_cast<const char*>(p), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(p + 64), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(p + 128), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(p + 192), _MM_HINT_T0);
}

__attribute__((target("avx512f"))) void steps_avx512(uint8_t* d, const uint8_t* s, uint64_t n, uint64_t ahead) {
  for (uint64_t i = 0; i < n; ++i, d += 256, s += 256) {
    prefetch_step(s + ahead);
    const __m512i a = _mm512_loadu_si512(s), b = _mm512_loadu_si512(s + 64);
    const __m512i c = _mm512_loadu_si512(s + 128), e = _mm512_loadu_si512(s + 192);
    _mm512_storeu_si512(d, a);
    _mm512_storeu_si512(d + 64, b);
    _mm512_storeu_si512(d + 128, c);
    _mm512_storeu_si512(d + 192, e);
  }
}

__attribute__((target("avx"))) void steps_avx(uint8_t* d, const uint8_t* s, uint64_t n, uint64_t ahead) {
  for (uint64_t i = 0; i < n; ++i, d += 256, s += 256) {
    prefetch_step(s + ahead);
    for (int k = 0; k < 256; k += 64) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k + 32));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + k), a);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + k + 32), b);
    }
  }
}

void steps_plain(uint8_t* d, const uint8_t* s, uint64_t n, uint64_t ahead) {
  for (uint64_t i = 0; i < n; ++i, d += 256, s += 256) {
    prefetch_step(s + ahead);
    std::memcpy(d, s, 256);
  }
}

StepCopy pick_step_copy() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return steps_avx512;
  if (__builtin_cpu_supports("avx")) return steps_avx;
  return steps_plain;
}

}  // namespace

void load_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  static const StepCopy step_copy = pick_step_copy();
  const uint64_t steps = bytes / 256;
  step_copy(dst, src, steps, kAhead);
  std::memcpy(dst + steps * 256, src + steps * 256, bytes - steps * 256);
}

#else

void load_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes) { std::memcpy(dst, src, bytes); }

#endif

}  // namespace npurt::sim
