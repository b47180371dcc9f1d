// sdk_python/bindings/index_values.h: the values of x[key] = v read in C++
// (index_values.cpp), for the basic (indexing.cpp) and advanced
// (index_advanced.cpp) assignment fast paths.
//
// One rule for every key kind: a scalar is written as numpy converts it into
// x's dtype (npurt/fill_value.h), an nr.ndarray is cast on the device by
// `astype`, a numpy array is uploaded in its own dtype and cast on the device,
// a list / tuple is one numpy.asarray into x's dtype. Values numpy would warn
// about or refuse are declined (false / undefined / None, no error left set):
// the Python layer converts, warns or raises in its own words.
#pragma once

#include "bindings.h"
#include "npurt/fill_value.h"
#include "npurt/tensor.h"

namespace npurt::python {

// Whether o is an instance of numpy.<name> (cached in *cache; false before numpy is imported).
bool is_numpy(PyObject* o, const char* name, PyTypeObject** cache);
// A numpy integer scalar (np.int64(1), np.uint8(3)); np.bool_ is not one.
bool is_numpy_integer(PyObject* k);

// value as a FillValue: Python bool / int (up to 64 bits) / float / complex,
// numpy bool_ / integer / float16-64 / complex64-128 scalars, ml_dtypes
// scalars; false for anything else.
bool read_scalar(PyObject* o, FillValue* s);
// Whether fill writes v into dtype exactly as numpy's asarray(v).astype(dtype).
bool fills_like_numpy(const FillValue& v, DType dtype);

// A numpy array to upload for value (a numpy.ndarray itself, or a list /
// tuple through numpy.asarray(value, target)), its dtype in *dtype; None when
// declined (see the file comment).
nb::object host_value(PyObject* value, DType target, DType* dtype);

// src converted to dtype by the device's `astype` (as nr.astype): src itself
// for its own dtype, undefined when astype refuses the pair.
Tensor device_cast(const Tensor& src, DType dtype);

// value as a tensor of x's dtype on x's device for an advanced assignment:
// a scalar filled into one element (the scatter repeats it), an nr.ndarray
// (exact type; cast by `astype` when its dtype differs), or a numpy array /
// list / tuple uploaded on x's stream (cast on the device when its dtype
// differs). Undefined (nothing launched) when declined.
Tensor value_tensor(const Tensor& x, PyObject* value, PyTypeObject* ndarray);

}  // namespace npurt::python
