// sdk_python/bindings/operators.cpp: the C++ fast path of nr.ndarray's
// operators (x + y, x < y, ...) and reduction methods (x.sum(), x.max(), ...).
//
// Each method handles the common case itself through the public C++ API
// (npurt/array_ops.h): for operators, two arrays of one dtype; for the
// reductions, a float16/float32/float64 array with axis None or an int and a
// bool keepdims (also `_npurt._fast_<name>`, which the array-API functions
// nr.sum(x) ... try first). `_npurt._array_reduce` is the general npurt::array::reduce
// (ReduceArgs) that reductions.py calls for the rest (`_array_scan`: npurt::array::scan
// for _scan.py). Everything else (Python scalars, dtype promotion, foreign
// types and NotImplemented, tuples of axes, dtype=, bad arguments and their
// errors) calls the Python implementation the array-API layer attaches to the
// class as `_py_<name>` (sdk_python/npurt/array_api/_operators.py,
// reductions.py), looked up on the type at each call, so this file holds no
// Python object and the semantics stay those of that layer.
//
// Invariant: the fast path gives the very result of the Python path (same
// kernel, same attributes, same error text), it only skips the interpreter.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "bindings.h"
#include "npurt/array_ops.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"
#include "temporary_check.h"

namespace npurt::python {

// errors.cpp: sets the Python error of an npurt::Error (its class table).
void raise_error(StatusCode code, const char* message);

// The new Python ndarray owning t: the instance is allocated straight from the
// bound type (cached once) and t is moved in, which is what nb::cast(Tensor&&)
// does minus its per-call type-map lookup (~15 % of the cast; tiny ops count).
nb::object new_ndarray(Tensor&& t) {
  static const nb::handle type = nb::type<Tensor>();
  nb::object o = nb::inst_alloc(type);
  new (nb::inst_ptr<Tensor>(o)) Tensor(std::move(t));
  nb::inst_mark_ready(o);
  return o;
}

// The Python exception for the C++ exception being handled (what nanobind's
// function dispatch does for binary_method's exceptions).
PyObject* raise_current() {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const Error& e) {
    raise_error(e.code(), e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_SystemError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_SystemError, "npurt: unknown C++ exception in an ndarray operator or op call");
  }
  return nullptr;
}

PyObject* interned(const std::string& s) {
  PyObject* o = PyUnicode_InternFromString(s.c_str());
  if (!o) throw nb::python_error();
  return o;
}

namespace {

using array::BinaryOp;
using array::ReduceOp;
using array::ScanOp;

struct BinarySlot {
  const char* dunder;
  BinaryOp op;
};

constexpr BinarySlot kBinarySlots[] = {
    {"__add__", BinaryOp::kAdd}, {"__sub__", BinaryOp::kSubtract}, {"__mul__", BinaryOp::kMultiply},
    {"__truediv__", BinaryOp::kDivide}, {"__floordiv__", BinaryOp::kFloorDivide},
    {"__mod__", BinaryOp::kRemainder}, {"__pow__", BinaryOp::kPow}, {"__and__", BinaryOp::kBitwiseAnd},
    {"__or__", BinaryOp::kBitwiseOr}, {"__xor__", BinaryOp::kBitwiseXor},
    {"__lshift__", BinaryOp::kBitwiseLeftShift}, {"__rshift__", BinaryOp::kBitwiseRightShift},
    {"__lt__", BinaryOp::kLess}, {"__le__", BinaryOp::kLessEqual}, {"__gt__", BinaryOp::kGreater},
    {"__ge__", BinaryOp::kGreaterEqual}, {"__eq__", BinaryOp::kEqual}, {"__ne__", BinaryOp::kNotEqual},
};
constexpr int kNumBinarySlots = sizeof(kBinarySlots) / sizeof(kBinarySlots[0]);

struct ReduceSlot {
  const char* name;
  ReduceOp op;
};
constexpr ReduceSlot kReduceSlots[] = {
    {"sum", ReduceOp::kSum}, {"prod", ReduceOp::kProd}, {"max", ReduceOp::kMax},
    {"min", ReduceOp::kMin}, {"mean", ReduceOp::kMean},
};
constexpr int kNumReduceSlots = sizeof(kReduceSlots) / sizeof(kReduceSlots[0]);

// Interned "_py_<name>" strings: plain str objects, never freed (no instance of ours).
PyObject* g_binary_fallback[kNumBinarySlots];
PyObject* g_reduce_fallback[kNumReduceSlots];
PyObject* g_axis;
PyObject* g_keepdims;

// type(self)._py_<name>(self, *args, **kwargs): the array-API layer's method.
nb::object call_fallback(PyObject* name, nb::handle self, PyObject* const* rest, size_t nrest, PyObject* kwargs) {
  PyObject* fn = PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr())), name);
  if (!fn) throw nb::python_error();
  PyObject* args = PyTuple_New(static_cast<Py_ssize_t>(nrest + 1));
  if (!args) {
    Py_DECREF(fn);
    throw nb::python_error();
  }
  Py_INCREF(self.ptr());
  PyTuple_SET_ITEM(args, 0, self.ptr());
  for (size_t i = 0; i < nrest; ++i) {
    Py_INCREF(rest[i]);
    PyTuple_SET_ITEM(args, static_cast<Py_ssize_t>(i + 1), rest[i]);
  }
  PyObject* r = PyObject_Call(fn, args, kwargs);
  Py_DECREF(args);
  Py_DECREF(fn);
  if (!r) throw nb::python_error();
  return nb::steal(r);
}

