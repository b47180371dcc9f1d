// npurt::AdvancedIndex / index_put / index_take (npurt/advanced_index.h):
// x[key] = values and x[key] for keys holding integer index arrays, against a host reference written the way
// numpy does it: two host arrays broadcast together, a slice next to an array
// (index dims in place), arrays apart (index dims first), device index arrays
// mixed with host ones, a strided target, one-element and broadcast values,
// duplicates (last write wins), empty keys, boolean masks (device and host),
// and the errors (numpy's wording)
// thrown before anything is written.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "npurt/advanced_index.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

std::vector<float> iota(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return v;
}

IndexEntry host(Dims shape, std::vector<int64_t> v) { return IndexEntry::host_array(shape, std::move(v)); }
IndexEntry all() { return IndexEntry::basic(IndexItem::all()); }

TEST(AdvancedIndex, TwoHostArraysBroadcastTogether) {
  Tensor x = upload(iota(12), {3, 4}, DType::kFloat32);
  // x[[[0], [2]], [1, -1]] = [10, 20]: positions (0,1) (0,3) (2,1) (2,3), values broadcast over rows
  AdvancedIndex plan(x, {host({2, 1}, {0, 2}), host({2}, {1, -1})});
  EXPECT_EQ(plan.value_shape(), (Dims{2, 2}));
  plan.put(upload(std::vector<float>{10, 20}, {2}, DType::kFloat32));
  std::vector<float> ref = iota(12);
  ref[1] = ref[9] = 10;
  ref[3] = ref[11] = 20;
  EXPECT_EQ(download<float>(x), ref);
}

TEST(AdvancedIndex, SliceBeforeArrayKeepsTheIndexDimsInPlace) {
  Tensor x = upload(iota(24), {2, 3, 4}, DType::kFloat32);
  AdvancedIndex plan(x, {all(), IndexEntry::basic(IndexItem::slice(1, 3)), host({2}, {3, 0})});
  EXPECT_EQ(plan.value_shape(), (Dims{2, 2, 2}));
  plan.put(upload(std::vector<float>{-1}, {1}, DType::kFloat32));  // one element: repeated by scatter
  std::vector<float> ref = iota(24);
  for (int a = 0; a < 2; ++a)
    for (int b = 1; b < 3; ++b) ref[a * 12 + b * 4 + 3] = ref[a * 12 + b * 4 + 0] = -1;
  EXPECT_EQ(download<float>(x), ref);
}

TEST(AdvancedIndex, ArraysApartPutTheIndexDimsFirstAndDeviceArraysMix) {
  Tensor x = upload(iota(24), {2, 3, 4}, DType::kFloat32);
  Tensor dev = upload(std::vector<int32_t>{-1, 0}, {2}, DType::kInt32);
  AdvancedIndex plan(x, {IndexEntry::device_array(dev), all(), host({2}, {2, 1})});
  EXPECT_EQ(plan.value_shape(), (Dims{2, 3}));
  std::vector<float> v{100, 101, 102, 103, 104, 105};
  plan.put(upload(v, {2, 3}, DType::kFloat32));
  std::vector<float> ref = iota(24);
  for (int j = 0; j < 3; ++j) {
    ref[1 * 12 + j * 4 + 2] = v[static_cast<size_t>(j)];
    ref[0 * 12 + j * 4 + 1] = v[static_cast<size_t>(3 + j)];
  }
  EXPECT_EQ(download<float>(x), ref);
}

TEST(AdvancedIndex, StridedTargetDuplicatesAndEmptyKeys) {
  Tensor base = upload(iota(16), {4, 4}, DType::kFloat32);
  const Tensor x = base.view({2, 4}, {8, 1}, 0);  // base[::2]
  index_put(x, std::vector<IndexEntry>{host({3}, {1, 1, 1}), host({3}, {0, 0, 0})}.data(), 2,
            upload(std::vector<float>{7, 8, 9}, {3}, DType::kFloat32));
  std::vector<float> ref = iota(16);
  ref[8] = 9;  // the last of the repeated position's values, as numpy
  EXPECT_EQ(download<float>(base), ref);
  AdvancedIndex empty(base, {host({0}, {})});
  EXPECT_EQ(empty.value_shape(), (Dims{0, 4}));
  empty.put(upload(std::vector<float>{1, 2, 3, 4}, {4}, DType::kFloat32));
  EXPECT_EQ(download<float>(base), ref);
}

