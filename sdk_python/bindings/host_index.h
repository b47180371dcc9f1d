// sdk_python/bindings/host_index.h: integer index arrays given on the host
// (lists, numpy arrays) checked and normalized on the host (host_index.cpp).
#pragma once

#include <cstdint>
#include <vector>

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

// The integer indices `key` (a list, tuple or numpy array; numpy.asarray) as
// int64 in C order (uint64 values beyond int64 saturate: out of range for any
// axis) and their shape, unchecked (npurt::AdvancedIndex checks them); an
// empty float array (numpy.asarray([])) is an empty index array. False (no
// error left set) when key is not an integer array.
bool host_indices(nb::handle key, Dims* shape, std::vector<int64_t>* out);

// The boolean mask `key` (a list, tuple or numpy array that numpy.asarray makes
// a bool array of rank >= 1): its shape and values (0 / 1) in C order. False
// (no error left set) for anything else.
bool host_mask(nb::handle key, Dims* shape, std::vector<int64_t>* out);

}  // namespace npurt::python
