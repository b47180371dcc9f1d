// cube_gemm_amx.cc: the AMX-BF16 Mmad path for bfloat16 operands (see
// cube_gemm.h). L0A (Zz) and L0B (Zn) fractals are packed straight into AMX
// tile layouts (A: rows of k padded to 32; B: VNNI pairs, 16 columns per
// panel) and TDPBF16PS accumulates into 16x16 float tiles that are exactly the
// L0C Nz blocks (16 rows x 16 floats, 64-B rows), 2x2 tiles per step.
// A is packed into rows of k32 (gemm_amx_impl) or, for whole 16-row groups
// and k a multiple of 16, read in place from the Zz fractals, 16 k per product
// (gemm_amx_zz_impl: no packing; Mmad's A pack was ~0.8 us per 128 x 128 P
// tile in attention). Numerics: every product is exact in fp32, C accumulates
// in fp32; TDPBF16PS does not add a tile's products strictly in k order (the
// two kernels above differ in the last bits, tests/runtime/cube/test_cube.cc),
// so the AMX path is held to the fp32 accumulation bound, not to the bits of
// the in-order fma of the float kernels; it also treats denormal inputs and
// results as zero (DAZ/FTZ) and adds +0 for the padding up to k32. Use needs
// the Linux XTILEDATA permission (arch_prctl(ARCH_REQ_XCOMP_PERM)), requested
// once per process.
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_move_simd.h"

#include <cstring>

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#pragma GCC push_options
#pragma GCC target("amx-tile,amx-bf16,avx512f")

