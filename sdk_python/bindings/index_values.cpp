// sdk_python/bindings/index_values.cpp: the values of x[key] = v read in C++
// (index_values.h): Python / numpy / ml_dtypes scalars as FillValues, numpy
// arrays and lists as host arrays to upload, nr.ndarrays cast on the device.
// Invariant: a value is taken only when the write gives numpy's values with no
// warning numpy would give; everything else is declined, never raised here.
#include "index_values.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "host_transfer.h"
#include "npurt/ops.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

// numpy's scalar base types, looked up once numpy is imported (null before).
PyTypeObject* numpy_scalar_type(const char* name) {
  PyObject* np = PyImport_GetModule(interned("numpy"));
  if (!np) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* t = PyObject_GetAttrString(np, name);
  Py_DECREF(np);
  if (!t || !PyType_Check(t)) {
    Py_XDECREF(t);
    PyErr_Clear();
    return nullptr;
  }
  return reinterpret_cast<PyTypeObject*>(t);  // kept for the process
}

}  // namespace

bool is_numpy(PyObject* o, const char* name, PyTypeObject** cache) {
  if (!*cache) *cache = numpy_scalar_type(name);
  return *cache && PyType_IsSubtype(Py_TYPE(o), *cache);
}

// A numpy integer scalar (np.int64(1), np.uint8(3)); np.bool_ is not one.
bool is_numpy_integer(PyObject* k) {
  static PyTypeObject* np_integer = nullptr;
  if (!Py_TYPE(k)->tp_as_number || !Py_TYPE(k)->tp_as_number->nb_index || PyLong_Check(k)) return false;
  return is_numpy(k, "integer", &np_integer);
}

namespace {

// An integer (Python int or subclass, numpy integer scalar) as an exact
// FillValue; false (no error left set) beyond 64 bits or without __index__.
bool read_integer(PyObject* o, FillValue* s) {
  PyObject* i = PyLong_CheckExact(o) ? (Py_INCREF(o), o) : PyNumber_Index(o);
  if (!i) return PyErr_Clear(), false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  bool ok = !(v == -1 && PyErr_Occurred());
  if (ok && overflow > 0) {  // a uint64 above INT64_MAX?
    const unsigned long long u = PyLong_AsUnsignedLongLong(i);
    ok = !PyErr_Occurred();
    if (ok) *s = FillValue::unsigned_integer(u);
  } else if (ok) {
    ok = overflow == 0;
    *s = FillValue::integer(v);
  }
  Py_DECREF(i);
  if (!ok) PyErr_Clear();
  return ok;
}

// o.itemsize (a numpy scalar's), or -1 (no error left set).
long itemsize(PyObject* o) {
  PyObject* n = PyObject_GetAttrString(o, "itemsize");
  const long v = n ? PyLong_AsLong(n) : -1;
  Py_XDECREF(n);
  if (v == -1) PyErr_Clear();
  return v;
}

}  // namespace

