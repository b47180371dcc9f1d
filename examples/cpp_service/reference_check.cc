// examples/cpp_service/reference_check.cc: checks the service's float64 host
// references (reference_ops.h) on cases with known answers, so the references
// of stages whose ops are not registered in this build are tested too.
// Exit status 0 only when every check holds.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "reference_ops.h"

namespace {

int g_failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "reference check FAILED: %s\n", what);
    ++g_failures;
  }
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * (1 + std::fabs(b)); }

HostTensor ramp(std::vector<int64_t> shape, double scale) {
  HostTensor t{std::move(shape), {}};
  t.data.resize(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = scale * std::sin(0.7 * static_cast<double>(i) + 0.3);
  return t;
}

void check_layer_norm() {
  const HostTensor x = ramp({2, 3, 8}, 3.0);
  const HostTensor y = reference_layer_norm({&x}, {{"eps", StageAttr::Type::kFloat, 0.0}});
  for (int64_t r = 0; r < 6; ++r) {  // plain normalization: mean 0, biased variance 1 per row
    double mean = 0, var = 0;
    for (int64_t j = 0; j < 8; ++j) mean += y.data[static_cast<size_t>(r * 8 + j)] / 8;
    for (int64_t j = 0; j < 8; ++j) var += std::pow(y.data[static_cast<size_t>(r * 8 + j)] - mean, 2) / 8;
    expect(std::fabs(mean) < 1e-12 && near(var, 1.0), "layer_norm rows have mean 0 and variance 1");
  }
  const HostTensor gamma = ramp({8}, 2.0), beta = ramp({8}, 0.5);
  const HostTensor z = reference_layer_norm({&x, &gamma, &beta}, {{"eps", StageAttr::Type::kFloat, 0.0}});
  bool affine = true;
  for (size_t i = 0; i < z.data.size(); ++i)
    affine &= near(z.data[i], y.data[i] * gamma.data[i % 8] + beta.data[i % 8]);
  expect(affine, "layer_norm applies gamma and beta per column");
  bool threw = false;
  try {
    const HostTensor bad = ramp({7}, 1.0);
    reference_layer_norm({&x, &bad}, {});
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  expect(threw, "layer_norm rejects a gamma of the wrong length");
}

void check_attention() {
  const HostTensor q = ramp({2, 5, 4}, 1.0), k = ramp({2, 5, 4}, 0.5), v = ramp({2, 5, 3}, 2.0);
  const HostTensor causal = reference_attention({&q, &k, &v}, {{"causal", StageAttr::Type::kBool, 1.0}});
  bool first_row = true;  // query 0 sees only key 0
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t c = 0; c < 3; ++c)
      first_row &= near(causal.data[static_cast<size_t>(b * 15 + c)], v.data[static_cast<size_t>(b * 15 + c)]);
  expect(first_row, "causal attention: the first query returns the first value row");
  HostTensor same_k = k;  // identical keys: uniform weights, output = mean of the value rows
  for (size_t i = 0; i < same_k.data.size(); ++i) same_k.data[i] = 0.25;
  const HostTensor avg = reference_attention({&q, &same_k, &v}, {});
  bool mean_ok = true;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t c = 0; c < 3; ++c) {
        double m = 0;
        for (int64_t j = 0; j < 5; ++j) m += v.data[static_cast<size_t>(b * 15 + j * 3 + c)] / 5;
        mean_ok &= near(avg.data[static_cast<size_t>(b * 15 + i * 3 + c)], m);
      }
  expect(mean_ok, "attention with identical keys averages the values");
  // scale 0 means 1/sqrt(D): the same result as passing it explicitly.
  const HostTensor a0 = reference_attention({&q, &k, &v}, {});
  const HostTensor a1 = reference_attention({&q, &k, &v}, {{"scale", StageAttr::Type::kFloat, 0.5}});
  bool same = true;
  for (size_t i = 0; i < a0.data.size(); ++i) same &= near(a0.data[i], a1.data[i]);
  expect(same, "attention: scale 0 is 1/sqrt(D)");
}

void check_matmul() {
  const HostTensor a = ramp({2, 3, 4}, 1.0);
  HostTensor eye{{4, 4}, std::vector<double>(16, 0.0)};
  for (int i = 0; i < 4; ++i) eye.data[static_cast<size_t>(i * 5)] = 1.0;
  const HostTensor y = reference_matmul({&a, &eye}, {});
  bool ok = y.shape == a.shape;
  for (size_t i = 0; ok && i < a.data.size(); ++i) ok &= near(y.data[i], a.data[i]);
  expect(ok, "matmul by the identity returns a");
  const HostTensor b = ramp({4, 2}, 1.0);
  const HostTensor p = reference_matmul({&a, &b}, {});
  double want = 0;  // element [1, 2, 1]
  for (int c = 0; c < 4; ++c) want += a.data[static_cast<size_t>((3 + 2) * 4 + c)] * b.data[static_cast<size_t>(c * 2 + 1)];
  expect(near(p.data[static_cast<size_t>((3 + 2) * 2 + 1)], want), "matmul element [1, 2, 1]");
}

}  // namespace

int main() {
  check_layer_norm();
  check_attention();
  check_matmul();
  std::printf("reference check: %s\n", g_failures == 0 ? "ok" : "FAILED");
  return g_failures == 0 ? 0 : 1;
}
