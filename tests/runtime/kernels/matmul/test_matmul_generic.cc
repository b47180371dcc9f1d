// matmul_generic (kernels/matmul) through the public dispatcher, against a scalar C++ reference.
//
// Tolerances: integers exact, including wrap-around modulo 2^bits (the kernel accumulates in
// uint64 and truncates on the store: the reference does the same in unsigned arithmetic);
// float64 |y - ref| <= 1e-12 * sum_k |a_mk b_kn| (different summation order only); complex128 the
// same bound on each part, complex64 1e-5 of it. Shapes cover 1, 15, 33, batch broadcast both
// ways, N past the 4096-column tile and K past the 4096 K tile; bad shapes/dtypes throw
// InvalidArgument naming the argument, and the runtime stays usable.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/status.h"
#include "runtime/kernels/expect_error.h"
#include "runtime/ops/op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

struct Shape {
  int64_t ba, bb, m, k, n;
};

template <class T>
std::vector<T> random_values(size_t n, uint32_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral_v<T>) {
      x = static_cast<T>(g());  // full range: products and sums wrap
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(-2.0, 2.0)(g));
    } else {
      using R = typename T::value_type;
      std::uniform_real_distribution<double> u(-2.0, 2.0);
      x = T(static_cast<R>(u(g)), static_cast<R>(u(g)));
    }
  }
  return v;
}

// Scalar reference: integers in the unsigned type of the same width (wraps like the kernel and numpy),
// floats and complex in double / complex<double>. Also returns sum |a||b| per element (error scale).
template <class T>
std::vector<T> reference(const std::vector<T>& a, const std::vector<T>& b, const Shape& s, std::vector<double>& scale) {
  const int64_t batch = std::max(s.ba, s.bb);
  std::vector<T> y(static_cast<size_t>(batch * s.m * s.n));
  scale.assign(y.size(), 0.0);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        const T* ar = &a[static_cast<size_t>((s.ba == 1 ? 0 : p) * s.m * s.k + i * s.k)];
        const T* bc = &b[static_cast<size_t>((s.bb == 1 ? 0 : p) * s.k * s.n + j)];
        const size_t o = static_cast<size_t>((p * s.m + i) * s.n + j);
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          U acc = 0;
          for (int64_t q = 0; q < s.k; ++q) acc += static_cast<U>(static_cast<U>(ar[q]) * static_cast<U>(bc[q * s.n]));
          y[o] = static_cast<T>(acc);
        } else if constexpr (std::is_floating_point_v<T>) {
          double acc = 0;
          for (int64_t q = 0; q < s.k; ++q) {
            acc += static_cast<double>(ar[q]) * static_cast<double>(bc[q * s.n]);
            scale[o] += std::fabs(static_cast<double>(ar[q]) * static_cast<double>(bc[q * s.n]));
          }
          y[o] = static_cast<T>(acc);
        } else {
          std::complex<double> acc = 0;
          for (int64_t q = 0; q < s.k; ++q) {
            const std::complex<double> x(ar[q]), w(bc[q * s.n]);
            acc += x * w;
            scale[o] += std::abs(x) * std::abs(w);
          }
          y[o] = T(acc);
        }
      }
  return y;
}

std::vector<Tensor> run(const Tensor& a, const Tensor& b) {
  static const OpHandle op = OpHandle::find("matmul_generic");
  const Tensor xs[] = {a, b};
  return dispatch(op, Span<const Tensor>(xs));
}

template <class T>
void check(DType dt, const Shape& s, double rtol, uint32_t seed) {
  const auto a = random_values<T>(static_cast<size_t>(s.ba * s.m * s.k), seed);
  const auto b = random_values<T>(static_cast<size_t>(s.bb * s.k * s.n), seed + 1);
  Tensor y = run(upload(a, {s.ba, s.m, s.k}, dt), upload(b, {s.bb, s.k, s.n}, dt))[0];
  const int64_t batch = std::max(s.ba, s.bb);
  ASSERT_EQ(y.shape(), (Dims{batch, s.m, s.n}));
  ASSERT_EQ(y.dtype(), dt);
  std::vector<double> scale;
  const std::vector<T> ref = reference(a, b, s, scale);
  const std::vector<T> got = download<T>(y);
  const std::string what = std::string(dtype_name(dt)) + " [" + std::to_string(s.ba) + "," + std::to_string(s.m) +
                           "," + std::to_string(s.k) + "] @ [" + std::to_string(s.bb) + "," + std::to_string(s.k) +
                           "," + std::to_string(s.n) + "]";
  for (size_t i = 0; i < ref.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      ASSERT_EQ(got[i], ref[i]) << what << " at " << i;
    } else if constexpr (std::is_floating_point_v<T>) {
      ASSERT_LE(std::fabs(got[i] - ref[i]), rtol * scale[i] + 1e-300) << what << " at " << i;
    } else {
      ASSERT_LE(std::fabs(got[i].real() - ref[i].real()), rtol * scale[i] + 1e-30) << what << " at " << i;
      ASSERT_LE(std::fabs(got[i].imag() - ref[i].imag()), rtol * scale[i] + 1e-30) << what << " at " << i;
    }
  }
}

