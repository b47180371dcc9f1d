// sdk_python/bindings/scalar_conversion.cpp: the C++ fast path of nr.ndarray's
// x.item(), float(x), int(x) and bool(x) on one-element arrays.
//
// Why: the Python layer (sdk_python/npurt/array_api/indexing.py: _scalar,
// item) reads the element through x.numpy(): a numpy array made, filled and
// converted with .item(), ~2 us against ~0.5 us for reading the element.
// install_scalar_conversions() makes the type's item / __float__ / __int__ /
// __bool__ C++ functions that, for an array of one element of a bool,
// integer, float16, float32 or float64 dtype whose stream is open, copy that
// element to the host (a blocking copy on the array's stream: pending work
// and its errors come first, as for x.numpy()) and build numpy's .item()
// value (bool, int or float: every such element is exact as a Python float or
// int); float / int / bool then apply Python's float(), int(), bool() to it,
// as the Python layer does. Everything else (other sizes and dtypes, item's
// index arguments, closed streams, subclasses) and every error calls the
// Python layer's functions, kept on the type as _py_item, _py___float__,
// _py___int__, _py___bool__, so their texts are unchanged.
// Invariant: the same Python object (type and value) as the Python path;
// tests/python/array_structure/test_scalar_conversion_fast_path.py compares them.
#include <cstdint>
#include <cstring>

#include "bindings.h"
#include "npurt/copy.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

PyTypeObject* g_type = nullptr;  // nr.ndarray (exact type only)

// x's single element as numpy's .item() gives it (a new reference), or null
// with no error set when the fast path does not take x.
PyObject* fast_item(PyObject* self) {
  if (Py_TYPE(self) != g_type) return nullptr;
  const Tensor& t = *nb::inst_ptr<Tensor>(nb::handle(self));
  const DTypeInfo& info = dtype_info(t.dtype());
  if (t.numel() != 1 || info.kind == DTypeKind::kComplex || t.dtype() == DType::kBFloat16) return nullptr;
  const Stream& s = t.stream();
  if (!s.valid() || s.closed()) return nullptr;
  // One element: any strides address it at byte_offset; a 0-d view reads it.
  const Tensor one = t.view(Dims{}, Dims{}, t.byte_offset());
  alignas(8) unsigned char b[8] = {};
  {
    nb::gil_scoped_release release;
    copy_to_host(b, one, one.itemsize(), s, /*blocking=*/true);
  }
  auto get = [&b](auto v) {
    std::memcpy(&v, b, sizeof v);
    return v;
  };
  switch (t.dtype()) {
    case DType::kBool: return PyBool_FromLong(b[0] != 0);
    case DType::kInt8: return PyLong_FromLong(get(int8_t{}));
    case DType::kInt16: return PyLong_FromLong(get(int16_t{}));
    case DType::kInt32: return PyLong_FromLong(get(int32_t{}));
    case DType::kInt64: return PyLong_FromLongLong(get(int64_t{}));
    case DType::kUInt8: return PyLong_FromUnsignedLong(get(uint8_t{}));
    case DType::kUInt16: return PyLong_FromUnsignedLong(get(uint16_t{}));
    case DType::kUInt32: return PyLong_FromUnsignedLong(get(uint32_t{}));
    case DType::kUInt64: return PyLong_FromUnsignedLongLong(get(uint64_t{}));
    case DType::kFloat16: return PyFloat_FromDouble(half_bits_to_float(get(uint16_t{})));
    case DType::kFloat32: return PyFloat_FromDouble(get(float{}));
    case DType::kFloat64: return PyFloat_FromDouble(get(double{}));
    default: return nullptr;
  }
}

// The conversion of x's element by `convert` (a new reference, PyNumber_Float
// ...), or type(x).<fallback>(x) when the fast path does not take x.
PyObject* convert(PyObject* self, PyObject* (*convert)(PyObject*), const char* fallback) {
  PyObject* v = nullptr;
  try {
    v = fast_item(self);
  } catch (...) {
    return raise_current();
  }
  if (!v) return PyObject_CallMethodObjArgs(reinterpret_cast<PyObject*>(Py_TYPE(self)), interned(fallback), self,
                                            nullptr);
  if (!convert) return v;
  PyObject* r = convert(v);
  Py_DECREF(v);
  return r;
}

nb::object checked(PyObject* r) {
  if (!r) throw nb::python_error();
  return nb::steal(r);
}

PyObject* to_bool_object(PyObject* v) {
  const int truth = PyObject_IsTrue(v);
  return truth < 0 ? nullptr : PyBool_FromLong(truth);
}

void install_scalar_conversions(nb::handle cls) {
  g_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  nb::setattr(cls, "item",
              nb::cpp_function(
                  [](nb::handle self, nb::args args) {
                    if (nb::len(args) == 0) return checked(convert(self.ptr(), nullptr, "_py_item"));
                    return nb::object(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr())))
                                          .attr("_py_item")(self, *args));
                  },
                  nb::is_method(), nb::scope(cls), nb::name("item")));
  nb::setattr(cls, "__float__",
              nb::cpp_function([](nb::handle self) { return checked(convert(self.ptr(), PyNumber_Float, "_py___float__")); },
                               nb::is_method(), nb::scope(cls), nb::name("__float__")));
  nb::setattr(cls, "__int__",
              nb::cpp_function([](nb::handle self) { return checked(convert(self.ptr(), PyNumber_Long, "_py___int__")); },
                               nb::is_method(), nb::scope(cls), nb::name("__int__")));
  nb::setattr(cls, "__bool__",
              nb::cpp_function([](nb::handle self) { return checked(convert(self.ptr(), to_bool_object, "_py___bool__")); },
                               nb::is_method(), nb::scope(cls), nb::name("__bool__")));
}

}  // namespace

void bind_scalar_conversion(nb::module_& m) {
  m.def("_install_scalar_conversions", [m]() { install_scalar_conversions(m.attr("ndarray")); },
        "Points ndarray's item() / float() / int() / bool() at the C++ fast path (after the Python ones are "
        "kept as _py_item, _py___float__, _py___int__, _py___bool__).");
}

}  // namespace npurt::python
