// sdk_python/bindings/scalar_constants.cpp: the one cache of 0-d device
// constants for Python scalars in array expressions (x + 2, nr.add(x, 2.5),
// x * 1j): the operator fast path (operators.cpp) and the array-API layer's
// _convert.constant both take their constants here, so they share entries.
//
// A constant is made once by the `fill` kernel on the current device's
// current stream, which is then synchronized, so any stream may read it.
// fill's attributes are _convert.fill_attrs' (integral dtypes take Python
// ints exactly through use_int/value_int, complex values their imaginary part,
// everything else float(value)). An int outside an integral dtype's range
// raises OverflowError "<where>: Python int <v> is out of range for <dtype>".
// Invariants: keyed by (device, dtype, kind of scalar, value bits), so
// signed zeros and NaN payloads stay apart and True, 1 and 1.0 are distinct
// entries; bounded (cleared when it holds kMaxConstants); a mutex makes it
// thread-safe without the GIL; returned Tensors are copies (a clear cannot
// free what a caller holds). Never destroyed: the runtime may be gone when
// static objects die.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "bindings.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

constexpr size_t kMaxConstants = 1024;

enum class Kind : uint8_t { kBool, kInt, kFloat, kComplex };

// A Python scalar as fill reads it; `bits` is the int64 (or two's-complement
// uint64) of an int that fits, `exact_int` says it does.
struct Scalar {
  Kind kind = Kind::kFloat;
  double real = 0, imag = 0;
  int64_t bits = 0;
  bool exact_int = false, negative = false;
};

struct Key {
  uint64_t a, b;
  int32_t device_index;
  uint8_t device_type, dtype, kind;
  bool operator==(const Key& o) const {
    return a == o.a && b == o.b && device_index == o.device_index && device_type == o.device_type &&
           dtype == o.dtype && kind == o.kind;
  }
};

