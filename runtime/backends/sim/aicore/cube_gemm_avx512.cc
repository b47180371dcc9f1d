// cube_gemm_avx512.cc: the AVX-512 Mmad micro-kernel (see cube_gemm.h).
// Register tile: 8 rows x 48 columns (24 accumulators, 3 B vectors, 1
// broadcast: 28 of 32 zmm), k blocked by 256; per k block either all of B
// stays in L1 while the rows of A pass once (B small enough), or three B
// panels (up to 48 KiB) stay in L1/L2 while the rows of A stream past them.
// The accumulators live in registers for the whole k block (no stack copy).
// Each cell is updated with one FMA per k in order, like gemm_generic. The
// _zz form reads A straight from L0A's Zz fractals (no packing copy). Between
// its FMAs each register tile prefetches two GM rows the Nd2Nz look-ahead
// queued (cube_prefetch.h): hints only, the results do not depend on them.
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_prefetch.h"

#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,fma")

namespace npurt::sim::cube {
namespace {

constexpr uint32_t kKc = 256;

// One k step of the 8 x (16 NP) register tile: B's NP vectors at bq[p] + t * 16,
// A's 8 values of this k at ak + r * row. B comes from one pointer per panel
// that the caller advances by whole fractals, so each step's addresses are
// constant offsets (the old form recomputed b + p * panel_b + kk * 16 per step).
template <int NP>
inline __attribute__((always_inline)) void step(__m512 (&acc)[8][NP], const float* const (&bq)[NP], uint32_t t,
                                                const float* ak, uint64_t row) {
  __m512 bv[NP];
#pragma GCC unroll 4
  for (int p = 0; p < NP; ++p) bv[p] = _mm512_loadu_ps(bq[p] + t * 16);
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    const __m512 av = _mm512_set1_ps(ak[r * row]);
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) acc[r][p] = _mm512_fmadd_ps(av, bv[p], acc[r][p]);
  }
}

// The next line of a queued row into L2 (nothing once the row is done).
inline __attribute__((always_inline)) void prefetch_line(PrefetchRow& r) {
  if (r.p < r.end) {
    _mm_prefetch(reinterpret_cast<const char*>(r.p), _MM_HINT_T1);
    r.p += 64;
  }
}

// k steps [kk, kend) one at a time, B pointers at step kk; A element (r, kk)
// is at ak(kk) + r * row.
template <int NP, bool ZZ>
inline __attribute__((always_inline)) void steps_one(__m512 (&acc)[8][NP], const float* const (&bq)[NP],
                                                     const float* a, uint64_t row, uint32_t kk, uint32_t kend) {
  for (uint32_t t = 0; kk < kend; ++kk, ++t) {
    const float* ak = ZZ ? a + uint64_t{kk >> 3} * 128 + (kk & 7) : a + kk;
    step<NP>(acc, bq, t, ak, row);
  }
}

// ZERO is a template argument, not a runtime flag, so the accumulators stay
// in registers from the first FMA to the store (a runtime choice between
// zeroing and loading made GCC keep them in a stack array around the k loop).
// The main loop runs 8 k per iteration (a whole Zz fractal in the Zz form),
// so every A and B address is a constant offset from pointers advanced once
// per iteration. A element (r, kk): Zz at a + (kk / 8) * 128 + kk % 8 + r * 8
// (16 rows x 8 floats per fractal), rows at a + r * lda + kk otherwise.
// Each iteration also prefetches the next line of r0 and r1 into L2: GM rows
// the next Nd2Nz copy is predicted to read (cube_prefetch.h), spread one
// line per ~100 cycles of FMAs so they never fill the line-fill buffers.
template <int NP, bool ZZ, bool ZERO>
void tile8(float* c, uint64_t panel_c, const float* a, uint32_t lda, const float* b,
           uint64_t panel_b, uint32_t k0, uint32_t kc, PrefetchRow r0, PrefetchRow r1) {
  __m512 acc[8][NP];
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r)
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) acc[r][p] = ZERO ? _mm512_setzero_ps() : _mm512_loadu_ps(c + p * panel_c + r * 16);
  const uint64_t row = ZZ ? 8 : lda;
  const float* bq[NP];
  uint32_t kk = k0;
  const uint32_t kend = k0 + kc;
  const uint32_t head = ZZ ? (kk & 7 ? (8 - (kk & 7) < kc ? 8 - (kk & 7) : kc) : 0) : 0;
#pragma GCC unroll 4
  for (int p = 0; p < NP; ++p) bq[p] = b + p * panel_b + uint64_t{kk} * 16;
  if (head) {
    steps_one<NP, ZZ>(acc, bq, a, row, kk, kk + head);
    kk += head;
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) bq[p] += head * 16;
  }
  const float* ak = ZZ ? a + uint64_t{kk >> 3} * 128 : a + kk;
  for (; kk + 8 <= kend; kk += 8) {
#pragma GCC unroll 4
    for (uint32_t t = 0; t < 4; ++t) step<NP>(acc, bq, t, ak + t, row);
    prefetch_line(r0);
    prefetch_line(r1);
#pragma GCC unroll 4
    for (uint32_t t = 4; t < 8; ++t) step<NP>(acc, bq, t, ak + t, row);
    ak += ZZ ? 128 : 8;
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) bq[p] += 128;
  }
  steps_one<NP, ZZ>(acc, bq, a, row, kk, kend);
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r)
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) _mm512_storeu_ps(c + p * panel_c + r * 16, acc[r][p]);
}