bool floating_or_complex(DType t) { return is_floating(t) || is_complex(t); }

// The Python object dies with this call (temporary_check.h). Small arrays are
// never deferred, so they skip the stack walk.
bool expiring(nb::handle obj, const Tensor& t) {
  constexpr int64_t kMinDeferrable = int64_t{1} << 18;  // deferred_fusion.h kDeferMinElements
  return Py_REFCNT(obj.ptr()) == 1 && t.numel() >= kMinDeferrable && called_from_interpreter();
}

// both_arrays: the caller saw two exact ndarrays (number_slot), so nanobind's
// type checks (a type-map lookup each) are skipped.
nb::object binary_method(int slot, nb::handle self, nb::handle other, bool both_arrays = false) {
  if (both_arrays || (nb::isinstance<Tensor>(self) && nb::isinstance<Tensor>(other))) {
    const Tensor& a = *nb::inst_ptr<Tensor>(self);
    const Tensor& b = *nb::inst_ptr<Tensor>(other);
    const BinaryOp op = kBinarySlots[slot].op;
    // divide of integers promotes to float first: the Python path does that.
    // An operand whose Python object only the interpreter's stack holds dies
    // with this call: its handle may be fused away (array_ops.h, deferred fusion).
    if (a.dtype() == b.dtype() && (op != BinaryOp::kDivide || floating_or_complex(a.dtype())))
      return new_ndarray(array::binary(op, a, b, expiring(self, a), expiring(other, b)));
  }
  PyObject* rest[1] = {other.ptr()};
  return call_fallback(g_binary_fallback[slot], self, rest, 1, nullptr);
}

// ---- the ndarray type's number slots ---------------------------------------
//
// Why: `x + y` reached binary_method through CPython's generic slot_nb_add,
// which looks `__add__` up on the type and calls the nanobind function object
// (argument conversion, overload dispatch): ~1/8 of a tiny add (callgrind,
// docs/performance.md "Tiny ops (wave 7)"). install_number_slots() points the
// type's nb_add (etc.) here. Two exact ndarrays take binary_method directly;
// every other pairing runs binary_protocol, the same __op__ / __rop__ protocol
// as CPython's SLOT1BINFULL (typeobject.c), so Python scalars, subclasses,
// foreign types and NotImplemented behave as before.
// Invariants: installed after the array-API layer set __radd__ etc. (setting a
// dunder on the type makes CPython reset the slot to its generic one: still
// correct, only slower); not done under the limited API (no slot setters).
#if !defined(Py_LIMITED_API)
struct NumberSlot {
  int binary;           // index into kBinarySlots
  size_t offset;        // of the slot in PyNumberMethods
  const char* rdunder;  // reflected method
};
constexpr NumberSlot kNumberSlots[] = {
    {0, offsetof(PyNumberMethods, nb_add), "__radd__"},
    {1, offsetof(PyNumberMethods, nb_subtract), "__rsub__"},
    {2, offsetof(PyNumberMethods, nb_multiply), "__rmul__"},
    {3, offsetof(PyNumberMethods, nb_true_divide), "__rtruediv__"},
    {4, offsetof(PyNumberMethods, nb_floor_divide), "__rfloordiv__"},
    {5, offsetof(PyNumberMethods, nb_remainder), "__rmod__"},
    {7, offsetof(PyNumberMethods, nb_and), "__rand__"},
    {8, offsetof(PyNumberMethods, nb_or), "__ror__"},
    {9, offsetof(PyNumberMethods, nb_xor), "__rxor__"},
    {10, offsetof(PyNumberMethods, nb_lshift), "__rlshift__"},
    {11, offsetof(PyNumberMethods, nb_rshift), "__rrshift__"},
};
constexpr int kNumNumberSlots = sizeof(kNumberSlots) / sizeof(kNumberSlots[0]);
PyTypeObject* g_ndarray_type = nullptr;
PyObject* g_dunder[kNumNumberSlots];   // interned "__add__", ...
PyObject* g_rdunder[kNumNumberSlots];  // interned "__radd__", ...
binaryfunc g_number_fn[kNumNumberSlots];

