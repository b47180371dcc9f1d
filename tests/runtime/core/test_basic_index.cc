// npurt::basic_index (npurt/basic_index.h): numpy's basic indexing as a view.
// Expected shapes, strides and offsets are numpy's (x[key] on a C-order array);
// slices are checked against Python's slice.indices arithmetic written out.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "npurt/basic_index.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};
using I = IndexItem;

int64_t elem_offset(const Tensor& t) { return t.byte_offset() / static_cast<int64_t>(t.itemsize()); }

std::string error_of(const Tensor& x, std::initializer_list<IndexItem> key) {
  try {
    basic_index(x, key, "where");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kInvalidArgument);
    return e.what();
  }
  return "no error";
}

TEST(BasicIndex, IntegersSlicesNewAxisEllipsis) {
  Tensor x = Tensor::empty({2, 3, 4}, DType::kFloat32, kDev);  // strides 12, 4, 1
  Tensor a = basic_index(x, {I::integer(1), I::slice(0, 2)});  // x[1, 0:2]
  EXPECT_EQ(a.shape(), (Dims{2, 4}));
  EXPECT_EQ(a.strides(), (Dims{4, 1}));
  EXPECT_EQ(elem_offset(a), 12);
  EXPECT_EQ(a.storage(), x.storage());
  Tensor b = basic_index(x, {I::ellipsis(), I::slice(false, 0, false, 0, -2)});  // x[..., ::-2]
  EXPECT_EQ(b.shape(), (Dims{2, 3, 2}));
  EXPECT_EQ(b.strides(), (Dims{12, 4, -2}));
  EXPECT_EQ(elem_offset(b), 3);
  Tensor c = basic_index(x, {I::newaxis(), I::integer(-1), I::ellipsis(), I::integer(-2), I::boolean(true)});
  EXPECT_EQ(c.shape(), (Dims{1, 3, 1}));  // x[None, -1, ..., -2, True]
  EXPECT_EQ(c.strides(), (Dims{0, 4, 0}));
  EXPECT_EQ(elem_offset(c), 12 + 2);
  Tensor d = basic_index(x, {});  // x[()] is x
  EXPECT_EQ(d.shape(), x.shape());
  EXPECT_EQ(d.strides(), x.strides());
  Tensor s = basic_index(basic_index(x, {I::integer(0), I::integer(2)}), {I::integer(3)});  // 0-d
  EXPECT_EQ(s.ndim(), 0u);
  EXPECT_EQ(elem_offset(s), 11);
}

TEST(BasicIndex, SlicesFollowPythonIndices) {
  Tensor x = Tensor::empty({10}, DType::kInt16, kDev);
  struct Case {
    IndexItem key;
    int64_t len, first, stride;
  };
  const int64_t big = std::numeric_limits<int64_t>::max();
  const Case cases[] = {
      {I::slice(2, 8, 3), 2, 2, 3},         {I::slice(8, 2, -3), 2, 8, -3},
      {I::slice(-3, 100), 3, 7, 1},         {I::slice(-100, 3), 3, 0, 1},
      {I::slice(100, -100, -1), 10, 9, -1}, {I::slice(5, 5), 0, 0, 1},
      {I::slice(false, 0, false, 0, -4), 3, 9, -4}, {I::slice(3, 2), 0, 0, 1},
      {I::slice(-big, big, big), 1, 0, big},  // strides 1 * big: no overflow
      {I::slice(false, 0, true, -11, -1), 10, 9, -1},
  };
  for (const Case& c : cases) {
    Tensor v = basic_index(x, &c.key, 1);
    EXPECT_EQ(v.shape(), (Dims{c.len})) << c.key.start << ":" << c.key.stop << ":" << c.key.step;
    EXPECT_EQ(v.strides(), (Dims{c.stride}));
    EXPECT_EQ(elem_offset(v), c.first);
  }
}

TEST(BasicIndex, EmptyViewsKeepTheBaseOffset) {
  Tensor x = Tensor::empty({4, 5}, DType::kFloat64, kDev);
  Tensor row = basic_index(x, {I::integer(3)});
  Tensor e = basic_index(row, {I::slice(4, 1)});
  EXPECT_EQ(e.shape(), (Dims{0}));
  EXPECT_EQ(elem_offset(e), 15);
  Tensor f = basic_index(x, {I::boolean(false), I::integer(2)});
  EXPECT_EQ(f.shape(), (Dims{0, 5}));
  EXPECT_EQ(elem_offset(f), 0);
}

TEST(BasicIndex, ErrorsUseNumpysWording) {
  Tensor x = Tensor::empty({4, 3}, DType::kFloat32, kDev);
  EXPECT_EQ(error_of(x, {I::integer(4)}), "where: argument 'key': index 4 is out of bounds for axis 0 with size 4");
  EXPECT_EQ(error_of(x, {I::all(), I::integer(-4)}),
            "where: argument 'key': index -4 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(error_of(x, {I::integer(0), I::integer(0), I::all()}),
            "where: argument 'key': too many indices for array: array is 2-dimensional, but 3 were indexed");
  EXPECT_EQ(error_of(x, {I::ellipsis(), I::newaxis(), I::ellipsis()}),
            "where: argument 'key': an index can only have a single ellipsis ('...')");
  EXPECT_EQ(error_of(x, {I::slice(0, 1, 0)}), "where: argument 'key': slice step cannot be zero");
  EXPECT_EQ(error_of(Tensor(), {}), "where: argument 'x': undefined tensor");
  Tensor wide = basic_index(Tensor::empty({3}, DType::kInt8, kDev), {I::newaxis()});
  EXPECT_NO_THROW(basic_index(wide, {I::slice(0, 1, std::numeric_limits<int64_t>::min())}));  // stride 0 * step
}

}  // namespace
}  // namespace npurt