// One 8 x (16 NP) register tile: rows i .. i + 7, panels j .. j + NP - 1, one k block.
template <int NP, bool ZZ>
void tile_at(float* c, uint64_t panel_c, const float* ap, uint32_t k, uint32_t k0, const float* bp,
             uint64_t panel_b, uint32_t kc, uint32_t i, uint32_t j, bool zero, PrefetchQueue& pq) {
  const uint64_t kbs = (uint64_t{k} + 7) / 8;  // Zz fractals per 16-row group
  const float* a = ZZ ? ap + (i / 16) * kbs * 128 + (i % 16) * 8 : ap + uint64_t{i} * k;
  float* ct = c + j * panel_c + i * 16;
  // Two queued GM rows (cube_prefetch.h), one line of each per 8 k.
  const PrefetchRow q0 = pq.next_row(), q1 = pq.next_row();
  if (zero) tile8<NP, ZZ, true>(ct, panel_c, a, k, bp + j * panel_b, panel_b, k0, kc, q0, q1);
  else tile8<NP, ZZ, false>(ct, panel_c, a, k, bp + j * panel_b, panel_b, k0, kc, q0, q1);
}

// Panels j .. j + NP - 1 for every 8-row group, one k block.
template <int NP, bool ZZ>
void panels(float* c, uint64_t panel_c, uint32_t m16, const float* ap, uint32_t k, uint32_t k0,
            const float* bp, uint64_t panel_b, uint32_t kc, uint32_t j, bool zero, PrefetchQueue& pq) {
  for (uint32_t i = 0; i < m16; i += 8) tile_at<NP, ZZ>(c, panel_c, ap, k, k0, bp, panel_b, kc, i, j, zero, pq);
}

// Panel groups of one k block: triples, and a remainder of 4 as two pairs
// rather than 3 + 1 (the one-panel kernel has 8 accumulators, too few to hide
// the FMA latency). rows < 0: every 8-row group per panel group; else the
// 8-row group at `rows` only.
template <bool ZZ>
void panel_groups(float* c, uint64_t panel_c, uint32_t m16, uint32_t nblocks, const float* ap, uint32_t k,
                  uint32_t k0, const float* bp, uint64_t panel_b, uint32_t kc, int64_t rows, bool zero,
                  PrefetchQueue& pq) {
  const uint32_t triples = nblocks % 3 == 1 && nblocks >= 4 ? nblocks / 3 - 1 : nblocks / 3;
  const auto run = [&](auto np, uint32_t j) {
    constexpr int NP = decltype(np)::value;
    if (rows < 0) panels<NP, ZZ>(c, panel_c, m16, ap, k, k0, bp, panel_b, kc, j, zero, pq);
    else tile_at<NP, ZZ>(c, panel_c, ap, k, k0, bp, panel_b, kc, static_cast<uint32_t>(rows), j, zero, pq);
  };
  uint32_t j = 0;
  for (; j < 3 * triples; j += 3) run(std::integral_constant<int, 3>{}, j);
  for (; j + 2 <= nblocks; j += 2) run(std::integral_constant<int, 2>{}, j);
  if (j < nblocks) run(std::integral_constant<int, 1>{}, j);
}

// B bytes of one k block that stay in L1 (48 KiB) beside an 8-row slice of A and C.
constexpr uint64_t kL1BBudget = 32 * 1024;

template <bool ZZ>
void gemm_impl(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap, const float* bp,
               bool zero_c) {
  const uint64_t panel_c = uint64_t{m16} * 16, panel_b = uint64_t{k} * 16;
  PrefetchQueue& pq = prefetch_queue();
  for (uint32_t k0 = 0; k0 < k; k0 += kKc) {
    const uint32_t kc = k - k0 < kKc ? k - k0 : kKc;
    const bool zero = zero_c && k0 == 0;  // the first k block starts from +0 instead of reading C
    // Loop order by what stays in L1: when all of B's k block fits (Mmad's
    // 256 x 128 float tiles: 8 panels x 64 k = 32 KiB), rows outer, so A and
    // C pass through once and B is read from L1; otherwise panel groups
    // outer (3 panels of B held in L1 while every row of A streams past).
    // Each cell's sum runs over k in order either way: the same bits.
    if (uint64_t{nblocks} * kc * 64 <= kL1BBudget) {
      for (uint32_t i = 0; i < m16; i += 8)
        panel_groups<ZZ>(c, panel_c, m16, nblocks, ap, k, k0, bp, panel_b, kc, i, zero, pq);
    } else {
      panel_groups<ZZ>(c, panel_c, m16, nblocks, ap, k, k0, bp, panel_b, kc, -1, zero, pq);
    }
  }
}

bool cpu_ok() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
}

}  // namespace

GemmFn gemm_avx512() { return cpu_ok() ? &gemm_impl<false> : nullptr; }
GemmFn gemm_avx512_zz() { return cpu_ok() ? &gemm_impl<true> : nullptr; }

}  // namespace npurt::sim::cube

#pragma GCC pop_options

#else

namespace npurt::sim::cube {
GemmFn gemm_avx512() { return nullptr; }
GemmFn gemm_avx512_zz() { return nullptr; }
}  // namespace npurt::sim::cube

#endif
