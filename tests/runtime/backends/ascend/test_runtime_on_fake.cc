// The whole runtime (registry, device contexts, memory pool, Stream) on the
// ascend backend, with the FAKE AscendCL (not CANN) selected through
// NPURT_ASCENDCL_LIBRARY. The registry probes AscendCL once per process, so
// this test sets the environment before anything asks for an ascend device.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "fake_acl_fixture.h"
#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt::ascend {
namespace {

struct AddOneTiling {
  uint64_t n;
  float addend;
  uint32_t pad;
};

// Selects the full fake for this process; each test calls it first (ctest runs
// every test case in its own process).
void select_fake_ascend() {
  setenv("NPURT_ASCENDCL_LIBRARY", testing::fake_library("full").c_str(), 1);
  setenv("FAKE_ACL_DEVICE_COUNT", "1", 1);
  setenv("FAKE_ACL_MISALIGN", "1", 1);  // aclrtMalloc bases only 64-byte aligned
}

TEST(RuntimeOnFakeAscend, PoolStreamsAndLaunchThroughThePublicApi) {
  select_fake_ascend();
  std::string dir = testing::private_kernel_dir("npurt_runtime_fake_kernels");
  std::ofstream(dir + "/k.o") << "FAKEBIN\nfake_add_one\n";
  setenv("NPURT_ASCEND_KERNEL_PATH", dir.c_str(), 1);

  ASSERT_EQ(backend_unavailable_reason(DeviceType::kAscend), "");
  Device dev = parse_device("ascend:0");
  bool listed = false;
  for (Device d : devices()) listed = listed || d == dev;
  EXPECT_TRUE(listed);
  DeviceContext& ctx = device_context(dev);
  EXPECT_EQ(ctx.profile().name, "Ascend910B3");
  EXPECT_EQ(ctx.profile().cube_cores, 18u);

  Stream stream = Stream::create(dev);
  MemoryPool& pool = ctx.pool();
  const size_t n = 1000;
  DataPtr in = pool.allocate(n * 4, stream);
  DataPtr out = pool.allocate(n * 4, stream);
  ASSERT_TRUE(in && out);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(in.get()) % 128, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(out.get()) % 128, 0u);
  // The block holds the request plus AscendCL's 32-byte over-read pad.
  EXPECT_GE(MemoryPool::round_size(n * 4), n * 4 + 32);

  std::vector<float> host(n), result(n, 0.0f);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i) - 100.0f;
  KernelLaunch launch;
  launch.kernel_name = "fake_add_one";
  launch.num_blocks = 3;
  launch.args.push_back(in.get());
  launch.args.push_back(out.get());
  AddOneTiling t{n, 0.5f, 0};
  launch.tiling.assign(reinterpret_cast<uint8_t*>(&t), reinterpret_cast<uint8_t*>(&t) + sizeof t);
  stream.memcpy_async(in.get(), host.data(), n * 4, CopyKind::kHostToDevice);
  stream.launch(launch);
  stream.memcpy_async(result.data(), out.get(), n * 4, CopyKind::kDeviceToHost);
  stream.synchronize();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], host[i] + 0.5f) << i;
  in.reset();
  out.reset();
  pool.empty_cache();
  EXPECT_EQ(pool.stat("reserved_bytes.all.current"), 0);
}

// A non-blocking copy_from_host of a small source returns at once: npurt
// stages the source in a buffer owned by the command (Command::keep_alive), so
// the caller may reuse or free its memory. The ascend stream reads that staging
// buffer later, from a host function on the stream: it must keep the command's
// keep_alive until then (it did not: a freed buffer was read, the first 16 bytes
// came back as allocator metadata; found from Python, nr.asarray on ascend:0).
TEST(RuntimeOnFakeAscend, NonBlockingCopyFromHostKeepsItsStagedSourceAlive) {
  select_fake_ascend();
  Stream stream = Stream::create(parse_device("ascend:0"));
  for (int64_t n : {1, 10, 33, 1000, 100000}) {
    Tensor t = Tensor::empty(Dims{n}, DType::kFloat32, stream);
    {
      std::vector<float> src(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) src[i] = 0.5f * static_cast<float>(i) + 1.0f;
      copy_from_host(t, src.data(), src.size() * 4, stream, /*blocking=*/false);
      std::fill(src.begin(), src.end(), -7.0f);  // the caller's buffer is its own again
    }
    for (int k = 0; k < 64; ++k) {  // heap churn: a freed staging buffer gets reused
      std::vector<char> junk(static_cast<size_t>(n) * 4 + k, 0x5a);
      EXPECT_EQ(junk.back(), 0x5a);
    }
    std::vector<float> result(static_cast<size_t>(n), 0.0f);
    copy_to_host(result.data(), t, result.size() * 4, stream, /*blocking=*/true);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(result[i], 0.5f * static_cast<float>(i) + 1.0f) << "n=" << n << " i=" << i;
  }
}

}  // namespace
}  // namespace npurt::ascend
