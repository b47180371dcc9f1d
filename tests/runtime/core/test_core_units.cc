// Status, Device, chip profiles and the device manager.
#include <gtest/gtest.h>

#include <cstdlib>

#include "npurt/chip_profile.h"
#include "npurt/device.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {
namespace {

TEST(Status, CodesMapToExceptionTypes) {
  EXPECT_THROW(throw_error(StatusCode::kOutOfMemory, "m"), OutOfMemoryError);
  EXPECT_THROW(throw_error(StatusCode::kKernelFault, "m"), KernelFault);
  EXPECT_THROW(throw_error(StatusCode::kNotFound, "m"), NotFound);
  EXPECT_THROW(throw_error(StatusCode::kUnavailable, "m"), Unavailable);
  EXPECT_THROW(throw_error(StatusCode::kCaptureError, "m"), CaptureError);
  try {
    throw_error(StatusCode::kCompileError, "bad kernel");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kCompileError);
    EXPECT_EQ(e.status().to_string(), "COMPILE_ERROR: bad kernel");
  }
  try {
    throw_invalid_argument("npurt.empty", "shape", "dimension 1 is negative (-3)");
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "npurt.empty: argument 'shape': dimension 1 is negative (-3)");
  }
  Status s = capture_status([] { throw std::runtime_error("plain"); });
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_TRUE(capture_status([] {}).is_ok());
  EXPECT_NO_THROW(Status().throw_if_error());
  EXPECT_THROW(Status(StatusCode::kInvalidArgument, "x").throw_if_error(), InvalidArgument);
}

// A dtype refusal has its own code but stays an InvalidArgument for C++ callers,
// and rethrowing it under another message keeps the code.
TEST(Status, UnsupportedDtypeRefinesInvalidArgument) {
  EXPECT_THROW(throw_error(StatusCode::kUnsupportedDtype, "m"), UnsupportedDtype);
  EXPECT_THROW(throw_error(StatusCode::kUnsupportedDtype, "m"), InvalidArgument);
  try {
    throw_unsupported_dtype("npurt.ops.add", "x", "dtype bool is not supported");
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.code(), StatusCode::kUnsupportedDtype);
    EXPECT_STREQ(e.what(), "npurt.ops.add: argument 'x': dtype bool is not supported");
    EXPECT_EQ(e.status().to_string(), "UNSUPPORTED_DTYPE: npurt.ops.add: argument 'x': dtype bool is not supported");
    EXPECT_THROW(rethrow_invalid_argument(e, "npurt.add: ..."), UnsupportedDtype);
  }
  try {
    rethrow_invalid_argument(InvalidArgument("a"), "b");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kInvalidArgument);  // a plain bad argument stays one
    EXPECT_STREQ(e.what(), "b");
  }
  EXPECT_TRUE(is_invalid_argument(StatusCode::kInvalidArgument));
  EXPECT_TRUE(is_invalid_argument(StatusCode::kUnsupportedDtype));
  EXPECT_FALSE(is_invalid_argument(StatusCode::kNotFound));
  Status s = capture_status([] { throw_unsupported_dtype("w", "a", "r"); });
  EXPECT_EQ(s.code(), StatusCode::kUnsupportedDtype);
  EXPECT_STREQ(status_code_name(s.code()), "UNSUPPORTED_DTYPE");
}

TEST(Device, ParsesAndPrints) {
  EXPECT_EQ(parse_device("sim"), (Device{DeviceType::kSim, 0}));
  EXPECT_EQ(parse_device("sim:3"), (Device{DeviceType::kSim, 3}));
  EXPECT_EQ(parse_device("Ascend:1"), (Device{DeviceType::kAscend, 1}));
  EXPECT_EQ((Device{DeviceType::kAscend, 2}).str(), "ascend:2");
  for (const char* bad : {"", "cuda:0", "sim:", "sim:-1", "sim:x", "sim:1:2"}) {
    try {
      parse_device(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("npurt.Device: argument 'device'"), std::string::npos) << e.what();
    }
  }
}

