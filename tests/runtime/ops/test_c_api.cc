// The C API: two-phase execution, handles, status codes and messages.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "npurt/npurt.h"
#include "npurt/op_registry.h"
#include "test_kernels.h"

namespace {

void register_test_op() {
  if (!npurt::OpRegistry::instance().find("c_affine"))
    npurt::OpRegistry::instance().add(
        npurt_test::affine_def("c_affine", NPURT_SIM_ENTRY(npurt_test_affine_kernel)).take());
}

npurtAttr float_attr(const char* name, double v) {
  npurtAttr a{};
  a.struct_size = sizeof a;
  a.name = name;
  a.type = NPURT_ATTR_FLOAT;
  a.float_value = v;
  return a;
}

npurtTensor make_tensor(npurtStream s, const std::vector<int64_t>& shape, npurtDataType dtype = NPURT_FLOAT32) {
  npurtTensorDesc d{};
  d.struct_size = sizeof d;
  d.dtype = dtype;
  d.ndim = static_cast<int32_t>(shape.size());
  d.shape = shape.data();
  npurtTensor t = nullptr;
  EXPECT_EQ(npurtTensorCreate(&d, s, &t), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  return t;
}

}  // namespace

TEST(CApi, Version) {
  npurtVersion v{};
  v.struct_size = sizeof v;
  ASSERT_EQ(npurtGetVersion(&v), NPURT_SUCCESS);
  EXPECT_EQ(v.c_api_major, NPURT_C_API_VERSION_MAJOR);
  EXPECT_EQ(v.major, 0);
  EXPECT_EQ(std::string(npurtStatusName(NPURT_ERROR_KERNEL_FAULT)), "KERNEL_FAULT");
  EXPECT_EQ(npurtGetVersion(nullptr), NPURT_ERROR_INVALID_ARGUMENT);
}

TEST(CApi, TwoPhaseLaunch) {
  register_test_op();
  npurtStream s = nullptr;
  ASSERT_EQ(npurtStreamCreate("sim:0", &s), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  npurtTensor x = make_tensor(s, {2, 3}), y = make_tensor(s, {2, 3});
  float in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {};
  ASSERT_EQ(npurtTensorCopyFromHost(x, in, sizeof in, s), NPURT_SUCCESS);
  npurtAttr attrs[] = {float_attr("a", 2.0), float_attr("b", 0.5)};
  uint64_t ws = 123;
  npurtOpExecutor ex = nullptr;
  ASSERT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, attrs, 2, &y, 1, &ws, &ex), NPURT_SUCCESS)
      << npurtGetLastErrorMessage();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(npurtOpLaunch(nullptr, ws, ex, s), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  ASSERT_EQ(npurtTensorCopyToHost(y, out, sizeof out, s), NPURT_SUCCESS);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], in[i] * 2.0f + 0.5f);

  int32_t ndim = 0;
  int64_t shape[4];
  npurtDataType dt;
  ASSERT_EQ(npurtOpInferOutput("c_affine", &x, 1, attrs, 1, 0, &dt, &ndim, shape, 4), NPURT_SUCCESS)
      << npurtGetLastErrorMessage();
  EXPECT_EQ(dt, NPURT_FLOAT32);
  EXPECT_EQ(ndim, 2);
  EXPECT_EQ(shape[1], 3);
  npurtTensorDestroy(x);
  npurtTensorDestroy(y);
  EXPECT_EQ(npurtStreamSynchronize(s), NPURT_SUCCESS);
  npurtStreamDestroy(s);
}

