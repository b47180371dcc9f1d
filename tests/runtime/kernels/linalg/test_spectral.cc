// npurt::ops::qr / eigh / svd (npurt/linalg_spectral.h, kernels/linalg) through the public API,
// checked by invariants computed here in double: A = Q R, A = V diag(w) V^T, A = U diag(S) Vh,
// orthonormal columns, R upper triangular, ordered values. Tolerance: float64 1e-12, float32
// 2e-5 (n <= 12, entries in [-2, 2]). Also: the GM work area equals the UB one bit for bit,
// eigh's QL and Jacobi methods agree, the sweep cap reports through info, bad dtypes and
// shapes are refused naming the op and argument, and the runtime stays usable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "npurt/linalg_spectral.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "runtime/kernels/expect_error.h"
#include "runtime/ops/op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

using Mat = std::vector<double>;  // row-major

template <class T>
std::vector<T> random_matrix(size_t count, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  std::vector<T> v(count);
  for (auto& e : v) e = static_cast<T>(u(g));
  return v;
}

template <class T>
Mat to_double(const std::vector<T>& v) { return Mat(v.begin(), v.end()); }

// a [m, k] * diag(d) (empty: none) * b [k, n].
Mat product(const Mat& a, const Mat& d, const Mat& b, int64_t m, int64_t k, int64_t n) {
  Mat y(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) y[i * n + j] += a[i * k + p] * (d.empty() ? 1.0 : d[p]) * b[p * n + j];
  return y;
}

Mat transpose(const Mat& a, int64_t m, int64_t n) {
  Mat t(a.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) t[j * m + i] = a[i * n + j];
  return t;
}

void expect_near_all(const Mat& got, const Mat& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol) << what << " at " << i;
}

// The columns of q [m, k] are orthonormal.
void expect_orthonormal(const Mat& q, int64_t m, int64_t k, double tol, const std::string& what) {
  Mat eye(static_cast<size_t>(k * k), 0.0);
  for (int64_t i = 0; i < k; ++i) eye[i * k + i] = 1.0;
  expect_near_all(product(transpose(q, m, k), {}, q, k, m, k), eye, tol, what + " orthonormality");
}

template <class T>
void check_qr(int64_t m, int64_t n, bool complete, double tol) {
  const std::vector<T> a = random_matrix<T>(static_cast<size_t>(m * n), 7u + static_cast<uint32_t>(m * 31 + n));
  const DType dt = std::is_same_v<T, double> ? DType::kFloat64 : DType::kFloat32;
  ops::QR r = ops::qr(upload(a, {m, n}, dt), complete);
  const int64_t qc = complete ? m : std::min(m, n);
  ASSERT_EQ(r.Q.shape(), (Dims{m, qc}));
  ASSERT_EQ(r.R.shape(), (Dims{qc, n}));
  const Mat q = to_double(download<T>(r.Q)), rr = to_double(download<T>(r.R));
  const std::string what = "qr " + std::to_string(m) + "x" + std::to_string(n);
  expect_near_all(product(q, {}, rr, m, qc, n), to_double(a), tol, what + " A = QR");
  expect_orthonormal(q, m, qc, tol, what);
  for (int64_t i = 0; i < qc; ++i)
    for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(rr[i * n + j], 0.0) << what << " R below diagonal";
}

template <class T>
void check_svd(int64_t m, int64_t n, bool full, double tol) {
  const std::vector<T> a = random_matrix<T>(static_cast<size_t>(m * n), 11u + static_cast<uint32_t>(m * 17 + n));
  const DType dt = std::is_same_v<T, double> ? DType::kFloat64 : DType::kFloat32;
  ops::SVD r = ops::svd(upload(a, {m, n}, dt), full);
  const int64_t k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  ASSERT_EQ(r.U.shape(), (Dims{m, uc}));
  ASSERT_EQ(r.Vh.shape(), (Dims{vr, n}));
  const Mat u = to_double(download<T>(r.U)), s = to_double(download<T>(r.S)), vh = to_double(download<T>(r.Vh));
  const std::string what = "svd " + std::to_string(m) + "x" + std::to_string(n);
  for (int64_t j = 1; j < k; ++j) EXPECT_GE(s[j - 1], s[j]) << what << " descending";
  Mat uk(static_cast<size_t>(m * k));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) uk[i * k + j] = u[i * uc + j];
  const Mat vhk(vh.begin(), vh.begin() + k * n);
  expect_near_all(product(uk, s, vhk, m, k, n), to_double(a), tol, what + " A = U S Vh");
  expect_orthonormal(u, m, uc, tol, what + " U");
  expect_orthonormal(transpose(vh, vr, n), n, vr, tol, what + " V");
}

