// runtime/core/basic_index.cc: npurt::basic_index (npurt/basic_index.h), numpy's
// basic indexing as a view: only shape, strides and the byte offset change.
//
// The slice arithmetic is CPython's PySlice_AdjustIndices (Objects/sliceobject.c),
// so x[a:b:c] has exactly the length and first element of Python's
// range(*slice(a, b, c).indices(n)); the wording of the errors is numpy's and
// matches the Python layer's (sdk_python/npurt/array_api/indexing.py).
#include "npurt/basic_index.h"

#include <cstdint>
#include <limits>
#include <string>

#include "npurt/status.h"

namespace npurt {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// (first, count) of the slice on a dimension of `length` elements (step != 0).
void adjust_slice(const IndexItem& s, int64_t length, int64_t* first, int64_t* count) {
  const int64_t step = s.step < -kMax ? -kMax : s.step;  // as PySlice_Unpack: -step must not overflow
  int64_t start = s.has_start ? s.start : (step < 0 ? kMax : 0);
  int64_t stop = s.has_stop ? s.stop : (step < 0 ? kMin : kMax);
  auto clamp = [&](int64_t& v) {
    if (v < 0) {
      v += length;  // no overflow: length >= 0
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
  };
  clamp(start);
  clamp(stop);
  *first = start;
  if (step < 0)
    *count = stop < start ? (start - stop - 1) / -step + 1 : 0;
  else
    *count = start < stop ? (stop - start - 1) / step + 1 : 0;
}

// Dimensions the key consumes (integers and slices); checks the ellipsis count.
size_t consumed_dims(const IndexItem* key, size_t n, size_t ndim, const char* where, bool* has_ellipsis) {
  size_t consumed = 0, ellipses = 0;
  for (size_t i = 0; i < n; ++i) {
    if (key[i].kind == IndexItem::Kind::kEllipsis) ++ellipses;
    else if (key[i].kind == IndexItem::Kind::kInteger || key[i].kind == IndexItem::Kind::kSlice) ++consumed;
  }
  if (ellipses > 1) throw_invalid_argument(where, "key", "an index can only have a single ellipsis ('...')");
  if (consumed > ndim)
    throw_invalid_argument(where, "key", "too many indices for array: array is " + std::to_string(ndim) +
                                             "-dimensional, but " + std::to_string(consumed) + " were indexed");
  *has_ellipsis = ellipses == 1;
  return consumed;
}

}  // namespace

Tensor basic_index(const Tensor& x, const IndexItem* key, size_t n, const char* where) {
  if (!x.defined()) throw_invalid_argument(where, "x", "undefined tensor");
  const Dims& shape = x.shape();
  const Dims& strides = x.strides();
  bool has_ellipsis = false;
  const size_t consumed = consumed_dims(key, n, shape.size(), where, &has_ellipsis);
  Dims out_shape, out_strides;
  int64_t offset = 0;  // elements from x's first element
  size_t dim = 0;
  auto take_whole = [&](size_t count) {
    for (size_t k = 0; k < count; ++k, ++dim) {
      out_shape.push_back(shape[dim]);
      out_strides.push_back(strides[dim]);
    }
  };
  for (size_t i = 0; i < n; ++i) {
    const IndexItem& k = key[i];
    switch (k.kind) {
      case IndexItem::Kind::kEllipsis: take_whole(shape.size() - consumed); break;
      case IndexItem::Kind::kNewAxis:
      case IndexItem::Kind::kBoolean:
        out_shape.push_back(k.kind == IndexItem::Kind::kNewAxis || k.start ? 1 : 0);
        out_strides.push_back(0);
        break;
      case IndexItem::Kind::kSlice: {
        if (k.step == 0) throw_invalid_argument(where, "key", "slice step cannot be zero");
        int64_t first = 0, count = 0;
        adjust_slice(k, shape[dim], &first, &count);
        int64_t stride = 0;
        if (__builtin_mul_overflow(strides[dim], k.step < -kMax ? -kMax : k.step, &stride))
          throw_invalid_argument(where, "key", "slice step " + std::to_string(k.step) + " overflows the strides");
        out_shape.push_back(count);
        out_strides.push_back(stride);
        if (count > 0) offset += first * strides[dim];
        ++dim;
        break;
      }
      case IndexItem::Kind::kInteger: {
        const int64_t size = shape[dim];
        if (k.start < -size || k.start >= size)
          throw_invalid_argument(where, "key", "index " + std::to_string(k.start) + " is out of bounds for axis " +
                                                   std::to_string(dim) + " with size " + std::to_string(size));
        offset += (k.start < 0 ? k.start + size : k.start) * strides[dim];
        ++dim;
        break;
      }
    }
  }
  if (!has_ellipsis) take_whole(shape.size() - dim);
  if (shape_numel(out_shape) == 0) offset = 0;  // an empty view addresses nothing; keep it inside the storage
  return x.view(out_shape, out_strides, x.byte_offset() + offset * static_cast<int64_t>(x.itemsize()));
}

}  // namespace npurt
