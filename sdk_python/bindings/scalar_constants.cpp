// sdk_python/bindings/scalar_constants.cpp: the one cache of 0-d device
// constants for Python scalars in array expressions (x + 2, nr.add(x, 2.5),
// x * 1j): the operator fast path (operators.cpp) and the array-API layer's
// _convert.constant both take their constants here, so they share entries.
//
// A constant is made once by the `fill` kernel on the current device's
// current stream, which is then synchronized, so any stream may read it.
// The value is converted by the one rule of npurt/fill_value.h, read by
// fill_value_arg (fill_values.cpp), the same as nr.full's: integral dtypes take
// Python ints exactly, complex values their imaginary part, everything else
// float(value); an int outside an integral dtype's range raises OverflowError
// "<where>: Python int <v> is out of range for <dtype>".
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

#include "bindings.h"
#include "npurt/fill_value.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

constexpr size_t kMaxConstants = 1024;

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

}  // namespace

Tensor scalar_constant(nb::handle value, DType dtype, const char* where) {
  const FillValue v = fill_value_arg(value.ptr(), dtype, where);
  const Device d = current_device();
  const uint64_t a = v.kind == FillValue::Kind::kInt ? static_cast<uint64_t>(v.int_bits) : bits_of(v.real);
  const Key key{a, bits_of(v.imag), d.index, static_cast<uint8_t>(d.type), static_cast<uint8_t>(dtype),
                static_cast<uint8_t>(v.kind)};
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.map.find(key);
  if (it != c.map.end()) return it->second;
  if (c.map.size() >= kMaxConstants) c.map.clear();
  const Stream stream = Stream::current(d);
  Tensor t = ops::fill(Dims{}, dtype, v, stream);
  stream.synchronize();  // usable from any stream from now on
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