TEST(ChipProfile, TableMatchesAscendFacts) {
  const ChipProfile& b3 = chip_profile("910B3");
  EXPECT_EQ(b3.name, "Ascend910B3");
  EXPECT_EQ(b3.npu_arch, 2201u);
  EXPECT_TRUE(b3.separated);
  EXPECT_EQ(b3.cube_cores, 20u);
  EXPECT_EQ(b3.vector_cores, 40u);
  EXPECT_EQ(b3.ub_bytes, 196608u);
  EXPECT_EQ(b3.ub_usable_bytes, 196352u);
  EXPECT_EQ(b3.l1_bytes, 512u * 1024);
  EXPECT_EQ(b3.l0a_bytes, 64u * 1024);
  EXPECT_EQ(b3.l0c_bytes, 128u * 1024);
  EXPECT_EQ(b3.sys_workspace_bytes, 16u << 20);
  EXPECT_EQ(b3.ub_align, 32u);
  EXPECT_EQ(b3.l0ab_align, 512u);
  EXPECT_EQ(b3.l0c_align, 64u);
  EXPECT_TRUE(b3.has_datacopy_pad);
  EXPECT_EQ(chip_profile("ascend910b1").cube_cores, 24u);
  EXPECT_EQ(chip_profile("Ascend910B2").vector_cores, 48u);
  EXPECT_EQ(chip_profile("910B4").hbm_bytes, 32ull << 30);
  EXPECT_EQ(chip_profile("910_93").vector_cores, 48u);
  const ChipProfile& p = chip_profile("310P3");
  EXPECT_EQ(p.npu_arch, 2002u);
  EXPECT_FALSE(p.separated);
  EXPECT_FALSE(p.has_datacopy_pad);
  EXPECT_FALSE(p.has_bf16);
  EXPECT_EQ(p.ub_bytes, 256u * 1024);
  EXPECT_EQ(p.sys_workspace_bytes, 2u << 20);
  EXPECT_EQ(chip_profiles().size(), 6u);
  try {
    chip_profile("910C");
    FAIL();
  } catch (const NotFound& e) {
    EXPECT_NE(std::string(e.what()).find("Ascend310P3"), std::string::npos) << "lists known names";
  }
}

TEST(ChipProfile, DefaultComesFromEnvironment) {
  unsetenv("NPURT_SIM_PROFILE");
  EXPECT_EQ(default_chip_profile().name, "Ascend910B3");
  setenv("NPURT_SIM_PROFILE", "310P3", 1);
  EXPECT_EQ(default_chip_profile().name, "Ascend310P3");
  setenv("NPURT_SIM_PROFILE", "nope", 1);
  EXPECT_THROW(default_chip_profile(), NotFound);
  unsetenv("NPURT_SIM_PROFILE");
}

TEST(Runtime, DevicesContextsAndCurrentDevice) {
  auto devs = devices();
  ASSERT_FALSE(devs.empty());
  EXPECT_EQ(devs[0], (Device{DeviceType::kSim, 0}));
  DeviceContext& ctx = device_context(devs[0]);
  EXPECT_EQ(ctx.device(), devs[0]);
  EXPECT_STREQ(ctx.backend().name(), "sim");
  EXPECT_EQ(ctx.profile().name, default_chip_profile().name);
  EXPECT_TRUE(ctx.default_stream().is_default());
  EXPECT_EQ(&ctx.pool(), &device_context(devs[0]).pool());
  EXPECT_EQ(current_device(), devs[0]);
  try {
    device_context(Device{DeviceType::kSim, 7});
    FAIL();
  } catch (const NotFound& e) {
    EXPECT_NE(std::string(e.what()).find("sim:7 does not exist"), std::string::npos) << e.what();
  }
  EXPECT_THROW(set_current_device(Device{DeviceType::kSim, 7}), NotFound);
  if (!backend_for(DeviceType::kAscend)) {
    EXPECT_FALSE(backend_unavailable_reason(DeviceType::kAscend).empty());
    EXPECT_THROW(device_context(Device{DeviceType::kAscend, 0}), NotFound);
  }
  EXPECT_EQ(version(), "0.1.0");
}

}  // namespace
}  // namespace npurt
