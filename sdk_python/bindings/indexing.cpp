// sdk_python/bindings/indexing.cpp: the C++ fast path of nr.ndarray's x[key]
// and x[key] = value for basic keys.
//
// Why: x[1:3] ran the Python indexing layer (sdk_python/npurt/array_api/indexing.py:
// key expansion, slice.indices, _view) for ~31k instructions, 40x an `x + y`.
// install_index_slots() points the ndarray type's mp_subscript and
// mp_ass_subscript at the functions below:
//   - x[key]: a key of Python ints, numpy integer scalars, 0-d integer
//     nr.ndarrays (read with x.item()), slices of ints (any step), None,
//     Ellipsis and bools, alone or in a tuple, is read into npurt::IndexItems
//     and answered by npurt::basic_index (npurt/basic_index.h), the public
//     C++ helper;
//   - x[key] = v: the same keys, for an array on the current device, and a
//     scalar value (Python bool / int up to 64 bits / float / complex, numpy
//     bool_, integer, floating and complexfloating scalars, ml_dtypes
//     scalars) that fill writes exactly as numpy converts it into the array's
//     dtype (npurt/fill_value.h's rule: numpy's rounding, truncation and range
//     rules; ints beyond 2^53 exact through fill's value_int): one `fill`
//     kernel writes it into the view, contiguous or strided
//     (npurt::ops::fill_into); an nr.ndarray value (cast by `astype` when its
//     dtype differs), a numpy array (uploaded in its own dtype, then cast by
//     `astype` on the device) or a list / tuple (one numpy.asarray into the
//     array's dtype on the host, then uploaded) is broadcast and written by
//     one `copy` kernel (npurt::ops::copy_into);
//   - x[key] for keys holding integer index arrays: index_advanced.h
//     (npurt::AdvancedIndex::take, one `gather`);
//   - x[key] = v for keys holding index arrays (several integer arrays,
//     slices, integers, ..., None next to them, a bool nr.ndarray mask):
//     index_advanced.h (npurt::AdvancedIndex, the public C++ plan), after the
//     steps above declined the key.
// The values are read by index_values.h (one rule for every key kind).
// Everything else (float -> int / complex -> real numpy arrays, values numpy
// warns about or refuses, other devices, broadcast targets, subclasses, key
// entries the C++ side does not read) and every error calls the Python
// layer's getitem / setitem (kept on the type as _py___getitem__ /
// _py___setitem__, see install_index_slots), so the exact error text (npurt
// error classes: nr.IndexingError ...) stays that layer's; mask getitem too.
// Invariant: the fast path returns the very view (shape, strides, offset) and
// writes the very values of the Python path; tests/python/array_structure/
// test_indexing_fast_path.py and test_setitem_fast_path.py compare the two.
#include <cstdint>
#include <utility>

#include "bindings.h"
#include "host_transfer.h"
#include "index_advanced.h"
#include "index_values.h"
#include "npurt/basic_index.h"
#include "npurt/fill_value.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

constexpr Py_ssize_t kMaxItems = 32;  // longer keys take the Python path
PyTypeObject* g_type = nullptr;  // nr.ndarray (exact type only: subclasses take the Python path)

// o's __index__ as a long long; false (no error left set) when o has none or it overflows.
bool index_value(PyObject* o, long long* v) {
  PyObject* i = PyNumber_Index(o);
  if (!i) {
    PyErr_Clear();
    return false;
  }
  int overflow = 0;
  *v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow || (*v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  return true;
}

// A 0-d integer nr.ndarray key's value (x.item(): one blocking read of the
// element, what the Python path's operator.index does through x.numpy()).
bool read_array_index(PyObject* k, long long* v) {
  const Tensor& t = *nb::inst_ptr<Tensor>(nb::handle(k));
  const DTypeKind kind = dtype_info(t.dtype()).kind;
  if (t.ndim() != 0 || (kind != DTypeKind::kSignedInt && kind != DTypeKind::kUnsignedInt)) return false;
  PyObject* i = PyObject_CallMethodNoArgs(k, interned("item"));
  int overflow = 0;
  *v = i && PyLong_CheckExact(i) ? PyLong_AsLongLongAndOverflow(i, &overflow) : 0;
  const bool ok = i && PyLong_CheckExact(i) && !overflow && !PyErr_Occurred();
  Py_XDECREF(i);
  if (!ok) PyErr_Clear();
  return ok;
}

}  // namespace

// One key entry as an IndexItem; false for anything else (no error left set).
bool read_index_item(PyObject* k, IndexItem* out) {
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
    long long v = 0;
    if (!index_value(k, &v)) return false;
    *out = IndexItem::integer(v);
  } else if (g_type && Py_TYPE(k) == g_type) {
    long long v = 0;
    if (!read_array_index(k, &v)) return false;
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

namespace {

// The key as IndexItems; false when an entry is not a plain basic one.
bool read_key(PyObject* key, IndexItem* items, size_t* n) {
  if (!PyTuple_Check(key)) {
    *n = 1;
    return read_index_item(key, items);
  }
  const Py_ssize_t len = PyTuple_GET_SIZE(key);
  if (len > kMaxItems) return false;
  for (Py_ssize_t i = 0; i < len; ++i)
    if (!read_index_item(PyTuple_GET_ITEM(key, i), &items[i])) return false;
  *n = static_cast<size_t>(len);
  return true;
}

#if !defined(Py_LIMITED_API)
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
    if (!v.defined()) v = fast_index_take(self, key, g_type);
    if (v.defined()) return new_ndarray(std::move(v)).release().ptr();
  } catch (...) {
    return raise_current();
  }
  return call_python(self, g_getitem, key, nullptr);
}

