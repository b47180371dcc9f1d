// examples/custom_layernorm/main_cpp.cc: the custom LayerNorm through the C++ API.
//   layernorm_cpp path/to/libnpurt_layernorm.so   -> exit 0 when max error <= 1e-4
#include <cmath>
#include <cstdio>
#include <vector>

#include "npurt/copy.h"
#include "npurt/ops.h"
#include "npurt/plugin.h"
#include "npurt/runtime.h"

int main(int argc, char** argv) try {
  if (argc > 1) npurt::load_library(argv[1]);
  const int64_t B = 4, S = 16, D = 1000;
  std::vector<float> x(B * S * D);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * i) * 3.0f + 1.0f;
  npurt::Stream s = npurt::Stream::create(npurt::Device{});
  npurt::Tensor tx = npurt::Tensor::empty({B, S, D}, npurt::DType::kFloat32, s);
  npurt::copy_from_host(tx, x.data(), x.size() * 4, s);
  // No gamma/beta (optional inputs), eps by name.
  npurt::Tensor ty = npurt::ops::call("layer_norm_custom", {tx}, {{"eps", 1e-5}}, s)[0];
  std::vector<float> y(x.size());
  npurt::copy_to_host(y.data(), ty, y.size() * 4, s);
  double max_err = 0;
  for (int64_t r = 0; r < B * S; ++r) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < D; ++i) mean += x[r * D + i];
    mean /= D;
    for (int64_t i = 0; i < D; ++i) var += (x[r * D + i] - mean) * (x[r * D + i] - mean);
    var /= D;
    for (int64_t i = 0; i < D; ++i)
      max_err = std::max(max_err, std::fabs((x[r * D + i] - mean) / std::sqrt(var + 1e-5) - y[r * D + i]));
  }
  std::printf("%s\n", npurt::ops::describe("layer_norm_custom", {{true, npurt::DType::kFloat32, {B, S, D}, {}}}).c_str());
  std::printf("layer_norm_custom via the C++ API: [%lld, %lld, %lld] max abs error %.3g\n", (long long)B,
              (long long)S, (long long)D, max_err);
  return max_err <= 1e-4 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
