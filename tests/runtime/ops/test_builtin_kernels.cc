// Built-in kernels (copy, fill, cast, add, mul) against scalar C++ references,
// over dtypes, sizes 1/15/33/1023/large, and non-contiguous views for copy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "npurt/ops.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

const std::vector<int64_t> kSizes = {1, 15, 33, 1023, 300001};

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(g());
  return v;
}

// Reference strided gather (bytes).
std::vector<uint8_t> gather(const std::vector<uint8_t>& base, size_t item, const Dims& shape, const Dims& strides,
                            int64_t offset_elems) {
  int64_t n = shape_numel(shape);
  std::vector<uint8_t> out(static_cast<size_t>(n) * item);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = offset_elems;
    for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
    std::memcpy(&out[k * item], &base[off * item], item);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

struct ViewCase {
  const char* name;
  Dims base_shape;
  Dims shape;
  Dims strides;
  int64_t offset;
};

}  // namespace

TEST(BuiltinCopy, StridedViewsEveryDtype) {
  const std::vector<ViewCase> views = {
      {"contiguous", {1023}, {1023}, {1}, 0},
      {"transpose", {33, 15}, {15, 33}, {1, 15}, 0},
      {"row slice", {40, 50}, {40, 17}, {50, 1}, 3},
      {"step 2", {1023}, {511}, {2}, 1},
      {"negative", {15}, {15}, {-1}, 14},
      {"broadcast", {7}, {5, 7}, {0, 1}, 0},
      {"3d permute", {4, 5, 6}, {6, 4, 5}, {1, 30, 6}, 0},
      {"big transpose", {600, 500}, {500, 600}, {1, 500}, 0},
      {"scalar", {3}, {}, {}, 2},
  };
  const DType dtypes[] = {DType::kBool, DType::kInt8, DType::kFloat16, DType::kInt32, DType::kFloat32,
                          DType::kFloat64, DType::kInt64, DType::kComplex128};
  for (DType dt : dtypes) {
    size_t item = itemsize(dt);
    for (const ViewCase& v : views) {
      auto base = random_bytes(static_cast<size_t>(shape_numel(v.base_shape)) * item, 7);
      Tensor b = upload(base, v.base_shape, dt);
      Tensor view = b.view(v.shape, v.strides, v.offset * static_cast<int64_t>(item));
      Tensor y = ops::copy(view);
      EXPECT_TRUE(y.is_contiguous());
      EXPECT_EQ(y.shape(), v.shape);
      EXPECT_EQ(download<uint8_t>(y), gather(base, item, v.shape, v.strides, v.offset))
          << v.name << " " << dtype_name(dt);
    }
  }
}

TEST(BuiltinCopy, SizesAndOut) {
  for (int64_t n : kSizes) {
    auto base = random_bytes(static_cast<size_t>(n) * 4, 3);
    Tensor b = upload(base, {n}, DType::kFloat32);
    Tensor out = Tensor::empty({n}, DType::kFloat32, npurt_test::stream0());
    ops::copy(b, Stream(), out);
    EXPECT_EQ(download<uint8_t>(out), base) << n;
  }
}

TEST(BuiltinFill, EveryDtypeAndSize) {
  for (int64_t n : kSizes) {
    EXPECT_EQ(download<float>(ops::fill({n}, DType::kFloat32, -2.5, npurt_test::stream0())),
              std::vector<float>(static_cast<size_t>(n), -2.5f));
    EXPECT_EQ(download<int8_t>(ops::fill({n}, DType::kInt8, -7, npurt_test::stream0())),
              std::vector<int8_t>(static_cast<size_t>(n), -7));
    EXPECT_EQ(download<uint16_t>(ops::fill({n}, DType::kFloat16, 1.5, npurt_test::stream0())),
              std::vector<uint16_t>(static_cast<size_t>(n), float_to_half_bits(1.5f)));
    EXPECT_EQ(download<double>(ops::fill({n}, DType::kFloat64, 1e300, npurt_test::stream0())),
              std::vector<double>(static_cast<size_t>(n), 1e300));
  }
  auto c = download<float>(ops::fill({3}, DType::kComplex64, 2.0, npurt_test::stream0()));
  EXPECT_EQ(c, (std::vector<float>{2, 0, 2, 0, 2, 0}));
  EXPECT_THROW(ops::fill({3}, DType::kInt8, 300, npurt_test::stream0()), InvalidArgument);
  EXPECT_THROW(ops::fill({3}, DType::kInt32, 0.5, npurt_test::stream0()), InvalidArgument);
  EXPECT_THROW(ops::fill({-1}, DType::kInt32, 0, npurt_test::stream0()), InvalidArgument);
}

