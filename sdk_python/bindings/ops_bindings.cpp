// sdk_python/bindings/ops_bindings.cpp: nr.ops: registered ops as Python callables.
//
// An OpFunction holds an OpHandle resolved once; calling it converts the
// arguments (inputs positional or by name, attributes by keyword, out=,
// stream=) straight into dispatch(), with no Python-level wrapper in between.
// Instances carry a __dict__ so sdk_python/npurt/ops.py can attach the real
// __signature__ and __doc__ built from the schema (_op_schema).
//
// Invariants: no logic a C++ user would need lives here (checks, inference,
// tiling are in the dispatcher); errors are npurt::Error, translated by errors.cpp.
#include <string>
#include <vector>

#include "bindings.h"
#include "npurt/dispatch.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/plugin.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

constexpr size_t kMaxInline = 8;

struct OpFunction {
  OpHandle op;
  std::string where;  // "npurt.ops.<name>"
};

const Tensor& tensor_arg(nb::handle h, const std::string& where, const std::string& arg) {
  Tensor* t = nullptr;
  if (!nb::try_cast<Tensor*>(h, t) || t == nullptr)
    throw_invalid_argument(where, arg, std::string("expected an npurt.ndarray, got ") +
                                           nb::cast<std::string>(nb::str(h.type().attr("__qualname__"))) +
                                           " (move host data to the device with nr.asarray)");
  return *t;
}

// A Python int outside int64 is a clear error naming the attribute (nb::cast throws std::bad_cast).
int64_t int64_attr(nb::handle h, const AttrDef& def, const std::string& where) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0) throw_invalid_argument(where, def.name, "int " + nb::cast<std::string>(nb::str(h)) +
                                                                 " does not fit in int64");
  return static_cast<int64_t>(v);
}

AttrValue attr_arg(nb::handle h, const AttrDef& def, const std::string& where) {
  auto wrong = [&](const char* want) {
    throw_invalid_argument(where, def.name, std::string("expected ") + want + ", got " +
                                                nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  };
  switch (def.type) {
    case AttrType::kInt:
      if (PyBool_Check(h.ptr()) || !PyLong_Check(h.ptr())) wrong("int");
      return AttrValue(int64_attr(h, def, where));
    case AttrType::kFloat:
      if (PyBool_Check(h.ptr()) || !(PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()))) wrong("float");
      return AttrValue(nb::cast<double>(h));
    case AttrType::kBool:
      if (!PyBool_Check(h.ptr())) wrong("bool");
      return AttrValue(h.ptr() == Py_True);
    case AttrType::kString:
      if (!PyUnicode_Check(h.ptr())) wrong("str");
      return AttrValue(nb::cast<std::string>(h));
    case AttrType::kIntList: {
      if (PyUnicode_Check(h.ptr()) || !PySequence_Check(h.ptr())) wrong("a sequence of ints");
      std::vector<int64_t> v;
      for (nb::handle item : nb::iter(h)) {
        if (PyBool_Check(item.ptr()) || !PyLong_Check(item.ptr())) wrong("a sequence of ints");
        v.push_back(int64_attr(item, def, where));
      }
      return AttrValue(v);
    }
    case AttrType::kDType:
      return AttrValue(dtype_arg(h, where.c_str(), def.name.c_str()));
    default:
      break;
  }
  throw Error(StatusCode::kInternal, where + ": attribute '" + def.name + "' has no type");
}

