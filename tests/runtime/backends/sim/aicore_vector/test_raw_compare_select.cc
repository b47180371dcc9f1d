// Raw layer: Compare / CompareScalar bit masks and Select in its three modes,
// against per-element scalar references (exact). NaN compares false except NE.
#include "vec_test_util.h"

namespace {

using namespace vectest;
using AscendC::CMPMODE;
using npurt::aicore::vec::vtype_of;

template <class T> bool ref_cmp(CMPMODE m, T a, T b) {
  switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    case CMPMODE::NE: return a != b;
  }
  return false;
}

bool bit_at(const std::vector<uint8_t>& bits, uint64_t i) { return (bits[i / 8] >> (i % 8)) & 1; }

template <class T> void check_compare(CMPMODE m, bool scalar) {
  for (uint64_t n : sizes()) {
    std::vector<T> a = make_input<T>(n, 5 + n, -3, 3), b = make_input<T>(n, 6 + n, -3, 3);
    for (uint64_t i = 0; i < n; i += 5) b[i] = a[i];  // plenty of equal pairs
    const T s = a[n / 2];
    std::vector<uint8_t> bits((n + 7) / 8 + 1, 0xee);
    ASSERT_TRUE(npurt::aicore::vec::compare(m, vtype_of<T>, bits.data(), a.data(), scalar ? &s : b.data(), scalar, n));
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(bit_at(bits, i), ref_cmp(m, a[i], scalar ? s : b[i])) << "mode " << int(m) << " n=" << n << " i=" << i;
    }
    for (uint64_t i = n; i < (n + 7) / 8 * 8; ++i) ASSERT_FALSE(bit_at(bits, i)) << "bit past n set";
    EXPECT_EQ(bits.back(), 0xee) << "wrote past the mask bytes";
  }
}

class RawCompare : public IsaTest {};

TEST_P(RawCompare, AllModesHalfFloatTensorAndScalar) {
  for (CMPMODE m : {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE}) {
    for (bool scalar : {false, true}) {
      check_compare<float>(m, scalar);
      check_compare<half>(m, scalar);
    }
  }
  check_compare<int32_t>(CMPMODE::EQ, false);
  int32_t x = 0;
  uint8_t bits = 0;
  EXPECT_FALSE(npurt::aicore::vec::compare(CMPMODE::LT, vtype_of<int32_t>, &bits, &x, &x, false, 1));
}

template <class T> void check_select(uint64_t period, bool scalar) {
  for (uint64_t n : sizes()) {
    std::vector<T> a = make_input<T>(n, 8 + n), b = make_input<T>(n, 9 + n), out(n);
    std::vector<uint8_t> mask((n + 7) / 8 + 8);
    std::mt19937 rng(static_cast<uint32_t>(n));
    for (auto& m : mask) m = static_cast<uint8_t>(rng());
    const T s = T(-42.0f);
    ASSERT_TRUE(npurt::aicore::vec::select(vtype_of<T>, out.data(), mask.data(), period, a.data(),
                                           scalar ? &s : b.data(), scalar, n));
    for (uint64_t i = 0; i < n; ++i) {
      T want = bit_at(mask, period ? i % period : i) ? a[i] : (scalar ? s : b[i]);
      ASSERT_TRUE(same_bits(out[i], want)) << "n=" << n << " i=" << i << " period " << period;
    }
  }
}

TEST_P(RawCompare, SelectTensorTensorScalarAndPeriodic) {
  for (bool scalar : {false, true}) {
    check_select<float>(0, scalar);
    check_select<half>(0, scalar);
  }
  check_select<float>(64, false);   // VSEL_CMPMASK_SPR: one repeat of mask bits reused
  check_select<half>(128, false);
}

TEST_P(RawCompare, CompareThenSelectIsMax) {
  std::vector<float> a = make_input<float>(4096, 1, -5, 5, false), b = make_input<float>(4096, 2, -5, 5, false);
  std::vector<uint8_t> bits(512);
  std::vector<float> out(4096);
  ASSERT_TRUE(npurt::aicore::vec::compare(CMPMODE::GE, vtype_of<float>, bits.data(), a.data(), b.data(), false, 4096));
  ASSERT_TRUE(npurt::aicore::vec::select(vtype_of<float>, out.data(), bits.data(), 0, a.data(), b.data(), false, 4096));
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::max(a[i], b[i]));
}

VECTEST_INSTANTIATE(RawCompare);

}  // namespace
