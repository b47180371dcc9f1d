// sdk_python/bindings/index_advanced.h: x[key] = v for advanced keys from C++
// (index_advanced.cpp), the third step of indexing.cpp's setitem slot.
#pragma once

#include "bindings.h"
#include "npurt/basic_index.h"

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
//     npurt::IndexPutPlan (npurt/index_put.h), any target layout;
// the value read by value_tensor (index_values.h). False (nothing written)
// when a key entry, the value or the key's check is not the fast path's:
// the Python layer then raises (or writes) in its own words.
bool fast_index_put(PyObject* self, PyObject* key, PyObject* value, PyTypeObject* ndarray);

}  // namespace npurt::python