TEST(AdvancedIndex, TakeGathersThePutPositions) {
  Tensor base = upload(iota(24), {2, 3, 4}, DType::kFloat32);
  const Tensor x = base.view({2, 3, 2}, {12, 4, 2}, 0);  // base[..., ::2]: a strided source
  Tensor dev = upload(std::vector<int64_t>{-1, 0}, {2}, DType::kInt64);
  // x[[-1, 0], :, [1, 0]]: arrays apart, the index dims first: shape (2, 3)
  std::vector<IndexEntry> key{IndexEntry::device_array(dev), all(), host({2}, {1, 0})};
  const Tensor y = index_take(x, key.data(), key.size());
  EXPECT_EQ(y.shape(), (Dims{2, 3}));
  const std::vector<float> b = iota(24);
  std::vector<float> ref;
  for (int j = 0; j < 3; ++j) ref.push_back(b[static_cast<size_t>(12 + j * 4 + 2)]);
  for (int j = 0; j < 3; ++j) ref.push_back(b[static_cast<size_t>(0 + j * 4 + 0)]);
  EXPECT_EQ(download<float>(y), ref);
  EXPECT_EQ(AdvancedIndex(x, {host({0}, {})}).take().shape(), (Dims{0, 3, 2}));
}

void expect_error(const std::function<void()>& f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no error; wanted " << text;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(AdvancedIndex, ErrorsNameTheIndexAxisAndShapesBeforeAnyWrite) {
  Tensor x = upload(iota(12), {3, 4}, DType::kFloat32);
  expect_error([&] { AdvancedIndex(x, {all(), host({2}, {0, 4})}, "f"); },
               "f: index 4 is out of bounds for axis 1 with size 4");
  expect_error([&] { AdvancedIndex(x, {IndexEntry::device_array(upload(std::vector<int64_t>{-4}, {1}, DType::kInt64))}); },
               "npurt::index_put: index -4 is out of bounds for axis 0 with size 3");
  expect_error([&] { AdvancedIndex(x, {host({2}, {0, 1}), host({3}, {0, 1, 2})}); },
               "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
  expect_error([&] { AdvancedIndex(x, {host({1}, {0}), all(), all()}); }, "too many indices for array");
  expect_error([&] { AdvancedIndex(x, {all(), all()}); }, "holds no index array");
  expect_error([&] { AdvancedIndex(x, {host({2}, {0, 1})}).put(upload(iota(3), {3}, DType::kFloat32)); },
               "could not broadcast input array from shape (3,) into shape (2, 4)");
  EXPECT_EQ(download<float>(x), iota(12));
}

TEST(AdvancedIndex, MasksAreTheirNonzeroArraysOnTheDeviceAndOnTheHost) {
  Tensor x = upload(iota(12), {3, 4}, DType::kFloat32);
  const std::vector<uint8_t> m{1, 0, 1, 1};  // x[:, m] -> columns 0, 2, 3
  const Tensor dm = upload(m, {4}, DType::kBool);
  for (const IndexEntry& mask : {IndexEntry::device_mask(dm), IndexEntry::host_mask({4}, {1, 0, 1, 1})}) {
    const Tensor y = AdvancedIndex(x, {all(), mask}).take();
    EXPECT_EQ(y.shape(), (Dims{3, 3}));
    EXPECT_EQ(download<float>(y), (std::vector<float>{0, 2, 3, 4, 6, 7, 8, 10, 11}));
  }
  // x[m2] = -1 for a 2-d device mask (the whole key: the flat positions, no fold); [1, 2] next to a 1-d mask.
  const Tensor m2 = upload(std::vector<uint8_t>{0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, {3, 4}, DType::kBool);
  AdvancedIndex(x, {IndexEntry::device_mask(m2)}).put(upload(std::vector<float>{-1}, {1}, DType::kFloat32));
  std::vector<float> ref = iota(12);
  ref[1] = ref[8] = ref[11] = -1;
  EXPECT_EQ(download<float>(x), ref);
  const Tensor two = AdvancedIndex(x, {IndexEntry::host_mask({3}, {0, 1, 1}), host({2}, {3, 0})}).take();
  EXPECT_EQ(download<float>(two), (std::vector<float>{7, -1}));  // (1, 3), (2, 0)
  const Tensor none = upload(std::vector<uint8_t>{0, 0, 0}, {3}, DType::kBool);
  EXPECT_EQ(AdvancedIndex(x, {IndexEntry::device_mask(none), all()}).take().shape(), (Dims{0, 4}));
  expect_error([&] { AdvancedIndex(x, {IndexEntry::device_mask(dm)}); },
               "boolean index did not match indexed array along axis 0; size of axis is 3 but size of "
               "corresponding boolean axis is 4");
}

}  // namespace
