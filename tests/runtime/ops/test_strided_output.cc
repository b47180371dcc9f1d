// Kernels with a strided output: npurt::ops::fill_into (the fill op's
// `strides`, kernels/fill/) and npurt::ops::copy_into (the copy op's
// `out_strides`, kernels/copy/): one launch writes every element of a strided
// view (steps, negative and zero strides, transposes, long rows, 1- to 16-byte
// dtypes) and no other byte of the storage, checked byte for byte against a
// host reference under the simulator's full checks (bounds, multi-core write
// overlap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "npurt/ops.h"
#include "npurt/sim_check.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

struct ViewCase {
  const char* name;
  int64_t base_elems;
  Dims shape;
  Dims strides;
  int64_t offset;  // elements
};

const ViewCase kViews[] = {
    {"step 2", 1023, {512}, {2}, 0},
    {"step 3 odd", 100, {33}, {3}, 1},
    {"reversed", 15, {15}, {-1}, 14},
    {"reversed step 2", 33, {17}, {-2}, 32},
    {"rows slice", 40 * 50, {40, 17}, {50, 1}, 3},
    {"reversed rows, stepped cols", 9 * 11, {9, 5}, {-11, 2}, 8 * 11 + 1},
    {"3d", 5 * 7 * 9, {5, 3, 5}, {63, -18, 2}, 36},
    {"transposed", 12 * 8, {8, 6}, {1, 16}, 0},
    {"broadcast dim", 20, {4, 10}, {0, 2}, 0},
    {"long rows", 3 * 40000, {3, 30000}, {40000, 1}, 5},
    {"many scattered", 300001, {150001}, {2}, 0},
    {"one element", 7, {1, 1}, {5, 1}, 6},
    {"empty", 7, {0, 3}, {3, 1}, 0},
};

// The storage bytes after writing element k of `values` (or `pattern` when
// values is null) to element k (C order) of the view.
std::vector<uint8_t> reference(std::vector<uint8_t> base, size_t item, const ViewCase& v, const uint8_t* pattern,
                               const uint8_t* values = nullptr) {
  const int64_t n = shape_numel(v.shape);
  std::vector<int64_t> idx(v.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = v.offset;
    for (size_t d = 0; d < v.shape.size(); ++d) off += idx[d] * v.strides[d];
    std::memcpy(&base[static_cast<size_t>(off) * item], values ? values + k * item : pattern, item);
    for (int d = static_cast<int>(v.shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < v.shape[d]) break;
      idx[d] = 0;
    }
  }
  return base;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(g());
  return b;
}

class FullChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = sim_check_level();
    set_sim_check_level(SimCheckLevel::kFull);
  }
  void TearDown() override { set_sim_check_level(saved_); }
  SimCheckLevel saved_ = SimCheckLevel::kBasic;
};

}  // namespace

TEST_F(FullChecks, FillIntoStridedViewsEveryItemsize) {
  struct D {
    DType dtype;
    std::vector<uint8_t> pattern;
  };
  const D dtypes[] = {{DType::kUInt8, {0xab}},
                      {DType::kFloat16, {0x00, 0x3c}},            // 1.0
                      {DType::kFloat32, {0x00, 0x00, 0x20, 0xc0}},  // -2.5
                      {DType::kFloat64, {0, 0, 0, 0, 0, 0, 0xf8, 0x3f}},  // 1.5
                      {DType::kComplex128, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0}}};  // 1 - 2j
  const double values[][2] = {{171, 0}, {1.0, 0}, {-2.5, 0}, {1.5, 0}, {1.0, -2.0}};
  for (size_t i = 0; i < std::size(dtypes); ++i) {
    const size_t item = itemsize(dtypes[i].dtype);
    for (const ViewCase& v : kViews) {
      auto base = random_bytes(static_cast<size_t>(v.base_elems) * item, 11);
      Tensor b = upload(base, {v.base_elems}, dtypes[i].dtype);
      Tensor view = b.view(v.shape, v.strides, v.offset * static_cast<int64_t>(item));
      ops::fill_into(view, values[i][0], npurt_test::stream0(), values[i][1]);
      EXPECT_EQ(download<uint8_t>(b), reference(base, item, v, dtypes[i].pattern.data()))
          << v.name << " " << dtype_name(dtypes[i].dtype);
    }
  }
}