// Places kwargs: input names, attribute names, out, stream.
void place_kwargs(const OpFunction& f, nb::kwargs kwargs, Tensor* inputs, std::vector<AttrValue>& attrs,
                  nb::handle& out, nb::handle& stream) {
  const OpDef& def = f.op.def();
  for (auto [key, value] : kwargs) {
    std::string k = nb::cast<std::string>(key);
    if (k == "out") { out = value; continue; }
    if (k == "stream") { stream = value; continue; }
    int i = def.input_index(k);
    if (i >= 0) {
      if (inputs[i].defined()) throw_invalid_argument(f.where, k, "given both by position and by name");
      if (!value.is_none()) inputs[i] = tensor_arg(value, f.where, k);
      continue;
    }
    int a = def.attr_index(k);
    if (a < 0) {
      std::string known;
      for (auto& d : def.attrs) known += (known.empty() ? "" : ", ") + d.name;
      throw_invalid_argument(f.where, k, "unexpected keyword argument (attributes: " +
                                             (known.empty() ? std::string("none") : known) + ")");
    }
    if (!value.is_none()) attrs[a] = attr_arg(value, def.attrs[a], f.where);
  }
}

nb::object call_op(const OpFunction& f, nb::args args, nb::kwargs kwargs) {
  const OpDef& def = f.op.def();
  const size_t num_in = def.inputs.size(), num_out = def.outputs.size();
  if (args.size() > num_in)
    throw_invalid_argument(f.where, "args", "takes " + std::to_string(num_in) + " positional input(s), got " +
                                                std::to_string(args.size()) + " (attributes are keyword-only)");
  if (num_in > kMaxInline || num_out > kMaxInline)
    throw Error(StatusCode::kUnimplemented, f.where + ": more than 8 inputs or outputs from Python");
  Tensor inputs[kMaxInline];
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_none()) inputs[i] = tensor_arg(args[i], f.where, def.inputs[i].name);
  std::vector<AttrValue> attrs;
  nb::handle out, stream_h;
  if (kwargs.size() > 0) {
    attrs.resize(def.attrs.size());
    place_kwargs(f, kwargs, inputs, attrs, out, stream_h);
  }
  Tensor outputs[kMaxInline];
  if (out.is_valid() && !out.is_none()) {
    if (num_out == 1 && !PyTuple_Check(out.ptr()) && !PyList_Check(out.ptr())) {
      outputs[0] = tensor_arg(out, f.where, "out");
    } else {
      if (nb::len(out) != num_out)
        throw_invalid_argument(f.where, "out", "expected " + std::to_string(num_out) + " arrays");
      for (size_t i = 0; i < num_out; ++i) outputs[i] = tensor_arg(out[i], f.where, "out");
    }
  }
  Stream stream;
  if (stream_h.is_valid() && !stream_h.is_none()) {
    // Checked here so the error names this op and 'stream' (a bare cast throws std::bad_cast).
    if (!nb::isinstance<Stream>(stream_h))
      throw_invalid_argument(f.where, "stream", "expected an npurt.Stream, got " +
                                                       std::string(nb::type_name(stream_h.type()).c_str()));
    stream = nb::cast<Stream>(stream_h);
    check_stream_open(stream, f.where.c_str());
  }
  dispatch(f.op, Span<const Tensor>(inputs, num_in), Span<const AttrValue>(attrs.data(), attrs.size()), stream,
           Span<Tensor>(outputs, num_out));
  // out= given as one array: return that very object, as numpy does (and skip
  // wrapping the same tensor in a new Python object on the hot path).
  if (num_out == 1 && out.is_valid() && !out.is_none() && !PyTuple_Check(out.ptr()) && !PyList_Check(out.ptr()))
    return nb::borrow(out);
  if (num_out == 1) return nb::cast(std::move(outputs[0]));
  nb::list result;
  for (size_t i = 0; i < num_out; ++i) result.append(nb::cast(std::move(outputs[i])));
  return nb::tuple(result);
}

#if !defined(Py_LIMITED_API)
// ---- the call slot: nr.ops.add(x, y) without nanobind's *args/**kwargs ----
//
// Why: `__call__` is a nanobind function taking *args and **kwargs, so every
// call went through CPython's slot_tp_call (a `__call__` lookup on the type),
// nanobind's argument dispatch and nb::cast of the result: ~30 % of a tiny
// op's caller time. op_call_slot serves the common form (every input
// positional, each an exact ndarray, no keywords or only `out=` an exact
// ndarray for an op without attributes, one output) with the same
// dispatch() call call_op makes; any other form goes to the slot CPython had
// installed for __call__ (g_default_call), so errors and results of the other
// forms are call_op's. Installed once by bind_ops, after __call__ is set.
ternaryfunc g_default_call = nullptr;