namespace npurt::sim::cube {
namespace {

constexpr int kArchReqXcompPerm = 0x1023;
constexpr int kXfeatureXtiledata = 18;

bool os_allows_amx() {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool amx_bf16 = (d >> 22) & 1, amx_tile = (d >> 24) & 1;
  if (!amx_bf16 || !amx_tile) return false;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return false;  // OSXSAVE
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if (((lo >> 17) & 3) != 3) return false;  // XTILECFG and XTILEDATA enabled by the OS
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}

struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// Every C tile is 16 x 16 floats; an A tile is 16 rows x a_cols bf16 (32 for
// packed rows, 16 for L0A's Zz fractals) and a B tile a_cols / 2 VNNI rows of
// 16 pairs, so one TDPBF16PS covers a_cols of k.
void configure(uint16_t a_cols) {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = t == 4 || t == 5 ? uint16_t(a_cols * 2) : 64;
    cfg.rows[t] = t >= 6 ? uint8_t(a_cols / 2) : 16;
  }
  // Not _tile_loadconfig: its asm names only the first 8 bytes as input, so
  // GCC may drop or sink the stores of the rest; this operand is all 64.
  __asm__ volatile("ldtilecfg %0" ::"m"(cfg));
}

// Where a block's operand tiles are: A rows 0-15 at a, rows 16-31 at a + a_next,
// step s at + s * a_step (row stride a_stride bytes); B panel q at b + q * panel_b,
// step s at + s * b_step (64-B rows).
struct Operands {
  const uint16_t* a;
  uint64_t a_next, a_step, a_stride;
  const uint16_t* b;
  uint64_t panel_b, b_step;
};

// C tiles 0..3 (c[r][q] = rows r, panels q), A tiles 4..5, B tiles 6..7.
// Steps run in k order, so every C element sums its products as the packed
// kernel does, however long a step is.
template <int MR, int NR>
void block(float* c, uint64_t panel_c, const Operands& o, uint32_t ksteps, bool zero) {
  float* c00 = c;
  float* c01 = c + panel_c;
  float* c10 = c + 256;
  float* c11 = c + panel_c + 256;
  if (zero) {  // cmatrixInitVal: +0 tiles, L0C's old content is not read
    _tile_zero(0);
    if constexpr (NR > 1) _tile_zero(1);
    if constexpr (MR > 1) _tile_zero(2);
    if constexpr (MR > 1 && NR > 1) _tile_zero(3);
  } else {
    _tile_loadd(0, c00, 64);
    if constexpr (NR > 1) _tile_loadd(1, c01, 64);
    if constexpr (MR > 1) _tile_loadd(2, c10, 64);
    if constexpr (MR > 1 && NR > 1) _tile_loadd(3, c11, 64);
  }
  for (uint32_t s = 0; s < ksteps; ++s) {
    _tile_loadd(4, o.a + s * o.a_step, o.a_stride);
    if constexpr (MR > 1) _tile_loadd(5, o.a + o.a_next + s * o.a_step, o.a_stride);
    _tile_loadd(6, o.b + s * o.b_step, 64);
    if constexpr (NR > 1) _tile_loadd(7, o.b + o.panel_b + s * o.b_step, 64);
    _tile_dpbf16ps(0, 4, 6);
    if constexpr (NR > 1) _tile_dpbf16ps(1, 4, 7);
    if constexpr (MR > 1) _tile_dpbf16ps(2, 5, 6);
    if constexpr (MR > 1 && NR > 1) _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, c00, 64);
  if constexpr (NR > 1) _tile_stored(1, c01, 64);
  if constexpr (MR > 1) _tile_stored(2, c10, 64);
  if constexpr (MR > 1 && NR > 1) _tile_stored(3, c11, 64);
}

template <int MR>
void row_of_blocks(float* c, uint64_t panel_c, Operands o, uint32_t nblocks, uint32_t ksteps, bool zero) {
  const uint16_t* b = o.b;
  uint32_t j = 0;
  for (; j + 2 <= nblocks; j += 2) {
    o.b = b + j * o.panel_b;
    block<MR, 2>(c + j * panel_c, panel_c, o, ksteps, zero);
  }
  if (j < nblocks) {
    o.b = b + j * o.panel_b;
    block<MR, 1>(c + j * panel_c, panel_c, o, ksteps, zero);
  }
}

// 32-row groups (then a last 16-row one); row_a(i) is A's first element of row i.
template <class RowA>
void run_rows(float* c, uint32_t m16, uint32_t nblocks, uint32_t ksteps, Operands o, RowA row_a, bool zero) {
  const uint64_t panel_c = uint64_t{m16} * 16;
  uint32_t i = 0;
  for (; i + 32 <= m16; i += 32) {
    o.a = row_a(i);
    row_of_blocks<2>(c + i * 16, panel_c, o, nblocks, ksteps, zero);
  }
  if (i < m16) {
    o.a = row_a(i);
    row_of_blocks<1>(c + i * 16, panel_c, o, nblocks, ksteps, zero);
  }
  _tile_release();
}

// A packed as rows [m16][k32]: 32 k per step.
void gemm_amx_impl(float* c, uint32_t m16, uint32_t nblocks, uint32_t k32, const uint16_t* ap,
                   const uint16_t* bp, bool zero) {
  configure(32);
  const Operands o{ap, uint64_t{k32} * 16, 32, uint64_t{k32} * 2, bp, uint64_t{k32} * 16, 512};
  run_rows(c, m16, nblocks, k32 / 32, o, [&](uint32_t i) { return ap + uint64_t{i} * k32; }, zero);
}

// A read in place from L0A's Zz fractals (16 rows x 16 bf16 each, k16 / 16 per
// 16-row group, a fractal's rows 32 B apart): 16 k per step, no packing.
void gemm_amx_zz_impl(float* c, uint32_t m16, uint32_t nblocks, uint32_t k16, const uint16_t* az,
                      const uint16_t* bp, bool zero) {
  configure(16);
  const uint64_t group = uint64_t{k16} * 16;  // elements per 16-row group
  const Operands o{az, group, 256, 32, bp, uint64_t{k16} * 16, 256};
  run_rows(c, m16, nblocks, k16 / 16, o, [&](uint32_t i) { return az + uint64_t{i / 16} * group; }, zero);
}

bool amx_ok() {
  static const bool ok = os_allows_amx();
  return ok;
}

}  // namespace

