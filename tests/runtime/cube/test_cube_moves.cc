// tests/runtime/cube/test_cube_moves.cc: the vectorised data moves of the
// simulated cube (cube_move_simd.h) against the scalar loops they replace,
// bit for bit: fractal transposes (2- and 4-byte, in place too), the AMX VNNI
// packing of B, and Fixpipe's casts with ReLU over every column count and odd
// row counts, with NaN, infinities, signed zeros, denormals, rounding ties and
// fp16 overflow in the data. Bytes outside the written columns must stay.
// The float Fixpipe with streaming stores and LoadData's fractal copy likewise.
// Also the float micro-kernel reading A from Zz fractals in place against an
// in-order fmaf loop (padding past k filled with NaN: it must not be read).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "aicore/types.h"
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_move_simd.h"

namespace {

using npurt::sim::cube::MoveKernels;

const MoveKernels* kernels_or_skip() { return npurt::sim::cube::move_kernels(); }

template <class T>
std::vector<T> random_bits(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(rng());
  return v;
}

TEST(CubeMoves, Transpose16BitFractal) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  for (uint32_t seed : {1u, 2u, 3u}) {
    auto src = random_bits<uint16_t>(256, seed);
    std::vector<uint16_t> want(256), got(256);
    for (int r = 0; r < 16; ++r)
      for (int q = 0; q < 16; ++q) want[q * 16 + r] = src[r * 16 + q];
    k->transpose_b16(got.data(), src.data());
    EXPECT_EQ(want, got);
    std::vector<uint16_t> inplace = src;  // LoadData may alias (memmove semantics)
    k->transpose_b16(inplace.data(), inplace.data());
    EXPECT_EQ(want, inplace);
  }
}

TEST(CubeMoves, Transpose32BitSquareIntoTwoFractals) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  auto sq = random_bits<uint32_t>(256, 7);
  // Destination with a gap fractal between lo and hi (dstFracGap = 1), canary in the gap.
  std::vector<uint32_t> got(384, 0xdeadbeefu), want(384, 0xdeadbeefu);
  for (int r = 0; r < 16; ++r)
    for (int q = 0; q < 16; ++q) (q < 8 ? want.data() : want.data() + 256)[r * 8 + q % 8] = sq[q * 16 + r];
  k->transpose_sq_b32(got.data(), got.data() + 256, sq.data());
  EXPECT_EQ(want, got);
  std::vector<uint32_t> inplace(sq);  // lo overwrites the square it reads
  inplace.resize(256);
  k->transpose_sq_b32(inplace.data(), inplace.data() + 128, inplace.data());
  for (int r = 0; r < 16; ++r)
    for (int q = 0; q < 16; ++q) ASSERT_EQ(inplace[(q < 8 ? 0 : 128) + r * 8 + q % 8], sq[q * 16 + r]);
}

TEST(CubeMoves, VnniPackingOfAWholeFractal) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  auto src = random_bits<uint32_t>(128, 11);
  std::vector<uint32_t> got(128), want(128);
  for (int t = 0; t < 8; ++t)
    for (int q = 0; q < 16; ++q) want[t * 16 + q] = src[q * 8 + t];
  k->vnni_b_fractal(got.data(), src.data());
  EXPECT_EQ(want, got);
}

TEST(CubeMoves, Transpose32Bit16x16) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  for (uint32_t seed : {13u, 14u}) {
    auto src = random_bits<uint32_t>(256, seed);
    std::vector<uint32_t> want(256), got(256);
    for (int q = 0; q < 16; ++q)
      for (int t = 0; t < 16; ++t) want[t * 16 + q] = src[q * 16 + t];
    k->transpose_16x16_b32(got.data(), src.data());
    EXPECT_EQ(want, got);
    std::vector<uint32_t> inplace = src;
    k->transpose_16x16_b32(inplace.data(), inplace.data());
    EXPECT_EQ(want, inplace);
  }
}

