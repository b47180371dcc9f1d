// sdk_python/bindings/indexing.cpp: the C++ fast path of nr.ndarray's x[key]
// and x[key] = value for basic keys.
//
// Why: x[1:3] ran the Python indexing layer (sdk_python/npurt/array_api/indexing.py:
// key expansion, slice.indices, _view) for ~31k instructions, 40x an `x + y`.
// install_index_slots() points the ndarray type's mp_subscript and
// mp_ass_subscript at the functions below:
//   - x[key]: a key of Python ints, slices of ints (any step), None, Ellipsis
//     and bools, alone or in a tuple, is read into npurt::IndexItems and
//     answered by npurt::basic_index (npurt/basic_index.h), the public C++
//     helper;
//   - x[key] = v: the same keys (numpy integer scalars too), for an array on
//     the current device, and a value fill writes exactly as numpy converts
//     it (fill_value: Python floats, ints and bools into float16 / float32 /
//     float64, integer dtypes and bool under numpy's rounding, truncation and
//     range rules): one `fill` kernel writes it into a contiguous view, one
//     per contiguous block into a strided one (fill_blocks), what the Python
//     path's upload + broadcast `copy` per block writes.
// Everything else (integer arrays and masks, 0-d array indices, other
// values, dtypes or devices, broadcast targets) and every error
// calls the Python layer's getitem / setitem (kept on the type as
// _py___getitem__ / _py___setitem__, see install_index_slots), so
// advanced indexing and the exact error text stay that layer's.
// Invariant: the fast path returns the very view (shape, strides, offset) and
// writes the very values of the Python path; tests/python/array_structure/
// test_indexing_fast_path.py compares the two over random keys.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "bindings.h"
#include "npurt/basic_index.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

constexpr Py_ssize_t kMaxItems = 32;  // longer keys take the Python path

// numpy.integer, looked up once numpy is imported (a numpy scalar cannot
// exist before); null while it is not. Kept alive for the process.
PyObject* numpy_integer_type() {
  static PyObject* type = nullptr;
  if (type) return type;
  PyObject* np = PyImport_GetModule(interned("numpy"));  // no import, a new reference or null
  if (!np) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* t = PyObject_GetAttrString(np, "integer");
  Py_DECREF(np);
  if (!t || !PyType_Check(t)) {
    Py_XDECREF(t);
    PyErr_Clear();
    return nullptr;
  }
  type = t;
  return type;
}

// A numpy integer scalar (np.int64(1), np.uint8(3)); np.bool_ is not one.
bool is_numpy_integer(PyObject* k) {
  if (!Py_TYPE(k)->tp_as_number || !Py_TYPE(k)->tp_as_number->nb_index || PyLong_Check(k)) return false;
  PyObject* t = numpy_integer_type();
  return t && PyType_IsSubtype(Py_TYPE(k), reinterpret_cast<PyTypeObject*>(t));
}

