// sdk_python/bindings/args.cpp: Python arguments -> Device, Stream, shape.
//
// These run on every creation call, so the common cases (None, an int, a tuple
// of ints, a bound Device/Stream) avoid any Python-level call. Every rejection
// names the function and the argument.
#include <string>

#include "bindings.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

std::string py_type_name(nb::handle h) { return nb::type_name(h.type()).c_str(); }

std::string available_devices() {
  std::string s;
  for (const Device& d : devices()) s += (s.empty() ? "" : ", ") + d.str();
  return s;
}

void check_device_exists(Device d, const char* where, const char* arg) {
  for (const Device& known : devices())
    if (known == d) return;
  throw_error(StatusCode::kNotFound, std::string(where) + ": argument '" + arg + "': no device " +
                                         d.str() + " (available: " + available_devices() + ")");
}

// One dimension: a Python int or anything with __index__ (numpy integers); not bool-like floats.
int64_t dimension(nb::handle h, size_t i, const char* where, const char* arg) {
  PyObject* index = PyNumber_Index(h.ptr());
  if (!index) {
    PyErr_Clear();
    throw_invalid_argument(where, arg,
                           "dimension " + std::to_string(i) + " must be an integer, got " + py_type_name(h));
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow) throw_invalid_argument(where, arg, "dimension " + std::to_string(i) + " does not fit in int64");
  return v;
}

}  // namespace

Device device_arg(nb::handle h, const char* where, const char* arg) {
  if (h.is_none()) return current_device();
  Device d;
  if (nb::isinstance<Device>(h)) {
    d = nb::cast<Device>(h);
  } else if (nb::isinstance<nb::str>(h)) {
    std::string text = nb::cast<std::string>(h);
    try {
      d = parse_device(text);
    } catch (const InvalidArgument&) {
      throw_invalid_argument(where, arg,
                             "cannot parse '" + text + "' as a device (expected e.g. 'sim', 'sim:1', 'ascend:0')");
    }
  } else if (PyLong_Check(h.ptr())) {
    d = Device{current_device().type, static_cast<int32_t>(dimension(h, 0, where, arg))};
  } else {
    throw_invalid_argument(where, arg, "expected an npurt.Device, a string like 'sim:0' or an int, got " +
                                           py_type_name(h));
  }
  check_device_exists(d, where, arg);
  return d;
}

void check_stream_open(const Stream& s, const char* where, const char* arg) {
  if (!s.valid()) throw_invalid_argument(where, arg, "null stream");
  if (s.closed()) throw_invalid_argument(where, arg, "stream " + std::to_string(s.id()) + " is closed");
}

Stream stream_arg(nb::handle stream, nb::handle device, const char* where) {
  if (stream.is_none()) return device.is_none() ? Stream::current() : Stream::current(device_arg(device, where));
  if (!nb::isinstance<Stream>(stream)) {
    throw_invalid_argument(where, "stream", "expected an npurt.Stream, got " + py_type_name(stream));
  }
  const Stream& s = nb::cast<const Stream&>(stream);
  check_stream_open(s, where);
  if (!device.is_none()) {
    Device d = device_arg(device, where);
    if (d != s.device()) {
      throw_invalid_argument(where, "stream", "stream is on " + s.device().str() + " but argument 'device' is " +
                                                  d.str());
    }
  }
  return s;
}

Dims shape_arg(nb::handle h, const char* where, const char* arg) {
  Dims dims;
  if (PyLong_Check(h.ptr())) {
    dims.push_back(dimension(h, 0, where, arg));
  } else if (nb::isinstance<nb::tuple>(h) || nb::isinstance<nb::list>(h)) {
    size_t n = nb::len(h);
    for (size_t i = 0; i < n; ++i) dims.push_back(dimension(h[i], i, where, arg));
  } else if (PyIndex_Check(h.ptr())) {
    dims.push_back(dimension(h, 0, where, arg));
  } else {
    throw_invalid_argument(where, arg, "expected an int or a tuple of ints, got " + py_type_name(h));
  }
  check_shape(dims, where, arg);
  return dims;
}

}  // namespace npurt::python
