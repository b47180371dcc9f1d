// npurt::array::scan (npurt/array_ops.h, runtime/ops/scan_ops.cc): the long
// 1-D split against a sequential float64 reference (float32 tolerance below),
// the unsplit path bit for bit against one direct cumsum/cumprod launch, the
// -0 start of split sums, and the errors (public names; the runtime keeps
// working after each).
//
// Tolerances (float32 results, float64 references; values in [0, 1) so the
// sums are their own absolute sums): one sequential launch of n values, the
// worst-case bound n * 2^-24 relative (observed ~1e-5 at n = 2^18); the split
// (rows of n/k <= 16 Ki values plus k offsets) 1e-5 relative; split products
// of values in 1 +- 1e-3: 1e-4 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "npurt/array_ops.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt::array::ScanArgs;
using npurt::array::ScanOp;
using npurt_test::download;
using npurt_test::upload;

namespace {

constexpr int64_t kSplitMin = int64_t{1} << 18;

// Deterministic values in [lo, lo + width) (a 32-bit LCG: no <random> differences between libraries).
std::vector<float> values(int64_t n, float lo, float width, uint32_t seed = 12345) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = lo + width * static_cast<float>(seed >> 8) / static_cast<float>(1u << 24);
  }
  return v;
}

std::vector<double> reference(const std::vector<float>& x, bool sum) {
  std::vector<double> r(x.size());
  double acc = sum ? 0.0 : 1.0;
  for (size_t i = 0; i < x.size(); ++i) r[i] = acc = sum ? acc + x[i] : acc * x[i];
  return r;
}

// One launch of the kernel itself (what scan() must equal when it does not split).
Tensor direct(ScanOp op, const Tensor& x, int64_t axis, const std::string& dtype, bool include_initial) {
  return ops::call(op == ScanOp::kSum ? "cumsum" : "cumprod", {x},
                   {{"axis", AttrValue(axis)}, {"include_initial", AttrValue(include_initial)},
                    {"dtype", AttrValue(dtype)}})[0];
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void expect_close(const std::vector<float>& y, const std::vector<double>& ref, double rtol, const char* what) {
  ASSERT_EQ(y.size(), ref.size()) << what;
  int64_t bad = 0;
  for (size_t i = 0; i < y.size(); ++i)
    if (!(std::fabs(y[i] - ref[i]) <= rtol * std::fabs(ref[i]) + 1e-30) && bad++ < 5)
      ADD_FAILURE() << what << " at " << i << ": " << y[i] << " vs " << ref[i];
  EXPECT_EQ(bad, 0) << what;
}

TEST(ArrayScan, UnsplitSizesMatchOneLaunchBitForBit) {
  // Below the threshold, odd (no k divides), 2-D, include_initial, other dtypes: one launch.
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{33}, int64_t{1023}, kSplitMin - 1, kSplitMin + 1,
                    kSplitMin + 4}) {
    auto a = values(n, 0.f, 1.f);
    Tensor x = upload(a, {n}, DType::kFloat32);
    for (ScanOp op : {ScanOp::kSum, ScanOp::kProd}) {
      EXPECT_EQ(array::scan_split_rows(x, 0, ScanArgs{"float32", false}), 0u) << n;
      auto y = download<float>(array::scan(op, x, 0, ScanArgs{"float32", false}));
      EXPECT_TRUE(same_bits(y, download<float>(direct(op, x, 0, "float32", false)))) << n;
    }
    auto y = download<float>(array::scan(ScanOp::kSum, x, -1));
    expect_close(y, reference(a, true), 1e-7 + static_cast<double>(n) * std::ldexp(1.0, -24), "unsplit sum");
  }
}

TEST(ArrayScan, SplitSumsMatchTheFloat64Reference) {
  for (int64_t n : {kSplitMin, kSplitMin + 8 * 3, int64_t{1} << 20}) {
    auto a = values(n, 0.f, 1.f, static_cast<uint32_t>(n));
    Tensor x = upload(a, {n}, DType::kFloat32);
    const uint64_t k = array::scan_split_rows(x, 0, ScanArgs{"float32", false});
    EXPECT_EQ(k, n % 64 == 0 ? 64u : 8u) << n;
    auto y = download<float>(array::scan(ScanOp::kSum, x, 0, ScanArgs{"float32", false}));
    expect_close(y, reference(a, true), 1e-5, "split sum");
    // Row 0 starts at -0, so it is exactly the sequential kernel's first n/k values.
    auto seq = download<float>(direct(ScanOp::kSum, x, 0, "float32", false));
    const size_t m = static_cast<size_t>(n) / k;
    EXPECT_EQ(std::memcmp(y.data(), seq.data(), m * sizeof(float)), 0) << n;
    // The default dtype ("") and axis -1 take the same split.
    EXPECT_TRUE(same_bits(y, download<float>(array::scan(ScanOp::kSum, x, -1)))) << n;
  }
}