binaryfunc slot_of(PyTypeObject* t, int n) {
  PyNumberMethods* nm = t->tp_as_number;
  return nm ? *reinterpret_cast<binaryfunc*>(reinterpret_cast<char*>(nm) + kNumberSlots[n].offset) : nullptr;
}

// type(self).<name> called on (self, arg); NotImplemented when the type has no
// such attribute (CPython's vectorcall_maybe).
PyObject* call_dunder(PyObject* self, PyObject* name, PyObject* arg) {
  PyObject* f = _PyType_Lookup(Py_TYPE(self), name);  // borrowed
  if (!f) Py_RETURN_NOTIMPLEMENTED;
  if (PyType_HasFeature(Py_TYPE(f), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
    PyObject* args[2] = {self, arg};
    return PyObject_Vectorcall(f, args, 2, nullptr);
  }
  descrgetfunc get = Py_TYPE(f)->tp_descr_get;
  PyObject* bound = get ? get(f, self, reinterpret_cast<PyObject*>(Py_TYPE(self))) : (Py_INCREF(f), f);
  if (!bound) return nullptr;
  PyObject* r = PyObject_CallOneArg(bound, arg);
  Py_DECREF(bound);
  return r;
}

// 1 when type(right).name is not type(left).name (CPython's method_is_overloaded).
int method_is_overloaded(PyObject* left, PyObject* right, PyObject* name) {
  PyObject* b = PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(right)), name);
  if (!b) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 0;
  }
  PyObject* a = PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(left)), name);
  if (!a) {
    Py_DECREF(b);
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 1;
  }
  const int ok = PyObject_RichCompareBool(a, b, Py_NE);
  Py_DECREF(a);
  Py_DECREF(b);
  return ok;
}

PyObject* binary_protocol(int n, PyObject* self, PyObject* other) {
  const binaryfunc mine = g_number_fn[n];
  int do_other = Py_TYPE(self) != Py_TYPE(other) && slot_of(Py_TYPE(other), n) == mine;
  if (slot_of(Py_TYPE(self), n) == mine) {
    if (do_other && PyType_IsSubtype(Py_TYPE(other), Py_TYPE(self))) {
      const int ok = method_is_overloaded(self, other, g_rdunder[n]);
      if (ok < 0) return nullptr;
      if (ok) {
        PyObject* r = call_dunder(other, g_rdunder[n], self);
        if (r != Py_NotImplemented) return r;
        Py_DECREF(r);
        do_other = 0;
      }
    }
    PyObject* r = call_dunder(self, g_dunder[n], other);
    if (r != Py_NotImplemented || Py_TYPE(other) == Py_TYPE(self)) return r;
    Py_DECREF(r);
  }
  if (do_other) return call_dunder(other, g_rdunder[n], self);
  Py_RETURN_NOTIMPLEMENTED;
}

// ---- float32 array <op> Python scalar (+, -, *) ---------------------------------
//
// Why: `x * 2.0` took the whole Python path (binary_protocol -> __mul__ ->
// _py___mul__ -> multiply -> _convert.operands -> _array_binary_const), several
// interpreter frames per call. For an exact float32 ndarray and an exact
// Python float or int, that path always ends in
// npurt::array::binary_with_constant(op, array, constant float32(value)), with
// the constant the cached 0-d array of scalar_constants.cpp (the cache
// _convert.constant uses too); this does the same directly. Everything else (other dtypes, bool, huge ints, other devices,
// other operators) still takes binary_protocol.

// A Python float, or an int that float() converts exactly and once (|v| <= 2^53).
bool plain_scalar(PyObject* o, double& value) {
  if (PyFloat_CheckExact(o)) {
    value = PyFloat_AS_DOUBLE(o);
    return true;
  }
  if (!PyLong_CheckExact(o)) return false;  // bool is not exact int
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || v > (1LL << 53) || v < -(1LL << 53)) {
    if (!overflow && v == -1 && PyErr_Occurred()) PyErr_Clear();
    return false;
  }
  value = static_cast<double>(v);
  return true;
}

