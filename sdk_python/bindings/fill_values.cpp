// sdk_python/bindings/fill_values.cpp: a Python scalar read as an
// npurt::FillValue under the one conversion rule of npurt/fill_value.h, and
// that rule bound for the array-API layer: _npurt._fill_attrs (nr.full's and
// full_like's fill attributes) and _npurt._check_fill_range (nr.arange's
// bounds, the indexing layer's scalar values).
// scalar_constants.cpp reads the operators' constants through fill_value_arg too.
//
// Invariants: an int outside an integral dtype's range raises
// nr.OutOfRangeError (an OverflowError, as numpy raises) "<where>: Python int
// <v> is out of range for <dtype>", also for ints beyond 64 bits; such an int
// into another dtype is float(value), which raises OverflowError beyond the
// double range; a float into an integral dtype is truncated toward zero, and
// one outside the range after that (or inf) raises nr.OutOfRangeError, NaN
// nr.InvalidArgumentError (int(nan) is a ValueError); anything but a bool,
// int, float or complex raises TypeError.
#include <cmath>

#include "bindings.h"
#include "npurt/fill_value.h"

namespace npurt::python {
namespace {

// "<where>: Python <type> <o> <reason> <dtype>".
std::string message(PyObject* o, const char* reason, DType dtype, const char* where) {
  nb::str repr = nb::repr(nb::handle(o));
  return std::string(where) + ": Python " + Py_TYPE(o)->tp_name + " " + repr.c_str() + " " + reason + " " +
         dtype_name(dtype);
}

[[noreturn]] void raise_out_of_range(PyObject* o, DType dtype, const char* where) {
  throw_out_of_range(message(o, "is out of range for", dtype, where));
}

FillValue read_int(PyObject* o, DType dtype, const char* where) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (!overflow) {
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return FillValue::integer(v);
  }
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (!PyErr_Occurred()) return FillValue::unsigned_integer(u);
    PyErr_Clear();
  }
  if (is_integral(dtype)) raise_out_of_range(o, dtype, where);
  const double d = PyLong_AsDouble(o);  // float(value): OverflowError beyond the double range
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return FillValue::floating(d);
}

}  // namespace

FillValue fill_value_arg(PyObject* o, DType dtype, const char* where) {
  FillValue v;
  if (o == Py_True || o == Py_False) {
    v = FillValue::boolean(o == Py_True);
  } else if (PyLong_Check(o)) {
    v = read_int(o, dtype, where);
  } else if (PyFloat_Check(o)) {
    v = FillValue::floating(PyFloat_AS_DOUBLE(o));
  } else if (PyComplex_Check(o)) {
    v = FillValue::complex(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
  } else {
    PyErr_Format(PyExc_TypeError, "%s: expected a Python bool, int, float or complex scalar, got %s", where,
                 Py_TYPE(o)->tp_name);
    throw nb::python_error();
  }
  if (!fits(v, dtype)) {
    if (v.kind != FillValue::Kind::kInt && std::isnan(v.real))
      throw InvalidArgument(message(o, "cannot be converted to", dtype, where));
    raise_out_of_range(o, dtype, where);
  }
  return v;
}

void bind_fill_values(nb::module_& m) {
  m.def(
      "_fill_attrs",
      [](nb::handle value, nb::handle dtype, const char* where) {
        const DType dt = dtype_arg(dtype, where);
        nb::dict attrs;
        for (const NamedAttr& a : fill_attrs(fill_value_arg(value.ptr(), dt, where), dt)) {
          switch (a.value.type()) {
            case AttrType::kBool: attrs[a.name.c_str()] = a.value.as_bool(); break;
            case AttrType::kInt: attrs[a.name.c_str()] = a.value.as_int(); break;
            default: attrs[a.name.c_str()] = a.value.as_float(); break;
          }
        }
        return attrs;
      },
      nb::arg("value"), nb::arg("dtype"), nb::arg("where"),
      "The `fill` op's value attributes for a Python scalar in dtype (npurt/fill_value.h's rule); "
      "nr.OutOfRangeError (an OverflowError) naming `where` for an int or float outside an integral "
      "dtype's range (floats truncated toward zero first), nr.InvalidArgumentError for NaN.");
  m.def(
      "_check_fill_range",
      [](nb::handle value, nb::handle dtype, const char* where) {
        fill_value_arg(value.ptr(), dtype_arg(dtype, where), where);
      },
      nb::arg("value"), nb::arg("dtype"), nb::arg("where"),
      "Raises nr.OutOfRangeError naming `where` when the Python scalar `value` is outside an integral "
      "dtype's range (a float after truncation), nr.InvalidArgumentError for NaN.");
}

}  // namespace npurt::python
