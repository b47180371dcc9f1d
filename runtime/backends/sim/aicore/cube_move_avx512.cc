// cube_move_avx512.cc: the AVX-512 bodies of the cube's data moves (see
// cube_move_simd.h). Transposes are permutation networks over the whole
// fractal held in registers (loaded before anything is stored, so a
// destination overlapping the source behaves like the scalar copy-then-write
// form), casts and ReLU with masked vector stores.
// Only data movement and the documented casts: bit-identical to the scalar
// loops of cube_move.cc / cube_gemm_amx.cc.
#include "backends/sim/aicore/cube_move_simd.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl")

namespace npurt::sim::cube {
namespace {

// Masked forms with an all-ones mask and a zero source throughout: the plain
// intrinsics start from _mm512_undefined_*(), which GCC 12 reports as used
// uninitialised under -Wall.
constexpr __mmask16 kAll = 0xffff;

template <int NREG>
void load_regs(__m512i (&v)[NREG], const void* src) {
#pragma GCC unroll 16
  for (int r = 0; r < NREG; ++r) v[r] = _mm512_loadu_si512(static_cast<const uint8_t*>(src) + r * 64);
}

// Fractal transposes as permutation networks: the fractal sits in NREG zmm
// registers; each of three stages swaps one register-index bit with a lane
// bit by one two-source permute per register (vpermt2d / vpermt2w), which
// costs a fraction of the 16-lane gathers it replaces. A layout names, for
// every bit of a position (lane bits first, then register bits), the element
// bit found there; the element id is its index in the destination order
// described per routine. Index vectors are derived once from four layouts.
template <class Lane, int NREG, int NST = 3>
struct Network {
  static constexpr int kLanes = 64 / sizeof(Lane), kLaneBits = sizeof(Lane) == 4 ? 4 : 5;
  static constexpr int kBits = kLaneBits + (NREG == 8 ? 3 : 4);
  alignas(64) Lane idx[NST][NREG][kLanes];

  static int position(const int* layout, int e) {
    int p = 0;
    for (int i = 0; i < kBits; ++i) p |= ((e >> layout[i]) & 1) << i;
    return p;
  }
  // layouts[0]: the source order, layouts[NST]: the destination order; stage s
  // keeps every register bit of layouts[s] but one.
  explicit Network(const int (&layouts)[NST + 1][8]) {
    for (int s = 0; s < NST; ++s) {
      const int* from = layouts[s];
      const int* to = layouts[s + 1];
      int b = -1;
      for (int i = kLaneBits; i < kBits; ++i)
        if (from[i] != to[i]) b = i - kLaneBits;
      if (b != s) std::abort();  // stage s must swap register bit s (see stage())
      int inverse[1 << kBits];
      for (int e = 0; e < (1 << kBits); ++e) inverse[position(to, e)] = e;
      for (int ro = 0; ro < NREG; ++ro)
        for (int l = 0; l < kLanes; ++l) {
          const int pa = position(from, inverse[ro * kLanes + l]);
          const int ri = pa / kLanes;
          if ((ri | (1 << b)) != (ro | (1 << b))) std::abort();  // a bad layout table: a bug here
          idx[s][ro][l] = static_cast<Lane>(pa % kLanes + kLanes * ((ri >> b) & 1));
        }
    }
  }