// The result of `self <op> other` for a float32 ndarray and a plain scalar on
// either side (op: add, subtract or multiply), or nullptr with no error set
// when the pairing is not that one.
PyObject* scalar_binary(BinaryOp op, PyObject* self, PyObject* other, bool& handled) {
  const bool left_array = Py_TYPE(self) == g_ndarray_type;
  PyObject* arr = left_array ? self : other;
  double value = 0;
  handled = Py_TYPE(arr) == g_ndarray_type && plain_scalar(left_array ? other : self, value);
  if (!handled) return nullptr;
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(arr));
  if (x.dtype() != DType::kFloat32 || !(x.device() == current_device())) {
    handled = false;
    return nullptr;
  }
  try {
    const Tensor c = scalar_constant(nb::handle(left_array ? other : self), DType::kFloat32, "npurt.ndarray operator");
    const float f = static_cast<float>(value);
    return new_ndarray(left_array ? array::binary_with_constant(op, x, c, 1, f)
                                  : array::binary_with_constant(op, c, x, 0, f))
        .release()
        .ptr();
  } catch (...) {
    return raise_current();
  }
}

template <int N>
PyObject* number_slot(PyObject* self, PyObject* other) {
  if (Py_TYPE(self) != g_ndarray_type || Py_TYPE(other) != g_ndarray_type) {
    constexpr BinaryOp op = kBinarySlots[kNumberSlots[N].binary].op;
    if constexpr (op == BinaryOp::kAdd || op == BinaryOp::kSubtract || op == BinaryOp::kMultiply) {
      bool handled = false;
      PyObject* r = scalar_binary(op, self, other, handled);
      if (handled) return r;
    }
    return binary_protocol(N, self, other);
  }
  try {
    return binary_method(kNumberSlots[N].binary, self, other, true).release().ptr();
  } catch (...) {
    return raise_current();
  }
}

template <int... N>
void fill_number_fns(std::integer_sequence<int, N...>) {
  ((g_number_fn[N] = &number_slot<N>), ...);
}
#endif  // !Py_LIMITED_API

// Points the ndarray type's binary number slots at number_slot (see above).
void install_number_slots(nb::handle cls) {
#if !defined(Py_LIMITED_API)
  PyTypeObject* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (!t->tp_as_number) return;
  if (!g_ndarray_type) {
    fill_number_fns(std::make_integer_sequence<int, kNumNumberSlots>());
    for (int n = 0; n < kNumNumberSlots; ++n) {
      g_dunder[n] = interned(kBinarySlots[kNumberSlots[n].binary].dunder);
      g_rdunder[n] = interned(kNumberSlots[n].rdunder);
    }
    g_ndarray_type = t;
  }
  for (int n = 0; n < kNumNumberSlots; ++n)
    *reinterpret_cast<binaryfunc*>(reinterpret_cast<char*>(t->tp_as_number) + kNumberSlots[n].offset) = g_number_fn[n];
  PyType_Modified(t);
#else
  (void)cls;
#endif
}

bool fast_reduce_dtype(DType t) { return t == DType::kFloat32 || t == DType::kFloat16 || t == DType::kFloat64; }

// Reads an axis argument when it is None (all stays true) or an int in
// [-ndim, ndim); false sends the call to the Python path, which raises the AxisError.
bool plain_axis(PyObject* value, int64_t ndim, bool& all, int64_t& axis) {
  if (value == Py_None) return true;
  if (!PyLong_CheckExact(value)) return false;
  int overflow = 0;
  const long long a = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow || a < -ndim || a >= ndim) return false;
  all = false;
  axis = a < 0 ? a + ndim : a;
  return true;
}

// Reads axis/keepdims when they are the plain common values; false sends the
// call to the Python path (which also raises every argument error).
bool plain_reduce_kwargs(PyObject* kwargs, int64_t ndim, bool& all, int64_t& axis, bool& keepdims) {
  all = true;
  keepdims = false;
  if (kwargs == nullptr || PyDict_GET_SIZE(kwargs) == 0) return true;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(kwargs, &pos, &key, &value)) {
    if (PyUnicode_Compare(key, g_keepdims) == 0) {
      if (value != Py_True && value != Py_False) return false;
      keepdims = value == Py_True;
    } else if (PyUnicode_Compare(key, g_axis) != 0 || !plain_axis(value, ndim, all, axis)) {
      return false;
    }
  }
  return true;
}

