// npurt::array::sort_plan / sort_last (npurt/sort_ops.h, runtime/ops/sort_ops.cc)
// from C++: the plan's unit, score dtype, chunk and merge widths for each dtype,
// and sort_last's values and int64 indices against std::stable_sort on the host
// (exact: every element must land where the stable order puts it, NaNs last or
// first when descending, -0.0 == 0.0 keeping position order), over dtypes,
// rows, empty / 1 / odd sizes, forced chunks (so merge passes run), strided
// views, and the argument errors (which must leave the runtime usable).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "npurt/dtype.h"
#include "npurt/runtime.h"
#include "npurt/sort_ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt::array::SortArgs;
using npurt::array::SortPlan;
using npurt::array::SortUnit;
using npurt_test::download;
using npurt_test::upload;

namespace {

// Host order of the reference: NaN after everything (before when descending).
template <class T>
bool before(T a, T b, bool desc) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return desc ? (std::isnan(a) && !std::isnan(b)) : (!std::isnan(a) && std::isnan(b));
  }
  return desc ? b < a : a < b;
}

// Row-wise stable argsort of host data [rows, n] (the key of element i is key(i)).
template <class K, class F>
std::vector<int64_t> ref_argsort(int64_t rows, int64_t n, bool desc, F key) {
  std::vector<int64_t> out(static_cast<size_t>(rows * n));
  for (int64_t r = 0; r < rows; ++r) {
    auto* o = out.data() + r * n;
    std::iota(o, o + n, int64_t{0});
    std::stable_sort(o, o + n, [&](int64_t a, int64_t b) { return before<K>(key(r * n + a), key(r * n + b), desc); });
  }
  return out;
}

// Sorts host values `h` ([rows, n], stored as S, compared as K) with sort_last
// and checks indices exactly and values bit for bit.
template <class S, class K = S, class F>
void check_sort(const std::vector<S>& h, int64_t rows, int64_t n, DType dt, const SortArgs& args, F key,
                const std::string& what) {
  const Tensor x = upload(h, {rows, n}, dt);
  const array::Sorted s = array::sort_last(x, args, npurt_test::stream0());
  ASSERT_EQ(s.values.dtype(), dt) << what;
  ASSERT_EQ(s.indices.dtype(), DType::kInt64) << what;
  ASSERT_EQ(s.values.shape(), (Dims{rows, n})) << what;
  const auto v = download<S>(s.values);
  const auto ix = download<int64_t>(s.indices);
  const auto want = ref_argsort<K>(rows, n, args.descending, key);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < n; ++k) {
      const size_t at = static_cast<size_t>(r * n + k);
      ASSERT_EQ(ix[at], want[at]) << what << " row " << r << " k " << k;
      ASSERT_EQ(std::memcmp(&v[at], &h[static_cast<size_t>(r * n + want[at])], sizeof(S)), 0) << what << " k " << k;
    }
}

// Random values with many duplicates and the type's extremes mixed in.
template <class T>
std::vector<T> random_values(size_t count, uint32_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(count);
  for (auto& x : v) {
    const uint64_t r = g();
    switch (r % 8) {
      case 0: x = std::numeric_limits<T>::max(); break;
      case 1: x = std::numeric_limits<T>::lowest(); break;
      case 2: x = static_cast<T>(r % 5); break;  // duplicates
      default: x = static_cast<T>(r >> 3); break;  // the whole range (wraps for narrow types)
    }
  }
  return v;
}

const std::vector<int64_t> kLengths = {1, 15, 33, 1023, 4097};