TEST_F(FullChecks, CopyIntoStridedViewsEveryUnit) {
  const DType dtypes[] = {DType::kUInt8, DType::kFloat16, DType::kInt32, DType::kFloat64, DType::kComplex128};
  for (DType dt : dtypes) {
    const size_t item = itemsize(dt);
    for (const ViewCase& v : kViews) {
      if (shape_numel(v.shape) > 100000 && item > 2) continue;  // the scattered case once per small unit is enough
      auto base = random_bytes(static_cast<size_t>(v.base_elems) * item, 11);
      const int64_t n = shape_numel(v.shape);
      auto src_bytes = random_bytes(static_cast<size_t>(n) * item, 12);
      Tensor b = upload(base, {v.base_elems}, dt);
      Tensor view = b.view(v.shape, v.strides, v.offset * static_cast<int64_t>(item));
      if (std::find(v.strides.begin(), v.strides.end(), 0) != v.strides.end()) {
        EXPECT_THROW(ops::copy_into(view, upload(src_bytes, v.shape, dt), npurt_test::stream0()), InvalidArgument)
            << v.name;  // a broadcast output writes one element twice
        continue;
      }
      ops::copy_into(view, upload(src_bytes, v.shape, dt), npurt_test::stream0());
      EXPECT_EQ(download<uint8_t>(b), reference(base, item, v, nullptr, src_bytes.data())) << v.name << " "
                                                                                             << dtype_name(dt);
    }
  }
}

TEST_F(FullChecks, CopyIntoFromBroadcastAndReversedSources) {
  // dst: rows 0, 2, 4 of a 6 x 8 float32 array, columns 7, 5, 3, 1; src: a broadcast row, then a reversed view.
  std::vector<float> host(48, -1.f);
  Tensor b = upload(host, {48}, DType::kFloat32);
  Tensor dst = b.view({3, 4}, {16, -2}, 7 * 4);
  Tensor row = upload(std::vector<float>{1, 2, 3, 4}, {4}, DType::kFloat32);
  ops::copy_into(dst, row.view({3, 4}, {0, 1}, 0), npurt_test::stream0());
  std::vector<float> want = host;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) want[static_cast<size_t>(r * 16 + 7 - 2 * c)] = static_cast<float>(c + 1);
  EXPECT_EQ(download<float>(b), want);
  Tensor src = upload(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {12}, DType::kFloat32);
  ops::copy_into(dst, src.view({3, 4}, {-4, -1}, 11 * 4), npurt_test::stream0());  // src[::-1, ::-1] of a 3 x 4
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) want[static_cast<size_t>(r * 16 + 7 - 2 * c)] = static_cast<float>(11 - (r * 4 + c));
  EXPECT_EQ(download<float>(b), want);
}

TEST_F(FullChecks, FillIntoContiguousViewIsThePlainFill) {
  Tensor b = upload(std::vector<int32_t>(20, 1), {20}, DType::kInt32);
  ops::fill_into(b.view({4, 3}, {3, 1}, 8), -7, npurt_test::stream0());
  std::vector<int32_t> want(20, 1);
  for (int i = 2; i < 14; ++i) want[i] = -7;
  EXPECT_EQ(download<int32_t>(b), want);
}

TEST(FillStrides, BadStridesAreInvalidArguments) {
  Tensor b = upload(std::vector<float>(10, 0.f), {10}, DType::kFloat32);
  auto fill = [&](Dims shape, Dims strides, const Tensor& out) {
    ops::call("fill", {}, {{"shape", AttrValue(shape)}, {"strides", AttrValue(strides)}}, npurt_test::stream0(), {out});
  };
  try {
    fill({3, 2}, {2}, b);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.ops.fill: argument 'strides': has 1 entries for a shape of 2 dims"),
              std::string::npos) << e.what();
  }
  try {
    fill({3, 3}, {2, 1}, b.view({7}, {1}, 0));
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("elements of the view overlap"), std::string::npos) << e.what();
  }
  EXPECT_THROW(fill({3}, {2}, b), InvalidArgument);  // the window of 3 elements at stride 2 is 5 long
  fill({3}, {-2}, b.view({5}, {1}, 4));               // usable after the errors
  EXPECT_EQ(download<float>(b), (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(CopyOutStrides, BadOutStridesAreInvalidArguments) {
  Tensor b = upload(std::vector<float>(10, 0.f), {10}, DType::kFloat32);
  Tensor x = upload(std::vector<float>(6, 1.f), {3, 2}, DType::kFloat32);
  auto copy = [&](Dims out_strides, const Tensor& out) {
    ops::call("copy", {x}, {{"out_strides", AttrValue(out_strides)}}, npurt_test::stream0(), {out});
  };
  try {
    copy({2}, b);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.ops.copy: argument 'out_strides': has 1 entries for x of 2 dims"),
              std::string::npos) << e.what();
  }
  try {
    copy({1, 1}, b.view({4}, {1}, 0));
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("elements of the output view overlap"), std::string::npos) << e.what();
  }
  copy({-3, 1}, b.view({8}, {1}, 4));  // rows at window offsets 6, 3, 0 (elements 1.. of b)
  EXPECT_EQ(download<float>(b), (std::vector<float>{0, 1, 1, 0, 1, 1, 0, 1, 1, 0}));
}
