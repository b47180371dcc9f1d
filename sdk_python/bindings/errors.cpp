// sdk_python/bindings/errors.cpp: npurt::Error -> Python exception classes.
//
// One table maps every StatusCode to a class deriving from nr.NpurtError (and,
// where Python has a matching builtin, from it too: InvalidArgumentError is a
// ValueError, OutOfMemoryError a MemoryError, UnimplementedError a
// NotImplementedError), so `except ValueError` works for bad arguments.
// UnsupportedDtypeError (a dtype refusal) derives from InvalidArgumentError and
// TypeError, as numpy's UFuncTypeError is a TypeError: `except TypeError`,
// `except ValueError` and `except nr.InvalidArgumentError` all catch it.
// ArgumentTypeError (an argument of the wrong type: a list where an array is
// needed) has the same bases and no StatusCode of its own (C++ is typed): only
// the Python layer raises it, with code INVALID_ARGUMENT; so do IndexingError
// (also an IndexError: a bad index) and OutOfRangeError (also an
// OverflowError: a value beyond a dtype's range). The message is the
// runtime's unchanged; the exception also carries `.code`, the StatusCode name
// ("OUT_OF_MEMORY"), also as a class attribute, so an instance the Python layer
// raises itself (`raise nr.InvalidArgumentError(msg)`) has it too.
#include <exception>

#include "bindings.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

struct ErrorClass {
  StatusCode code;
  const char* name;
  PyObject* extra_base;  // a builtin exception, or nullptr
  const char* doc;
  StatusCode parent = StatusCode::kOk;  // kOk: NpurtError; else a class made earlier in the table
};

constexpr int kNumCodes = static_cast<int>(StatusCode::kUnsupportedDtype) + 1;
PyObject* g_classes[kNumCodes] = {};  // owned by the module (borrowed here)
PyObject* g_base = nullptr;
PyObject* g_out_of_range = nullptr;  // npurt.OutOfRangeError (owned by the module)

PyObject* make_class(nb::module_& m, const char* name, PyObject* bases, const char* doc, StatusCode code) {
  std::string qualified = std::string("npurt.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!cls) throw nb::python_error();
  m.attr(name) = nb::steal(cls);  // the module owns the class
  if (code != StatusCode::kOk) nb::handle(cls).attr("code") = status_code_name(code);
  return cls;
}

}  // namespace

// Raises the Python class for `code` with `message` and a `.code` attribute.
void raise_error(StatusCode code, const char* message) {
  int index = static_cast<int>(code);
  PyObject* cls = (index > 0 && index < kNumCodes && g_classes[index]) ? g_classes[index] : g_base;
  PyObject* exc = PyObject_CallFunction(cls, "s", message);
  if (!exc) return;  // the failed call set its own error
  PyObject* name = PyUnicode_FromString(status_code_name(code));
  if (name) {
    PyObject_SetAttrString(exc, "code", name);
    Py_DECREF(name);
  }
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
}

void throw_out_of_range(const std::string& message) {
  PyErr_SetString(g_out_of_range, message.c_str());
  throw nb::python_error();
}

void bind_errors(nb::module_& m) {
  PyObject* runtime_base = PyTuple_Pack(1, PyExc_RuntimeError);
  g_base = make_class(m, "NpurtError", runtime_base,
                      "Base of every error the npurt runtime raises; `.code` names the status.", StatusCode::kOk);
  Py_DECREF(runtime_base);

  const ErrorClass table[] = {
      {StatusCode::kInvalidArgument, "InvalidArgumentError", PyExc_ValueError,
       "A bad argument: the message names the function, the argument and the reason."},
      {StatusCode::kOutOfMemory, "OutOfMemoryError", PyExc_MemoryError,
       "The device memory pool is exhausted or its limit is reached."},
      {StatusCode::kKernelFault, "KernelFault", nullptr,
       "A kernel failed a simulated-core check or faulted on the device."},
      {StatusCode::kNotFound, "NotFoundError", nullptr,
       "An unknown device, op, symbol or file."},
      {StatusCode::kAlreadyExists, "AlreadyExistsError", nullptr, "A duplicate registration."},
      {StatusCode::kFailedPrecondition, "FailedPreconditionError", nullptr,
       "The call is illegal in the current state (e.g. while capturing)."},
      {StatusCode::kUnimplemented, "UnimplementedError", PyExc_NotImplementedError,
       "A valid request that the backend or op cannot do."},
      {StatusCode::kUnavailable, "UnavailableError", nullptr,
       "A backend that is not present (no CANN, no device)."},
      {StatusCode::kInternal, "InternalError", nullptr, "A bug in npurt; please report it."},
      {StatusCode::kCaptureError, "CaptureError", nullptr, "A stream-capture rule was broken."},
      {StatusCode::kCompileError, "CompileError", nullptr, "Building a user kernel failed."},
      {StatusCode::kUnsupportedDtype, "UnsupportedDtypeError", PyExc_TypeError,
       "The op does not take this dtype or dtype combination (an InvalidArgumentError and a TypeError).",
       StatusCode::kInvalidArgument},
  };
  for (const ErrorClass& e : table) {
    PyObject* parent = e.parent == StatusCode::kOk ? g_base : g_classes[static_cast<int>(e.parent)];
    PyObject* bases = e.extra_base ? PyTuple_Pack(2, parent, e.extra_base) : PyTuple_Pack(1, parent);
    g_classes[static_cast<int>(e.code)] = make_class(m, e.name, bases, e.doc, e.code);
    Py_DECREF(bases);
  }
  // InvalidArgumentError's Python-only refinements: each also derives from the
  // builtin numpy raises in its case, so `except IndexError` etc. still work.
  const struct {
    const char* name;
    PyObject* builtin;
    const char* doc;
  } refinements[] = {
      {"ArgumentTypeError", PyExc_TypeError,
       "An argument of the wrong type (an InvalidArgumentError and a TypeError, like "
       "UnsupportedDtypeError): raised by the Python layer."},
      {"IndexingError", PyExc_IndexError,
       "A bad index in x[key] / x[key] = v (an InvalidArgumentError and an IndexError, as numpy raises): "
       "out of bounds, too many indices, a key entry of a bad type, a boolean mask of the wrong shape."},
      {"OutOfRangeError", PyExc_OverflowError,
       "A value outside the target dtype's range (an InvalidArgumentError and an OverflowError, as numpy "
       "raises): nr.full(2, 300, dtype=nr.int8), x[0] = 2**70."},
  };
  for (const auto& r : refinements) {
    PyObject* bases = PyTuple_Pack(2, g_classes[static_cast<int>(StatusCode::kInvalidArgument)], r.builtin);
    PyObject* cls = make_class(m, r.name, bases, r.doc, StatusCode::kInvalidArgument);
    if (r.builtin == PyExc_OverflowError) g_out_of_range = cls;
    Py_DECREF(bases);
  }

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      raise_error(e.code(), e.what());
    }
  });
}

}  // namespace npurt::python
