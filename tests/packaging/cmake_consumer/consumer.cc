// Consumer of the installed npurt package through the C++ API: version, a
// stream per device, pool allocations, copy round trips (bit exact, several
// sizes including empty and odd ones), and built-in ops (copy, add, mul),
// which the shared libnpurt loads from libnpurt_kernels.so next to itself.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/tensor.h"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

void round_trip(const npurt::Stream& stream, int64_t n) {
  std::vector<float> host(n), back(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.75f - 3.0f;
  npurt::Tensor t = npurt::Tensor::empty({n}, npurt::DType::kFloat32, stream);
  const size_t bytes = n * sizeof(float);
  npurt::copy_from_host(t, host.data(), bytes, stream);
  npurt::copy_to_host(back.data(), t, bytes, stream, /*blocking=*/true);
  expect(bytes == 0 || std::memcmp(host.data(), back.data(), bytes) == 0,
         "round trip of " + std::to_string(n) + " float32");
}

// Runs a built-in op on host data and compares with the scalar reference.
template <typename Op, typename Ref>
void check_op(const char* name, const npurt::Stream& stream, Op op, Ref ref) {
  const int64_t n = 33;
  std::vector<float> a(n), b(n), z(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f - static_cast<float>(2 * i);
  }
  npurt::Tensor x = npurt::Tensor::empty({n}, npurt::DType::kFloat32, stream);
  npurt::Tensor y = npurt::Tensor::empty({n}, npurt::DType::kFloat32, stream);
  npurt::copy_from_host(x, a.data(), n * sizeof(float), stream);
  npurt::copy_from_host(y, b.data(), n * sizeof(float), stream);
  npurt::Tensor out = op(x, y);
  npurt::copy_to_host(z.data(), out, n * sizeof(float), stream, /*blocking=*/true);
  for (int64_t i = 0; i < n; ++i) {
    expect(z[i] == ref(a[i], b[i]), std::string(name) + " element " + std::to_string(i));
  }
}

}  // namespace

int main() {
  try {
    expect(npurt::version() == NPURT_PACKAGE_VERSION,
           "version() " + npurt::version() + " == package " + NPURT_PACKAGE_VERSION);
    std::vector<npurt::Device> devices = npurt::devices();
    expect(!devices.empty(), "at least one device");
    for (const npurt::Device& d : devices) {
      npurt::Stream stream = npurt::Stream::create(d);
      for (int64_t n : {0, 1, 15, 1023, 1 << 20}) round_trip(stream, n);
      stream.synchronize();
    }
    npurt::Stream s = npurt::Stream::create(devices.at(0));
    expect(npurt::OpRegistry::instance().find("copy") != nullptr,
           "built-in op 'copy' registered (libnpurt_kernels.so loaded next to libnpurt.so)");
    check_op("copy", s, [&](const npurt::Tensor& x, const npurt::Tensor&) {
      return npurt::ops::copy(x, s); }, [](float a, float) { return a; });
    check_op("add", s, [&](const npurt::Tensor& x, const npurt::Tensor& y) {
      return npurt::ops::add(x, y, s); }, [](float a, float b) { return a + b; });
    check_op("mul", s, [&](const npurt::Tensor& x, const npurt::Tensor& y) {
      return npurt::ops::mul(x, y, s); }, [](float a, float b) { return a * b; });
    // Bad input is an npurt::Error naming the function, never a crash.
    bool threw = false;
    try {
      npurt::Tensor::empty({-1}, npurt::DType::kFloat32, devices.at(0));
    } catch (const npurt::Error& e) {
      threw = std::string(e.what()).find("shape") != std::string::npos;
    }
    expect(threw, "negative shape raises npurt::Error mentioning the shape");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED with exception: %s\n", e.what());
    return 1;
  }
  if (failures == 0) std::printf("consumer: npurt %s ok\n", npurt::version().c_str());
  return failures == 0 ? 0 : 1;
}