TEST(LinalgSpectral, QrShapesAndModes) {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {3, 3}, {7, 4}, {4, 7}, {12, 12}})
    for (bool complete : {false, true}) {
      check_qr<double>(m, n, complete, 1e-12);
      check_qr<float>(m, n, complete, 2e-5);
    }
}

TEST(LinalgSpectral, SvdShapesAndModes) {
  // 20x6 / 6x20: the QR-first path (Jacobi on R, U = Q U_R / Vh = Vh_R Q^T; full: complete Q).
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {2, 2}, {9, 5}, {5, 9}, {12, 12}, {20, 6}, {6, 20}})
    for (bool full : {false, true}) {
      check_svd<double>(m, n, full, 1e-12);
      check_svd<float>(m, n, full, 2e-5);
    }
}

TEST(LinalgSpectral, SvdOfLongBatchesGoesThroughQr) {
  // A batch [2, 3, m, n] of long matrices, reduced and full: same shapes as
  // the kernel alone and singular values equal to its to rounding (both
  // paths are backward stable); the 2-D cases of SvdShapesAndModes check
  // reconstruction and orthonormality.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{14, 4}, {4, 14}})
    for (bool full : {false, true}) {
      const Tensor x = upload(random_matrix<double>(static_cast<size_t>(6 * m * n), 21), {2, 3, m, n}, DType::kFloat64);
      const ops::SVD r = ops::svd(x, full);
      const std::vector<Tensor> direct = ops::call("linalg_svd", {x}, {{"full_matrices", AttrValue(full)}});
      ASSERT_EQ(r.U.shape(), direct[0].shape());
      ASSERT_EQ(r.Vh.shape(), direct[2].shape());
      expect_near_all(download<double>(r.S), download<double>(direct[1]), 1e-12, "S via QR vs direct");
      EXPECT_EQ(ops::svd(x, full, /*vectors=*/false).U.numel(), 0);
      expect_near_all(download<double>(ops::svd(x, full, false).S), download<double>(r.S), 0.0, "S without vectors");
    }
}

TEST(LinalgSpectral, EighOfAKnownMatrix) {
  // [[2, 1], [1, 2]] (upper entry 99 is ignored: lower triangle) -> eigenvalues 1, 3.
  const std::vector<double> a = {2.0, 99.0, 1.0, 2.0};
  ops::Eigh r = ops::eigh(upload(a, {2, 2}, DType::kFloat64));
  const Mat w = download<double>(r.eigenvalues), v = download<double>(r.eigenvectors);
  EXPECT_NEAR(w[0], 1.0, 1e-14);
  EXPECT_NEAR(w[1], 3.0, 1e-14);
  const Mat sym = {2.0, 1.0, 1.0, 2.0};
  expect_near_all(product(v, w, transpose(v, 2, 2), 2, 2, 2), sym, 1e-14, "eigh 2x2");
  EXPECT_EQ(ops::eigh(upload(a, {2, 2}, DType::kFloat64), /*vectors=*/false).eigenvectors.numel(), 0);
}

TEST(LinalgSpectral, EighBothMethodsReconstruct) {
  const int64_t n = 12;
  const std::vector<double> a = random_matrix<double>(static_cast<size_t>(n * n), 9);
  Mat sym(a.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) sym[i * n + j] = i >= j ? a[i * n + j] : a[j * n + i];
  const Tensor x = upload(a, {n, n}, DType::kFloat64);
  for (const char* method : {"ql", "jacobi"}) {
    const std::vector<Tensor> r = ops::call("linalg_eigh", {x}, {{"method", AttrValue(std::string(method))}});
    const Mat w = download<double>(r[0]), v = download<double>(r[1]);
    for (int64_t j = 1; j < n; ++j) EXPECT_LE(w[j - 1], w[j]) << method << " ascending";
    expect_near_all(product(v, w, transpose(v, n, n), n, n, n), sym, 1e-12, std::string("eigh ") + method);
    expect_orthonormal(v, n, n, 1e-12, std::string("eigh ") + method);
    EXPECT_GE(download<int32_t>(r[2])[0], 1) << method;
  }
  expect_near_all(download<double>(ops::eigh(x).eigenvalues),
                  download<double>(ops::call("linalg_eigh", {x}, {{"method", AttrValue(std::string("jacobi"))}})[0]),
                  1e-12, "ql vs jacobi eigenvalues");
}