template <class T>
void check_int_dtype(DType dt, bool vector_unit) {
  for (int64_t n : kLengths)
    for (bool desc : {false, true}) {
      const int64_t rows = n < 100 ? 3 : 2;
      const auto h = random_values<T>(static_cast<size_t>(rows * n), static_cast<uint32_t>(n * 2 + desc));
      SortArgs a;
      a.descending = desc;
      check_sort<T>(h, rows, n, dt, a, [&](int64_t i) { return h[static_cast<size_t>(i)]; },
                    std::string(dtype_name(dt)) + " n=" + std::to_string(n) + (desc ? " desc" : ""));
      if (vector_unit && n > 1000) {  // small forced chunks: several merge passes
        a.vchunk = 128;
        SortPlan p = array::sort_plan(upload(h, {rows, n}, dt), a);
        EXPECT_EQ(p.unit, SortUnit::kVector);
        check_sort<T>(h, rows, n, dt, a, [&](int64_t i) { return h[static_cast<size_t>(i)]; },
                      std::string(dtype_name(dt)) + " vchunk=128 n=" + std::to_string(n));
      }
    }
}

}  // namespace

TEST(SortPlan, UnitScoreChunkAndWidths) {
  auto plan = [](Dims shape, DType dt, SortArgs a = SortArgs()) {
    return array::sort_plan(Tensor::empty(shape, dt, npurt_test::stream0()), a);
  };
  SortPlan p = plan({3, 1000}, DType::kFloat32);
  EXPECT_EQ(p.unit, SortUnit::kVector);
  EXPECT_EQ(p.score, DType::kFloat32);
  EXPECT_EQ(p.rows, 3u);
  EXPECT_EQ(p.n, 1000u);
  EXPECT_EQ(p.chunk, 1024u);  // round_up(1000, 128)
  EXPECT_TRUE(p.widths.empty());
  const uint64_t most = array::vsort_max_chunk(device_context(Device{DeviceType::kSim, 0}).profile());
  EXPECT_EQ(most % 128, 0u);
  EXPECT_LE(most, 8192u);
  p = plan({100000}, DType::kFloat32);
  EXPECT_EQ(p.chunk, most);
  std::vector<uint64_t> w;
  for (uint64_t x = most; x < 100000; x *= 2) w.push_back(x);
  EXPECT_EQ(p.widths, w);
  EXPECT_EQ(plan({64}, DType::kFloat16).score, DType::kFloat16);
  EXPECT_EQ(plan({64}, DType::kInt16).score, DType::kFloat32);
  EXPECT_EQ(plan({64}, DType::kInt8).score, DType::kFloat16);
  EXPECT_EQ(plan({64}, DType::kBool).score, DType::kFloat16);
  EXPECT_EQ(plan({64}, DType::kBFloat16).score, DType::kFloat32);
  EXPECT_EQ(plan({64}, DType::kFloat32).digits, 0u);
  for (DType d : {DType::kInt32, DType::kUInt32}) {  // two radix passes of float32-scored 16-bit digits
    p = plan({5000}, d);
    EXPECT_EQ(p.unit, SortUnit::kVector);
    EXPECT_EQ(p.score, DType::kFloat32);
    EXPECT_EQ(p.digits, 2u);
    EXPECT_EQ(array::vector_radix_digits(d), 2u);
  }
  p = plan({5000}, DType::kUInt16);  // one unsigned digit
  EXPECT_EQ(p.unit, SortUnit::kVector);
  EXPECT_EQ(p.digits, 1u);
  EXPECT_EQ(array::vector_radix_digits(DType::kInt64), 0u);
  EXPECT_EQ(array::vector_radix_digits(DType::kFloat32), 0u);
  // Short rows, empty arrays and 64-bit dtypes stay on the scalar unit.
  EXPECT_EQ(plan({5, 31}, DType::kFloat32).unit, SortUnit::kScalar);
  EXPECT_EQ(plan({0}, DType::kFloat32).unit, SortUnit::kScalar);
  EXPECT_EQ(plan({4, 0}, DType::kFloat32).rows, 0u);
  EXPECT_EQ(plan({64}, DType::kInt64).unit, SortUnit::kScalar);
  EXPECT_EQ(plan({64}, DType::kFloat64).unit, SortUnit::kScalar);
  // Forced paths.
  SortArgs a;
  a.chunk = 128;
  p = plan({1000}, DType::kFloat32, a);
  EXPECT_EQ(p.unit, SortUnit::kScalar);
  EXPECT_EQ(p.chunk, 128u);
  EXPECT_EQ(p.widths, (std::vector<uint64_t>{128, 256, 512}));
  a = SortArgs();
  a.vchunk = 256;
  p = plan({40}, DType::kFloat32, a);
  EXPECT_EQ(p.unit, SortUnit::kVector);
  EXPECT_EQ(p.chunk, 256u);
  a = SortArgs();
  a.scalar = true;
  EXPECT_EQ(plan({1000}, DType::kFloat32, a).unit, SortUnit::kScalar);
  EXPECT_EQ(array::sort_block_chunk(device_context(Device{DeviceType::kSim, 0}).profile(), DType::kFloat32, 10), 64u);
}

