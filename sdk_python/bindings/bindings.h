// sdk_python/bindings/bindings.h: what the binding files of the _npurt module share.
//
// The bindings only convert: Python objects in, runtime calls, Python objects
// out. Everything a C++ user would also need lives in libnpurt. Each bind_*
// function below is defined in the file of the same concept and called once
// from module.cpp, in this order (later ones may use classes bound earlier).
//
// Argument converters raise npurt::InvalidArgument with the message form of
// npurt/status.h ("npurt.empty: argument 'shape': dimension 0 is negative (-3)"),
// which errors.cpp turns into nr.InvalidArgumentError (also a ValueError).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "npurt/device.h"
#include "npurt/dtype.h"
#include "npurt/fill_value.h"
#include "npurt/small_vector.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt::python {

namespace nb = nanobind;

void bind_errors(nb::module_& m);    // errors.cpp
// Throws nb::python_error holding npurt.OutOfRangeError (an InvalidArgumentError
// and an OverflowError, errors.cpp) with `message`.
[[noreturn]] void throw_out_of_range(const std::string& message);
void bind_dtypes(nb::module_& m);    // dtypes.cpp
void bind_devices(nb::module_& m);   // devices.cpp
void bind_streams(nb::module_& m);   // streams.cpp
void bind_memory(nb::module_& m);    // memory.cpp
void bind_ndarray(nb::module_& m);   // ndarray.cpp
void bind_creation(nb::module_& m);  // creation.cpp
void bind_profiler(nb::module_& m);  // profiler_bindings.cpp (owner: tools)
void bind_ops(nb::module_& m);       // ops_bindings.cpp (owner: registry)
void bind_graphs(nb::module_& m);    // graph_bindings.cpp (owner: graphs)
void bind_views(nb::module_& m);     // view_bindings.cpp (owner: arrays-structure)
void bind_operators(nb::module_& m);  // operators.cpp: ndarray operator/reduction fast path
void bind_sort(nb::module_& m);       // sort_bindings.cpp: the sort driver (npurt/sort_ops.h)
void bind_linalg(nb::module_& m);     // linalg_bindings.cpp: LU / Cholesky / SVD (npurt/linalg_ops.h, linalg_spectral.h)
void bind_indexing(nb::module_& m);   // indexing.cpp: x[key] / x[key] = v fast path (npurt/basic_index.h)
void bind_scalar_conversion(nb::module_& m);  // scalar_conversion.cpp: x.item() / float(x) / int(x) / bool(x) fast path
void bind_scalar_constants(nb::module_& m);  // scalar_constants.cpp: the 0-d constant cache
void bind_fill_values(nb::module_& m);       // fill_values.cpp: _fill_attrs / _check_fill_range
void bind_host_index(nb::module_& m);        // host_index.cpp: _host_index (list / numpy index keys)
void bind_index_put(nb::module_& m);         // index_advanced.cpp: _index_put, _index_take (npurt/advanced_index.h)

// ---- hot-path results and errors (operators.cpp) ---------------------------
// A new Python ndarray owning t (the bound type is looked up once, not per call).
nb::object new_ndarray(Tensor&& t);
// Inside a catch (...) of a CPython slot function: sets the Python exception for
// the C++ exception being handled, as nanobind's function dispatch does; returns nullptr.
PyObject* raise_current();
// The interned str s, kept for the process (a new reference never released).
PyObject* interned(const std::string& s);

// ---- fill values (fill_values.cpp) ------------------------------------------
// The Python scalar o (bool, int, float, complex) as an npurt::FillValue for
// dtype (npurt/fill_value.h's rule); nr.OutOfRangeError (an OverflowError)
// "<where>: Python int <v> is out of range for <dtype>" for an int (or a
// truncated float) outside an integral dtype's range, InvalidArgumentError for NaN,
// TypeError for another type.
FillValue fill_value_arg(PyObject* o, DType dtype, const char* where);

// ---- scalar constants (scalar_constants.cpp) --------------------------------
// The cached 0-d array of the Python scalar `value` (bool, int, float,
// complex) in dtype on the current device, made by the fill kernel and
// synchronized; OverflowError for an int outside an integral dtype's range,
// TypeError for another type. Shared by operators.cpp and _convert.constant.
Tensor scalar_constant(nb::handle value, DType dtype, const char* where);

// ---- dtypes (dtypes.cpp) -------------------------------------------------
// Accepts nr dtype objects, numpy dtypes and scalar types, ml_dtypes.bfloat16,
// Python types (float -> float64, like numpy) and names ("float32", "bf16").
DType dtype_arg(nb::handle h, const char* where, const char* arg = "dtype");
// Maps a numpy dtype object (native byte order only) to a DType.
DType dtype_from_numpy(nb::handle np_dtype, const char* where, const char* arg);
// The nr.<name> singleton for t (borrowed; the module keeps it alive).
nb::handle dtype_object(DType t);
// The numpy dtype of t on the host (ml_dtypes.bfloat16 for kBFloat16).
nb::handle numpy_dtype(DType t);
// The numpy dtype host buffers of t are allocated with (uint16 for bfloat16,
// viewed as bfloat16 afterwards: numpy allocates it without ml_dtypes' help).
nb::handle numpy_storage_dtype(DType t);

// ---- devices, streams, shapes (args.cpp) ------------------------------------
// None -> this thread's current device; nr.Device, "sim:1", or an int index of
// the current device's type. Checks that the device exists.
Device device_arg(nb::handle h, const char* where, const char* arg = "device");
// The stream a call runs on: `stream` if given (must be open and, if `device`
// is given, on that device), else the current stream of `device`.
Stream stream_arg(nb::handle stream, nb::handle device, const char* where);
// An int or a sequence of ints; every dimension >= 0.
Dims shape_arg(nb::handle h, const char* where, const char* arg = "shape");
// Throws InvalidArgument when s is closed.
void check_stream_open(const Stream& s, const char* where, const char* arg = "stream");

// The imported numpy module (borrowed; imported once).
nb::handle numpy_module();

}  // namespace npurt::python
