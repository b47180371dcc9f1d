// Raw layer: binary, tensor-scalar, duplicate, axpy and multiply-add (also with
// one-block sources) kernels against scalar
// references, on every ISA, over the size list and special values.
// Tolerance: exact (bit-identical, NaN == NaN) for every op here: these are
// single IEEE operations whose correctly rounded result is unique.
#include "vec_test_util.h"

namespace {

using namespace vectest;
using npurt::aicore::vec::BinaryOp;
using npurt::aicore::vec::ScalarOp;
using npurt::aicore::vec::vtype_of;

template <class T> T ref_max(T a, T b) {
  if constexpr (!std::is_integral_v<T>) {
    if (is_nan(static_cast<float>(a))) return a;
    if (is_nan(static_cast<float>(b))) return b;
  }
  return a > b ? a : b;
}
template <class T> T ref_min(T a, T b) {
  if constexpr (!std::is_integral_v<T>) {
    if (is_nan(static_cast<float>(a))) return a;
    if (is_nan(static_cast<float>(b))) return b;
  }
  return a < b ? a : b;
}

// Integer arithmetic wraps like the vector unit (computed unsigned: no UB here).
template <class T> T wrap(uint64_t v) { return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v)); }

template <class T> T ref_binary(BinaryOp op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case BinaryOp::kAdd: return wrap<T>(U(a) + U(b));
      case BinaryOp::kSub: return wrap<T>(U(a) - U(b));
      case BinaryOp::kMul: return wrap<T>(uint64_t(U(a)) * uint64_t(U(b)));
      case BinaryOp::kAnd: return T(a & b);
      case BinaryOp::kOr: return T(a | b);
      default: break;
    }
  } else {
    switch (op) {
      case BinaryOp::kAdd: return T(a + b);
      case BinaryOp::kSub: return T(a - b);
      case BinaryOp::kMul: return T(a * b);
      case BinaryOp::kDiv: return T(a / b);
      default: break;
    }
  }
  return op == BinaryOp::kMax ? ref_max(a, b) : ref_min(a, b);
}

template <class T> void check_binary(BinaryOp op) {
  for (uint64_t n : sizes()) {
    std::vector<T> a = make_input<T>(n, 11 + n), b = make_input<T>(n, 29 + n), out(n);
    ASSERT_TRUE(npurt::aicore::vec::binary(op, vtype_of<T>, out.data(), a.data(), b.data(), n));
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i) {
      T want = ref_binary(op, a[i], b[i]);
      if (!same_value(out[i], want) && bad++ == 0) {
        ADD_FAILURE() << binary_op_name(op) << " " << vtype_name(vtype_of<T>) << " n=" << n << " i=" << i
                      << " a=" << float(a[i]) << " b=" << float(b[i]) << " got " << float(out[i]) << " want "
                      << float(want);
      }
    }
    EXPECT_EQ(bad, 0u) << binary_op_name(op) << " n=" << n;
  }
}

class RawBinary : public IsaTest {};

TEST_P(RawBinary, ArithmeticAllDtypes) {
  for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kMax, BinaryOp::kMin}) {
    check_binary<float>(op);
    check_binary<half>(op);
    check_binary<int32_t>(op);
    check_binary<int16_t>(op);
  }
  check_binary<float>(BinaryOp::kDiv);
  check_binary<half>(BinaryOp::kDiv);
}

TEST_P(RawBinary, BitwiseInt16) {
  for (BinaryOp op : {BinaryOp::kAnd, BinaryOp::kOr}) {
    check_binary<int16_t>(op);
    check_binary<uint16_t>(op);
  }
}

TEST_P(RawBinary, HalfRoundsPerOperationAndOverflowsToInf) {
  std::vector<half> a = {half(65504.0f), half(1.0f + 1.0f / 1024), half(-65504.0f), half(6.1e-5f)};
  std::vector<half> b = {half(65504.0f), half(1.0f / 4096), half(-8.0f), half(-6.0e-5f)};
  std::vector<half> out(4);
  ASSERT_TRUE(npurt::aicore::vec::binary(BinaryOp::kAdd, vtype_of<half>, out.data(), a.data(), b.data(), 4));
  EXPECT_TRUE(std::isinf(float(out[0])) && float(out[0]) > 0);  // 131008 overflows binary16
  EXPECT_EQ(float(out[1]), 1.0f + 1.0f / 1024);                  // tie rounds to even (stays)
  EXPECT_EQ(float(out[2]), -65504.0f);                           // -65512 rounds back to -max
  EXPECT_EQ(half_bits(out[3]), half_bits(half(6.1e-5f) - half(6.0e-5f)));  // subnormal result
}

