// runtime/backends/sim/aicore/stream_copy.cc: streaming-store memcpy for large
// local -> GM copies (stream_copy.h says when and why). The widest store the
// host supports is chosen once; every variant copies 64-byte lines into a
// 64-byte aligned destination and leaves the unaligned head and the tail to
// memcpy.
#include "backends/sim/aicore/stream_copy.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace npurt::sim {

#if defined(__x86_64__)
namespace {

using LineCopy = void (*)(uint8_t* dst, const uint8_t* src, uint64_t lines);

__attribute__((target("avx512f"))) void lines_avx512(uint8_t* d, const uint8_t* s, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i, d += 64, s += 64)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(d), _mm512_loadu_si512(s));
}

__attribute__((target("avx"))) void lines_avx(uint8_t* d, const uint8_t* s, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i, d += 64, s += 64) {
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 32));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + 32), b);
  }
}

void lines_sse2(uint8_t* d, const uint8_t* s, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i, d += 64, s += 64)
    for (int k = 0; k < 64; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + k),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k)));
}

LineCopy pick_line_copy() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return lines_avx512;
  if (__builtin_cpu_supports("avx")) return lines_avx;
  return lines_sse2;
}

}  // namespace

void stream_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  stream_copy_unfenced(dst, src, bytes);
  stream_fence();
}

void stream_fence() { _mm_sfence(); }  // order the weakly-ordered streaming stores before later stores

void stream_copy_unfenced(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  static const LineCopy line_copy = pick_line_copy();
  const uint64_t head = (64 - (reinterpret_cast<uintptr_t>(dst) & 63)) & 63;
  if (bytes < head + 64) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::memcpy(dst, src, head);
  const uint64_t lines = (bytes - head) / 64;
  line_copy(dst + head, src + head, lines);
  const uint64_t done = head + lines * 64;
  std::memcpy(dst + done, src + done, bytes - done);
}

#else

void stream_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes) { std::memcpy(dst, src, bytes); }
void stream_copy_unfenced(uint8_t* dst, const uint8_t* src, uint64_t bytes) { std::memcpy(dst, src, bytes); }
void stream_fence() {}

#endif

}  // namespace npurt::sim