// The fast path's reduction of x (fast_reduce_dtype) over every axis or `axis`.
nb::object plain_reduce(int slot, const Tensor& x, bool all, int64_t axis, bool keepdims) {
  const ReduceOp op = kReduceSlots[slot].op;
  return new_ndarray(all ? array::reduce(op, x, keepdims) : array::reduce(op, x, Dims{axis}, keepdims));
}

nb::object reduce_method(int slot, nb::handle self, nb::args args, nb::kwargs kwargs) {
  if (args.size() == 0 && nb::isinstance<Tensor>(self)) {
    const Tensor& x = *nb::inst_ptr<Tensor>(self);
    bool all = true, keepdims = false;
    int64_t axis = 0;
    if (fast_reduce_dtype(x.dtype()) &&
        plain_reduce_kwargs(kwargs.ptr(), static_cast<int64_t>(x.ndim()), all, axis, keepdims))
      return plain_reduce(slot, x, all, axis, keepdims);
  }
  const size_t n = args.size();
  PyObject* const* rest = n ? &PyTuple_GET_ITEM(args.ptr(), 0) : nullptr;
  return call_fallback(g_reduce_fallback[slot], self, rest, n, kwargs.ptr());
}

// npurt._fast_<name>(x, axis, keepdims): the methods' fast path for the
// array-API functions (nr.sum(x) ...; reductions.py calls it first when dtype
// is None): the result, or None when x, its dtype, axis or keepdims need the
// Python path. nr.sum(x) right after a 64 MiB sum ran ~13 us of Python on
// cold caches before its launch (docs/performance.md "Sum launch edges (wave 12)").
nb::object reduce_function(int slot, nb::handle x, nb::handle axis, nb::handle keepdims) {
  if (!nb::isinstance<Tensor>(x) || (keepdims.ptr() != Py_True && keepdims.ptr() != Py_False)) return nb::none();
  const Tensor& t = *nb::inst_ptr<Tensor>(x);
  bool all = true;
  int64_t a = 0;
  if (!fast_reduce_dtype(t.dtype()) || !plain_axis(axis.ptr(), static_cast<int64_t>(t.ndim()), all, a))
    return nb::none();
  return plain_reduce(slot, t, all, a, keepdims.ptr() == Py_True);
}

// ReduceArgs of an axes argument (None = every axis, else a sequence of ints).
array::ReduceArgs reduce_args(nb::handle axes) {
  array::ReduceArgs args;
  args.all_axes = axes.is_none();
  if (!args.all_axes)
    for (nb::handle a : axes) args.axes.push_back(nb::cast<int64_t>(a));
  return args;
}

// npurt::array::reduce(ReduceArgs) by kind name ("sum", ..., "any", "all");
// axes None = every axis.
Tensor array_reduce(const std::string& kind, const Tensor& x, nb::handle axes, bool keepdims, bool float32_result) {
  for (int i = 0; i <= static_cast<int>(ReduceOp::kAll); ++i) {
    const ReduceOp op = static_cast<ReduceOp>(i);
    if (kind != array::reduce_op_name(op)) continue;
    array::ReduceArgs args = reduce_args(axes);
    args.keepdims = keepdims;
    args.float32_result = float32_result;
    return array::reduce(op, x, args);
  }
  throw nb::value_error(("npurt._array_reduce: argument 'kind': unknown reduction '" + kind + "'").c_str());
}

// npurt::array::scan by kind name ("cumulative_sum", "cumulative_prod").
Tensor array_scan(const std::string& kind, const Tensor& x, int64_t axis, const std::string& dtype,
                  bool include_initial) {
  for (ScanOp op : {ScanOp::kSum, ScanOp::kProd})
    if (kind == array::scan_op_name(op)) return array::scan(op, x, axis, array::ScanArgs{dtype, include_initial});
  throw nb::value_error(("npurt._array_scan: argument 'kind': unknown scan '" + kind + "'").c_str());
}

// reduce_plan as (outer, len, inner, part_len, parts).
nb::tuple array_reduce_plan(const Tensor& x, nb::handle axes) {
  const array::ReducePlan p = array::reduce_plan(x, reduce_args(axes));
  return nb::make_tuple(p.outer, p.len, p.inner, p.part_len, p.parts);
}

}  // namespace

