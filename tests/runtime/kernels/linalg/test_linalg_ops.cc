// npurt::ops::lu_factor / lu_solve / cholesky (npurt/linalg_ops.h, kernels/linalg) against
// properties checked in double on the host: P A = L U rebuilt from the factors, A X = B by the
// residual, L L^T = A, and the determinant against the product of U's diagonal.
//
// Tolerances (random entries in [-1, 1], diagonal shifted by n so the matrices are well
// conditioned): float64 1e-12 * n, float32 1e-4 * n, relative to max |A| (1 + n). n covers
// 1, 2, 3, 15, 33 (UB path) and 100 (float64: UB; float32 too) and 170 (float64: past the UB, the
// GM path; lu_solve's GM path needs X past the UB: 170 x 170); a batch of 3. Singular matrices
// give sign 0 and logabsdet -inf; bad shapes and dtypes throw InvalidArgument naming the op and
// the argument, and the runtime stays usable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "npurt/linalg_ops.h"
#include "npurt/status.h"
#include "runtime/kernels/expect_error.h"
#include "runtime/ops/op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

std::vector<double> random_matrices(int64_t batch, int64_t n, uint32_t seed, double shift) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(batch * n * n));
  for (auto& x : v) x = u(g);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>((b * n + i) * n + i)] += shift;
  return v;
}

template <class T>
std::vector<T> as(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class T>
void check_lu(int64_t batch, int64_t n, DType dt, double tol) {
  const std::vector<double> a = random_matrices(batch, n, static_cast<uint32_t>(n), 0.0);
  const ops::LuFactors f = ops::lu_factor(upload(as<T>(a), {batch, n, n}, dt));
  const std::vector<T> lu = download<T>(f.lu), sign = download<T>(f.sign), logabs = download<T>(f.logabsdet);
  const std::vector<int32_t> piv = download<int32_t>(f.pivots);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> pa(a.begin() + b * n * n, a.begin() + (b + 1) * n * n);  // P A: the swaps in order
    double det_sign = 1.0, det_log = 0.0;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t p = piv[static_cast<size_t>(b * n + k)];
      ASSERT_GE(p, k);
      ASSERT_LT(p, n);
      if (p != k) {
        for (int64_t j = 0; j < n; ++j) std::swap(pa[k * n + j], pa[p * n + j]);
        det_sign = -det_sign;
      }
      const double u = lu[static_cast<size_t>((b * n + k) * n + k)];
      det_sign *= u < 0 ? -1.0 : 1.0;
      det_log += std::log(std::fabs(u));
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0.0;
        for (int64_t k = 0; k <= std::min(i, j); ++k) {
          const double l = k == i ? 1.0 : static_cast<double>(lu[static_cast<size_t>((b * n + i) * n + k)]);
          s += l * static_cast<double>(lu[static_cast<size_t>((b * n + k) * n + j)]);
        }
        ASSERT_NEAR(s, pa[i * n + j], tol * n) << "n=" << n << " b=" << b << " (" << i << ", " << j << ")";
      }
    EXPECT_EQ(sign[static_cast<size_t>(b)], static_cast<T>(det_sign));
    EXPECT_NEAR(logabs[static_cast<size_t>(b)], det_log, tol * n * (1.0 + std::fabs(det_log)));
  }
}

template <class T>
void check_solve(int64_t batch, int64_t n, int64_t m, DType dt, double tol) {
  const std::vector<double> a = random_matrices(batch, n, 7u + static_cast<uint32_t>(n), static_cast<double>(n));
  std::vector<double> bv = random_matrices(1, n > m ? n : m, 3u, 0.0);
  bv.resize(static_cast<size_t>(batch * n * m), 0.5);
  const ops::LuFactors f = ops::lu_factor(upload(as<T>(a), {batch, n, n}, dt));
  const std::vector<T> x = download<T>(ops::lu_solve(f, upload(as<T>(bv), {batch, n, m}, dt)));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) {
        double s = 0.0;
        for (int64_t k = 0; k < n; ++k)
          s += a[static_cast<size_t>((b * n + i) * n + k)] * static_cast<double>(x[static_cast<size_t>((b * n + k) * m + j)]);
        ASSERT_NEAR(s, bv[static_cast<size_t>((b * n + i) * m + j)], tol * n * (1.0 + n)) << "n=" << n;
      }
}

template <class T>
void check_cholesky(int64_t batch, int64_t n, DType dt, bool upper, double tol) {
  std::vector<double> r = random_matrices(batch, n, 11u + static_cast<uint32_t>(n), 0.0), a(r.size());
  for (int64_t b = 0; b < batch; ++b)  // a = r r^T + n I: symmetric positive definite
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = i == j ? static_cast<double>(n) : 0.0;
        for (int64_t k = 0; k < n; ++k) s += r[(b * n + i) * n + k] * r[(b * n + j) * n + k];
        a[static_cast<size_t>((b * n + i) * n + j)] = s;
      }
  const ops::CholeskyFactor c = ops::cholesky(upload(as<T>(a), {batch, n, n}, dt), upper);
  const std::vector<T> f = download<T>(c.factor);
  const std::vector<int32_t> info = download<int32_t>(c.info);
  for (int64_t b = 0; b < batch; ++b) {
    EXPECT_EQ(info[static_cast<size_t>(b)], 0);
    auto l = [&](int64_t i, int64_t j) {  // L(i, j) whichever triangle holds it
      return static_cast<double>(f[static_cast<size_t>(upper ? (b * n + j) * n + i : (b * n + i) * n + j)]);
    };
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (j > i) {
          ASSERT_EQ(l(i, j), 0.0);
        }
        double s = 0.0;
        for (int64_t k = 0; k <= std::min(i, j); ++k) s += l(i, k) * l(j, k);
        ASSERT_NEAR(s, a[static_cast<size_t>((b * n + i) * n + j)], tol * n * 2.0 * n) << "n=" << n;
      }
  }
}

