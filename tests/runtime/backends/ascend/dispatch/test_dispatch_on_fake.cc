// Registered ops dispatched to an ascend device running on the FAKE AscendCL
// (not CANN: nothing here ran on an NPU). The fake logs every launch (kernel
// name, block dim, argument slots, tiling bytes: fake/fake_launch_log.h), so
// these tests check what the dispatcher would hand to an NPU against an
// independent reference: plan_op() with the ascend device's chip profile, and
// the tensors' own device addresses. Kernels listed in the fake binary record
// their launches but compute nothing, so no values are compared here.
#include <dlfcn.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../fake/fake_launch_log.h"
#include "../private_kernel_dir.h"
#include "npurt/dispatch.h"
#include "npurt/memory_pool.h"
#include "npurt/op_registry.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

const char* kMissingKernel = "npurt_argreduce_kernel";  // left out of the fake binary on purpose

std::string fake_library() { return std::string(NPURT_FAKE_ASCEND_ROOT) + "/full/lib64/libascendcl.so"; }
// Per process (ctest runs this binary's cases in parallel processes), created
// on first use and removed at exit.
const std::string& kernel_dir() {
  static const std::string dir = ascend::testing::private_kernel_dir("npurt_dispatch_fake_kernels");
  return dir;
}

// Before anything asks for an ascend device (the registry probes once per process).
const bool g_env = [] {
  setenv("NPURT_ASCENDCL_LIBRARY", fake_library().c_str(), 1);
  setenv("FAKE_ACL_DEVICE_COUNT", "1", 1);
  setenv("NPURT_ASCEND_KERNEL_PATH", kernel_dir().c_str(), 1);
  return true;
}();

const char* device_name_of(const OpDef& def) {
  return def.kernel.ascend_kernel_name.empty() ? def.kernel.sim_kernel_name.c_str()
                                               : def.kernel.ascend_kernel_name.c_str();
}

// A fake kernel binary exporting the device kernel of every registered op but one.
void write_kernel_binary() {
  static const bool done = [] {
    std::ofstream f(kernel_dir() + "/npurt_all.o");
    f << "FAKEBIN\n";
    for (const std::string& name : OpRegistry::instance().names()) {
      std::string k = device_name_of(*OpRegistry::instance().find(name));
      if (k != kMissingKernel) f << k << "\n";
    }
    return true;
  }();
  (void)done;
}

std::vector<FakeLaunchRecord> launches_since(long first) {
  void* h = dlopen(fake_library().c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(h, nullptr);
  auto count = reinterpret_cast<FakeLaunchCountFn>(dlsym(h, "fake_acl_launch_count"));
  auto record = reinterpret_cast<FakeLaunchRecordFn>(dlsym(h, "fake_acl_launch_record"));
  std::vector<FakeLaunchRecord> out;
  for (long i = first; i < count(); ++i) {
    out.emplace_back();
    EXPECT_EQ(record(i, &out.back()), 0);
  }
  dlclose(h);
  return out;
}
long launch_count() { return static_cast<long>(launches_since(0).size()); }

std::vector<Tensor> run(const char* op, const std::vector<Tensor>& inputs, Span<const AttrValue> attrs,
                        const Stream& stream) {
  return dispatch(OpHandle::find(op), Span<const Tensor>(inputs.data(), inputs.size()), attrs, stream);
}

uint64_t addr(const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data()); }

TensorSpec spec_of(const Tensor& t) {
  TensorSpec s;
  s.defined = true;
  s.dtype = t.dtype();
  s.shape = t.shape();
  s.strides = t.strides();
  return s;
}

class DispatchOnFakeAscend : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(g_env);
    ASSERT_EQ(backend_unavailable_reason(DeviceType::kAscend), "");
    write_kernel_binary();
    dev_ = parse_device("ascend:0");
    stream_ = Stream::create(dev_);
    first_ = launch_count();
  }
  void TearDown() override { stream_.synchronize(); }
  const ChipProfile& profile() { return device_context(dev_).profile(); }
  int64_t allocated() { return device_context(dev_).pool().stat("allocated_bytes.all.current"); }

  // The launch must carry the plan computed for the ascend profile.
  void expect_plan(const FakeLaunchRecord& r, const OpPlan& plan) {
    EXPECT_EQ(r.num_blocks, plan.tiling.num_blocks);
    ASSERT_GE(r.tiling_bytes, plan.tiling.tiling.size());
    EXPECT_LT(r.tiling_bytes, plan.tiling.tiling.size() + 8);  // padded to 8 bytes
    EXPECT_EQ(std::memcmp(r.tiling, plan.tiling.tiling.data(), plan.tiling.tiling.size()), 0);
  }

  Device dev_;
  Stream stream_;
  long first_ = 0;
};