// npurt::array::binary for add / subtract / multiply of one dtype from the
// array-API functions (_elementwise.py): the same kernel as ops.<kernel>, but
// deferrable, so `a * 2 + b` fuses like `a * x + y`.
Tensor array_binary(int op, const Tensor& x1, const Tensor& x2) {
  if (op < 0 || op >= array::kNumBinaryOps)
    throw nb::value_error("npurt._array_binary: argument 'op': unknown operator");
  return array::binary(static_cast<BinaryOp>(op), x1, x2);
}

// binary_with_constant: operand `pos` is the cached 0-d constant of the
// Python scalar `value` (_convert.constant), so a deferred op may fuse the value.
Tensor array_binary_const(int op, const Tensor& x1, const Tensor& x2, int pos, double value) {
  if (op < 0 || op >= array::kNumBinaryOps)
    throw nb::value_error("npurt._array_binary_const: argument 'op': unknown operator");
  return array::binary_with_constant(static_cast<BinaryOp>(op), x1, x2, pos, static_cast<float>(value));
}

void bind_operators(nb::module_& m) {
  m.def("_array_binary_const", &array_binary_const, nb::arg("op"), nb::arg("x1"), nb::arg("x2"), nb::arg("pos"),
        nb::arg("value"), "npurt::array::binary_with_constant (operand `pos` holds float32(value)).");
  m.def("_array_binary", &array_binary, nb::arg("op"), nb::arg("x1"), nb::arg("x2"),
        "npurt::array::binary(op, x1, x2) (op: BinaryOp's number).");
  m.def("set_deferred_fusion", &array::set_deferred_fusion, nb::arg("enabled"),
        "npurt::array::set_deferred_fusion: turns the deferred elementwise fusion on or off (off flushes).");
  m.def("deferred_fusion_enabled", &array::deferred_fusion_enabled, "npurt::array::deferred_fusion_enabled.");
  m.def("flush_deferred", &array::flush_deferred, "npurt::array::flush_deferred.");
  m.def("_deferred_fusion_count", &array::deferred_fusion_count, "npurt::array::deferred_fusion_count.");
  m.def("_install_operator_slots", [m]() { install_number_slots(m.attr("ndarray")); },
        "Points ndarray's binary number slots at the C++ fast path (call after setting __r<op>__).");
  m.def("_array_reduce_plan", &array_reduce_plan, nb::arg("x"), nb::arg("axes").none(),
        "npurt::array::reduce_plan: (outer, len, inner, part_len, parts) of a reduction.");
  m.def("_array_reduce", &array_reduce, nb::arg("kind"), nb::arg("x"), nb::arg("axes").none(), nb::arg("keepdims"),
        nb::arg("float32_result"), "npurt::array::reduce(ReduceArgs): the reductions' one entry (reductions.py).");
  m.def("_array_scan", &array_scan, nb::arg("kind"), nb::arg("x"), nb::arg("axis"), nb::arg("dtype"),
        nb::arg("include_initial"), "npurt::array::scan: cumulative_sum / _prod with the long-1-D split (_scan.py).");
  nb::handle cls = m.attr("ndarray");
  g_axis = interned("axis");
  g_keepdims = interned("keepdims");
  for (int i = 0; i < kNumBinarySlots; ++i) {
    const char* dunder = kBinarySlots[i].dunder;
    g_binary_fallback[i] = interned(std::string("_py") + dunder);
    nb::object f = nb::cpp_function(
        [i](nb::handle self, nb::handle other) { return binary_method(i, self, other); }, nb::is_method(),
        nb::scope(cls), nb::name(dunder), nb::arg("other").none());  // None: NotImplemented via Python
    nb::setattr(cls, dunder, f);
  }
  for (int i = 0; i < kNumReduceSlots; ++i) {
    const char* name = kReduceSlots[i].name;
    g_reduce_fallback[i] = interned(std::string("_py_") + name);
    nb::object f = nb::cpp_function(
        [i](nb::handle self, nb::args args, nb::kwargs kwargs) { return reduce_method(i, self, args, kwargs); },
        nb::is_method(), nb::scope(cls), nb::name(name));
    nb::setattr(cls, name, f);
    m.def((std::string("_fast_") + name).c_str(),
          [i](nb::handle x, nb::handle axis, nb::handle keepdims) { return reduce_function(i, x, axis, keepdims); },
          nb::arg("x").none(), nb::arg("axis").none(), nb::arg("keepdims").none(),
          "The reduction methods' fast path (reductions.py): the result, or None for the Python path.");
  }
}

}  // namespace npurt::python
