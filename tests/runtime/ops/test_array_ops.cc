// npurt::array::binary / reduce (npurt/array_ops.h) against scalar C++
// references: sizes 0-d/1/15/33/1023/large, broadcasting, non-contiguous
// inputs, non-adjacent axes, keepdims, and the errors (public names, nothing
// left broken: the runtime keeps working after each).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "npurt/array_ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt::array::BinaryOp;
using npurt::array::ReduceOp;
using npurt_test::download;
using npurt_test::iota_f;
using npurt_test::upload;

namespace {

TEST(ArrayBinary, SameShapeFloat32MatchesReference) {
  for (int64_t n : std::initializer_list<int64_t>{1, 15, 33, 1023}) {
    auto a = iota_f(n), b = iota_f(n, -0.25f);
    Tensor x = upload(a, {n}, DType::kFloat32), y = upload(b, {n}, DType::kFloat32);
    auto add = download<float>(array::binary(BinaryOp::kAdd, x, y));
    auto sub = download<float>(array::binary(BinaryOp::kSubtract, x, y));
    auto mul = download<float>(array::binary(BinaryOp::kMultiply, x, y));
    auto lt = download<uint8_t>(array::binary(BinaryOp::kLess, x, y));
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(add[i], a[i] + b[i]) << n << " " << i;
      EXPECT_EQ(sub[i], a[i] - b[i]);
      EXPECT_EQ(mul[i], a[i] * b[i]);
      EXPECT_EQ(lt[i], a[i] < b[i] ? 1 : 0);
    }
  }
}

TEST(ArrayBinary, BroadcastsAndComparesIntegers) {
  std::vector<int32_t> a = {1, 5, -3}, b = {2, 5, 0, -7};
  Tensor x = upload(a, {3, 1}, DType::kInt32), y = upload(b, {1, 4}, DType::kInt32);
  Tensor s = array::binary(BinaryOp::kAdd, x, y);
  ASSERT_EQ(s.shape(), (Dims{3, 4}));
  EXPECT_EQ(s.dtype(), DType::kInt32);
  Tensor ge = array::binary(BinaryOp::kGreaterEqual, x, y);
  EXPECT_EQ(ge.dtype(), DType::kBool);
  auto sv = download<int32_t>(s);
  auto gv = download<uint8_t>(ge);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(sv[i * 4 + j], a[i] + b[j]);
      EXPECT_EQ(gv[i * 4 + j], a[i] >= b[j] ? 1 : 0);
    }
}

TEST(ArrayBinary, WritesOutAndTakesViews) {
  auto a = iota_f(33);
  Tensor x = upload(a, {33}, DType::kFloat32);
  Tensor every_third = x.view({11}, {3}, x.byte_offset());  // non-contiguous
  Tensor out = Tensor::empty({11}, DType::kFloat32, npurt_test::stream0());
  Tensor r = array::binary(BinaryOp::kMultiply, every_third, every_third, Stream(), out);
  EXPECT_EQ(r.data(), out.data());
  auto v = download<float>(out);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(v[i], a[3 * i] * a[3 * i]);
}

TEST(ArrayBinary, ErrorsNameThePublicFunction) {
  Tensor f = upload(iota_f(3), {3}, DType::kFloat32);
  Tensor g = upload(iota_f(2), {2}, DType::kFloat32);
  Tensor i = upload(std::vector<int32_t>{1, 2, 3}, {3}, DType::kInt32);
  try {
    array::binary(BinaryOp::kAdd, f, g);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.add:"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("npurt.ops."), std::string::npos) << e.what();
  }
  EXPECT_THROW(array::binary(BinaryOp::kAdd, f, i), InvalidArgument);
  EXPECT_THROW(array::binary(BinaryOp::kDivide, i, i), InvalidArgument);
  EXPECT_THROW(array::binary(BinaryOp::kAdd, f, Tensor()), InvalidArgument);
  EXPECT_STREQ(array::binary_op_name(BinaryOp::kBitwiseLeftShift), "bitwise_left_shift");
  auto v = download<float>(array::binary(BinaryOp::kAdd, f, f));  // still usable
  EXPECT_EQ(v[2], 2 * iota_f(3)[2]);
}