TEST(SortPlan, BadArgumentsThrowAndLeaveTheRuntimeUsable) {
  const Stream s = npurt_test::stream0();
  auto expect_error = [](auto f, const std::string& arg) {
    try {
      f();
      ADD_FAILURE() << "no error for " << arg;
    } catch (const InvalidArgument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("npurt.sort"), std::string::npos) << m;
      EXPECT_NE(m.find("'" + arg + "'"), std::string::npos) << m;
    }
  };
  const Tensor scalar0 = Tensor::empty({}, DType::kFloat32, s);
  expect_error([&] { array::sort_last(scalar0); }, "x");
  expect_error([&] { array::sort_plan(Tensor::empty({8}, DType::kComplex64, s)); }, "x");
  const Tensor x = upload(std::vector<float>{3, 1, 2}, {3}, DType::kFloat32);
  SortArgs a;
  a.vchunk = 100;  // not a multiple of 128
  expect_error([&] { array::sort_last(x, a); }, "vchunk");
  a.vchunk = 1 << 20;
  expect_error([&] { array::sort_last(x, a); }, "vchunk");
  a = SortArgs();
  a.chunk = 100;
  expect_error([&] { array::sort_last(x, a); }, "chunk");
  a.chunk = 128;
  a.vchunk = 128;
  expect_error([&] { array::sort_last(x, a); }, "vchunk");
  a = SortArgs();
  a.vchunk = 128;
  expect_error([&] { array::sort_last(Tensor::empty({0}, DType::kFloat32, s), a); }, "vchunk");
  expect_error([&] { array::sort_last(Tensor::empty({64}, DType::kInt64, s), a); }, "vchunk");
  // Still usable.
  const array::Sorted r = array::sort_last(x);
  EXPECT_EQ(download<float>(r.values), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(download<int64_t>(r.indices), (std::vector<int64_t>{1, 2, 0}));
}

TEST(SortLast, Float32NanSignedZeroAndTies) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (int64_t n : kLengths)
    for (bool desc : {false, true})
      for (bool scalar : {false, true}) {
        std::mt19937 g(static_cast<uint32_t>(n + desc));
        std::vector<float> h(static_cast<size_t>(2 * n));
        const float pool[] = {nan, -nan, inf, -inf, 0.0f, -0.0f, 1.5f, -1.5f, 1e-40f, 3.0f};
        for (auto& v : h) v = g() % 3 ? pool[g() % 10] : static_cast<float>(static_cast<int>(g() % 2001) - 1000) / 7;
        SortArgs a;
        a.descending = desc;
        a.scalar = scalar;
        const std::string what = "f32 n=" + std::to_string(n) + (desc ? " desc" : "") + (scalar ? " scalar" : "");
        check_sort<float>(h, 2, n, DType::kFloat32, a, [&](int64_t i) { return h[static_cast<size_t>(i)]; }, what);
      }
}