TEST(LinalgOps, LuFactorRebuildsPermutedMatrix) {
  for (int64_t n : {1, 2, 3, 15, 33, 100, 170}) check_lu<double>(n < 100 ? 3 : 1, n, DType::kFloat64, 1e-12);
  for (int64_t n : {1, 3, 33, 100}) check_lu<float>(2, n, DType::kFloat32, 1e-4);
  // float32 past the UB: the first steps in GM, the trailing block in UB (k0 = 23, c0 = 16 for n = 240)
  for (int64_t n : {240, 300}) check_lu<float>(2, n, DType::kFloat32, 1e-4);
}

TEST(LinalgOps, LuSolveResidual) {
  for (int64_t n : {1, 2, 15, 33, 170}) check_solve<double>(n < 100 ? 3 : 1, n, 4, DType::kFloat64, 1e-12);
  check_solve<double>(1, 170, 170, DType::kFloat64, 1e-12);  // X 170 x 170 float64: past the UB, the GM path
  check_solve<float>(1, 120, 130, DType::kFloat32, 1e-5);    // X in UB (vector rows), the factors from GM
  check_solve<float>(1, 240, 240, DType::kFloat32, 1e-5);    // X past the UB: column blocks of 200 and 40
  for (int64_t n : {1, 3, 33}) check_solve<float>(2, n, 3, DType::kFloat32, 1e-5);
}

TEST(LinalgOps, CholeskyLowerAndUpper) {
  for (bool upper : {false, true}) {
    for (int64_t n : {1, 2, 3, 15, 33, 170}) check_cholesky<double>(n < 100 ? 3 : 1, n, DType::kFloat64, upper, 1e-13);
    for (int64_t n : {1, 33}) check_cholesky<float>(2, n, DType::kFloat32, upper, 1e-6);
  }
}

TEST(LinalgOps, SingularAndNotPositiveDefinite) {
  const std::vector<double> singular = {1, 2, 2, 4, 0, 0, 0, 0};  // rank 1, then zero
  const ops::LuFactors f = ops::lu_factor(upload(singular, {2, 2, 2}, DType::kFloat64));
  const std::vector<double> sign = download<double>(f.sign), logabs = download<double>(f.logabsdet);
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(sign[b], 0.0);
    EXPECT_TRUE(std::isinf(logabs[b]) && logabs[b] < 0);
  }
  const std::vector<double> indefinite = {1, 2, 2, 1};  // eigenvalues 3 and -1
  EXPECT_EQ(download<int32_t>(ops::cholesky(upload(indefinite, {2, 2}, DType::kFloat64)).info)[0], 2);
}

TEST(LinalgOps, EmptyMatricesAndBatches) {
  const ops::LuFactors f = ops::lu_factor(upload(std::vector<double>{}, {2, 0, 0}, DType::kFloat64));
  EXPECT_EQ(download<double>(f.sign), (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(download<double>(f.logabsdet), (std::vector<double>{0.0, 0.0}));
  const ops::LuFactors g = ops::lu_factor(upload(std::vector<float>{}, {0, 3, 3}, DType::kFloat32));
  EXPECT_EQ(g.sign.numel(), 0);
  EXPECT_EQ(ops::lu_solve(g, upload(std::vector<float>{}, {0, 3, 2}, DType::kFloat32)).numel(), 0);
}

TEST(LinalgOps, BadInputsNameTheArgument) {
  using npurt_test::expect_invalid_argument;
  const std::vector<double> v(24, 1.0);
  expect_invalid_argument([&] { ops::lu_factor(upload(v, {2, 3, 4}, DType::kFloat64)); }, "lu_factor", "'a'");
  expect_invalid_argument([&] { ops::lu_factor(upload(v, {24}, DType::kFloat64)); }, "lu_factor", "'a'");
  expect_invalid_argument([&] { ops::lu_factor(upload(std::vector<int32_t>(4), {2, 2}, DType::kInt32)); },
                          "lu_factor", "'a'");
  expect_invalid_argument([&] { ops::cholesky(upload(v, {4, 6}, DType::kFloat64)); }, "cholesky", "'a'");
  const ops::LuFactors f = ops::lu_factor(upload(std::vector<double>(9, 0.0), {3, 3}, DType::kFloat64));
  expect_invalid_argument([&] { ops::lu_solve(f, upload(v, {4, 6}, DType::kFloat64)); }, "lu_solve", "'b'");
  expect_invalid_argument([&] { ops::lu_solve(f, upload(std::vector<float>(6), {3, 2}, DType::kFloat32)); },
                          "lu_solve", "'b'");
  // still usable afterwards
  check_lu<double>(1, 3, DType::kFloat64, 1e-12);
}

}  // namespace
