// Tests of the host argument block packing for AscendCL launches (no device needed).
#include <gtest/gtest.h>

#include <cstring>

#include "backends/ascend/kernel_args.h"

namespace npurt::ascend {
namespace {

KernelLaunch make_launch(size_t num_args, size_t tiling_bytes) {
  KernelLaunch l;
  l.kernel_name = "add_kernel";
  l.num_blocks = 8;
  for (size_t i = 0; i < num_args; ++i) l.args.push_back(reinterpret_cast<void*>(0x1000 * (i + 1)));
  for (size_t i = 0; i < tiling_bytes; ++i) l.tiling.push_back(static_cast<uint8_t>(0xA0 + i));
  return l;
}

TEST(KernelArgs, SlotsThenWorkspaceThenTilingPlaceholder) {
  KernelLaunch l = make_launch(3, 12);
  l.workspace = reinterpret_cast<void*>(0xBEEF00);
  l.workspace_bytes = 256;
  PackedKernelArgs p = pack_kernel_args(l);
  ASSERT_EQ(p.num_slots, 5u);
  EXPECT_EQ(p.tiling_slot, 4u);
  EXPECT_EQ(p.tiling_bytes, 12u);
  EXPECT_EQ(p.host_args.size(), 5 * 8 + 16);  // tiling padded to 8
  EXPECT_EQ(p.host_args.size() % 8, 0u);
  EXPECT_EQ(packed_slot(p, 0), 0x1000u);
  EXPECT_EQ(packed_slot(p, 1), 0x2000u);
  EXPECT_EQ(packed_slot(p, 2), 0x3000u);
  EXPECT_EQ(packed_slot(p, 3), 0xBEEF00u);
  EXPECT_EQ(packed_slot(p, 4), 0u);  // patched by AscendCL
  ASSERT_EQ(p.placeholders.size(), 1u);
  EXPECT_EQ(p.placeholders[0].addr_offset, 32u);
  EXPECT_EQ(p.placeholders[0].data_offset, 40u);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(p.host_args[40 + i], 0xA0 + i) << i;
  for (size_t i = 12; i < 16; ++i) EXPECT_EQ(p.host_args[40 + i], 0) << "padding " << i;
}

TEST(KernelArgs, ScalarSlotKeepsItsBitsLowBytesFirst) {
  KernelLaunch l = make_launch(0, 0);
  float f = 1.5f;
  void* slot = nullptr;
  std::memcpy(&slot, &f, sizeof f);
  l.args.push_back(slot);
  int64_t n = -7;
  std::memcpy(&slot, &n, sizeof n);
  l.args.push_back(slot);
  l.scalar_arg_mask = 0b11;
  PackedKernelArgs p = pack_kernel_args(l);
  float back = 0;
  std::memcpy(&back, p.host_args.data(), sizeof back);
  EXPECT_EQ(back, 1.5f);
  EXPECT_EQ(static_cast<int64_t>(packed_slot(p, 1)), -7);
}

TEST(KernelArgs, EmptyTilingHasNullSlotAndNoPlaceholder) {
  PackedKernelArgs p = pack_kernel_args(make_launch(1, 0));
  EXPECT_EQ(p.num_slots, 3u);
  EXPECT_EQ(p.host_args.size(), 24u);
  EXPECT_TRUE(p.placeholders.empty());
  EXPECT_EQ(packed_slot(p, 1), 0u);  // null workspace
  EXPECT_EQ(packed_slot(p, 2), 0u);  // null tiling
}

TEST(KernelArgs, OneByteTilingIsPaddedToEight) {
  PackedKernelArgs p = pack_kernel_args(make_launch(0, 1));
  EXPECT_EQ(p.host_args.size(), 16u + 8u);
  EXPECT_EQ(p.placeholders[0].addr_offset, 8u);
  EXPECT_EQ(p.placeholders[0].data_offset, 16u);
}

TEST(KernelArgs, RejectsBadLaunchesNamingTheArgument) {
  KernelLaunch l = make_launch(2, 4);
  l.num_blocks = 0;
  try {
    pack_kernel_args(l);
    FAIL() << "num_blocks 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'num_blocks'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("add_kernel"), std::string::npos) << e.what();
  }
  l.num_blocks = 65536;
  EXPECT_THROW(pack_kernel_args(l), InvalidArgument);
  l.num_blocks = 65535;
  EXPECT_NO_THROW(pack_kernel_args(l));
  l.scalar_arg_mask = 1u << 2;  // only 2 args
  EXPECT_THROW(pack_kernel_args(l), InvalidArgument);
  l.scalar_arg_mask = 0;
  l.workspace_bytes = 64;  // but workspace null
  EXPECT_THROW(pack_kernel_args(l), InvalidArgument);
}

}  // namespace
}  // namespace npurt::ascend