// One key entry as an IndexItem; false for anything else (no error left set).
bool read_item(PyObject* k, IndexItem* out) {
  if (k == Py_None) {
    *out = IndexItem::newaxis();
  } else if (k == Py_Ellipsis) {
    *out = IndexItem::ellipsis();
  } else if (k == Py_True || k == Py_False) {
    *out = IndexItem::boolean(k == Py_True);
  } else if (PyLong_CheckExact(k)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
    if (overflow) return false;
    *out = IndexItem::integer(v);
  } else if (is_numpy_integer(k)) {
    // np.int64(1) etc.: an integer for the Python path too (operator.index).
    PyObject* i = PyNumber_Index(k);
    if (!i) {
      PyErr_Clear();
      return false;
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    *out = IndexItem::integer(v);
  } else if (PySlice_Check(k)) {
    // Bounds are None or have __index__ (as for slice.indices); step 0 and
    // bad bounds fail here and the Python path raises its error.
    Py_ssize_t start = 0, stop = 0, step = 0;
    if (PySlice_Unpack(k, &start, &stop, &step) < 0) {
      PyErr_Clear();
      return false;
    }
    // PySlice_Unpack stands absent bounds for the extreme values (and clamps
    // huge ones), which basic_index clamps exactly as Python's slice.indices.
    *out = IndexItem::slice(start, stop, step);
  } else {
    return false;
  }
  return true;
}

// The key as IndexItems; false when an entry is not a plain basic one.
bool read_key(PyObject* key, IndexItem* items, size_t* n) {
  if (!PyTuple_Check(key)) {
    *n = 1;
    return read_item(key, items);
  }
  const Py_ssize_t len = PyTuple_GET_SIZE(key);
  if (len > kMaxItems) return false;
  for (Py_ssize_t i = 0; i < len; ++i)
    if (!read_item(PyTuple_GET_ITEM(key, i), &items[i])) return false;
  *n = static_cast<size_t>(len);
  return true;
}

#if !defined(Py_LIMITED_API)
PyTypeObject* g_type = nullptr;  // nr.ndarray (exact type only: subclasses take the Python path)
PyObject* g_getitem = nullptr;   // interned "_py___getitem__", ...
PyObject* g_setitem = nullptr;
PyObject* g_delitem = nullptr;

// type(self).<name>(self, *args), the Python layer's method; AttributeError
// naming the method when the type has none (what CPython's slot does).
PyObject* call_python(PyObject* self, PyObject* name, PyObject* a, PyObject* b) {
  PyObject* f = _PyType_Lookup(Py_TYPE(self), name);  // borrowed
  if (!f) {
    PyErr_SetObject(PyExc_AttributeError, name);
    return nullptr;
  }
  Py_INCREF(f);  // the call may rebind the type's attribute
  PyObject* args[3] = {self, a, b};
  PyObject* r = PyObject_Vectorcall(f, args, b ? 3 : 2, nullptr);
  Py_DECREF(f);
  return r;
}

// The basic view self[key], or an undefined Tensor when the fast path does not take the key.
Tensor fast_view(PyObject* self, PyObject* key, const char* where) {
  IndexItem items[kMaxItems];
  size_t n = 0;
  if (Py_TYPE(self) != g_type || !read_key(key, items, &n)) return Tensor();
  try {
    return basic_index(*nb::inst_ptr<Tensor>(nb::handle(self)), items, n, where);
  } catch (const Error&) {
    return Tensor();  // the Python path raises the error in its own words
  }
}

PyObject* getitem_slot(PyObject* self, PyObject* key) {
  try {
    Tensor v = fast_view(self, key, "npurt.ndarray.__getitem__");
    if (v.defined()) return new_ndarray(std::move(v)).release().ptr();
  } catch (...) {
    return raise_current();
  }
  return call_python(self, g_getitem, key, nullptr);
}

// v rounded to the nearest float16 (ties to even) as a double, what numpy's
// double -> half cast gives; fill's float -> half step keeps it exactly
// (fill alone would round v to float first: a second rounding).
double round_to_half(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  int e = 0;
  std::frexp(v, &e);                    // |v| in [2^(e-1), 2^e)
  const int s = std::max(e - 11, -24);  // the half ulp there (subnormals: 2^-24)
  return std::ldexp(std::nearbyint(std::ldexp(v, -s)), s);
}

// A double into float16 / float32 / float64 as numpy casts it, or false where
// numpy warns (a finite value that overflows the dtype).
bool float_fill_value(double d, DType dtype, double* value) {
  if (dtype == DType::kFloat16) d = round_to_half(d);
  const double max = dtype == DType::kFloat16   ? 65504.0
                     : dtype == DType::kFloat32 ? static_cast<double>(std::numeric_limits<float>::max())
                                                : std::numeric_limits<double>::max();
  *value = d;
  return !(std::isfinite(d) && std::fabs(d) > max);
}

// An integral v within dtype's range (an integer dtype).
bool int_in_range(long long v, const DTypeInfo& info) {
  const int bits = info.itemsize * 8;
  if (info.kind == DTypeKind::kUnsignedInt) return v >= 0 && (bits == 64 || v < (1LL << bits));
  if (info.kind == DTypeKind::kSignedInt) return bits == 64 || (v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1)));
  return false;
}

