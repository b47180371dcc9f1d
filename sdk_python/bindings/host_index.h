// sdk_python/bindings/host_index.h: integer index arrays given on the host
// (lists, numpy arrays) checked and normalized on the host (host_index.cpp).
#pragma once

#include "bindings.h"
#include "npurt/tensor.h"

namespace npurt::python {

// The integer indices `key` (a list or a numpy array; converted by
// numpy.asarray) for an axis of length `size`, as an int64 tensor with `size`
// added to the negative ones, uploaded on like's stream (no kernel, no read).
// Undefined when key is not an integer array (numpy.asarray gives another
// kind, or raises: the error is cleared) or holds an index outside
// [-size, size); then *bad (when given) is that first bad index, else None.
Tensor host_index_tensor(nb::handle key, int64_t size, const Tensor& like, nb::object* bad = nullptr);

// The indices of key for axis 0 of x (a C++ fast path's), normalized (int64 in
// [0, size)), or undefined (not an integer-array key, an index out of range:
// the Python path raises in its words). Lists and numpy arrays go through
// host_index_tensor; an integer nr.ndarray (not 0-d, not empty) through
// index_check and one blocking read of its 64-slot status on x's stream (a
// synchronization: numpy raises at the assignment).
Tensor checked_index(const Tensor& x, nb::handle key);

}  // namespace npurt::python
