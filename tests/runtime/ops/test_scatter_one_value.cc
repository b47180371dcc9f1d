// scatter with a one-element `values` (kernels/indexing: GatherTiling::bcast):
// the kernel repeats the value at every indexed position itself (x[idx] =
// scalar without a broadcast copy). Checked against a scalar reference for
// 1-, 2- and 8-byte units and a 16-byte dtype (two units per element), rows
// (inner > 1) and single elements, sizes that split over several cores,
// repeated indices, and the values-count error naming the op.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

// dst [rows, inner] of T filled with base; dst[idx[j], :] = value by scatter with one value.
template <class T>
void check_one_value(DType dt, int64_t rows, int64_t inner, const std::vector<int64_t>& idx, T base, T value) {
  std::vector<T> ref(static_cast<size_t>(rows * inner), base);
  Tensor dst = upload(ref, {rows, inner}, dt);
  Tensor it = upload(idx, {static_cast<int64_t>(idx.size())}, DType::kInt64);
  ops::call("scatter", {it, upload(std::vector<T>{value}, {1}, dt)}, {{"shape", Dims{rows, inner}}}, Stream(),
            {dst});
  for (int64_t j : idx)
    for (int64_t i = 0; i < inner; ++i) ref[static_cast<size_t>(j * inner + i)] = value;
  const std::vector<T> got = download<T>(dst);
  for (size_t k = 0; k < ref.size(); ++k)
    ASSERT_EQ(got[k], ref[k]) << "rows=" << rows << " inner=" << inner << " at " << k;
}

std::vector<int64_t> every(int64_t step, int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = n - 1; i >= 0; i -= step) v.push_back(i);  // descending: runs start unaligned
  v.push_back(0);                                             // a repeated index
  return v;
}

}  // namespace

TEST(ScatterOneValue, SingleElementsOverSeveralCores) {
  for (int64_t n : {int64_t{2}, int64_t{33}, int64_t{1023}, int64_t{100003}}) {
    check_one_value<float>(DType::kFloat32, n, 1, every(3, n), 1.5f, -7.25f);
    check_one_value<int8_t>(DType::kInt8, n, 1, every(2, n), int8_t{3}, int8_t{-9});
    check_one_value<int64_t>(DType::kInt64, n, 1, every(5, n), int64_t{1}, (int64_t{1} << 62) + 1);
  }
}

TEST(ScatterOneValue, RowsOfEveryUnit) {
  for (int64_t inner : {int64_t{1}, int64_t{3}, int64_t{32}, int64_t{1000}}) {
    check_one_value<uint16_t>(DType::kUInt16, 41, inner, every(4, 41), uint16_t{7}, uint16_t{65535});
    check_one_value<double>(DType::kFloat64, 41, inner, every(3, 41), 0.5, -2.0);
  }
}

TEST(ScatterOneValue, SixteenByteElementsKeepBothHalves) {
  // complex128 moves as two 8-byte units: the repeated value must keep (re, im) in order.
  for (int64_t inner : {int64_t{1}, int64_t{5}, int64_t{64}}) {
    const int64_t rows = 37;
    std::vector<double> ref(static_cast<size_t>(2 * rows * inner), 0.25);
    Tensor dst = upload(ref, {rows, inner}, DType::kComplex128);
    const std::vector<int64_t> idx = every(2, rows);
    Tensor it = upload(idx, {static_cast<int64_t>(idx.size())}, DType::kInt64);
    ops::call("scatter", {it, upload(std::vector<double>{3.0, -4.0}, {1}, DType::kComplex128)},
              {{"shape", Dims{rows, inner}}}, Stream(), {dst});
    for (int64_t j : idx)
      for (int64_t i = 0; i < inner; ++i) {
        ref[static_cast<size_t>(2 * (j * inner + i))] = 3.0;
        ref[static_cast<size_t>(2 * (j * inner + i) + 1)] = -4.0;
      }
    ASSERT_EQ(download<double>(dst), ref) << "inner=" << inner;
  }
}

TEST(ScatterOneValue, OtherValueCountsAreRefused) {
  Tensor dst = upload(std::vector<float>(6, 0.f), {6}, DType::kFloat32);
  Tensor it = upload(std::vector<int64_t>{0, 1, 2}, {3}, DType::kInt64);
  try {
    ops::call("scatter", {it, upload(std::vector<float>{1.f, 2.f}, {2}, DType::kFloat32)}, {{"shape", Dims{6}}},
              Stream(), {dst});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.ops.scatter: argument 'values': has 2 elements"), std::string::npos)
        << e.what();
  }
}