  // Stage S swaps register bit S (the layout tables are written that way,
  // checked by the constructor), so every register index is a constant and
  // the fractal stays in registers.
  template <int S, class Perm>
  void stage(__m512i (&v)[NREG], Perm perm) const {
    constexpr int bit = 1 << S;
    __m512i w[NREG];
#pragma GCC unroll 16
    for (int ro = 0; ro < NREG; ++ro)
      w[ro] = perm(v[ro & ~bit], _mm512_load_si512(idx[S][ro]), v[ro | bit]);
#pragma GCC unroll 16
    for (int ro = 0; ro < NREG; ++ro) v[ro] = w[ro];
  }
  template <class Perm>
  void run(__m512i (&v)[NREG], Perm perm) const {
    stage<0>(v, perm);
    stage<1>(v, perm);
    stage<2>(v, perm);
    if constexpr (NST > 3) stage<3>(v, perm);
  }
  // The whole fractal: NREG registers of 64 contiguous bytes loaded, permuted,
  // stored contiguously. Every load precedes any store, so dst may alias src.
  template <class Perm>
  void apply(void* dst, const void* src, Perm perm) const {
    __m512i v[NREG];
    load_regs(v, src);
    run(v, perm);
#pragma GCC unroll 16
    for (int r = 0; r < NREG; ++r) _mm512_storeu_si512(static_cast<uint8_t*>(dst) + r * 64, v[r]);
  }
};

inline __m512i perm32(__m512i a, __m512i i, __m512i b) { return _mm512_permutex2var_epi32(a, i, b); }
inline __m512i perm16(__m512i a, __m512i i, __m512i b) { return _mm512_permutex2var_epi16(a, i, b); }

void transpose_b16(uint16_t* dst, const uint16_t* src) {
  // Element (r, q) = src[r * 16 + q], bits q0..q3 r0..r3; dst[q * 16 + r].
  static const Network<uint16_t, 8> net({{0, 1, 2, 3, 4, 5, 6, 7},
                                         {0, 5, 2, 3, 4, 1, 6, 7},
                                         {0, 5, 6, 3, 4, 1, 2, 7},
                                         {4, 5, 6, 7, 0, 1, 2, 3}});
  net.apply(dst, src, perm16);  // dst may alias src
}

void transpose_sq_b32(uint32_t* lo, uint32_t* hi, const uint32_t* sq) {
  // Element (q, r) = sq[q * 16 + r], bits r0..r3 q0..q3; destination register
  // o < 8 is lo + 16 o, o >= 8 is hi + 16 (o - 8): lo/hi[r * 8 + q % 8].
  static const Network<uint32_t, 16> net({{0, 1, 2, 3, 4, 5, 6, 7},
                                          {0, 4, 2, 3, 1, 5, 6, 7},
                                          {0, 4, 5, 3, 1, 2, 6, 7},
                                          {4, 5, 6, 0, 1, 2, 3, 7}});
  __m512i v[16];
  load_regs(v, sq);  // lo / hi may overlap the square
  net.run(v, perm32);
  for (int r = 0; r < 8; ++r) _mm512_storeu_si512(lo + r * 16, v[r]);
  for (int r = 0; r < 8; ++r) _mm512_storeu_si512(hi + r * 16, v[8 + r]);
}

void vnni_b_fractal(uint32_t* dst, const uint32_t* src) {
  // Element (q, t) = src[q * 8 + t], bits t0..t2 q0..q3; dst[t * 16 + q].
  static const Network<uint32_t, 8> net({{0, 1, 2, 3, 4, 5, 6, 0},
                                         {4, 1, 2, 3, 0, 5, 6, 0},
                                         {4, 5, 2, 3, 0, 1, 6, 0},
                                         {3, 4, 5, 6, 0, 1, 2, 0}});
  net.apply(dst, src, perm32);  // dst may alias src
}

void transpose_16x16_b32(uint32_t* dst, const uint32_t* src) {
  // Element (q, t) = src[q * 16 + t], bits t0..t3 q0..q3; dst[t * 16 + q]: four stages.
  static const Network<uint32_t, 16, 4> net({{0, 1, 2, 3, 4, 5, 6, 7},
                                             {4, 1, 2, 3, 0, 5, 6, 7},
                                             {4, 5, 2, 3, 0, 1, 6, 7},
                                             {4, 5, 6, 3, 0, 1, 2, 7},
                                             {4, 5, 6, 7, 0, 1, 2, 3}});
  net.apply(dst, src, perm32);  // dst may alias src
}

inline __m512 load_relu(const float* s, bool relu) {
  __m512 v = _mm512_loadu_ps(s);
  if (relu) v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), _mm512_setzero_ps());
  return v;
}