TEST(BuiltinBinary, AddMulFloat32AndInt32) {
  for (int64_t n : kSizes) {
    auto xs = npurt_test::iota_f(static_cast<size_t>(n), 0.25f);
    std::vector<float> ys(xs.rbegin(), xs.rend());
    Tensor x = upload(xs, {n}, DType::kFloat32), y = upload(ys, {n}, DType::kFloat32);
    auto s = download<float>(ops::add(x, y));
    auto p = download<float>(ops::mul(x, y));
    for (size_t i = 0; i < xs.size(); ++i) {
      ASSERT_EQ(s[i], xs[i] + ys[i]) << n << " " << i;
      ASSERT_EQ(p[i], xs[i] * ys[i]) << n << " " << i;
    }
    std::vector<int32_t> xi(static_cast<size_t>(n)), yi(static_cast<size_t>(n));
    for (size_t i = 0; i < xi.size(); ++i) { xi[i] = static_cast<int32_t>(i * 7919) - 5; yi[i] = 3 - static_cast<int32_t>(i); }
    auto si = download<int32_t>(ops::add(upload(xi, {n}, DType::kInt32), upload(yi, {n}, DType::kInt32)));
    for (size_t i = 0; i < xi.size(); ++i) ASSERT_EQ(si[i], xi[i] + yi[i]);
  }
}

TEST(BuiltinBinary, Float16RoundsPerOperation) {
  std::vector<uint16_t> xs, ys;
  for (int i = 0; i < 33; ++i) { xs.push_back(float_to_half_bits(0.1f * i)); ys.push_back(float_to_half_bits(1.0f / (i + 1))); }
  Tensor x = upload(xs, {33}, DType::kFloat16), y = upload(ys, {33}, DType::kFloat16);
  auto s = download<uint16_t>(ops::add(x, y));
  for (size_t i = 0; i < xs.size(); ++i)
    EXPECT_EQ(s[i], float_to_half_bits(half_bits_to_float(xs[i]) + half_bits_to_float(ys[i]))) << i;
}

TEST(BuiltinBinary, RejectsShapeAndDtypeMismatch) {
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  Tensor y = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
  try {
    ops::add(x, y);
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "npurt.ops.add: argument 'y': shape (3,) differs from x's (2,) (this kernel takes equal shapes, no broadcasting)");
  }
  Tensor z = upload(std::vector<double>{1, 2}, {2}, DType::kFloat64);
  EXPECT_THROW(ops::mul(z, z), InvalidArgument);
}

TEST(BuiltinCast, NumpyAstypeSemantics) {
  std::vector<float> xs = {-2.7f, -0.5f, 0.f, 0.5f, 1.5f, 2.5f, 65519.f, 1e-8f, 3.99f};
  for (int64_t n : kSizes) {
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = xs[i % xs.size()] * (i % 3 ? 1.f : -1.f);
    Tensor x = upload(v, {n}, DType::kFloat32);
    auto h = download<uint16_t>(ops::cast(x, DType::kFloat16));
    auto i32 = download<int32_t>(ops::cast(x, DType::kInt32));
    for (size_t i = 0; i < v.size(); ++i) {
      ASSERT_EQ(h[i], float_to_half_bits(v[i])) << i;
      ASSERT_EQ(i32[i], static_cast<int32_t>(std::trunc(v[i]))) << i;
    }
    auto back = download<float>(ops::cast(ops::cast(x, DType::kFloat16), DType::kFloat32));
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(back[i], half_bits_to_float(h[i]));
  }
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  EXPECT_EQ(download<float>(ops::cast(x, DType::kFloat32)), (std::vector<float>{1, 2}));
  try {
    ops::cast(x, DType::kInt8);
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("casting float32 to int8 is not a single vector-unit conversion"),
              std::string::npos) << e.what();
  }
}
