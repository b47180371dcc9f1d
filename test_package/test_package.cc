// conan test_package: links the packaged npurt and checks that it really works:
// a stream on the first device, a pool allocation, a host->device->host round
// trip (bit exact) and built-in ops (copy; add when built) against a scalar
// reference. argv[1] (from test_package/conanfile.py: the package's sim_check
// option) must equal the default sim check level compiled into the library.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "npurt/backend.h"
#include "npurt/copy.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/tensor.h"

// The package's default check level (NPURT_SIM_CHECK unset) must be `expected`.
bool check_level_ok(const char* expected) {
  const char* names[] = {"off", "basic", "full"};
  unsetenv("NPURT_SIM_CHECK");
  const char* got = names[static_cast<int>(npurt::sim_check_level_from_env())];
  if (std::strcmp(got, expected) != 0) {
    std::fprintf(stderr, "test_package: default sim check level is '%s', the package option says '%s'\n", got,
                 expected);
    return false;
  }
  std::printf("default sim check level: %s (as the sim_check option)\n", got);
  return true;
}

int main(int argc, char** argv) {
  if (argc > 1 && !check_level_ok(argv[1])) return 1;
  try {
    const npurt::Device device = npurt::devices().at(0);
    npurt::Stream stream = npurt::Stream::create(device);
    const int64_t n = 1023;  // odd size: exercises the tail of the kernel tiling
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), back(n), sum(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = 0.5f * static_cast<float>(i) - 100.0f;
      b[i] = 3.0f - 0.25f * static_cast<float>(i);
    }
    npurt::Tensor x = npurt::Tensor::empty({n}, npurt::DType::kFloat32, stream);
    npurt::Tensor y = npurt::Tensor::empty({n}, npurt::DType::kFloat32, stream);
    npurt::copy_from_host(x, a.data(), bytes, stream);
    npurt::copy_from_host(y, b.data(), bytes, stream);
    npurt::copy_to_host(back.data(), x, bytes, stream, /*blocking=*/true);
    if (std::memcmp(back.data(), a.data(), bytes) != 0) {
      std::fprintf(stderr, "test_package: round trip changed the data\n");
      return 1;
    }
    // copy is always built in; add once the elementwise family is in the build.
    npurt::Tensor c = npurt::ops::copy(x, stream);
    npurt::copy_to_host(back.data(), c, bytes, stream, /*blocking=*/true);
    if (std::memcmp(back.data(), a.data(), bytes) != 0) {
      std::fprintf(stderr, "test_package: ops::copy changed the data\n");
      return 1;
    }
    const bool have_add = npurt::OpRegistry::instance().find("add") != nullptr;
    if (have_add) {
      npurt::Tensor z = npurt::ops::add(x, y, stream);
      npurt::copy_to_host(sum.data(), z, bytes, stream, /*blocking=*/true);
      for (int64_t i = 0; i < n; ++i) {
        if (sum[i] != a[i] + b[i]) {  // one float add: exact
          std::fprintf(stderr, "test_package: add[%lld] = %g, expected %g\n",
                       static_cast<long long>(i), sum[i], a[i] + b[i]);
          return 1;
        }
      }
    }
    std::printf("npurt %s on %s: round trip of %lld float32 ok, op copy ok, op add %s\n",
                npurt::version().c_str(), device.str().c_str(), static_cast<long long>(n),
                have_add ? "ok" : "not in this build");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "test_package: %s\n", e.what());
    return 1;
  }
}