TEST(SortLast, Float16AndFloat64) {
  for (int64_t n : kLengths) {
    std::vector<uint16_t> h(static_cast<size_t>(n));
    std::vector<double> d(static_cast<size_t>(n));
    std::mt19937 g(static_cast<uint32_t>(n));
    for (size_t i = 0; i < h.size(); ++i) {
      const float f = i % 11 == 3 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(g() % 64) - 32.0f;
      h[i] = float_to_half_bits(i % 13 == 5 ? -0.0f : f);
      d[i] = static_cast<double>(f);
    }
    for (bool desc : {false, true}) {
      SortArgs a;
      a.descending = desc;
      check_sort<uint16_t, float>(h, 1, n, DType::kFloat16, a,
                                  [&](int64_t i) { return half_bits_to_float(h[static_cast<size_t>(i)]); },
                                  "f16 n=" + std::to_string(n));
      check_sort<double>(d, 1, n, DType::kFloat64, a, [&](int64_t i) { return d[static_cast<size_t>(i)]; },
                         "f64 n=" + std::to_string(n));
    }
  }
}

TEST(SortLast, Int32ExtremesDuplicatesAndChunks) { check_int_dtype<int32_t>(DType::kInt32, true); }
TEST(SortLast, UInt32) { check_int_dtype<uint32_t>(DType::kUInt32, true); }
TEST(SortLast, UInt16) { check_int_dtype<uint16_t>(DType::kUInt16, true); }
TEST(SortLast, Int16Int8UInt8Int64) {
  check_int_dtype<int16_t>(DType::kInt16, true);
  check_int_dtype<int8_t>(DType::kInt8, true);
  check_int_dtype<uint8_t>(DType::kUInt8, true);
  check_int_dtype<int64_t>(DType::kInt64, false);
}

TEST(SortLast, BoolIsStable) {
  std::vector<uint8_t> h(1023);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint8_t>((i * 7) % 3 == 0);
  for (bool desc : {false, true}) {
    SortArgs a;
    a.descending = desc;
    check_sort<uint8_t>(h, 1, 1023, DType::kBool, a, [&](int64_t i) { return h[static_cast<size_t>(i)]; }, "bool");
  }
}

TEST(SortLast, EmptyAndRowsOfOne) {
  const Stream s = npurt_test::stream0();
  for (Dims shape : {Dims{0}, Dims{3, 0}, Dims{0, 5}}) {
    const array::Sorted r = array::sort_last(Tensor::empty(shape, DType::kInt32, s));
    EXPECT_EQ(r.values.shape(), shape);
    EXPECT_EQ(r.indices.shape(), shape);
    EXPECT_EQ(r.values.numel(), 0);
  }
  const std::vector<int32_t> h = {5, -7, 9, 0};
  check_sort<int32_t>(h, 4, 1, DType::kInt32, SortArgs(), [&](int64_t i) { return h[static_cast<size_t>(i)]; },
                      "rows of one");
}

TEST(SortLast, StridedViewSortsItsOwnElements) {
  // The transposed view of a [40, 1023] int32 matrix: rows of 40 with stride 1023.
  const int64_t r = 40, c = 1023;
  const auto h = random_values<int32_t>(static_cast<size_t>(r * c), 7);
  const Tensor base = upload(h, {r, c}, DType::kInt32);
  const Tensor t = base.view({c, r}, {1, c}, base.byte_offset());
  ASSERT_FALSE(t.is_contiguous());
  const array::Sorted s = array::sort_last(t);
  const auto v = download<int32_t>(s.values);
  const auto ix = download<int64_t>(s.indices);
  auto key = [&](int64_t i) { return h[static_cast<size_t>((i % r) * c + i / r)]; };  // t[i / r, i % r]
  const auto want = ref_argsort<int32_t>(c, r, false, key);
  ASSERT_EQ(ix, want);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], key(static_cast<int64_t>(i / r) * r + ix[i]));
}

TEST(SortLast, LargeInt32Row) {
  const int64_t n = (int64_t{1} << 20) + 33;
  const auto h = random_values<int32_t>(static_cast<size_t>(n), 11);
  for (bool desc : {false, true}) {
    SortArgs a;
    a.descending = desc;
    check_sort<int32_t>(h, 1, n, DType::kInt32, a, [&](int64_t i) { return h[static_cast<size_t>(i)]; }, "1 Mi");
  }
}