// The `out=` keyword of the fast form: the exact ndarray given as the only
// keyword `out` of an op without attributes (call_op then passes no attribute
// either), else nullptr. *fast becomes false for any other keyword form.
PyObject* fast_out_kwarg(PyObject* kwargs, const OpDef& def, PyTypeObject* ndarray_type, bool* fast) {
  if (kwargs == nullptr || PyDict_GET_SIZE(kwargs) == 0) return nullptr;
  static PyObject* const out_key = PyUnicode_InternFromString("out");
  PyObject* out = PyDict_GET_SIZE(kwargs) == 1 && def.attrs.empty() && out_key
                      ? PyDict_GetItemWithError(kwargs, out_key)  // borrowed
                      : nullptr;
  if (PyErr_Occurred()) PyErr_Clear();  // a key that cannot compare: the generic path reports it
  *fast = out != nullptr && Py_TYPE(out) == ndarray_type;
  return *fast ? out : nullptr;
}

PyObject* op_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  static PyTypeObject* const ndarray_type = reinterpret_cast<PyTypeObject*>(nb::type<Tensor>().ptr());
  const OpFunction& f = *nb::inst_ptr<OpFunction>(self);
  const OpDef& def = f.op.def();
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  bool fast = def.outputs.size() == 1 && static_cast<size_t>(n) == def.inputs.size() &&
              static_cast<size_t>(n) <= kMaxInline;
  PyObject* out = fast ? fast_out_kwarg(kwargs, def, ndarray_type, &fast) : nullptr;
  for (Py_ssize_t i = 0; fast && i < n; ++i) fast = Py_TYPE(PyTuple_GET_ITEM(args, i)) == ndarray_type;
  if (!fast) return g_default_call(self, args, kwargs);
  try {
    Tensor inputs[kMaxInline];
    for (Py_ssize_t i = 0; i < n; ++i) inputs[i] = *nb::inst_ptr<Tensor>(PyTuple_GET_ITEM(args, i));
    Tensor outputs[1];
    if (out) outputs[0] = *nb::inst_ptr<Tensor>(out);
    dispatch(f.op, Span<const Tensor>(inputs, static_cast<size_t>(n)), Span<const AttrValue>(), Stream(),
             Span<Tensor>(outputs, 1));
    if (out) return Py_NewRef(out);  // call_op returns the out= object itself
    return new_ndarray(std::move(outputs[0])).release().ptr();
  } catch (...) {
    return raise_current();
  }
}

void install_call_slot(nb::handle cls) {
  PyTypeObject* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (!t->tp_call || t->tp_call == op_call_slot) return;
  g_default_call = t->tp_call;
  t->tp_call = op_call_slot;
  PyType_Modified(t);
}
#endif  // !Py_LIMITED_API

nb::object attr_to_python(const AttrValue& v) {
  switch (v.type()) {
    case AttrType::kNone: return nb::none();
    case AttrType::kInt: return nb::int_(v.as_int());
    case AttrType::kFloat: return nb::float_(v.as_float());
    case AttrType::kBool: return nb::bool_(v.as_bool());
    case AttrType::kString: return nb::str(v.as_string().c_str());
    case AttrType::kIntList: {
      nb::list l;
      for (int64_t x : v.as_ints()) l.append(x);
      return nb::tuple(l);
    }
    case AttrType::kDType: return nb::borrow(dtype_object(v.as_dtype()));
  }
  return nb::none();
}