bool fast_fill(PyObject* self, PyObject* key, PyObject* value) {
  if (Py_TYPE(self) != g_type) return false;
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  FillValue v;
  if (x.read_only() || !read_scalar(value, &v) || !fills_like_numpy(v, x.dtype()) ||
      !(x.device() == current_device()))
    return false;
  Tensor view = fast_view(self, key, "npurt.ndarray.__setitem__");
  if (!view.defined()) return false;
  if (view.numel() == 0) return true;
  for (size_t d = 0; d < view.ndim(); ++d)  // a broadcast (read-only) target is the Python path's to refuse
    if (view.shape()[d] > 1 && view.strides()[d] == 0) return false;
  ops::fill_into(view, v);
  return true;
}

// Whether `from` broadcasts to `to` as numpy (and the Python path's
// broadcast_to) does: trailing dims aligned, size-1 dims stretched; a value
// with more dims is refused (as by the Python path).
bool broadcasts(const Dims& from, const Dims& to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (from[d] != to[lead + d] && from[d] != 1) return false;
  return true;
}

// src broadcast to shape (broadcasts(src.shape(), shape) holds): size-1 dims get stride 0.
Tensor broadcast_view(const Tensor& src, const Dims& shape) {
  Dims strides(shape.size(), 0);
  const size_t lead = shape.size() - src.ndim();
  for (size_t d = 0; d < src.ndim(); ++d)
    if (src.shape()[d] == shape[lead + d]) strides[lead + d] = src.strides()[d];
  return src.view(shape, strides, src.byte_offset());
}

// The view self[key] an array value is written into, or an undefined Tensor
// when the fast path does not take it: a read-only array, not one on the current device, a
// key it does not read, a broadcast (read-only) target, or a value of
// `value_shape` that does not broadcast to the view (the Python path raises).
Tensor assignable_view(PyObject* self, PyObject* key, const Dims& value_shape) {
  if (Py_TYPE(self) != g_type) return Tensor();
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  if (x.read_only() || !(x.device() == current_device())) return Tensor();  // read-only: Python raises
  Tensor view = fast_view(self, key, "npurt.ndarray.__setitem__");
  if (!view.defined()) return Tensor();
  for (size_t d = 0; d < view.ndim(); ++d)
    if (view.shape()[d] > 1 && view.strides()[d] == 0) return Tensor();
  return broadcasts(value_shape, view.shape()) ? view : Tensor();
}

// src (the view's dtype) broadcast and written into view by one `copy`
// (npurt::ops::copy_into), copied first when it shares the view's storage.
void write_array(const Tensor& view, const Tensor& value) {
  if (view.numel() == 0) return;
  Tensor src = broadcast_view(value, view.shape());
  if (src.storage() == view.storage()) src = ops::copy(src);  // read everything before anything is overwritten
  ops::copy_into(view, src);
}

// self[key] = value for an nr.ndarray value on the array's (current) device:
// cast to the array's dtype (the `astype` kernel, as nr.astype), then
// write_array; false when the fast path does not apply.
bool fast_copy(PyObject* self, PyObject* key, PyObject* value) {
  if (Py_TYPE(value) != g_type) return false;
  Tensor src = *nb::inst_ptr<Tensor>(nb::handle(value));
  const Tensor view = assignable_view(self, key, src.shape());
  if (!view.defined() || !(src.device() == view.device())) return false;
  src = device_cast(src, view.dtype());
  if (!src.defined()) return false;  // a pair astype refuses: the Python path raises its TypeError
  write_array(view, src);
  return true;
}

// self[key] = value for a numpy.ndarray (exact type) or a list / tuple
// (host_value): uploaded on the array's stream in its own dtype as the Python
// path's asarray does (host_transfer.h), converted on the device by `astype`
// when the dtypes differ (as nr.astype), then write_array.
bool fast_upload(PyObject* self, PyObject* key, PyObject* value) {
  if (Py_TYPE(self) != g_type) return false;
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  DType dtype = x.dtype();
  const nb::object v = host_value(value, x.dtype(), &dtype);
  if (v.is_none()) return false;
  Dims shape;
  for (nb::handle d : v.attr("shape")) shape.push_back(nb::cast<int64_t>(d));
  const Tensor view = assignable_view(self, key, shape);
  if (!view.defined()) return false;
  if (view.numel() == 0) return true;
  const Tensor src = device_cast(tensor_from_numpy(v, dtype, x.stream()), x.dtype());
  if (!src.defined()) return false;
  write_array(view, src);
  return true;
}

int setitem_slot(PyObject* self, PyObject* key, PyObject* value) {
  PyObject* r = nullptr;
  if (!value) {
    r = call_python(self, g_delitem, key, nullptr);
  } else {
    try {
      if (fast_fill(self, key, value) || fast_copy(self, key, value) || fast_upload(self, key, value) ||
          fast_index_put(self, key, value, g_type))
        return 0;
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
  if (!read_index_item(k.ptr(), &item))
    throw_invalid_argument("npurt.basic_index", "key", "entries must be ints, slices of ints, None, ... or bools");
  return item;
}

}  // namespace

void bind_indexing(nb::module_& m) {
  m.def("_install_index_slots", [m]() { install_index_slots(m.attr("ndarray")); },
        "Points ndarray's x[key] and x[key] = v at the C++ fast path (call after setting __getitem__).");
  m.def("_copy_into", [](const Tensor& dst, const Tensor& src) { ops::copy_into(dst, src); }, nb::arg("dst"),
        nb::arg("src"),
        "npurt::ops::copy_into: src (dst's shape and dtype) written into the view dst by one copy launch.");
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
