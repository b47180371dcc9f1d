// Tests of SoC name -> chip profile selection and device overrides (no device needed).
#include <gtest/gtest.h>

#include "backends/ascend/device_profile.h"
#include "npurt/status.h"

namespace npurt::ascend {
namespace {

TEST(DeviceProfile, SocNamesMapToBuiltinProfiles) {
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B1"), "Ascend910B1");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B3"), "Ascend910B3");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B2C"), "Ascend910B2");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B4-1"), "Ascend910B4");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910_9391"), "Ascend910_93");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910_9362"), "Ascend910_93");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend310P1"), "Ascend310P3");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend310B1"), "");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B"), "");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend910B9"), "");
  EXPECT_EQ(builtin_profile_name_for_soc("Ascend950PR"), "");
  EXPECT_EQ(builtin_profile_name_for_soc(""), "");
}

TEST(DeviceProfile, DeviceReportedValuesOverrideTheBuiltin) {
  DeviceAttributes a;
  a.cube_cores = 18;
  a.vector_cores = 36;
  a.global_mem = 32ll << 30;
  ChipProfile p = device_chip_profile("Ascend910B3", a);
  const ChipProfile& builtin = chip_profile("Ascend910B3");
  EXPECT_EQ(p.name, "Ascend910B3");
  EXPECT_EQ(p.cube_cores, 18u);
  EXPECT_EQ(p.vector_cores, 36u);
  EXPECT_EQ(p.hbm_bytes, 32ull << 30);
  EXPECT_EQ(p.l2_bytes, builtin.l2_bytes);  // not reported: kept
  EXPECT_EQ(p.ub_bytes, builtin.ub_bytes);
  EXPECT_EQ(p.npu_arch, builtin.npu_arch);
}

TEST(DeviceProfile, UnreportedAttributesKeepTheBuiltin) {
  ChipProfile p = device_chip_profile("Ascend910_9391", DeviceAttributes{});
  const ChipProfile& builtin = chip_profile("Ascend910_93");
  EXPECT_EQ(p.name, "Ascend910_9391");
  EXPECT_EQ(p.cube_cores, builtin.cube_cores);
  EXPECT_EQ(p.vector_cores, builtin.vector_cores);
  EXPECT_EQ(p.hbm_bytes, builtin.hbm_bytes);
}

TEST(DeviceProfile, CoupledArchUsesTheAiCoreCountForBoth) {
  DeviceAttributes a;
  a.aicore_cores = 8;
  a.cube_cores = 99;  // ignored on a coupled core
  ChipProfile p = device_chip_profile("Ascend310P3", a);
  EXPECT_FALSE(p.separated);
  EXPECT_EQ(p.cube_cores, 8u);
  EXPECT_EQ(p.vector_cores, 8u);
}

TEST(DeviceProfile, UnknownSocIsRefusedByName) {
  try {
    device_chip_profile("Ascend310B4", DeviceAttributes{});
    FAIL() << "unknown SoC accepted";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("Ascend310B4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace npurt::ascend
