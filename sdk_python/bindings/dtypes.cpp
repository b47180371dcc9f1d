// sdk_python/bindings/dtypes.cpp: nr.dtype objects and the numpy dtype mapping.
//
// Each DType has one Python object, nr.<name> (nr.float32 ...), an instance of
// nr.dtype. It carries a `.dtype` attribute holding the numpy dtype, which is
// numpy's protocol for "usable where a dtype is expected": np.zeros(3, nr.float32)
// works. Comparisons accept anything dtype_arg accepts (x.dtype == np.float32,
// x.dtype == "float32"). bfloat16 maps to ml_dtypes.bfloat16 on the numpy side.
// Every refusal of a dtype argument (not a dtype: "foo", 3, None; a dtype npurt
// lacks: object, big-endian) throws UnsupportedDtype: nr.UnsupportedDtypeError,
// a TypeError as numpy's "data type not understood" and the array API's, and
// still an nr.InvalidArgumentError / ValueError as before wave 11.
//
// Invariant: the singletons are kept alive by the module (attributes), and the
// numpy dtype table by the module attribute `_numpy_dtypes`; the tables here
// hold borrowed handles, so nothing of ours is alive at interpreter shutdown.
#include <string>

#include "bindings.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

struct DTypeObject {
  DType value;
};

nb::handle g_module;
nb::handle g_objects[kNumDTypes];
nb::handle g_numpy[kNumDTypes];          // np.dtype per DType (lazy)
nb::handle g_numpy_storage[kNumDTypes];  // allocation dtype per DType (lazy)
nb::handle g_numpy_module;

// numpy and ml_dtypes are imported on first use, not at `import npurt`.
void init_numpy_tables() {
  if (g_numpy[0].ptr()) return;
  nb::module_ np = nb::module_::import_("numpy");
  nb::object np_dtype = np.attr("dtype");
  nb::list keep;
  keep.append(np);
  for (int i = 0; i < kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    nb::object d = t == DType::kBFloat16 ? np_dtype(nb::module_::import_("ml_dtypes").attr("bfloat16"))
                                         : np_dtype(dtype_name(t));
    nb::object storage = t == DType::kBFloat16 ? np_dtype("uint16") : d;
    keep.append(d);
    keep.append(storage);
    g_numpy_storage[i] = storage;
    g_numpy[i] = d;
  }
  g_module.attr("_numpy_dtypes") = keep;
  g_numpy_module = np;
}

std::string py_repr(nb::handle h) { return nb::repr(h).c_str(); }

std::string supported_names() {
  std::string s;
  for (int i = 0; i < kNumDTypes; ++i) s += (i ? ", " : "") + std::string(dtype_name(static_cast<DType>(i)));
  return s;
}

// Anything numpy accepts as a dtype: np.dtype(h), then our table.
DType dtype_via_numpy(nb::handle h, const char* where, const char* arg) {
  init_numpy_tables();
  nb::object d;
  try {
    d = g_numpy_module.attr("dtype")(h);
  } catch (nb::python_error&) {  // numpy's TypeError: not something it reads as a dtype
    throw_unsupported_dtype(where, arg, "not a dtype: " + py_repr(h));
  }
  return dtype_from_numpy(d, where, arg);
}

bool dtype_equals(const DTypeObject& self, nb::handle other) {
  if (nb::isinstance<DTypeObject>(other)) return nb::cast<const DTypeObject&>(other).value == self.value;
  if (other.is_none()) return false;
  try {
    return dtype_arg(other, "npurt.dtype.__eq__", "other") == self.value;
  } catch (const Error&) {
    return false;  // not a dtype, or one npurt lacks: simply not equal
  }
}

}  // namespace

nb::handle numpy_module() {
  init_numpy_tables();
  return g_numpy_module;
}

nb::handle dtype_object(DType t) { return g_objects[static_cast<int>(t)]; }

nb::handle numpy_dtype(DType t) {
  init_numpy_tables();
  return g_numpy[static_cast<int>(t)];
}