// The value fill writes exactly as numpy's asarray(value, dtype) converts it,
// or false (the Python path then converts, warns or raises):
//  - a Python float into float16 / float32 / float64: one rounding, no finite
//    value beyond the dtype's range (numpy warns there); into an integer
//    dtype: truncated toward zero (numpy's int(v)) when that is within the
//    dtype's range and |v| <= 2^53;
//  - an int |v| <= 2^53 into a float dtype; into an integer dtype within its range;
//  - True / False into any of these dtypes and bool (1 / 0).
// complex, bfloat16, other values: false.
bool fill_value(PyObject* o, DType dtype, double* value) {
  const DTypeInfo& info = dtype_info(dtype);
  const bool is_float = dtype == DType::kFloat16 || dtype == DType::kFloat32 || dtype == DType::kFloat64;
  const bool is_int = info.kind == DTypeKind::kUnsignedInt || info.kind == DTypeKind::kSignedInt;
  if (o == Py_True || o == Py_False) {
    *value = o == Py_True ? 1.0 : 0.0;
    return is_float || is_int || dtype == DType::kBool;
  }
  if (PyFloat_CheckExact(o)) {
    const double d = PyFloat_AS_DOUBLE(o);
    if (is_float) return float_fill_value(d, dtype, value);
    if (!is_int || !std::isfinite(d) || std::fabs(d) > 9007199254740992.0) return false;
    *value = std::trunc(d) + 0.0;  // -0.5 -> 0, not -0
    return int_in_range(static_cast<long long>(*value), info);
  }
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || v > (1LL << 53) || v < -(1LL << 53)) return false;
  if (is_float) return float_fill_value(static_cast<double>(v), dtype, value);
  *value = static_cast<double>(v);
  return is_int && int_in_range(v, info);
}

// Fills a non-contiguous view with v the way the Python path's assign does
// (_canonical_order + _copy_blocks): negative strides flipped, dims ordered by
// decreasing stride, one `fill` per C-contiguous block. False (nothing
// written) for a view with a zero stride: a broadcast target is the Python
// path's to handle.
bool fill_blocks(const Tensor& view, double v) {
  struct Dim {
    int64_t n, s;
  };
  Dim dims[kMaxItems * 2];  // basic_index views have at most ndim + newaxes dims
  size_t nd = 0;
  const int64_t item = static_cast<int64_t>(view.itemsize());
  int64_t off = view.byte_offset();
  for (size_t d = 0; d < view.ndim(); ++d) {
    int64_t n = view.shape()[d], s = view.strides()[d];
    if (n == 1) continue;
    if (s == 0 || nd == kMaxItems * 2) return false;
    if (s < 0) {
      off += s * (n - 1) * item;
      s = -s;
    }
    dims[nd++] = {n, s};
  }
  std::stable_sort(dims, dims + nd, [](const Dim& a, const Dim& b) { return a.s > b.s; });
  int64_t block = 1;  // elements of the contiguous suffix dims[k..]
  size_t k = nd;
  while (k > 0 && dims[k - 1].s == block) block *= dims[--k].n;
  int64_t index[kMaxItems * 2] = {};
  const Dims shape{block}, strides{1};
  for (;;) {
    int64_t e = 0;
    for (size_t d = 0; d < k; ++d) e += index[d] * dims[d].s;
    ops::fill(shape, view.dtype(), v, Stream(), view.view(shape, strides, off + e * item));
    size_t d = k;
    while (d > 0 && ++index[d - 1] == dims[d - 1].n) index[--d] = 0;
    if (d == 0) return true;
  }
}

