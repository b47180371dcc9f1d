// npurt/advanced_index.h: numpy's advanced indexing by keys holding integer
// index arrays, x[key] = values (one `scatter`) and x[key] (one `gather`),
// from one plan.
//
//   npurt::AdvancedIndex plan(x, {IndexEntry::host_array({2}, {0, -1}), IndexEntry::basic(IndexItem::slice(1, 3))});
//   plan.put(values);   // values broadcast to plan.value_shape() (here (2, 2)), x's dtype
//   Tensor y = plan.take();  // a new tensor of plan.value_shape(): x[key]
//
// A key is a sequence of IndexEntry: the basic entries of npurt/basic_index.h
// (integers, slices, newaxis, one ellipsis, booleans) and integer index arrays,
// given on the host (a shape and int64 values, any sign) or on the device (an
// integer Tensor on x's device). As numpy:
//   - the index arrays broadcast together (shape B); an index i addresses
//     element i of its axis, a negative one counts from the end;
//   - the basic entries make the view basic_index(x, key with every array
//     replaced by ':'); B replaces the indexed axes in place when the array
//     and integer entries are adjacent in the key, else B goes first;
//   - x[key] has that shape (value_shape()), values broadcast to it; a repeated position
//     keeps the last value in C order (scatter with unique=false: one core, in
//     order), as numpy's assignment does.
// A boolean mask entry (device_mask, host_mask) stands for its nonzero() arrays (numpy's
// rule): mask_count, a cumsum of the 64 block counts and one blocking read of
// the total (the host must know the result's size: the one synchronization of
// a device mask key), then mask_positions (a host mask: found on the host); a mask that is the key's only array
// entry gives the flat index directly (no fold), the positions are in range by
// construction (no index_check). A mask whose shape does not match the axes it
// covers throws numpy's "boolean index did not match indexed array along axis
// 0; size of axis is 3 but size of corresponding boolean axis is 4".
// Launches: host indices are checked and normalized on the host and uploaded
// once, folded into one flat index over the indexed axes (C order) when there
// are several arrays; device arrays take `index_check` and one blocking read
// of its 64-slot status each (numpy raises at the call), several of them are
// folded by `multiply` / `add_broadcast` on the device. One-element values are passed to
// scatter as they are (the kernel repeats them); other values are made
// contiguous in the broadcast shape by one `copy` when they are not already (or
// when they share x's storage). A non-contiguous target (a permuted or
// strided view) is scattered through a contiguous `copy` of it, copied back by
// `copy_into`.
// Invariants: every error throws InvalidArgument before anything is written
// ("<where>: index 5 is out of bounds for axis 0 with size 3", "<where>:
// argument 'key': shape mismatch: indexing arrays could not be broadcast
// together with shapes (2,) (3,)", basic_index's key errors, "<where>:
// argument 'values': could not broadcast input array from shape (3,) into
// shape (2,)"); x must be writable (not read_only()), on the values' device,
// of the values' dtype; an empty selection writes nothing (values must still
// broadcast).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "npurt/basic_index.h"
#include "npurt/export.h"
#include "npurt/tensor.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct IndexEntry {
  IndexItem item;             // the entry when !is_array
  bool is_array = false;
  Dims shape;                 // host array: its shape
  std::vector<int64_t> host;  // host array: its indices in C order (when !device.defined())
  Tensor device;              // device array: an integer tensor on x's device; a mask: a bool tensor
  bool is_mask = false;       // a boolean mask (device), standing for its nonzero() arrays
  int64_t mask_size = -1;     // (set by the plan) one nonzero() row: the mask's size along its axis

  // A bool tensor on x's device of rank >= 1 whose shape matches the axes of x it
  // covers: numpy's x[..., mask, ...], the mask read as its nonzero() arrays.
  static IndexEntry device_mask(const Tensor& mask) {
    IndexEntry e = device_array(mask);
    e.is_mask = true;
    return e;
  }
  // The same mask given on the host: its shape and values (0 / nonzero) in C order; its
  // nonzero() arrays are found on the host (no device read).
  static IndexEntry host_mask(Dims shape, std::vector<int64_t> values) {
    IndexEntry e = host_array(std::move(shape), std::move(values));
    e.is_mask = true;
    return e;
  }

  static IndexEntry basic(const IndexItem& i) {
    IndexEntry e;
    e.item = i;
    return e;
  }
  static IndexEntry host_array(Dims shape, std::vector<int64_t> indices) {
    IndexEntry e;
    e.is_array = true;
    e.shape = std::move(shape);
    e.host = std::move(indices);
    return e;
  }
  static IndexEntry device_array(const Tensor& indices) {
    IndexEntry e;
    e.is_array = true;
    e.shape = indices.shape();
    e.device = indices;
    return e;
  }
};

class AdvancedIndex {
 public:
  // Checks the key against x (a key without index arrays is refused: use
  // basic_index) and prepares the flat index (host arrays
  // uploaded on x's stream, device arrays checked); throws InvalidArgument.
  // `where` (named in errors) is kept, not copied: a string literal.
  AdvancedIndex(const Tensor& x, const IndexEntry* key, size_t n, const char* where = "npurt::index_put");
  AdvancedIndex(const Tensor& x, std::initializer_list<IndexEntry> key, const char* where = "npurt::index_put")
      : AdvancedIndex(x, key.begin(), key.size(), where) {}

  // The shape x[key] has (pre + B + post): values broadcast to it.
  const Dims& value_shape() const { return value_shape_; }
  // Whether values of `shape` broadcast to value_shape() (numpy's rule).
  bool accepts(const Dims& shape) const;
  // Writes values (x's dtype and device) at the key's positions; throws
  // InvalidArgument when they do not broadcast or x is read-only.
  void put(const Tensor& values) const;
  // x[key]: a new contiguous tensor of value_shape() on x's stream, gathered
  // by one `gather` (a non-contiguous view is copied contiguous first).
  Tensor take() const;

 private:
  Tensor x_;           // the indexed tensor
  Tensor view_;        // the basic view, its axes permuted: the index axes at first_ .. first_ + count_ - 1
  Tensor flat_;        // int64 flat indices over the index axes, 1-d (undefined when empty)
  int64_t first_ = 0;  // where the index axes are in view_ (and B in value_shape_)
  size_t count_ = 0;   // how many index axes
  Dims index_shape_;   // B: the index arrays' broadcast shape
  Dims value_shape_;
  const char* where_;
};

// AdvancedIndex(x, key, n, where).put(values).
void index_put(const Tensor& x, const IndexEntry* key, size_t n, const Tensor& values,
               const char* where = "npurt::index_put");
// AdvancedIndex(x, key, n, where).take().
Tensor index_take(const Tensor& x, const IndexEntry* key, size_t n, const char* where = "npurt::index_take");

}  // namespace npurt
NPURT_PUBLIC_END