nb::handle numpy_storage_dtype(DType t) {
  init_numpy_tables();
  return g_numpy_storage[static_cast<int>(t)];
}

DType dtype_from_numpy(nb::handle d, const char* where, const char* arg) {
  init_numpy_tables();
  if (d.is(g_numpy[static_cast<int>(DType::kBFloat16)])) return DType::kBFloat16;
  std::string byteorder = nb::cast<std::string>(d.attr("byteorder"));
  std::string kind = nb::cast<std::string>(d.attr("kind"));
  size_t size = nb::cast<size_t>(d.attr("itemsize"));
  if (byteorder == ">") {
    throw_unsupported_dtype(where, arg, "big-endian dtype " + py_repr(d) + " is not supported");
  }
  if (kind.size() == 1 && std::string("biufc").find(kind[0]) != std::string::npos) {
    for (int i = 0; i < kNumDTypes; ++i) {
      const DTypeInfo& info = dtype_info(static_cast<DType>(i));
      static const char kKindChar[] = {'b', 'i', 'u', 'f', 'c'};
      if (kKindChar[static_cast<int>(info.kind)] == kind[0] && info.itemsize == size &&
          info.dtype != DType::kBFloat16)
        return info.dtype;
    }
  }
  throw_unsupported_dtype(where, arg,
                         "unsupported dtype " + py_repr(d) + " (supported: " + supported_names() + ")");
}

DType dtype_arg(nb::handle h, const char* where, const char* arg) {
  if (nb::isinstance<DTypeObject>(h)) return nb::cast<const DTypeObject&>(h).value;
  if (nb::isinstance<nb::str>(h)) return dtype_from_name(nb::cast<std::string>(h), where);
  if (h.is_none()) throw_unsupported_dtype(where, arg, "expected a dtype, got None");
  return dtype_via_numpy(h, where, arg);
}

void bind_dtypes(nb::module_& m) {
  g_module = m;
  nb::class_<DTypeObject>(m, "dtype",
                          "An npurt element type. Instances are nr.bool, nr.int8, ..., nr.bfloat16, "
                          "nr.float32; nr.dtype(x) accepts names, numpy dtypes and scalar types.")
      .def("__init__",
           [](DTypeObject* self, nb::handle spec) { new (self) DTypeObject{dtype_arg(spec, "npurt.dtype", "dtype")}; },
           nb::arg("dtype").none())  // None reaches dtype_arg: UnsupportedDtypeError, not nanobind's TypeError
      .def_prop_ro("name", [](const DTypeObject& d) { return dtype_name(d.value); })
      .def_prop_ro("itemsize", [](const DTypeObject& d) { return itemsize(d.value); })
      .def_prop_ro("kind",
                   [](const DTypeObject& d) {
                     static const char* kKinds[] = {"b", "i", "u", "f", "c"};
                     return kKinds[static_cast<int>(dtype_info(d.value).kind)];
                   },
                   "numpy kind character: b, i, u, f or c")
      .def_prop_ro("dtype", [](const DTypeObject& d) { return nb::borrow(numpy_dtype(d.value)); },
                   "the numpy dtype (ml_dtypes.bfloat16 for bfloat16)")
      .def("__eq__", &dtype_equals, nb::arg("other").none())
      .def("__ne__", [](const DTypeObject& d, nb::handle o) { return !dtype_equals(d, o); }, nb::arg("other").none())
      .def("__hash__", [](const DTypeObject& d) { return nb::hash(nb::str(dtype_name(d.value))); })
      .def("__str__", [](const DTypeObject& d) { return dtype_name(d.value); })
      .def("__repr__", [](const DTypeObject& d) { return std::string("npurt.") + dtype_name(d.value); })
      .def("__reduce__", [](const DTypeObject& d) {  // pickles as nr.dtype("name")
        return nb::make_tuple(nb::type<DTypeObject>(), nb::make_tuple(dtype_name(d.value)));
      });

  for (int i = 0; i < kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    nb::object obj = nb::cast(DTypeObject{t});
    m.attr(dtype_name(t)) = obj;
    g_objects[i] = obj;
  }
}

}  // namespace npurt::python
