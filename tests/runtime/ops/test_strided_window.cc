// npurt::strided_window (npurt/strided_window.h), the extent rule that
// ops::fill_into / ops::copy_into and the fill and copy kernels share: the
// window runs from the lowest to the highest element the view reaches,
// checked against enumerating every element (negative strides, stride 0
// broadcast axes, size-1 and zero-size axes, random views).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "npurt/strided_window.h"

using npurt::Dims;
using npurt::strided_window;

namespace {

// Lowest and highest element offset of the view by enumeration; false when empty.
bool enumerate(const Dims& shape, const Dims& strides, int64_t* lo, int64_t* hi) {
  for (int64_t n : shape)
    if (n == 0) return false;
  std::vector<int64_t> idx(shape.size(), 0);
  *lo = *hi = 0;
  for (;;) {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
    *lo = std::min(*lo, off);
    *hi = std::max(*hi, off);
    int d = static_cast<int>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return true;
  }
}

void expect_matches_enumeration(const Dims& shape, const Dims& strides) {
  const npurt::StridedWindow w = strided_window(shape, strides);
  int64_t lo = 0, hi = 0;
  if (!enumerate(shape, strides, &lo, &hi)) {
    EXPECT_EQ(w.extent, 0);
    EXPECT_EQ(w.low, 0);
    return;
  }
  EXPECT_EQ(w.low, lo);
  EXPECT_EQ(w.extent, hi - lo + 1);
}

TEST(StridedWindow, NamedCases) {
  struct Case {
    Dims shape, strides;
    int64_t low, extent;
  };
  const Case cases[] = {
      {{}, {}, 0, 1},                      // a 0-d view: its one element
      {{5}, {1}, 0, 5},                    // contiguous
      {{5}, {3}, 0, 13},                   // step 3
      {{5}, {-1}, -4, 5},                  // reversed: the window starts 4 before
      {{4, 10}, {0, 2}, 0, 19},            // broadcast axis adds nothing
      {{4, 10}, {0, -2}, -18, 19},         // broadcast and reversed
      {{3, 4}, {-8, 2}, -16, 23},          // reversed rows, stepped columns
      {{1, 1}, {-5, 7}, 0, 1},             // size-1 axes: any stride, one element
      {{0, 3}, {3, 1}, 0, 0},              // empty
      {{3, 0}, {-3, 1}, 0, 0},             // empty, even with a negative stride
      {{8, 6}, {1, 16}, 0, 88},            // transposed
  };
  for (const Case& c : cases) {
    const npurt::StridedWindow w = strided_window(c.shape, c.strides);
    EXPECT_EQ(w.low, c.low) << c.shape.size() << "-d case, extent " << c.extent;
    EXPECT_EQ(w.extent, c.extent) << c.shape.size() << "-d case, low " << c.low;
    expect_matches_enumeration(c.shape, c.strides);
  }
}

TEST(StridedWindow, RandomViewsMatchEnumeration) {
  std::mt19937 rng(12);
  for (int t = 0; t < 500; ++t) {
    const int nd = static_cast<int>(rng() % 5);
    Dims shape, strides;
    for (int d = 0; d < nd; ++d) {
      shape.push_back(static_cast<int64_t>(rng() % 5));           // 0..4 (0: empty)
      strides.push_back(static_cast<int64_t>(rng() % 13) - 6);    // -6..6 (0: broadcast)
    }
    SCOPED_TRACE(t);
    expect_matches_enumeration(shape, strides);
  }
}

}  // namespace