// value as a FillValue: Python bool / int (exact, up to 64 bits: uint64 values
// above INT64_MAX too) / float / complex (np.float64 and np.complex128 are
// subclasses of the last two), numpy bool_, integer, float16 / float32 and
// complex64 scalars, and ml_dtypes scalars (bfloat16, float8...: numpy
// generics of at most 2 bytes, exact as doubles); false for anything else
// (long doubles, arrays, other objects) or an integer beyond 64 bits.
bool read_scalar(PyObject* o, FillValue* s) {
  static PyTypeObject *np_bool = nullptr, *np_floating = nullptr, *np_complex = nullptr, *np_generic = nullptr;
  if (o == Py_True || o == Py_False) {
    *s = FillValue::boolean(o == Py_True);
    return true;
  }
  if (PyFloat_Check(o)) {
    *s = FillValue::floating(PyFloat_AS_DOUBLE(o));
    return true;
  }
  if (PyComplex_Check(o)) {
    *s = FillValue::complex(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
    return true;
  }
  if (PyLong_Check(o) || is_numpy_integer(o)) return read_integer(o, s);
  if (is_numpy(o, "bool_", &np_bool)) {
    const int t = PyObject_IsTrue(o);
    if (t < 0) return PyErr_Clear(), false;
    *s = FillValue::boolean(t != 0);
    return true;
  }
  const bool np_c = is_numpy(o, "complexfloating", &np_complex);
  const bool np_f = !np_c && is_numpy(o, "floating", &np_floating);
  if (!np_c && !np_f && !is_numpy(o, "generic", &np_generic)) return false;
  // float16 / float32 / complex64 / ml_dtypes' 1-2 byte floats are exact as
  // doubles; long doubles are not (float64 / complex128 took the branches above).
  const long n = itemsize(o);
  if (n < 0 || n > (np_c ? 8 : np_f ? 4 : 2)) return false;
  const Py_complex c = PyComplex_AsCComplex(o);  // through __float__ for the ml_dtypes generics
  if (c.real == -1.0 && PyErr_Occurred()) return PyErr_Clear(), false;
  *s = np_c ? FillValue::complex(c.real, c.imag) : FillValue::floating(c.real);
  return true;
}

namespace {

// d (one part of the value) within a float dtype's finite range once rounded
// as the kernel rounds it (float16 once from the double, bfloat16 through
// float32); false where numpy warns: a finite value that overflows.
bool float_in_range(double d, DType dtype) {
  if (dtype == DType::kFloat16) d = round_to_float16(d);
  const double max = dtype == DType::kFloat16    ? 65504.0
                     : dtype == DType::kBFloat16 ? 3.3895313892515355e38  // bfloat16's largest finite
                     : dtype == DType::kFloat64  ? std::numeric_limits<double>::max()
                                                 : static_cast<double>(std::numeric_limits<float>::max());
  return !(std::isfinite(d) && std::fabs(d) > max);
}

}  // namespace

// Whether fill writes v into dtype exactly as numpy's asarray(v).astype(dtype)
// converts it (npurt/fill_value.h's rule, which is numpy's); false sends the
// value to the Python path, which converts, warns or raises:
//  - into float16 / bfloat16 / float32 / float64: bools, ints and floats with
//    no finite value beyond the range (numpy warns on overflow);
//  - into complex64 / complex128: the same per part, complex values too;
//  - into an integral dtype: bools, ints and floats that fits() (ints exact,
//    floats truncated toward zero, in range: not NaN or inf);
//  - into bool: any bool, int or float (v != 0; NaN is True).
// Complex values into real dtypes (numpy warns) and everything else: false.
bool fills_like_numpy(const FillValue& v, DType dtype) {
  const bool complex_value = v.kind == FillValue::Kind::kComplex;
  if (dtype == DType::kBool) return !complex_value;
  if (is_complex(dtype)) {
    if (!exact_as_double(v)) return false;
    const DType part = dtype == DType::kComplex64 ? DType::kFloat32 : DType::kFloat64;
    return float_in_range(v.real, part) && float_in_range(v.imag, part);
  }
  if (complex_value) return false;
  if (is_integral(dtype)) return fits(v, dtype);
  if (!exact_as_double(v)) return false;  // numpy rounds a 64-bit int once to float32 / float16; its double would round twice
  return float_in_range(v.real, dtype);
}

namespace {

// Whether the device's astype converts an array of `from` into `to` with
// numpy's values and no warning numpy would give for them: not float / complex
// into integral or bool (NaN, inf and out-of-range values are implementation-
// defined and numpy warns), not complex into real (numpy's ComplexWarning),
// not into or out of bfloat16 (ml_dtypes' host cast is the reference there).
// Float narrowing (float64 -> float32) is taken: its overflow gives inf as
// numpy's does, without numpy's RuntimeWarning (docs/numpy-users.md).
bool device_cast_like_numpy(DType from, DType to) {
  if (from == DType::kBFloat16 || to == DType::kBFloat16) return from == to;
  const DTypeKind f = dtype_info(from).kind, t = dtype_info(to).kind;
  if ((f == DTypeKind::kFloat || f == DTypeKind::kComplex) && (is_integral(to) || to == DType::kBool)) return false;
  return !(f == DTypeKind::kComplex && t != DTypeKind::kComplex);
}

}  // namespace

// A numpy array (exact type, native byte order) to write into self[key]:
// `host` itself, or for a list / tuple numpy.asarray(value, x's dtype) (the
// one host-side conversion the Python path's nr.asarray makes, bfloat16
// excepted); its DType in *dtype. None when the fast path does not take it:
// another type, a dtype npurt lacks, a conversion numpy refuses (the Python
// path raises it), or a cast device_cast_like_numpy refuses.
nb::object host_value(PyObject* value, DType target, DType* dtype) {
  static PyTypeObject* np_ndarray = nullptr;
  nb::object array;
  if (PyList_Check(value) || PyTuple_Check(value)) {
    if (target == DType::kBFloat16) return nb::none();
    array = nb::steal(PyObject_CallMethodObjArgs(numpy_module().ptr(), interned("asarray"), value,
                                                 numpy_dtype(target).ptr(), nullptr));
    if (!array.is_valid()) return PyErr_Clear(), nb::none();
  } else if (is_numpy(value, "ndarray", &np_ndarray) && Py_TYPE(value) == np_ndarray) {
    array = nb::borrow(value);
  } else {
    return nb::none();
  }
  const nb::object np_dtype = array.attr("dtype");
  if (np_dtype.equal(numpy_dtype(target))) {
    *dtype = target;
    return array;
  }
  try {
    *dtype = dtype_from_numpy(np_dtype, "npurt.ndarray.__setitem__", "value");
  } catch (const Error&) {
    return nb::none();  // object arrays, big-endian, long double...: the Python path
  }
  return device_cast_like_numpy(*dtype, target) ? array : nb::none();
}

Tensor device_cast(const Tensor& src, DType dtype) {
  if (src.dtype() == dtype) return src;
  try {
    return ops::call("astype", {src}, {{"dtype", AttrValue(dtype)}})[0];
  } catch (const Error&) {
    return Tensor();  // the Python path raises its TypeError
  }
}

Tensor value_tensor(const Tensor& x, PyObject* value, PyTypeObject* ndarray) {
  FillValue v;
  if (read_scalar(value, &v))
    return fills_like_numpy(v, x.dtype()) ? ops::fill(Dims{1}, x.dtype(), v, x.stream()) : Tensor();
  if (ndarray && Py_TYPE(value) == ndarray) {
    const Tensor& a = *nb::inst_ptr<Tensor>(nb::handle(value));
    return a.device() == x.device() ? device_cast(a, x.dtype()) : Tensor();
  }
  DType dtype = x.dtype();
  const nb::object host = host_value(value, x.dtype(), &dtype);
  if (host.is_none()) return Tensor();
  return device_cast(tensor_from_numpy(host, dtype, x.stream()), x.dtype());
}

}  // namespace npurt::python
