// vec_test_util.h: shared helpers of the aicore vector tests: the size list,
// input generators with special values, ulp distances, and a fixture
// parameterised over every ISA build the host can run (so each test checks
// each of AVX-512, AVX2 and the portable build against the same scalar reference).
// Invariant: references here never call the raw layer; they use scalar C++
// (_Float16 arithmetic rounds per operation, see aicore/types.h) and libm in double.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aicore/types.h"
#include "aicore/vec_raw.h"

namespace vectest {

using npurt::aicore::bits_half;
using npurt::aicore::float_bits;
using npurt::aicore::half_bits;

inline const std::vector<uint64_t>& sizes() {
  static const std::vector<uint64_t> s = {1, 15, 16, 33, 255, 256, 1023, 4096, 65536};
  return s;
}

inline float f32_bits(uint32_t u) { return npurt::aicore::bits_float(u); }

// Special values every float input set contains (then random values).
inline std::vector<float> float_specials() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, std::nanf(""), f32_bits(0x00000001), f32_bits(0x807fffff),
          1e-40f, 65504.0f, 65520.0f, 70000.0f, -70000.0f, 6.1e-5f, 5.96e-8f, 2.98e-8f, 0.5f, 2.5f, -2.5f,
          3.4e38f, -3.4e38f, 88.7f, -87.3f, -103.0f, 1e-7f};
}

template <class T> std::vector<T> make_input(uint64_t n, uint32_t seed, float lo = -8.0f, float hi = 8.0f,
                                             bool specials = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<T> v(n);
  const std::vector<float> sp = float_specials();
  for (uint64_t i = 0; i < n; ++i) {
    float f = dist(rng);
    if (specials && i % 7 == 3) f = sp[(i / 7) % sp.size()];
    if constexpr (std::is_integral_v<T>) {
      v[i] = static_cast<T>(static_cast<int64_t>(rng()) % 30000 - 15000);
    } else {
      v[i] = static_cast<T>(f);
    }
  }
  return v;
}

inline bool is_nan(float f) { return f != f; }

// Distance in units in the last place between two finite-or-inf values of the same format.
inline int64_t ordered(uint32_t u) { return (u & 0x80000000u) ? -static_cast<int64_t>(u & 0x7fffffffu) : u; }
inline int64_t ulp_f32(float a, float b) { return std::llabs(ordered(float_bits(a)) - ordered(float_bits(b))); }
inline int64_t ordered16(uint16_t u) { return (u & 0x8000u) ? -static_cast<int64_t>(u & 0x7fffu) : u; }
inline int64_t ulp_f16(half a, half b) { return std::llabs(ordered16(half_bits(a)) - ordered16(half_bits(b))); }

template <class T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Both NaN, or identical bits (so -0 and +0 differ).
template <class T> bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    if (is_nan(static_cast<float>(a)) && is_nan(static_cast<float>(b))) return true;
  }
  return same_bits(a, b);
}

inline std::vector<std::string> runnable_isas() {
  std::vector<std::string> out;
  for (const char* n : {"avx512", "avx2", "generic"}) {
    if (npurt::aicore::vec::force_isa(n)) out.push_back(n);
  }
  return out;
}

class IsaTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_TRUE(npurt::aicore::vec::force_isa(GetParam().c_str())); }
};

}  // namespace vectest

#define VECTEST_INSTANTIATE(Fixture) \
  INSTANTIATE_TEST_SUITE_P(Isa, Fixture, ::testing::ValuesIn(vectest::runnable_isas()), \
                           [](const auto& info) { return info.param; })
