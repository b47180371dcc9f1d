// npurt/basic_index.h: numpy's basic indexing of a Tensor (x[1:3, ..., None, -1]) as a view.
//
// A key is a sequence of IndexItems, read as numpy reads a tuple key:
//   - integer i (negative counts from the end) drops its dimension;
//   - slice start:stop:step (absent bounds are the ends, any non-zero step,
//     negative too) keeps it with len(range(start, stop, step)) elements,
//     bounds clamped like Python's slice.indices;
//   - newaxis (None) and a boolean (True / False) insert a dimension of size
//     1 / 0 with stride 0;
//   - one ellipsis stands for as many full slices as the other entries leave
//     dimensions; without one, trailing dimensions are taken whole.
// Invariants: the result shares x's storage (nothing runs on the device, no
// stream is touched); an empty result keeps x's byte offset (it addresses
// nothing); errors throw InvalidArgument "<where>: argument 'key': ..." with
// numpy's wording (too many indices, a second ellipsis, an out-of-range
// integer, a zero step). Advanced indexing (integer arrays, boolean masks)
// makes copies and is not here (the Python layer's gather/scatter).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "npurt/export.h"
#include "npurt/tensor.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct IndexItem {
  enum class Kind : uint8_t { kInteger, kSlice, kNewAxis, kEllipsis, kBoolean };
  Kind kind = Kind::kSlice;
  int64_t start = 0;  // kInteger: the index; kBoolean: 0 or 1; kSlice: first bound when has_start
  int64_t stop = 0;   // kSlice: end bound when has_stop
  int64_t step = 1;   // kSlice: non-zero
  bool has_start = false, has_stop = false;

  static IndexItem integer(int64_t i) { return {Kind::kInteger, i, 0, 1, false, false}; }
  static IndexItem all() { return {}; }  // ':'
  static IndexItem slice(int64_t start, int64_t stop, int64_t step = 1) {
    return {Kind::kSlice, start, stop, step, true, true};
  }
  // A slice with bounds given only where has_* is set (Python's None elsewhere).
  static IndexItem slice(bool has_start, int64_t start, bool has_stop, int64_t stop, int64_t step) {
    return {Kind::kSlice, start, stop, step, has_start, has_stop};
  }
  static IndexItem newaxis() { return {Kind::kNewAxis, 0, 0, 1, false, false}; }
  static IndexItem ellipsis() { return {Kind::kEllipsis, 0, 0, 1, false, false}; }
  static IndexItem boolean(bool b) { return {Kind::kBoolean, b ? 1 : 0, 0, 1, false, false}; }
};

// The view x[key] (see the file comment); `where` names the caller in errors.
Tensor basic_index(const Tensor& x, const IndexItem* key, size_t n, const char* where = "npurt::basic_index");
inline Tensor basic_index(const Tensor& x, std::initializer_list<IndexItem> key,
                          const char* where = "npurt::basic_index") {
  return basic_index(x, key.begin(), key.size(), where);
}

}  // namespace npurt
NPURT_PUBLIC_END