TEST(CApi, ErrorsAreCodesWithMessages) {
  register_test_op();
  npurtStream s = nullptr;
  ASSERT_EQ(npurtStreamGetDefault(nullptr, &s), NPURT_SUCCESS);
  npurtTensor x = make_tensor(s, {4}), y = make_tensor(s, {4}), wrong = make_tensor(s, {5});
  npurtAttr a = float_attr("a", 1.0);
  uint64_t ws = 0;
  npurtOpExecutor ex = nullptr;
  EXPECT_EQ(npurtOpGetWorkspaceSize("no_such_op", &x, 1, &a, 1, &y, 1, &ws, &ex), NPURT_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(npurtGetLastErrorMessage()).find("unknown op 'no_such_op'"), std::string::npos);
  npurtAttr bad = float_attr("gamma", 1.0);
  EXPECT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &bad, 1, &y, 1, &ws, &ex), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(npurtGetLastErrorMessage()).find("argument 'gamma': unknown attribute"), std::string::npos);
  EXPECT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &a, 1, &wrong, 1, &ws, &ex), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(npurtGetLastErrorMessage()).find("shape (5,) does not match the result shape (4,)"),
            std::string::npos) << npurtGetLastErrorMessage();
  npurtTensor null_out = nullptr;
  EXPECT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &a, 1, &null_out, 1, &ws, &ex), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(npurtOpLaunch(nullptr, 0, nullptr, s), NPURT_ERROR_INVALID_ARGUMENT);
  float host[3];
  EXPECT_EQ(npurtTensorCopyToHost(x, host, sizeof host, s), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(npurtLoadLibrary("/nonexistent/libnothing.so"), NPURT_ERROR_NOT_FOUND);
  // Still usable.
  ASSERT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &a, 1, &y, 1, &ws, &ex), NPURT_SUCCESS);
  EXPECT_EQ(npurtOpLaunch(nullptr, 0, ex, s), NPURT_SUCCESS);
  EXPECT_EQ(npurtStreamSynchronize(s), NPURT_SUCCESS);
  npurtTensorDestroy(x);
  npurtTensorDestroy(y);
  npurtTensorDestroy(wrong);
  npurtStreamDestroy(s);
}

// A dtype the op refuses (input, or a caller-allocated output of another dtype)
// is NPURT_ERROR_UNSUPPORTED_DTYPE with the usual message; the runtime stays usable.
TEST(CApi, DtypeRefusalsHaveTheirOwnCode) {
  register_test_op();
  npurtStream s = nullptr;
  ASSERT_EQ(npurtStreamGetDefault(nullptr, &s), NPURT_SUCCESS);
  npurtTensor x = make_tensor(s, {4}), y = make_tensor(s, {4});
  npurtTensor xi = make_tensor(s, {4}, NPURT_INT32), yi = make_tensor(s, {4}, NPURT_INT32);
  npurtAttr a = float_attr("a", 1.0);
  uint64_t ws = 0;
  npurtOpExecutor ex = nullptr;
  EXPECT_EQ(npurtOpGetWorkspaceSize("c_affine", &xi, 1, &a, 1, &y, 1, &ws, &ex), NPURT_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_NE(std::string(npurtGetLastErrorMessage())
                .find("npurt.ops.c_affine: argument 'x': dtype int32 is not supported (supported: float32)"),
            std::string::npos) << npurtGetLastErrorMessage();
  EXPECT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &a, 1, &yi, 1, &ws, &ex), NPURT_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_NE(std::string(npurtGetLastErrorMessage()).find("does not match the result dtype float32"),
            std::string::npos) << npurtGetLastErrorMessage();
  EXPECT_STREQ(npurtStatusName(NPURT_ERROR_UNSUPPORTED_DTYPE), "UNSUPPORTED_DTYPE");
  ASSERT_EQ(npurtOpGetWorkspaceSize("c_affine", &x, 1, &a, 1, &y, 1, &ws, &ex), NPURT_SUCCESS);
  EXPECT_EQ(npurtOpLaunch(nullptr, 0, ex, s), NPURT_SUCCESS);
  EXPECT_EQ(npurtStreamSynchronize(s), NPURT_SUCCESS);
  for (npurtTensor t : {x, y, xi, yi}) npurtTensorDestroy(t);
  npurtStreamDestroy(s);
}