// The schema ops.py builds signatures and docstrings from.
nb::dict op_schema(const std::string& name) {
  OpHandle h = OpHandle::find(name);
  const OpDef& def = h.def();
  nb::dict d;
  d["name"] = def.name;
  d["doc"] = def.doc;
  d["signature"] = def.signature();
  d["source"] = def.source;
  d["kernel"] = def.kernel.sim_kernel_name;
  nb::list inputs, outputs, attrs;
  for (const InputDef& in : def.inputs)
    inputs.append(nb::make_tuple(in.name, dtype_mask_names(in.dtypes), in.optional, in.strided,
                                 dtype_mask_names(in.sim_only_dtypes)));
  for (const OutputDef& o : def.outputs) outputs.append(o.name);
  for (const AttrDef& a : def.attrs)
    attrs.append(nb::make_tuple(a.name, attr_type_name(a.type), a.required(), attr_to_python(a.default_value)));
  d["inputs"] = inputs;
  d["outputs"] = outputs;
  d["attrs"] = attrs;
  return d;
}

// describe(name, specs, attrs): specs are (shape, dtype) pairs or None.
std::string op_describe(const std::string& name, nb::list specs, nb::dict attrs, nb::handle profile) {
  OpHandle h = OpHandle::find(name);
  std::string where = "npurt.ops.describe";
  std::vector<TensorSpec> ts;
  for (nb::handle s : specs) {
    TensorSpec spec;
    if (!s.is_none()) {
      spec.defined = true;
      spec.shape = shape_arg(s[0], where.c_str(), "shapes");
      spec.dtype = dtype_arg(s[1], where.c_str(), "dtypes");
      spec.strides = contiguous_strides(spec.shape);
    }
    ts.push_back(std::move(spec));
  }
  std::vector<NamedAttr> named;
  for (auto [k, v] : attrs) {
    std::string key = nb::cast<std::string>(k);
    int a = h.def().attr_index(key);
    if (a < 0) throw_invalid_argument(op_where(h.def()), key, "unknown attribute");
    named.push_back(NamedAttr{key, attr_arg(v, h.def().attrs[a], op_where(h.def()))});
  }
  const ChipProfile* prof = profile.is_none() ? nullptr : &chip_profile(nb::cast<std::string>(profile));
  return ops::describe(name, ts, named, prof);
}

}  // namespace

void bind_ops(nb::module_& m) {
  auto cls = nb::class_<OpFunction>(m, "OpFunction", nb::dynamic_attr(),
                         "A registered op as a Python callable (see nr.ops).")
      .def("__call__", &call_op, nb::arg("args"), nb::arg("kwargs"))
      .def_prop_ro("op_name", [](const OpFunction& f) { return std::string(f.op.name()); })
      .def("tiling_cache_stats", [](const OpFunction& f) {
        TilingCacheStats s = f.op.tiling_cache_stats();
        nb::dict d;
        d["hits"] = s.hits;
        d["misses"] = s.misses;
        d["entries"] = s.entries;
        return d;
      })
      .def("clear_tiling_cache", [](const OpFunction& f) { f.op.clear_tiling_cache(); });
#if !defined(Py_LIMITED_API)
  install_call_slot(cls);
#endif
  m.def("_op_function", [](const std::string& name) {
    OpHandle h = OpHandle::find(name);
    return OpFunction{h, op_where(h.def())};
  });
  m.def("_op_names", [] { return OpRegistry::instance().names(); });
  m.def("_op_generation", [] { return OpRegistry::instance().generation(); });
  m.def("_op_schema", &op_schema);
  m.def("_op_describe", &op_describe, nb::arg("name"), nb::arg("specs"), nb::arg("attrs"), nb::arg("profile").none());
  m.def("_registration_errors", &registration_errors);
  m.def("_load_library", [](const std::string& path) {
    nb::gil_scoped_release unlock;  // static initializers of the library may take a while
    return load_library(path).ops;
  });
}

}  // namespace npurt::python