TEST(CubeMoves, Nd2NzWholeBlocks) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  // (rows, blocks, dst_block, dst_row) in 32-B units: column-block layout (Nz of 1, 8, 15 rows),
  // contiguous rows (16-column float slabs: blocks 2, row stride 2), odd block counts.
  const uint32_t cases[][4] = {{1, 1, 1, 1}, {8, 16, 128, 1}, {15, 3, 16, 1}, {8, 2, 1, 2},
                               {7, 5, 1, 5}, {3, 4, 1, 6}, {8, 1, 1, 1}};
  for (const auto& cs : cases) {
    const uint32_t rows = cs[0], blocks = cs[1], pitch = blocks * 32 + 96;
    auto src = random_bits<uint8_t>(uint64_t{rows} * pitch, rows * 13 + blocks);
    const uint64_t dst_bytes = (uint64_t{blocks - 1} * cs[2] + uint64_t{rows - 1} * cs[3] + 1) * 32 + 64;
    std::vector<uint8_t> got(dst_bytes, 0x5a), want(dst_bytes, 0x5a);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t j = 0; j < blocks; ++j)
        std::memcpy(&want[(uint64_t{j} * cs[2] + uint64_t{r} * cs[3]) * 32], &src[r * pitch + j * 32], 32);
    k->nd2nz_blocks(got.data(), cs[2] * 32ull, cs[3] * 32ull, src.data(), pitch, rows, blocks);
    EXPECT_EQ(want, got) << "rows=" << rows << " blocks=" << blocks;
  }
}

TEST(CubeMoves, GemmReadingZzFractalsMatchesInOrderFma) {
  auto zz = npurt::sim::cube::gemm_avx512_zz();
  if (!zz) GTEST_SKIP() << "no AVX-512 on this host";
  for (auto [m16, nb, k] : {std::tuple{16u, 1u, 1u}, {32u, 3u, 13u}, {48u, 2u, 300u}, {128u, 8u, 257u},
                            {32u, 4u, 64u}, {16u, 16u, 40u}}) {
    std::mt19937 rng(k * 3 + nb);
    std::normal_distribution<float> d;
    const uint32_t kbs = (k + 7) / 8;
    std::vector<float> a(uint64_t{m16} * k), azz(uint64_t{m16 / 16} * kbs * 128, NAN);
    std::vector<float> bp(uint64_t{nb} * k * 16), c(uint64_t{nb} * m16 * 16);
    for (float& v : a) v = d(rng);
    for (float& v : bp) v = d(rng);
    for (float& v : c) v = d(rng);
    for (uint32_t i = 0; i < m16; ++i)
      for (uint32_t kk = 0; kk < k; ++kk)
        azz[(i / 16) * kbs * 128 + (kk / 8) * 128 + (i % 16) * 8 + kk % 8] = a[uint64_t{i} * k + kk];
    for (bool zero : {false, true}) {  // zero: C starts at +0; its old content (NaN here) is never read
      std::vector<float> c0 = c, want(c.size(), 0.0f);
      if (zero) std::fill(c0.begin(), c0.end(), NAN);
      else want = c;
      for (uint32_t j = 0; j < nb; ++j)
        for (uint32_t i = 0; i < m16; ++i)
          for (uint32_t q = 0; q < 16; ++q) {
            float& acc = want[(uint64_t{j} * m16 + i) * 16 + q];
            for (uint32_t kk = 0; kk < k; ++kk)
              acc = std::fmaf(a[uint64_t{i} * k + kk], bp[(uint64_t{j} * k + kk) * 16 + q], acc);
          }
      zz(c0.data(), m16, nb, k, azz.data(), bp.data(), zero);
      ASSERT_EQ(0, std::memcmp(want.data(), c0.data(), c0.size() * sizeof(float)))
          << m16 << " " << nb << " " << k << " zero=" << zero;
    }
  }
}

// L0C rows with every special value class; the rest random normals of varied magnitude.
std::vector<float> fixpipe_source(uint32_t rows, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(uint64_t{rows} * 16);
  for (float& x : v) x = d(rng) * std::ldexp(1.0f, static_cast<int>(rng() % 40) - 20);
  const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 70000.0f,
                            -65520.0f, 65519.0f, 1.0f + 0x1p-8f, 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-8f,
                            6e-8f, 3e-5f, std::numeric_limits<float>::max()};
  for (size_t i = 0; i < sizeof specials / sizeof *specials && i < v.size(); ++i) v[i * 7 % v.size()] = specials[i];
  uint32_t snan_bits = 0x7f800001u;  // signalling NaN: its quiet form must match too
  std::memcpy(&v[v.size() - 1], &snan_bits, 4);
  return v;
}

