// tests/runtime/backends/ascend/fake_backend_fixture.h: the FakeAscendBackend
// fixture (an ascend backend on a FAKE AscendCL variant, with a fake kernel
// binary holding fake_add_one and fake_fail) and command builders, shared by
// the backend tests and the graph capture tests. Not CANN: see fake/fake_ascendcl.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "fake_acl_fixture.h"

namespace npurt::ascend {

using testing::fake_counter;
using testing::ScopedEnv;

struct AddOneTiling {  // what the fake's fake_add_one kernel reads from GM
  uint64_t n;
  float addend;
  uint32_t pad;
};

class FakeAscendBackend : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    kernel_dir_ = testing::private_kernel_dir(std::string("npurt_fake_kernels_") + GetParam());
    std::ofstream(kernel_dir_ + "/fake_family.o") << "FAKEBIN\nfake_add_one\nfake_fail\n";
    std::ofstream(kernel_dir_ + "/not_a_binary.txt") << "ignored\n";
    kernel_path_ = std::make_unique<ScopedEnv>("NPURT_ASCEND_KERNEL_PATH", kernel_dir_);
    devices_ = std::make_unique<ScopedEnv>("FAKE_ACL_DEVICE_COUNT", "2");
    // Baselines: other backends in this process (e.g. the registry's, leaked on
    // purpose) may hold fake resources of the same library.
    events_before_ = std::max(0l, counter("live_events"));
    binaries_before_ = std::max(0l, counter("binary_loads"));
    std::string why;
    backend_ = create_ascend_backend(testing::fake_env(variant()), &why);
    ASSERT_NE(backend_, nullptr) << why;
  }
  void TearDown() override { backend_.reset(); }
  std::string variant() const { return GetParam(); }
  bool full() const { return variant() == "full"; }
  long counter(const char* name) const { return fake_counter(variant(), name); }

  void* alloc(size_t bytes) {
    void* p = backend_->allocate_segment(0, bytes);
    EXPECT_NE(p, nullptr);
    return p;
  }

  KernelLaunch add_one(void* in, void* out, uint64_t n, float addend, uint32_t blocks) {
    KernelLaunch l;
    l.kernel_name = "fake_add_one";
    l.num_blocks = blocks;
    l.args.push_back(in);
    l.args.push_back(out);
    AddOneTiling t{n, addend, 0};
    l.tiling.assign(reinterpret_cast<uint8_t*>(&t), reinterpret_cast<uint8_t*>(&t) + sizeof t);
    return l;
  }

  static Command copy(void* dst, const void* src, size_t n, CopyKind k) {
    Command c;
    c.kind = Command::Kind::kCopy;
    c.dst = dst;
    c.src = src;
    c.bytes = n;
    c.copy_kind = k;
    return c;
  }
  static Command launch(KernelLaunch l) {
    Command c;
    c.kind = Command::Kind::kLaunch;
    c.launch = std::move(l);
    return c;
  }

  std::string kernel_dir_;
  std::unique_ptr<ScopedEnv> kernel_path_, devices_;
  std::unique_ptr<Backend> backend_;
  long events_before_ = 0, binaries_before_ = 0;
};

}  // namespace npurt::ascend