TEST_P(RawBinary, InPlaceAndZeroCount) {
  std::vector<float> a = make_input<float>(1023, 5), b = make_input<float>(1023, 6), want(1023);
  for (size_t i = 0; i < a.size(); ++i) want[i] = a[i] * b[i];
  ASSERT_TRUE(npurt::aicore::vec::binary(BinaryOp::kMul, vtype_of<float>, a.data(), a.data(), b.data(), 1023));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_value(a[i], want[i])) << i;
  float sentinel = 42.0f;
  ASSERT_TRUE(npurt::aicore::vec::binary(BinaryOp::kAdd, vtype_of<float>, &sentinel, nullptr, nullptr, 0));
  EXPECT_EQ(sentinel, 42.0f);
}

TEST_P(RawBinary, UnsupportedDtypesRejected) {
  float x = 0;
  EXPECT_FALSE(npurt::aicore::vec::binary(BinaryOp::kDiv, vtype_of<int32_t>, &x, &x, &x, 1));
  EXPECT_FALSE(npurt::aicore::vec::binary(BinaryOp::kAnd, vtype_of<float>, &x, &x, &x, 1));
  EXPECT_FALSE(npurt::aicore::vec::binary(BinaryOp::kAdd, vtype_of<bfloat16_t>, &x, &x, &x, 1));
  EXPECT_FALSE(npurt::aicore::vec::binary(BinaryOp::kAdd, vtype_of<uint32_t>, &x, &x, &x, 1));
}

template <class T> T ref_scalar(ScalarOp op, T a, T s) {
  switch (op) {
    case ScalarOp::kAdds: return ref_binary(BinaryOp::kAdd, a, s);
    case ScalarOp::kMuls: return ref_binary(BinaryOp::kMul, a, s);
    case ScalarOp::kMaxs: return ref_max(a, s);
    case ScalarOp::kMins: return ref_min(a, s);
    case ScalarOp::kLeakyRelu: return a >= T(0) ? a : T(a * s);
  }
  return a;
}

template <class T> void check_scalar(ScalarOp op, T s) {
  for (uint64_t n : sizes()) {
    std::vector<T> a = make_input<T>(n, 3 + n), out(n);
    ASSERT_TRUE(npurt::aicore::vec::binary_scalar(op, vtype_of<T>, out.data(), a.data(), &s, n));
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i) {
      if (!same_value(out[i], ref_scalar(op, a[i], s)) && bad++ == 0) {
        ADD_FAILURE() << scalar_op_name(op) << " n=" << n << " i=" << i << " a=" << float(a[i]) << " got "
                      << float(out[i]);
      }
    }
    EXPECT_EQ(bad, 0u);
  }
}

class RawScalar : public IsaTest {};

TEST_P(RawScalar, AllOpsAndDtypes) {
  for (ScalarOp op : {ScalarOp::kAdds, ScalarOp::kMuls, ScalarOp::kMaxs, ScalarOp::kMins}) {
    check_scalar<float>(op, -0.75f);
    check_scalar<float>(op, std::nanf(""));
    check_scalar<half>(op, half(1.5f));
    check_scalar<int32_t>(op, 7);
    check_scalar<int16_t>(op, int16_t(-3));
  }
  check_scalar<float>(ScalarOp::kLeakyRelu, 0.01f);
  check_scalar<half>(ScalarOp::kLeakyRelu, half(0.2f));
  float x = 0;
  EXPECT_FALSE(npurt::aicore::vec::binary_scalar(ScalarOp::kLeakyRelu, vtype_of<int32_t>, &x, &x, &x, 1));
}

template <class T> void check_duplicate(T value) {
  for (uint64_t n : sizes()) {
    std::vector<T> out(n + 1);
    std::memset(static_cast<void*>(out.data()), 0x5a, out.size() * sizeof(T));
    const T guard = out[n];
    ASSERT_TRUE(npurt::aicore::vec::duplicate(vtype_of<T>, out.data(), &value, n));
    for (uint64_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(out[i], value)) << i;
    EXPECT_TRUE(same_bits(out[n], guard)) << "wrote past n=" << n;
  }
}

class RawDuplicate : public IsaTest {};

TEST_P(RawDuplicate, EveryDocumentedDtype) {
  check_duplicate<float>(-0.0f);
  check_duplicate<half>(half(-2.5f));
  check_duplicate<bfloat16_t>(bfloat16_t(3.0f));
  check_duplicate<int16_t>(-7);
  check_duplicate<uint16_t>(65000);
  check_duplicate<int32_t>(-123456);
  check_duplicate<uint32_t>(4000000000u);
  int64_t x = 0;
  EXPECT_FALSE(npurt::aicore::vec::duplicate(npurt::aicore::vec::VType::kI64, &x, &x, 1));
}

template <class TD, class TS> void check_axpy(TS s) {
  for (uint64_t n : sizes()) {
    std::vector<TS> x = make_input<TS>(n, 71 + n, -4, 4);
    std::vector<TD> y = make_input<TD>(n, 91 + n, -4, 4), want(n);
    for (uint64_t i = 0; i < n; ++i) {
      TD prod = static_cast<TD>(static_cast<TD>(x[i]) * static_cast<TD>(s));
      want[i] = static_cast<TD>(y[i] + prod);
    }
    ASSERT_TRUE(npurt::aicore::vec::axpy(vtype_of<TD>, vtype_of<TS>, y.data(), x.data(), &s, n));
    for (uint64_t i = 0; i < n; ++i) ASSERT_TRUE(same_value(y[i], want[i])) << "n=" << n << " i=" << i;
  }
}