double sum_of(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

TEST(ArrayReduce, WholeArrayFloat32IncludingTheTwoPassSplit) {
  for (int64_t n : std::initializer_list<int64_t>{0, 1, 15, 33, 1023, int64_t{1} << 19, (int64_t{1} << 20) + 1}) {
    std::vector<float> a(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) a[i] = static_cast<float>((i * 7919) % 97) * 0.125f - 5.0f;
    Tensor x = upload(a, {n}, DType::kFloat32);
    Tensor s = array::reduce(ReduceOp::kSum, x);
    EXPECT_EQ(s.ndim(), 0u);
    const double want = sum_of(a);
    EXPECT_NEAR(download<float>(s)[0], want, 1e-5 * std::max(1.0, std::fabs(want)) + 1e-6 * n) << n;
    if (n == 0) continue;
    EXPECT_NEAR(download<float>(array::reduce(ReduceOp::kMean, x))[0], want / n, 1e-4) << n;
    EXPECT_EQ(download<float>(array::reduce(ReduceOp::kMax, x))[0], *std::max_element(a.begin(), a.end()));
    EXPECT_EQ(download<float>(array::reduce(ReduceOp::kMin, x))[0], *std::min_element(a.begin(), a.end()));
  }
}

TEST(ArrayReduce, ZeroDimAndKeepdims) {
  Tensor x0 = upload(std::vector<float>{2.5f}, {}, DType::kFloat32);
  Tensor s0 = array::reduce(ReduceOp::kSum, x0);
  EXPECT_EQ(s0.ndim(), 0u);
  EXPECT_EQ(download<float>(s0)[0], 2.5f);
  auto a = iota_f(6);
  Tensor x = upload(a, {2, 3}, DType::kFloat32);
  Tensor k = array::reduce(ReduceOp::kSum, x, /*keepdims=*/true);
  EXPECT_EQ(k.shape(), (Dims{1, 1}));
  EXPECT_FLOAT_EQ(download<float>(k)[0], static_cast<float>(sum_of(a)));
}

TEST(ArrayReduce, AxesIncludingNonAdjacentAndNegative) {
  const int64_t A = 3, B = 5, C = 7;
  auto a = iota_f(A * B * C, 0.01f);
  Tensor x = upload(a, {A, B, C}, DType::kFloat32);
  Tensor r = array::reduce(ReduceOp::kSum, x, Dims{-1, 0});  // axes 0 and 2: not adjacent
  ASSERT_EQ(r.shape(), (Dims{B}));
  auto v = download<float>(r);
  for (int64_t j = 0; j < B; ++j) {
    double want = 0;
    for (int64_t i = 0; i < A; ++i)
      for (int64_t k = 0; k < C; ++k) want += a[(i * B + j) * C + k];
    EXPECT_NEAR(v[j], want, 1e-4) << j;
  }
  Tensor m = array::reduce(ReduceOp::kMax, x, Dims{1}, /*keepdims=*/true);
  ASSERT_EQ(m.shape(), (Dims{A, 1, C}));
  auto mv = download<float>(m);
  for (int64_t i = 0; i < A; ++i)
    for (int64_t k = 0; k < C; ++k) EXPECT_EQ(mv[i * C + k], a[(i * B + B - 1) * C + k]);  // increasing along B
  Tensor same = array::reduce(ReduceOp::kSum, x, Dims{});  // axis=(): a copy
  EXPECT_NE(same.data(), x.data());
  EXPECT_EQ(download<float>(same), a);
}

TEST(ArrayReduce, Float16AndFloat64KeepTheirDtype) {
  std::vector<uint16_t> h = {0x3C00, 0x4000, 0x4200};  // 1, 2, 3 in float16
  Tensor x = upload(h, {3}, DType::kFloat16);
  Tensor s = array::reduce(ReduceOp::kSum, x);
  EXPECT_EQ(s.dtype(), DType::kFloat16);
  EXPECT_EQ(download<uint16_t>(s)[0], 0x4600);  // 6
  std::vector<double> d = {0.1, 0.2, 0.3};
  Tensor y = upload(d, {3}, DType::kFloat64);
  EXPECT_EQ(array::reduce(ReduceOp::kProd, y).dtype(), DType::kFloat64);
  EXPECT_NEAR(download<double>(array::reduce(ReduceOp::kProd, y))[0], 0.1 * 0.2 * 0.3, 1e-15);
}

TEST(ArrayReduce, Errors) {
  Tensor x = upload(iota_f(6), {2, 3}, DType::kFloat32);
  Tensor i = upload(std::vector<int32_t>{1, 2}, {2}, DType::kInt32);
  EXPECT_THROW(array::reduce(ReduceOp::kSum, x, Dims{2}), InvalidArgument);
  EXPECT_THROW(array::reduce(ReduceOp::kSum, x, Dims{-3}), InvalidArgument);
  EXPECT_THROW(array::reduce(ReduceOp::kSum, x, Dims{1, -1}), InvalidArgument);
  try {
    array::reduce(ReduceOp::kMean, i);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.mean: argument 'x': dtype int32"), std::string::npos) << e.what();
  }
  // A check of the reduce op itself names the public function too, not "npurt.ops.reduce_max".
  Tensor empty = Tensor::empty({0}, DType::kFloat32, current_device());
  try {
    array::reduce(ReduceOp::kMax, empty);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("npurt.max: argument 'x': zero-size reduction", 0), 0u) << m;
    EXPECT_EQ(m.find("npurt.ops."), std::string::npos) << m;
  }
  EXPECT_EQ(download<float>(array::reduce(ReduceOp::kSum, x, Dims{1})), (std::vector<float>{-7.5f, -3.0f}));
}

