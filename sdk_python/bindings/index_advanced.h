// sdk_python/bindings/index_advanced.h: x[key] = v and x[key] for advanced
// keys from C++ (index_advanced.cpp), the steps of indexing.cpp's slots after
// the basic ones.
#pragma once

#include "bindings.h"
#include "npurt/basic_index.h"
#include "npurt/tensor.h"

namespace npurt::python {

// One basic key entry (Python int, numpy integer scalar, 0-d integer
// nr.ndarray, slice, None, Ellipsis, bool) as an IndexItem; false (no error
// left set) for anything else. Defined in indexing.cpp.
bool read_index_item(PyObject* k, IndexItem* out);

// self[key] = value for an nr.ndarray self (exact type `ndarray`) on the
// current device and a key holding index arrays:
//   - a contiguous bool nr.ndarray as the whole key into a contiguous self:
//     mask_assign.h;
//   - any other key of basic entries and integer arrays (lists, tuples inside
//     a tuple key, numpy arrays, nr.ndarrays on self's device):
//     npurt::AdvancedIndex (npurt/advanced_index.h), any target layout;
// the value read by value_tensor (index_values.h). False (nothing written)
// when a key entry, the value or the key's check is not the fast path's:
// the Python layer then raises (or writes) in its own words.
bool fast_index_put(PyObject* self, PyObject* key, PyObject* value, PyTypeObject* ndarray);

// self[key] for an nr.ndarray self (exact type `ndarray`) and a key of basic
// entries and integer arrays (as fast_index_put reads it): a new array by
// npurt::AdvancedIndex::take (one `gather`); undefined (nothing launched but
// the key's uploads and checks) when declined: the Python layer answers.
Tensor fast_index_take(PyObject* self, PyObject* key, PyTypeObject* ndarray);

}  // namespace npurt::python