TEST(DeviceKernelNames, EveryBuiltinOpNamesAnEntryTheKernelBuildDefines) {
  // The rule (runtime/ops/device_dispatch.h): the device kernel is the
  // extern "C" entry named by .sim_kernel (or .ascend_kernel). The sim build
  // compiles the same entries, so each must be a function symbol of libnpurt_kernels.
  std::string lib = NPURT_KERNELS_LIBRARY;  // empty (Bazel): the kernels are linked into this binary
  if (lib.empty()) {
    char self[4096] = {};
    ASSERT_GT(readlink("/proc/self/exe", self, sizeof self - 1), 0);
    lib = self;
  }
  FILE* p = popen(("nm --defined-only '" + lib + "'").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::set<std::string> text_symbols;
  char type = 0;
  char name[512];
  unsigned long long value = 0;
  while (std::fscanf(p, "%llx %c %511s", &value, &type, name) == 3)
    if (type == 'T' || type == 't') text_symbols.insert(name);
  pclose(p);
  ASSERT_GT(text_symbols.size(), 100u);
  size_t checked = 0;
  for (const std::string& op : OpRegistry::instance().names()) {
    const OpDef* def = OpRegistry::instance().find(op);
    if (def->source != "builtin") continue;
    EXPECT_TRUE(text_symbols.count(device_name_of(*def))) << op << ": " << device_name_of(*def);
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

TEST_F(DispatchOnFakeAscend, AddLaunchesItsDeviceKernelWithThePlanOfTheAscendProfile) {
  EXPECT_EQ(profile().name, "Ascend910B3");
  for (int64_t n : {1, 15, 33, 1023, 1 << 20}) {
    Tensor x = Tensor::empty({n}, DType::kFloat32, stream_);
    Tensor y = Tensor::empty({n}, DType::kFloat32, stream_);
    long before = launch_count();
    std::vector<Tensor> z = run("add", {x, y}, {}, stream_);
    auto rec = launches_since(before);
    ASSERT_EQ(rec.size(), 1u) << n;
    EXPECT_STREQ(rec[0].kernel, "npurt_add_kernel");
    ASSERT_EQ(rec[0].num_slots, 5u);  // x, y, z, workspace, tiling
    EXPECT_EQ(rec[0].slots[0], addr(x));
    EXPECT_EQ(rec[0].slots[1], addr(y));
    EXPECT_EQ(rec[0].slots[2], addr(z[0]));
    EXPECT_EQ(rec[0].slots[3], 0u);  // add asks for no workspace
    TensorSpec specs[] = {spec_of(x), spec_of(y)};
    expect_plan(rec[0], plan_op(OpHandle::find("add"), specs, {}, profile()));
  }
  stream_.synchronize();  // throws a recorded stream error
}

TEST_F(DispatchOnFakeAscend, ReduceSumOverAnAxis) {
  Tensor x = Tensor::empty({33, 15}, DType::kFloat32, stream_);
  AttrValue attrs[] = {AttrValue(Dims{1})};
  std::vector<Tensor> y = run("reduce_sum", {x}, attrs, stream_);
  ASSERT_EQ(y[0].shape(), Dims{33});
  auto rec = launches_since(first_);
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_STREQ(rec[0].kernel, "npurt_reduce_kernel");
  ASSERT_EQ(rec[0].num_slots, 4u);
  EXPECT_EQ(rec[0].slots[0], addr(x));
  EXPECT_EQ(rec[0].slots[1], addr(y[0]));
  TensorSpec specs[] = {spec_of(x)};
  expect_plan(rec[0], plan_op(OpHandle::find("reduce_sum"), specs, attrs, profile()));
}

TEST_F(DispatchOnFakeAscend, WorkspaceIncludesTheSystemWorkspaceOfTheDevice) {
  Tensor q = Tensor::empty({1, 16, 32}, DType::kFloat32, stream_);
  Tensor k = Tensor::empty({1, 16, 32}, DType::kFloat32, stream_);
  Tensor v = Tensor::empty({1, 16, 32}, DType::kFloat32, stream_);
  TensorSpec specs[] = {spec_of(q), spec_of(k), spec_of(v)};
  OpPlan plan = plan_op(OpHandle::find("attention"), specs, {}, profile());
  ASSERT_GT(plan.tiling.workspace_bytes, 0u);
  EXPECT_EQ(plan.system_workspace_bytes, profile().sys_workspace_bytes);
  EXPECT_EQ(profile().sys_workspace_bytes, 16u << 20);  // GetLibApiWorkSpaceSize on 910B (2201)
  MemoryPool& pool = device_context(dev_).pool();
  const int64_t before = allocated();
  pool.reset_peak_stats();
  std::vector<Tensor> out = run("attention", {q, k, v, Tensor()}, {}, stream_);
  // The workspace (system + op) was allocated for the launch next to the outputs
  // and released after it (stream-ordered), so it shows in the peak only.
  const int64_t outputs = static_cast<int64_t>(out[0].nbytes() + out[1].nbytes());
  EXPECT_GE(pool.stat("allocated_bytes.all.peak") - before,
            outputs + static_cast<int64_t>(plan.system_workspace_bytes + plan.tiling.workspace_bytes));
  EXPECT_LT(allocated() - before, static_cast<int64_t>(plan.system_workspace_bytes));
  auto rec = launches_since(first_);
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_STREQ(rec[0].kernel, "npurt_attention_kernel");
  ASSERT_EQ(rec[0].num_slots, 8u);  // q, k, v, attn_mask, out, lse, workspace, tiling
  EXPECT_EQ(rec[0].slots[3], 0u);   // the absent optional mask
  EXPECT_NE(rec[0].slots[6], 0u);   // the workspace
  expect_plan(rec[0], plan);
}

TEST_F(DispatchOnFakeAscend, StridedInputIsCopiedContiguousOnTheDeviceFirst) {
  Tensor base = Tensor::empty({30}, DType::kFloat32, stream_);
  Tensor x = base.view({15}, {2}, 4);  // every other element, from the second
  Tensor y = Tensor::empty({15}, DType::kFloat32, stream_);
  ASSERT_FALSE(x.is_contiguous());
  std::vector<Tensor> z = run("add", {x, y}, {}, stream_);
  auto rec = launches_since(first_);
  ASSERT_EQ(rec.size(), 2u);
  EXPECT_STREQ(rec[0].kernel, "npurt_copy_kernel");
  EXPECT_EQ(rec[0].slots[0], addr(x));
  EXPECT_STREQ(rec[1].kernel, "npurt_add_kernel");
  EXPECT_EQ(rec[1].slots[0], rec[0].slots[1]);  // add reads the copy's output
  EXPECT_NE(rec[1].slots[0], addr(x));
  EXPECT_EQ(rec[1].slots[1], addr(y));
  EXPECT_EQ(rec[1].slots[2], addr(z[0]));
}

TEST_F(DispatchOnFakeAscend, SimOnlyDtypeIsRefusedBeforeAnyAllocation) {
  Tensor x = Tensor::empty({33}, DType::kFloat64, stream_);
  const int64_t before = allocated();
  try {
    run("reduce_sum", {x}, {}, stream_);
    FAIL() << "float64 reduce_sum was launched on " << dev_.str();
  } catch (const InvalidArgument& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("npurt.ops.reduce_sum"), std::string::npos) << m;
    EXPECT_NE(m.find("'x'"), std::string::npos) << m;
    EXPECT_NE(m.find("float64"), std::string::npos) << m;
    EXPECT_NE(m.find("only supported on the sim backend"), std::string::npos) << m;
  }
  EXPECT_EQ(allocated(), before);
  EXPECT_EQ(launch_count(), first_);
  // The runtime stays usable: the float32 form launches.
  Tensor x32 = Tensor::empty({33}, DType::kFloat32, stream_);
  run("reduce_sum", {x32}, {}, stream_);
  EXPECT_EQ(launch_count(), first_ + 1);
  stream_.synchronize();  // throws a recorded stream error
}

TEST_F(DispatchOnFakeAscend, KernelNoBinaryExportsIsRefusedBeforeAnyAllocation) {
  Tensor x = Tensor::empty({2, 15}, DType::kFloat32, stream_);
  const int64_t before = allocated();
  AttrValue attrs[] = {AttrValue(Dims{1})};
  try {
    run("argmax", {x}, attrs, stream_);
    FAIL() << "argmax launched without a device kernel";
  } catch (const NotFound& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("npurt.ops.argmax"), std::string::npos) << m;
    EXPECT_NE(m.find(kMissingKernel), std::string::npos) << m;
    EXPECT_NE(m.find("NPURT_ASCEND_KERNELS"), std::string::npos) << m;  // how to build them
  }
  EXPECT_EQ(allocated(), before);
  EXPECT_EQ(launch_count(), first_);
  Tensor y = Tensor::empty({2, 15}, DType::kFloat32, stream_);
  run("add", {x, y}, {}, stream_);
  EXPECT_EQ(launch_count(), first_ + 1);
}

TEST_F(DispatchOnFakeAscend, PreparedOpChecksAtPrepareAndLaunchesOnTheDevice) {
  Tensor x = Tensor::empty({1023}, DType::kFloat32, stream_);
  Tensor y = Tensor::empty({1023}, DType::kFloat32, stream_);
  Tensor z = Tensor::empty({1023}, DType::kFloat32, stream_);
  std::vector<Tensor> in = {x, y}, out = {z};
  auto op = PreparedOp::prepare(OpHandle::find("add"), in, {}, out);
  EXPECT_EQ(launch_count(), first_);
  op->launch(nullptr, 0, stream_);
  auto rec = launches_since(first_);
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_STREQ(rec[0].kernel, "npurt_add_kernel");
  EXPECT_EQ(rec[0].slots[2], addr(z));
  Tensor d = Tensor::empty({4}, DType::kFloat64, stream_);
  std::vector<Tensor> din = {d}, dout = {Tensor::empty({}, DType::kFloat64, stream_)};
  EXPECT_THROW(PreparedOp::prepare(OpHandle::find("reduce_sum"), din, {}, dout), InvalidArgument);
}

}  // namespace
}  // namespace npurt