TEST(LinalgSpectral, GmWorkAreaMatchesUb) {
  const std::vector<double> a = random_matrix<double>(2 * 6 * 6, 5);
  const Tensor x = upload(a, {2, 6, 6}, DType::kFloat64);
  for (const char* op : {"linalg_qr", "linalg_eigh", "linalg_svd"}) {
    const std::vector<Tensor> ub = ops::call(op, {x});
    const std::vector<Tensor> gm = ops::call(op, {x}, {{"gm_work", AttrValue(true)}});
    for (size_t i = 0; i < ub.size(); ++i)
      EXPECT_EQ(download<uint8_t>(ub[i]), download<uint8_t>(gm[i])) << op << " output " << i;
  }
  const std::vector<NamedAttr> jacobi = {{"method", AttrValue(std::string("jacobi"))}};
  std::vector<NamedAttr> jacobi_gm = jacobi;
  jacobi_gm.push_back({"gm_work", AttrValue(true)});
  const std::vector<Tensor> ub = ops::call("linalg_eigh", {x}, jacobi), gm = ops::call("linalg_eigh", {x}, jacobi_gm);
  for (size_t i = 0; i < ub.size(); ++i)
    EXPECT_EQ(download<uint8_t>(ub[i]), download<uint8_t>(gm[i])) << "jacobi output " << i;
}

TEST(LinalgSpectral, SweepCapReportsNonConvergence) {
  const Tensor x = upload(random_matrix<double>(8 * 8, 3), {8, 8}, DType::kFloat64);
  const std::vector<Tensor> r = ops::call("linalg_svd", {x}, {{"max_sweeps", AttrValue(int64_t{1})}});
  EXPECT_EQ(download<int32_t>(r[3]), std::vector<int32_t>{-1});
  const std::vector<Tensor> ok = ops::call("linalg_svd", {x});
  EXPECT_GE(download<int32_t>(ok[3])[0], 2);
}

TEST(LinalgSpectral, NonFiniteInputsFollowNumpy) {
  // numpy's LAPACK: eigh fails on NaN/inf in the lower triangle (info -2),
  // svd on a NaN; an inf alone gives svd NaN results. The long shapes take
  // the QR-first path, whose R has a NaN for an inf in A as well.
  const double nan = std::nan(""), inf = INFINITY;
  std::vector<double> sym = random_matrix<double>(4 * 4, 4);
  sym[3 * 4 + 0] = inf;  // lower triangle
  const Tensor bad_lower = upload(sym, {4, 4}, DType::kFloat64);
  EXPECT_EQ(download<int32_t>(ops::call("linalg_eigh", {bad_lower})[2]), std::vector<int32_t>{-2});
  npurt_test::expect_invalid_argument([&] { ops::eigh(bad_lower); }, "npurt::ops::eigh", "did not converge");
  sym[3 * 4 + 0] = 0.5;
  sym[0 * 4 + 3] = nan;  // upper triangle: never read
  EXPECT_TRUE(std::isfinite(download<double>(ops::eigh(upload(sym, {4, 4}, DType::kFloat64)).eigenvalues)[0]));
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 4}, {12, 3}, {3, 12}}) {
    std::vector<double> a = random_matrix<double>(static_cast<size_t>(m * n), 6);
    a[1 * n + 1] = inf;
    const ops::SVD r = ops::svd(upload(a, {m, n}, DType::kFloat64), /*full_matrices=*/false);
    for (double s : download<double>(r.S)) EXPECT_TRUE(std::isnan(s)) << m << "x" << n;
    a[0] = nan;
    npurt_test::expect_invalid_argument([&] { ops::svd(upload(a, {m, n}, DType::kFloat64), false, false); },
                                        "npurt::ops::svd", "SVD did not converge");
  }
}

TEST(LinalgSpectral, BadInputsNameOpAndArgument) {
  const Tensor half = upload(std::vector<uint16_t>(4, 0), {2, 2}, DType::kFloat16);
  npurt_test::expect_invalid_argument([&] { ops::svd(half); }, "linalg_svd", "'x'");
  const Tensor vec = upload(std::vector<float>(3, 1.0f), {3}, DType::kFloat32);
  npurt_test::expect_invalid_argument([&] { ops::qr(vec); }, "linalg_qr", "at least 2 dimensions");
  const Tensor rect = upload(std::vector<float>(6, 1.0f), {2, 3}, DType::kFloat32);
  npurt_test::expect_invalid_argument([&] { ops::eigh(rect); }, "linalg_eigh", "square");
  check_qr<float>(3, 2, false, 2e-5);  // still usable
}

}  // namespace
