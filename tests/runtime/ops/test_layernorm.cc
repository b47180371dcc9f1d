// The custom_layernorm example through the C++ API (ops::call) and the two-phase
// C API, against a double-precision scalar reference, over shapes and options.
#include <gtest/gtest.h>

#include <cmath>

#include "npurt/npurt.h"
#include "npurt/ops.h"
#include "npurt/plugin.h"
#include "op_test_util.h"

using namespace npurt;

namespace {

std::vector<float> reference(const std::vector<float>& x, int64_t d, const std::vector<float>* g,
                             const std::vector<float>* b, double eps) {
  std::vector<float> y(x.size());
  for (size_t r = 0; r < x.size() / d; ++r) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < d; ++i) mean += x[r * d + i];
    mean /= d;
    for (int64_t i = 0; i < d; ++i) var += (x[r * d + i] - mean) * (x[r * d + i] - mean);
    var /= d;
    for (int64_t i = 0; i < d; ++i) {
      double v = (x[r * d + i] - mean) / std::sqrt(var + eps);
      if (g) v *= (*g)[i];
      if (b) v += (*b)[i];
      y[r * d + i] = static_cast<float>(v);
    }
  }
  return y;
}

std::vector<float> data(size_t n, float phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(phase + 0.61f * i) * 4.0f + std::cos(0.07f * i);
  return v;
}

void expect_close(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-4 + 1e-4 * std::fabs(want[i])) << what << " at " << i;  // float32 tolerance
}

class LayerNorm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { load_library(NPURT_LAYERNORM_PLUGIN); }
};

}  // namespace

TEST_F(LayerNorm, CppApiShapesAndOptions) {
  const std::vector<Dims> shapes = {{1, 1, 1}, {2, 3, 15}, {2, 5, 33}, {3, 64}, {4, 7, 1023}, {32, 16, 256}};
  for (const Dims& shape : shapes) {
    int64_t d = shape.back();
    auto x = data(static_cast<size_t>(shape_numel(shape)), 0.3f);
    auto g = data(static_cast<size_t>(d), 1.1f), b = data(static_cast<size_t>(d), 2.2f);
    Tensor tx = npurt_test::upload(x, shape, DType::kFloat32);
    Tensor tg = npurt_test::upload(g, {d}, DType::kFloat32), tb = npurt_test::upload(b, {d}, DType::kFloat32);
    auto y = npurt_test::download<float>(ops::call("layer_norm_custom", {tx, tg, tb}, {{"eps", 1e-3}})[0]);
    expect_close(y, reference(x, d, &g, &b, 1e-3), "gamma+beta");
    y = npurt_test::download<float>(ops::call("layer_norm_custom", {tx}, {})[0]);
    expect_close(y, reference(x, d, nullptr, nullptr, 1e-5), "plain");
    y = npurt_test::download<float>(ops::call("layer_norm_custom", {tx, Tensor(), tb}, {})[0]);
    expect_close(y, reference(x, d, nullptr, &b, 1e-5), "beta only");
  }
}

TEST_F(LayerNorm, RejectsBadShapes) {
  Tensor tx = npurt_test::upload(data(24, 0), {2, 3, 4}, DType::kFloat32);
  Tensor tg = npurt_test::upload(data(3, 0), {3}, DType::kFloat32);
  try {
    ops::call("layer_norm_custom", {tx, tg}, {});
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "npurt.ops.layer_norm_custom: argument 'gamma': must have shape (4,) to match the last dim of x");
  }
  Tensor huge = Tensor::empty({1, 60000}, DType::kFloat32, npurt_test::stream0());
  try {
    ops::call("layer_norm_custom", {huge}, {});
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("too long for one UB"), std::string::npos) << e.what();
  }
}

TEST_F(LayerNorm, DescribeShowsDynamicTiling) {
  std::string text = ops::describe("layer_norm_custom", {{true, DType::kFloat32, {32, 256, 1024}, {}}});
  EXPECT_NE(text.find("rows=8192"), std::string::npos) << text;
  EXPECT_NE(text.find("numBlocks: 40"), std::string::npos) << text;  // Ascend910B3: 40 vector cores
  EXPECT_NE(text.find("d_aligned=1024 buffers=2"), std::string::npos) << text;
}

TEST_F(LayerNorm, TwoPhaseCApi) {
  const int64_t B = 3, S = 5, D = 33;
  auto x = data(B * S * D, 0.9f);
  auto g = data(D, 0.1f);
  npurtStream s;
  ASSERT_EQ(npurtStreamCreate("sim:0", &s), NPURT_SUCCESS);
  int64_t xs[] = {B, S, D}, ps[] = {D};
  npurtTensorDesc dx{sizeof(npurtTensorDesc), NPURT_FLOAT32, 3, xs}, dp{sizeof(npurtTensorDesc), NPURT_FLOAT32, 1, ps};
  npurtTensor tx, tg, ty;
  ASSERT_EQ(npurtTensorCreate(&dx, s, &tx), NPURT_SUCCESS);
  ASSERT_EQ(npurtTensorCreate(&dp, s, &tg), NPURT_SUCCESS);
  ASSERT_EQ(npurtTensorCreate(&dx, s, &ty), NPURT_SUCCESS);
  ASSERT_EQ(npurtTensorCopyFromHost(tx, x.data(), x.size() * 4, s), NPURT_SUCCESS);
  ASSERT_EQ(npurtTensorCopyFromHost(tg, g.data(), g.size() * 4, s), NPURT_SUCCESS);
  npurtAttr eps{sizeof(npurtAttr), "eps", NPURT_ATTR_FLOAT, 0, 1e-5, nullptr, nullptr, 0};
  npurtTensor inputs[] = {tx, tg, nullptr};  // beta absent
  uint64_t ws = 1;
  npurtOpExecutor ex;
  ASSERT_EQ(npurtOpGetWorkspaceSize("layer_norm_custom", inputs, 3, &eps, 1, &ty, 1, &ws, &ex), NPURT_SUCCESS)
      << npurtGetLastErrorMessage();
  ASSERT_EQ(npurtOpLaunch(nullptr, ws, ex, s), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  std::vector<float> y(x.size());
  ASSERT_EQ(npurtTensorCopyToHost(ty, y.data(), y.size() * 4, s), NPURT_SUCCESS);
  expect_close(y, reference(x, D, &g, nullptr, 1e-5), "C API");
  npurtTensorDestroy(tx);
  npurtTensorDestroy(tg);
  npurtTensorDestroy(ty);
  npurtStreamDestroy(s);
}