TEST(ArrayScan, SplitProductsMatchTheFloat64Reference) {
  const int64_t n = int64_t{1} << 20;
  auto a = values(n, 1.f - 1e-3f, 2e-3f, 99);
  Tensor x = upload(a, {n}, DType::kFloat32);
  ASSERT_EQ(array::scan_split_rows(x, 0), 64u);
  auto y = download<float>(array::scan(ScanOp::kProd, x, 0));
  expect_close(y, reference(a, false), 1e-4, "split prod");
  auto seq = download<float>(direct(ScanOp::kProd, x, 0, "float32", false));
  EXPECT_EQ(std::memcmp(y.data(), seq.data(), (n / 64) * sizeof(float)), 0);
}

TEST(ArrayScan, SplitSumOfNegativeZerosStaysNegative) {
  std::vector<float> z(static_cast<size_t>(kSplitMin), -0.0f);
  Tensor x = upload(z, {kSplitMin}, DType::kFloat32);
  ASSERT_GT(array::scan_split_rows(x, 0), 0u);
  auto y = download<float>(array::scan(ScanOp::kSum, x, 0));
  int64_t positive = 0;
  for (float v : y) positive += (v != 0.0f || !std::signbit(v)) ? 1 : 0;
  EXPECT_EQ(positive, 0);
}

TEST(ArrayScan, IncludeInitialAndStridedInputs) {
  const int64_t n = int64_t{1} << 19;
  auto a = values(2 * n, 0.f, 1.f, 5);
  Tensor big = upload(a, {2 * n}, DType::kFloat32);
  // include_initial: one launch (the identity first, n + 1 values).
  Tensor half = upload(std::vector<float>(a.begin(), a.begin() + n), {n}, DType::kFloat32);
  EXPECT_EQ(array::scan_split_rows(half, 0, ScanArgs{"", true}), 0u);
  auto yi = download<float>(array::scan(ScanOp::kSum, half, 0, ScanArgs{"", true}));
  ASSERT_EQ(yi.size(), static_cast<size_t>(n + 1));
  EXPECT_EQ(yi[0], 0.0f);
  EXPECT_TRUE(same_bits(yi, download<float>(direct(ScanOp::kSum, half, 0, "", true))));
  // Every other element (a non-contiguous view) splits like its contiguous copy.
  Tensor odd = big.view({n}, {2}, big.byte_offset());
  Tensor copy = ops::copy(odd);
  auto ys = download<float>(array::scan(ScanOp::kSum, odd, 0));
  EXPECT_TRUE(same_bits(ys, download<float>(array::scan(ScanOp::kSum, copy, 0))));
  std::vector<float> every_other(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) every_other[i] = a[2 * i];
  expect_close(ys, reference(every_other, true), 1e-5, "strided split sum");
  // 2-D along either axis: one launch.
  Tensor m = big.view({1024, 1024}, {1024, 1}, big.byte_offset());
  for (int64_t axis : {0, 1})
    EXPECT_TRUE(same_bits(download<float>(array::scan(ScanOp::kSum, m, axis)),
                          download<float>(direct(ScanOp::kSum, m, axis, "", false))));
}

void expect_error(ScanOp op, const Tensor& x, int64_t axis, const ScanArgs& args, const char* name,
                  const char* arg) {
  try {
    array::scan(op, x, axis, args);
    ADD_FAILURE() << "no error for " << name << " " << arg;
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(std::string("npurt.") + name + ": argument '" + arg + "'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("npurt.ops."), std::string::npos) << msg;
  }
}

TEST(ArrayScan, ErrorsNameThePublicFunctionAndLeaveTheRuntimeUsable) {
  Tensor big = upload(values(kSplitMin, 0.f, 1.f), {kSplitMin}, DType::kFloat32);
  Tensor small = upload(values(15, 0.f, 1.f), {15}, DType::kFloat32);
  Tensor zero_d = upload(std::vector<float>{2.f}, {}, DType::kFloat32);
  expect_error(ScanOp::kSum, big, 1, ScanArgs(), "cumulative_sum", "axis");
  expect_error(ScanOp::kProd, small, -2, ScanArgs(), "cumulative_prod", "axis");
  expect_error(ScanOp::kSum, big, 0, ScanArgs{"float64", false}, "cumulative_sum", "dtype");
  expect_error(ScanOp::kProd, small, 0, ScanArgs{"int64", false}, "cumulative_prod", "dtype");
  expect_error(ScanOp::kSum, zero_d, 0, ScanArgs(), "cumulative_sum", "x");
  EXPECT_THROW(array::scan(static_cast<ScanOp>(7), small, 0), InvalidArgument);
  // Still usable: the split and the plain launch both work after the errors.
  auto y = download<float>(array::scan(ScanOp::kSum, big, 0));
  EXPECT_EQ(y.size(), static_cast<size_t>(kSplitMin));
  auto s = download<float>(array::scan(ScanOp::kSum, small, 0));
  expect_close(s, reference(values(15, 0.f, 1.f), true), 1e-6, "after errors");
}

}  // namespace