const std::vector<Shape> kShapes = {{1, 1, 1, 1, 1},  {1, 15, 33, 15, 1}, {3, 1, 2, 5, 3},  {1, 3, 4, 7, 2},
                                    {2, 2, 33, 1, 15}, {1, 1, 2, 4100, 3}, {1, 1, 2, 3, 4200}};

}  // namespace

TEST(MatmulGeneric, IntegersExactWithWrapAround) {
  uint32_t seed = 1;
  for (const Shape& s : kShapes) {
    check<int8_t>(DType::kInt8, s, 0, seed++);
    check<int16_t>(DType::kInt16, s, 0, seed++);
    check<int32_t>(DType::kInt32, s, 0, seed++);
    check<int64_t>(DType::kInt64, s, 0, seed++);
    check<uint8_t>(DType::kUInt8, s, 0, seed++);
    check<uint16_t>(DType::kUInt16, s, 0, seed++);
    check<uint32_t>(DType::kUInt32, s, 0, seed++);
    check<uint64_t>(DType::kUInt64, s, 0, seed++);
  }
}

TEST(MatmulGeneric, Float64AndComplex) {
  uint32_t seed = 100;
  for (const Shape& s : kShapes) {
    check<double>(DType::kFloat64, s, 1e-12, seed++);
    check<std::complex<double>>(DType::kComplex128, s, 1e-12, seed++);
    check<std::complex<float>>(DType::kComplex64, s, 1e-5, seed++);
  }
}

TEST(MatmulGeneric, EmptyBatchAndRows) {
  std::vector<double> none;
  std::vector<double> b(12, 1.0);
  Tensor y = run(upload(none, {0, 3, 4}, DType::kFloat64), upload(b, {1, 4, 3}, DType::kFloat64))[0];
  EXPECT_EQ(y.shape(), (Dims{0, 3, 3}));
  Tensor y1 = run(upload(b, {1, 3, 4}, DType::kFloat64), upload(none, {0, 4, 3}, DType::kFloat64))[0];
  EXPECT_EQ(y1.shape(), (Dims{0, 3, 3}));  // batch 1 broadcast with 0 is 0 (not max(1, 0))
  Tensor y2 = run(upload(none, {2, 0, 4}, DType::kFloat64), upload(b, {1, 4, 3}, DType::kFloat64))[0];
  EXPECT_EQ(y2.shape(), (Dims{2, 0, 3}));
  Tensor y3 = run(upload(b, {1, 3, 4}, DType::kFloat64), upload(none, {1, 4, 0}, DType::kFloat64))[0];
  EXPECT_EQ(y3.shape(), (Dims{1, 3, 0}));
  EXPECT_EQ(download<double>(y3).size(), 0u);
}

TEST(MatmulGeneric, BadInputsNameTheArgument) {
  std::vector<int32_t> v(24, 2);
  std::vector<double> d(24, 1.0);
  std::vector<float> f(24, 1.0f);
  Tensor a = upload(v, {2, 3, 4}, DType::kInt32);
  auto expect_error = [](const std::function<void()>& call, const std::string& needle) {
    npurt_test::expect_invalid_argument(call, "matmul_generic", needle);
  };
  expect_error([&] { run(a, upload(v, {2, 3, 4}, DType::kInt32)); }, "'b'");                // K 4 vs 3
  expect_error([&] { run(a, upload(d, {2, 4, 3}, DType::kFloat64)); }, "'b'");              // dtype differs
  expect_error([&] { run(upload(v, {6, 4}, DType::kInt32), upload(v, {1, 4, 6}, DType::kInt32)); }, "'a'");  // 2-D
  expect_error([&] { run(a, upload(v, {3, 4, 2}, DType::kInt32)); }, "'b'");                // batch 3 vs 2
  expect_error([&] { run(upload(f, {2, 3, 4}, DType::kFloat32), upload(f, {2, 4, 3}, DType::kFloat32)); }, "'a'");
  std::vector<int32_t> none;
  expect_error([&] { run(upload(none, {1, 3, 0}, DType::kInt32), upload(none, {1, 0, 2}, DType::kInt32)); }, "K = 0");
  check<int32_t>(DType::kInt32, {2, 1, 3, 4, 5}, 0, 7);  // the runtime stays usable
}