// self[key] = value by `fill` kernels (one for a contiguous view); false when the fast path does not apply.
bool fast_fill(PyObject* self, PyObject* key, PyObject* value) {
  if (Py_TYPE(self) != g_type) return false;
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  double v = 0;
  if (x.read_only() || !fill_value(value, x.dtype(), &v) || !(x.device() == current_device())) return false;
  Tensor view = fast_view(self, key, "npurt.ndarray.__setitem__");
  if (!view.defined()) return false;
  if (view.numel() == 0) return true;
  if (view.is_contiguous()) {
    ops::fill(view.shape(), view.dtype(), v, Stream(), view);
    return true;
  }
  return fill_blocks(view, v);
}

int setitem_slot(PyObject* self, PyObject* key, PyObject* value) {
  PyObject* r = nullptr;
  if (!value) {
    r = call_python(self, g_delitem, key, nullptr);
  } else {
    try {
      if (fast_fill(self, key, value)) return 0;
    } catch (...) {
      raise_current();
      return -1;
    }
    r = call_python(self, g_setitem, key, value);
  }
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

#endif  // !Py_LIMITED_API

// Makes the type's __getitem__ / __setitem__ these functions and points its
// mapping slots here. Why both: CPython 3.11 specialises `x[k]` on a type
// whose __getitem__ is a Python function into a direct call of that function
// (BINARY_SUBSCR_GETITEM), bypassing mp_subscript, so the Python layer's
// functions live on as _py___getitem__ / _py___setitem__ (the fallbacks) and
// the dunders are C++ functions. The slots are set last: setting a dunder
// resets its slot to CPython's generic one.
void install_index_slots(nb::handle cls) {
#if !defined(Py_LIMITED_API)
  PyTypeObject* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (!t->tp_as_mapping) return;
  if (!g_type) {
    g_getitem = interned("_py___getitem__");
    g_setitem = interned("_py___setitem__");
    g_delitem = interned("__delitem__");
    g_type = t;
  }
  nb::setattr(cls, "__getitem__",
              nb::cpp_function(
                  [](nb::handle self, nb::handle key) {
                    PyObject* r = getitem_slot(self.ptr(), key.ptr());
                    if (!r) throw nb::python_error();
                    return nb::steal(r);
                  },
                  nb::is_method(), nb::scope(cls), nb::name("__getitem__"), nb::arg("key").none()));
  nb::setattr(cls, "__setitem__",
              nb::cpp_function(
                  [](nb::handle self, nb::handle key, nb::handle value) {
                    if (setitem_slot(self.ptr(), key.ptr(), value.ptr()) < 0) throw nb::python_error();
                  },
                  nb::is_method(), nb::scope(cls), nb::name("__setitem__"), nb::arg("key").none(),
                  nb::arg("value").none()));
  t->tp_as_mapping->mp_subscript = &getitem_slot;
  t->tp_as_mapping->mp_ass_subscript = &setitem_slot;
  PyType_Modified(t);
#else
  (void)cls;
#endif
}

IndexItem item_arg(nb::handle k) {
  IndexItem item;
  if (!read_item(k.ptr(), &item))
    throw_invalid_argument("npurt.basic_index", "key", "entries must be ints, slices of ints, None, ... or bools");
  return item;
}

}  // namespace

void bind_indexing(nb::module_& m) {
  m.def("_install_index_slots", [m]() { install_index_slots(m.attr("ndarray")); },
        "Points ndarray's x[key] and x[key] = v at the C++ fast path (call after setting __getitem__).");
  m.def(
      "basic_index",
      [](const Tensor& x, nb::handle key) {
        IndexItem items[kMaxItems];
        size_t n = 0;
        if (!nb::isinstance<nb::tuple>(key)) {
          items[n++] = item_arg(key);
        } else {
          if (nb::len(key) > static_cast<size_t>(kMaxItems))
            throw_invalid_argument("npurt.basic_index", "key", "has more than 32 entries");
          for (nb::handle k : key) items[n++] = item_arg(k);
        }
        return basic_index(x, items, n, "npurt.basic_index");
      },
      nb::arg("x"), nb::arg("key").none(),
      "npurt::basic_index: the view x[key] for a basic key (ints, slices of ints, None, ..., bools), "
      "a ValueError (nr.InvalidArgumentError) for a bad key.");
}

}  // namespace npurt::python