// The split rule (array_ops.cc) covers any length: uneven ranges, every
// element in exactly one; the general form runs it for every kind and dtype.
TEST(ArrayReduce, SplitPlanCoversAnyLength) {
  for (int64_t n : std::initializer_list<int64_t>{1, 33, 1023, (1 << 16) - 1, (1 << 20) + 1, 1048573, 3 << 20}) {
    Tensor x = Tensor::empty({n}, DType::kFloat32, current_device());
    const array::ReducePlan p = array::reduce_plan(x, array::ReduceArgs{});
    EXPECT_EQ(p.len, static_cast<uint64_t>(n));
    if (n >= (1 << 20)) {  // braces: EXPECT_* expands to an if/else (-Wdangling-else)
      EXPECT_GT(p.part_len, 0u) << n;  // long whole-array sums always split
    }
    if (p.part_len) {
      EXPECT_LT((p.parts - 1) * p.part_len, p.len) << n;  // no empty range
      EXPECT_GE(p.parts * p.part_len, p.len) << n;        // every element covered
    }
  }
  Tensor many = Tensor::empty({256, 1024}, DType::kFloat32, current_device());
  array::ReduceArgs rows;
  rows.all_axes = false;
  rows.axes = Dims{-1};
  EXPECT_EQ(array::reduce_plan(many, rows).part_len, 0u);  // 256 outputs already fill the cores
}

TEST(ArrayReduce, GeneralFormSplitsEveryKindAndDtype) {
  const int64_t n = (int64_t{1} << 20) + 7, rows = 3;  // [3, n]: three long rows, uneven ranges
  std::vector<float> a(static_cast<size_t>(rows * n));
  std::vector<int32_t> ia(a.size());
  std::vector<uint8_t> ba(a.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>((i * 7919) % 101) * 0.25f - 12.0f;
    ia[i] = static_cast<int32_t>((i * 31) % 2001) - 1000;
  }
  ba[static_cast<size_t>(n + n / 2)] = 1;  // row 1 only
  array::ReduceArgs last;
  last.all_axes = false;
  last.axes = Dims{1};
  ASSERT_GT(array::reduce_plan(upload(a, {rows, n}, DType::kFloat32), last).part_len, 0u);
  auto s = download<float>(array::reduce(ReduceOp::kSum, upload(a, {rows, n}, DType::kFloat32), last));
  auto m = download<float>(array::reduce(ReduceOp::kMean, upload(a, {rows, n}, DType::kFloat32), last));
  auto mx = download<int32_t>(array::reduce(ReduceOp::kMax, upload(ia, {rows, n}, DType::kInt32), last));
  auto is = download<int32_t>(array::reduce(ReduceOp::kSum, upload(ia, {rows, n}, DType::kInt32), last));
  auto any = download<uint8_t>(array::reduce(ReduceOp::kAny, upload(ba, {rows, n}, DType::kBool), last));
  for (int64_t r = 0; r < rows; ++r) {
    double want = 0;
    int64_t iwant = 0;
    int32_t imax = INT32_MIN;
    for (int64_t i = 0; i < n; ++i) {
      want += a[r * n + i];
      iwant += ia[r * n + i];
      imax = std::max(imax, ia[r * n + i]);
    }
    EXPECT_NEAR(s[r], want, 1e-5 * std::fabs(want) + 1.0) << r;
    EXPECT_NEAR(m[r], want / n, 1e-4) << r;
    EXPECT_EQ(is[r], static_cast<int32_t>(iwant)) << r;  // exact (no wrap at these sizes)
    EXPECT_EQ(mx[r], imax) << r;
    EXPECT_EQ(any[r], r == 1 ? 1 : 0) << r;
  }
  // float16 with a float32 result: the unrounded float32 accumulation.
  std::vector<uint16_t> h(static_cast<size_t>(n), 0x3C00);  // ones
  array::ReduceArgs wide;
  wide.float32_result = true;
  Tensor hs = array::reduce(ReduceOp::kSum, upload(h, {n}, DType::kFloat16), wide);
  EXPECT_EQ(hs.dtype(), DType::kFloat32);
  EXPECT_EQ(download<float>(hs)[0], static_cast<float>(n));
  EXPECT_THROW(array::reduce(ReduceOp::kAny, upload(a, {rows, n}, DType::kFloat32)), InvalidArgument);
  EXPECT_EQ(download<float>(array::reduce(ReduceOp::kSum, upload(std::vector<float>{1.5f}, {1}, DType::kFloat32)))[0],
            1.5f);  // the runtime still works after the error
}

}  // namespace
