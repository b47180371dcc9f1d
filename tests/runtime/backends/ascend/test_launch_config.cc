// aclrtLaunchKernelCfg packing (launch_config.h) and its delivery to the
// launch calls of the FAKE AscendCL (both WithHostArgs and the builder path).
#include <gtest/gtest.h>

#include <vector>

#include "backends/ascend/launch_config.h"
#include "fake_backend_fixture.h"

namespace npurt::ascend {
namespace {

uint64_t low64(const aclrtLaunchKernelAttr& a) {
  return a.value.rsv[0] | (static_cast<uint64_t>(a.value.rsv[1]) << 32);
}

TEST(LaunchConfig, NoAttributesMeansNullConfig) {
  LaunchConfig cfg(AscendLaunchAttrs{}, "k");
  EXPECT_EQ(cfg.get(), nullptr);
  EXPECT_TRUE(cfg.attrs().empty());
}

TEST(LaunchConfig, EverySetAttributeInIdOrderWithItsValue) {
  AscendLaunchAttrs in;
  in.schedule_mode = 1;
  in.dyn_ubuf_bytes = 4096;
  in.engine = 1;
  in.block_dim_offset = 8;
  in.timeout_us = (uint64_t(3) << 32) | 7;  // both halves
  LaunchConfig cfg(in, "k");
  ASSERT_NE(cfg.get(), nullptr);
  ASSERT_EQ(cfg.get()->numAttrs, 5u);
  EXPECT_EQ(cfg.get()->attrs, cfg.attrs().data());
  const std::vector<int> ids = {acl::kLaunchAttrSchemMode, acl::kLaunchAttrDynUbufSize, acl::kLaunchAttrEngineType,
                                acl::kLaunchAttrBlockDimOffset, acl::kLaunchAttrTimeoutUs};
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(static_cast<int>(cfg.attrs()[i].id), ids[i]) << i;
  EXPECT_EQ(cfg.attrs()[0].value.schemMode, 1);
  EXPECT_EQ(low64(cfg.attrs()[0]), 1u);  // the rest of the union is zero
  EXPECT_EQ(cfg.attrs()[1].value.dynUBufSize, 4096u);
  EXPECT_EQ(low64(cfg.attrs()[2]), 1u);  // engineType AIV
  EXPECT_EQ(cfg.attrs()[3].value.blockDimOffset, 8u);
  EXPECT_EQ(low64(cfg.attrs()[4]), in.timeout_us);
}

TEST(LaunchConfig, EngineAicIsPassedAndBadEngineThrows) {
  AscendLaunchAttrs in;
  in.engine = 0;
  LaunchConfig aic(in, "k");
  ASSERT_EQ(aic.attrs().size(), 1u);
  EXPECT_EQ(static_cast<int>(aic.attrs()[0].id), acl::kLaunchAttrEngineType);
  in.engine = 2;
  try {
    LaunchConfig bad(in, "my_kernel");
    ADD_FAILURE() << "engine 2 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("my_kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ascend.engine"), std::string::npos) << e.what();
  }
}

class FakeLaunchConfig : public FakeAscendBackend {};

// The attributes reach the launch call (full: WithHostArgs, minimal: the
// aclrtKernelArgs builder + WithConfig), and the kernel still runs.
TEST_P(FakeLaunchConfig, AttributesReachTheLaunchCall) {
  const size_t n = 64;
  void* in = alloc(n * 4);
  void* out = alloc(n * 4);
  auto stream = backend_->create_stream(0);
  auto l = add_one(in, out, n, 1.0f, 2);
  stream->submit(launch(l));
  ASSERT_TRUE(stream->synchronize().is_ok());
  EXPECT_EQ(counter("cfg_attrs"), -1);  // no attribute: null config
  KernelLaunch with = l;
  with.ascend.dyn_ubuf_bytes = 2048;
  with.ascend.timeout_us = 5000000;
  stream->submit(launch(with));
  Status s = stream->synchronize();
  ASSERT_TRUE(s.is_ok()) << s.message();
  EXPECT_EQ(counter("cfg_attrs"), 2);
  EXPECT_EQ(counter("cfg_attr_2"), 2048);
  EXPECT_EQ(counter("cfg_attr_8"), 5000000);
  EXPECT_EQ(counter("cfg_attr_3"), 0);  // engine not set: not passed
  KernelLaunch bad = l;
  bad.ascend.engine = 5;
  stream->submit(launch(bad));
  s = stream->synchronize();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("ascend.engine"), std::string::npos) << s.message();
  stream.reset();
  backend_->free_segment(0, in, n * 4);
  backend_->free_segment(0, out, n * 4);
}

INSTANTIATE_TEST_SUITE_P(Variants, FakeLaunchConfig, ::testing::Values("full", "minimal"));

}  // namespace
}  // namespace npurt::ascend