inline __mmask16 col_mask(uint32_t cols) { return static_cast<__mmask16>((1u << cols) - 1u); }

void fix_f32(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r)
    _mm512_mask_storeu_ps(dst + r * pitch, m, load_relu(src + uint64_t{r} * 16, relu));
}

void fix_f32_stream(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  if (cols != 16) {
    fix_f32(dst, pitch, src, rows, cols, relu);
    return;
  }
  for (uint32_t r = 0; r < rows; ++r)
    _mm512_stream_ps(reinterpret_cast<float*>(dst + r * pitch), load_relu(src + uint64_t{r} * 16, relu));
}

void fix_f16(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r) {
    __m256i h = _mm512_maskz_cvtps_ph(kAll, load_relu(src + uint64_t{r} * 16, relu), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_mask_storeu_epi16(dst + r * pitch, m, h);
  }
}

// float_to_bf16_bits on 16 lanes: NaN -> top half with the quiet bit, else round to nearest even.
inline __m256i to_bf16(__m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                _mm512_set1_epi32(0x7f800000));
  const __m512i lsb = _mm512_and_si512(_mm512_maskz_srli_epi32(kAll, u, 16), _mm512_set1_epi32(1));
  __m512i r = _mm512_maskz_srli_epi32(kAll, _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(_mm512_maskz_srli_epi32(kAll, u, 16), _mm512_set1_epi32(0x40)));
  return _mm512_maskz_cvtepi32_epi16(kAll, r);
}

void fix_bf16(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r)
    _mm256_mask_storeu_epi16(dst + r * pitch, m, to_bf16(load_relu(src + uint64_t{r} * 16, relu)));
}

void nd2nz_blocks(uint8_t* dst, uint64_t dst_block, uint64_t dst_row, const uint8_t* src, uint64_t pitch,
                  uint32_t rows, uint32_t blocks) {
  if (dst_block == 32) {  // a row's blocks are contiguous in L1: one run per row
    for (uint32_t r = 0; r < rows; ++r) {
      const uint8_t* s = src + r * pitch;
      uint8_t* d = dst + r * dst_row;
      uint32_t j = 0;
      for (; j + 2 <= blocks; j += 2) _mm512_storeu_si512(d + j * 32, _mm512_loadu_si512(s + j * 32));
      if (j < blocks) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + j * 32),
                                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + j * 32)));
    }
    return;
  }
  for (uint32_t j = 0; j < blocks; ++j) {  // block by block: each block's rows are one run in L1
    const uint8_t* s = src + j * 32;
    uint8_t* d = dst + j * dst_block;
    for (uint32_t r = 0; r < rows; ++r)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + r * dst_row),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + r * pitch)));
  }
}

void copy_fractals(uint8_t* dst, uint64_t dst_step, const uint8_t* src, uint64_t src_step, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    __m512i v[8];
    load_regs(v, src + i * src_step);  // the whole fractal first: dst may overlap it
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) _mm512_storeu_si512(dst + i * dst_step + r * 64, v[r]);
  }
}

const MoveKernels* choose() {
  const char* forced = std::getenv("NPURT_SIM_ISA");
  if (forced && (std::strcmp(forced, "generic") == 0 || std::strcmp(forced, "avx2") == 0)) return nullptr;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512vl"))
    return nullptr;
  static const MoveKernels k{&transpose_b16, &transpose_sq_b32, &fix_f32, &fix_f16, &fix_bf16, &fix_f32_stream,
                             &vnni_b_fractal,
                                &nd2nz_blocks, &transpose_16x16_b32, &copy_fractals};
  return &k;
}

}  // namespace

const MoveKernels* move_kernels() {
  static const MoveKernels* k = choose();
  return k;
}

}  // namespace npurt::sim::cube

#pragma GCC pop_options

#else

namespace npurt::sim::cube {
const MoveKernels* move_kernels() { return nullptr; }
}  // namespace npurt::sim::cube

#endif