AmxBf16Fn gemm_amx_bf16() { return amx_ok() ? &gemm_amx_impl : nullptr; }
AmxBf16Fn gemm_amx_bf16_zz() { return amx_ok() ? &gemm_amx_zz_impl : nullptr; }

}  // namespace npurt::sim::cube

#pragma GCC pop_options

#else

namespace npurt::sim::cube {
AmxBf16Fn gemm_amx_bf16() { return nullptr; }
AmxBf16Fn gemm_amx_bf16_zz() { return nullptr; }
}  // namespace npurt::sim::cube

#endif

namespace npurt::sim::cube {

// Zz fractals (16 rows x 16 bf16) -> ap[m16][k32], zero outside m x k.
void pack_a_bf16(uint16_t* ap, const uint16_t* a, uint32_t m, uint32_t m16, uint32_t k, uint32_t k32) {
  const uint32_t kb = (k + 15) / 16;
  for (uint32_t i = 0; i < m16; ++i) {
    uint16_t* row = ap + uint64_t{i} * k32;
    if (i >= m) {
      std::memset(row, 0, uint64_t{k32} * 2);
      continue;
    }
    const uint16_t* base = a + uint64_t{i / 16} * kb * 256 + (i % 16) * 16;
    for (uint32_t f = 0; f < kb; ++f) {
      const uint32_t cols = k - f * 16 < 16 ? k - f * 16 : 16;
      if (cols == 16) std::memcpy(row + f * 16, base + uint64_t{f} * 256, 32);  // inlined
      else std::memcpy(row + f * 16, base + uint64_t{f} * 256, cols * 2);
    }
    std::memset(row + k, 0, uint64_t{k32 - k} * 2);  // k tail and the padding to k32
  }
}

// Zn fractals (kb, nb), each 16 n-rows of 16 k -> VNNI panels bp[nb][k32/2][16][2],
// zero outside k x n. A pair (k even, k + 1) of one n row is one uint32.
// Every destination fractal is written once (whole ones by the vector
// transpose when the CPU has it); the padding to k32 is zeroed.
void pack_b_bf16(uint16_t* bp, const uint16_t* b, uint32_t n, uint32_t k, uint32_t k32) {
  const uint32_t nb = (n + 15) / 16, kb = (k + 15) / 16;
  const MoveKernels* fast = move_kernels();
  auto* out = reinterpret_cast<uint32_t*>(bp);
  for (uint32_t j = 0; j < nb; ++j)
    for (uint32_t f = 0; f < k32 / 16; ++f) {
      uint32_t* dst = out + (uint64_t{j} * (k32 / 2) + f * 8) * 16;
      if (f >= kb) {
        std::memset(dst, 0, 128 * sizeof(uint32_t));
        continue;
      }
      const uint16_t* frac = b + (uint64_t{f} * nb + j) * 256;
      const uint32_t qmax = n - j * 16 < 16 ? n - j * 16 : 16;
      const uint32_t kmax = k - f * 16 < 16 ? k - f * 16 : 16;
      if (qmax == 16 && kmax == 16) {  // whole fractal: a plain 16 x 8 transpose of pairs
        if (fast) {  // reads the fractal in place (unaligned vector loads)
          fast->vnni_b_fractal(dst, reinterpret_cast<const uint32_t*>(frac));
          continue;
        }
        uint32_t pairs[128];
        std::memcpy(pairs, frac, sizeof pairs);
        for (uint32_t t = 0; t < 8; ++t)
          for (uint32_t q = 0; q < 16; ++q) dst[t * 16 + q] = pairs[q * 8 + t];
        continue;
      }
      std::memset(dst, 0, 128 * sizeof(uint32_t));
      for (uint32_t q = 0; q < qmax; ++q)
        for (uint32_t t = 0; t < 8; ++t) {
          uint32_t lo = 2 * t < kmax ? frac[q * 16 + 2 * t] : 0;
          uint32_t hi = 2 * t + 1 < kmax ? frac[q * 16 + 2 * t + 1] : 0;
          dst[t * 16 + q] = lo | (hi << 16);
        }
    }
}

}  // namespace npurt::sim::cube
