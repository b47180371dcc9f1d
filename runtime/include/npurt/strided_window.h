// npurt/strided_window.h: the storage window of a strided view, i.e. the span
// from the lowest to the highest element a (shape, strides) view reaches.
//
// ops::fill_into / ops::copy_into (runtime/ops/ops_api.cc) hand a kernel that
// window as a 1-D contiguous tensor plus the view's strides, and the fill and
// copy kernels (kernels/fill/fill_op.cc, kernels/copy/copy_op.cc) size their
// output to the same extent: both sides compute it here, header-only (kernels
// cannot include runtime internals).
// Invariants: strides are in elements, any sign; a stride 0 (a broadcast axis)
// adds nothing; a view with a zero-size axis reaches no element (extent 0,
// low 0); otherwise extent = 1 + sum_d (n_d - 1) |s_d| and the lowest element
// sits `low` = sum over negative strides of (n_d - 1) s_d (<= 0) elements from
// the view's first element (its element at index 0...0).
#pragma once

#include <cstdint>

#include "npurt/small_vector.h"

namespace npurt {

struct StridedWindow {
  int64_t low = 0;     // elements from the view's first element to the window's start (<= 0)
  int64_t extent = 0;  // elements in the window; 0: the view is empty
};

// shape and strides have the same length (callers check).
inline StridedWindow strided_window(const Dims& shape, const Dims& strides) {
  StridedWindow w{0, 1};
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t n = shape[d], s = strides[d];
    if (n == 0) return StridedWindow{};
    if (s < 0) w.low += s * (n - 1);
    w.extent += (n - 1) * (s < 0 ? -s : s);
  }
  return w;
}

}  // namespace npurt