class RawAxpy : public IsaTest {};

TEST_P(RawAxpy, SameAndMixedPrecision) {
  check_axpy<float, float>(1.25f);
  check_axpy<half, half>(half(-0.3f));
  check_axpy<float, half>(half(0.7f));
  float x = 0;
  EXPECT_FALSE(npurt::aicore::vec::axpy(vtype_of<half>, vtype_of<float>, &x, &x, &x, 1));
}

// FusedMulAdd: dst = a * dst + b; MulAddDst: dst = a * b + dst; the product
// rounded to T first (so the same bits as Mul then Add).
template <class T> void check_ternary() {
  using npurt::aicore::vec::TernaryOp;
  for (TernaryOp op : {TernaryOp::kFusedMulAdd, TernaryOp::kMulAddDst}) {
    for (uint64_t n : sizes()) {
      std::vector<T> a = make_input<T>(n, 5 + n, -4, 4), b = make_input<T>(n, 6 + n, -4, 4);
      std::vector<T> d = make_input<T>(n, 7 + n, -4, 4), want(n);
      for (uint64_t i = 0; i < n; ++i) {
        const T prod = static_cast<T>(a[i] * (op == TernaryOp::kFusedMulAdd ? d[i] : b[i]));
        want[i] = static_cast<T>(prod + (op == TernaryOp::kFusedMulAdd ? b[i] : d[i]));
      }
      ASSERT_TRUE(npurt::aicore::vec::ternary(op, vtype_of<T>, d.data(), a.data(), b.data(), n));
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_value(d[i], want[i])) << "op " << int(op) << " n=" << n << " i=" << i;
    }
  }
}

class RawTernary : public IsaTest {};

TEST_P(RawTernary, FusedMulAddAndMulAddDstHalfFloat) {
  check_ternary<float>();
  check_ternary<half>();
  int32_t x = 0;
  EXPECT_FALSE(npurt::aicore::vec::ternary(npurt::aicore::vec::TernaryOp::kFusedMulAdd,
                                           npurt::aicore::vec::VType::kI32, &x, &x, &x, 1));
  EXPECT_FALSE(npurt::aicore::vec::ternary_blocks(npurt::aicore::vec::TernaryOp::kFusedMulAdd,
                                                  npurt::aicore::vec::VType::kI32, &x, &x, &x, 1));
  float f = 1.0f;  // n == 0 touches nothing
  ASSERT_TRUE(npurt::aicore::vec::ternary(npurt::aicore::vec::TernaryOp::kMulAddDst, vtype_of<float>, &f, &f, &f, 0));
  EXPECT_EQ(f, 1.0f);
}

// ternary_blocks: a and b are one 32-byte block each, lane i reading lane
// i % block of them; bit for bit ternary() on the blocks widened to n lanes,
// for sizes off the repeat (tails) and with NaN / inf / -0 in the blocks.
template <class T> void check_ternary_blocks() {
  using npurt::aicore::vec::TernaryOp;
  constexpr uint64_t B = 32 / sizeof(T);
  for (TernaryOp op : {TernaryOp::kFusedMulAdd, TernaryOp::kMulAddDst}) {
    for (uint64_t n : sizes()) {
      std::vector<T> a = make_input<T>(B, 11 + n, -4, 4), b = make_input<T>(B, 12 + n, -4, 4);
      a[1] = static_cast<T>(std::numeric_limits<float>::infinity());
      b[2] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
      b[3] = static_cast<T>(-0.0f);
      std::vector<T> wa(n), wb(n), d = make_input<T>(n, 13 + n, -4, 4);
      for (uint64_t i = 0; i < n; ++i) wa[i] = a[i % B], wb[i] = b[i % B];
      std::vector<T> want = d;
      ASSERT_TRUE(npurt::aicore::vec::ternary(op, vtype_of<T>, want.data(), wa.data(), wb.data(), n));
      ASSERT_TRUE(npurt::aicore::vec::ternary_blocks(op, vtype_of<T>, d.data(), a.data(), b.data(), n));
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_value(d[i], want[i])) << "op " << int(op) << " n=" << n << " i=" << i;
    }
  }
}

TEST_P(RawTernary, BlockSourcesMatchWidenedCopies) {
  check_ternary_blocks<float>();
  check_ternary_blocks<half>();
}

VECTEST_INSTANTIATE(RawTernary);
VECTEST_INSTANTIATE(RawBinary);
VECTEST_INSTANTIATE(RawScalar);
VECTEST_INSTANTIATE(RawDuplicate);
VECTEST_INSTANTIATE(RawAxpy);

}  // namespace