struct KeyHash {
  size_t operator()(const Key& k) const {
    const uint64_t small = uint64_t(static_cast<uint32_t>(k.device_index)) << 24 | uint64_t(k.device_type) << 16 |
                           uint64_t(k.dtype) << 8 | k.kind;
    const uint64_t h = (k.a * 0x9e3779b97f4a7c15ULL) ^ (k.b + 0x7f4a7c159e3779b9ULL + (small << 6));
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct Cache {
  std::mutex mu;
  std::unordered_map<Key, Tensor, KeyHash> map;
};

Cache& cache() {
  static auto* c = new Cache();
  return *c;
}

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// An int: its int64 / uint64 bits when it fits, else float(value) (which
// raises OverflowError beyond the double range, as float() does).
void read_int(PyObject* o, Scalar* s) {
  s->kind = Kind::kInt;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (!overflow) {
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    s->bits = v;
    s->real = static_cast<double>(v);
    s->exact_int = true;
    s->negative = v < 0;
    return;
  }
  s->negative = overflow < 0;
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (!PyErr_Occurred()) {
      s->bits = static_cast<int64_t>(u);  // two's complement, as fill's value_int takes it
      s->real = static_cast<double>(u);
      s->exact_int = true;
      return;
    }
    PyErr_Clear();
  }
  s->real = PyLong_AsDouble(o);
  if (s->real == -1.0 && PyErr_Occurred()) throw nb::python_error();
  s->kind = Kind::kFloat;  // fill takes float(value): the same constant as that float
}

Scalar read_scalar(PyObject* o, const char* where) {
  Scalar s;
  if (o == Py_True || o == Py_False) {
    s.kind = Kind::kBool;
    s.real = o == Py_True ? 1.0 : 0.0;
  } else if (PyLong_Check(o)) {
    read_int(o, &s);
  } else if (PyFloat_Check(o)) {
    s.real = PyFloat_AS_DOUBLE(o);
  } else if (PyComplex_Check(o)) {
    s.kind = Kind::kComplex;
    s.real = PyComplex_RealAsDouble(o);
    s.imag = PyComplex_ImagAsDouble(o);
  } else {
    PyErr_Format(PyExc_TypeError, "%s: expected a Python bool, int, float or complex scalar, got %s", where,
                 Py_TYPE(o)->tp_name);
    throw nb::python_error();
  }
  return s;
}

// OverflowError for a Python int outside an integral dtype's range.
void check_range(PyObject* o, const Scalar& s, DType dtype, const char* where) {
  if (s.kind != Kind::kInt && !(s.kind == Kind::kFloat && PyLong_Check(o))) return;
  const DTypeInfo& info = dtype_info(dtype);
  if (info.kind != DTypeKind::kSignedInt && info.kind != DTypeKind::kUnsignedInt) return;
  const int bits = info.itemsize * 8;
  bool ok = s.exact_int;
  if (ok && info.kind == DTypeKind::kUnsignedInt) {
    ok = !s.negative && (bits == 64 || static_cast<uint64_t>(s.bits) < (uint64_t{1} << bits));
  } else if (ok) {
    const bool from_uint64 = !s.negative && s.bits < 0;  // above INT64_MAX
    ok = !from_uint64 && (bits == 64 || (s.bits >= -(int64_t{1} << (bits - 1)) && s.bits < (int64_t{1} << (bits - 1))));
  }
  if (ok) return;
  PyErr_Format(PyExc_OverflowError, "%s: Python int %S is out of range for %s", where, o, dtype_name(dtype));
  throw nb::python_error();
}

Tensor make_constant(const Scalar& s, DType dtype, const Stream& stream) {
  std::vector<NamedAttr> attrs = {{"shape", AttrValue(Dims{})}, {"dtype", AttrValue(dtype)},
                                  {"value", AttrValue(s.real)}, {"value_imag", AttrValue(s.imag)}};
  if (s.kind == Kind::kInt && s.exact_int && is_integral(dtype)) {
    attrs.push_back({"use_int", AttrValue(true)});
    attrs.push_back({"value_int", AttrValue(s.bits)});
  }
  Tensor c = ops::call("fill", {}, attrs, stream)[0];
  stream.synchronize();  // usable from any stream from now on
  return c;
}

}  // namespace

Tensor scalar_constant(nb::handle value, DType dtype, const char* where) {
  const Scalar s = read_scalar(value.ptr(), where);
  check_range(value.ptr(), s, dtype, where);
  const Device d = current_device();
  const uint64_t a = s.kind == Kind::kInt && s.exact_int ? static_cast<uint64_t>(s.bits) : bits_of(s.real);
  const Key key{a, bits_of(s.imag), d.index, static_cast<uint8_t>(d.type), static_cast<uint8_t>(dtype),
                static_cast<uint8_t>(s.kind)};
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.map.find(key);
  if (it != c.map.end()) return it->second;
  if (c.map.size() >= kMaxConstants) c.map.clear();
  Tensor t = make_constant(s, dtype, Stream::current(d));
  c.map.emplace(key, t);
  return t;
}

void bind_scalar_constants(nb::module_& m) {
  m.def(
      "_scalar_constant",
      [](nb::handle value, nb::handle dtype, const char* where) {
        return scalar_constant(value, dtype_arg(dtype, where), where);
      },
      nb::arg("value"), nb::arg("dtype"), nb::arg("where"),
      "The cached 0-d constant of a Python scalar in dtype on the current device (the operators' and "
      "_convert.constant's one cache).");
  m.def(
      "_clear_scalar_constants",
      []() {
        std::lock_guard<std::mutex> lock(cache().mu);
        cache().map.clear();
      },
      "Drops every cached scalar constant (leak checks).");
  m.def(
      "_scalar_constant_count",
      []() {
        std::lock_guard<std::mutex> lock(cache().mu);
        return cache().map.size();
      },
      "How many scalar constants are cached (at most 1024).");
}

}  // namespace npurt::python