// pitch: elements per dst row (default wider than a block, odd); aligned:
// the destination starts on a 64-B boundary (the streaming form needs it).
template <class Out, class Cast>
void check_fixpipe(void (*fn)(uint8_t*, uint64_t, const float*, uint32_t, uint32_t, bool), Cast cast,
                   uint32_t pitch = 21, bool aligned = false) {
  for (uint32_t rows : {1u, 2u, 15u, 16u, 17u, 33u})
    for (uint32_t cols = 1; cols <= 16; ++cols)
      for (bool relu : {false, true}) {
        const std::vector<float> src = fixpipe_source(rows, rows * 31 + cols);
        std::vector<Out> got(uint64_t{rows} * pitch + 64 / sizeof(Out)), want;
        const size_t lead = aligned ? (64 - reinterpret_cast<uintptr_t>(got.data()) % 64) % 64 / sizeof(Out) : 0;
        std::memset(got.data(), 0xa5, got.size() * sizeof(Out));
        want = got;
        for (uint32_t r = 0; r < rows; ++r)
          for (uint32_t j = 0; j < cols; ++j) {
            float v = src[r * 16 + j];
            if (relu && v < 0.0f) v = 0.0f;
            want[lead + uint64_t{r} * pitch + j] = cast(v);
          }
        fn(reinterpret_cast<uint8_t*>(got.data() + lead), pitch * sizeof(Out), src.data(), rows, cols, relu);
        ASSERT_EQ(0, std::memcmp(want.data(), got.data(), got.size() * sizeof(Out)))
            << "rows=" << rows << " cols=" << cols << " relu=" << relu;
      }
}

TEST(CubeMoves, FixpipeCastsMatchScalar) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  check_fixpipe<uint32_t>(k->fix_f32, [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  });
  check_fixpipe<uint16_t>(k->fix_f16, [](float v) {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  });
  check_fixpipe<uint16_t>(k->fix_bf16, [](float v) { return npurt::aicore::float_to_bf16_bits(v); });
}

// The streaming-store form of the float Fixpipe (large outputs): aligned rows
// of 32 and 48 floats; whole 16-float rows stream, narrower ones fall back to
// masked stores. The bytes written, and those left alone, match the scalar loop.
TEST(CubeMoves, FixpipeStreamingStoresMatchScalar) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  const auto bits = [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  for (uint32_t pitch : {16u, 32u, 48u}) check_fixpipe<uint32_t>(k->fix_f32_stream, bits, pitch, true);
}

// LoadData's fractal copy: every count / stride combination the cube tile
// uses (Nz -> Zz gathers 8 KiB apart, dstGap) and a fractal copied onto an
// overlapping place (memmove semantics, in order), against the scalar loop.
TEST(CubeMoves, CopyFractalsMatchesScalarLoop) {
  const MoveKernels* k = kernels_or_skip();
  if (!k) GTEST_SKIP() << "no AVX-512 move kernels on this host";
  // (count, src_step, dst_step, dst offset from src in bytes; 0 = separate buffers)
  const int64_t cases[][4] = {{1, 512, 512, 0},  {8, 8192, 512, 0},   {16, 512, 512, 0}, {5, 1536, 1024, 0},
                              {255, 512, 512, 0}, {3, 512, 512, 256}, {4, 1024, 1024, -64}, {2, 512, 512, 512}};
  for (const auto& cs : cases) {
    const uint32_t count = static_cast<uint32_t>(cs[0]);
    const uint64_t span = (count - 1) * std::max<uint64_t>(cs[1], cs[2]) + 512;
    auto base = random_bits<uint8_t>(2 * span + 4096, count * 7 + static_cast<uint32_t>(cs[1]));
    std::vector<uint8_t> want = base, got = base;
    const uint64_t src_off = 1024;
    const uint64_t dst_off = cs[3] == 0 ? src_off + span + 512 : static_cast<uint64_t>(src_off + cs[3]);
    for (uint32_t i = 0; i < count; ++i)
      std::memmove(&want[dst_off + i * cs[2]], &want[src_off + i * cs[1]], 512);
    k->copy_fractals(&got[dst_off], static_cast<uint64_t>(cs[2]), &got[src_off], static_cast<uint64_t>(cs[1]), count);
    EXPECT_EQ(want, got) << "count=" << count << " src_step=" << cs[1] << " dst_step=" << cs[2] << " off=" << cs[3];
  }
}

}  // namespace
