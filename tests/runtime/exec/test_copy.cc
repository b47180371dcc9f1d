// Copies between host memory and tensors on a stream, fills, and bad input.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "runtime/exec/gate.h"
#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 31 + seed);
  return v;
}

TEST(Copy, RoundTripsForOddAndLargeSizes) {
  Stream s = Stream::create(kDev);
  for (size_t n : {size_t(1), size_t(15), size_t(33), size_t(1023), size_t(1) << 20, (size_t(9) << 20) + 3}) {
    Tensor t = Tensor::empty({static_cast<int64_t>(n)}, DType::kUInt8, s);
    auto src = pattern(n, 7);
    std::vector<uint8_t> back(n, 0);
    copy_from_host(t, src.data(), n, s, /*blocking=*/false);
    copy_to_host(back.data(), t, n, s, /*blocking=*/true);
    EXPECT_EQ(back, src) << n;
  }
}

TEST(Copy, NonBlockingUploadMayReuseTheHostBufferAtOnce) {
  Stream s = Stream::create(kDev);
  for (size_t n : {size_t(4096), size_t(3) << 20}) {  // staged, and copied before returning
    test::Gate gate;
    if (n < (size_t(1) << 20)) gate.block(s);  // the staged path must not wait for the stream
    Tensor t = Tensor::empty({static_cast<int64_t>(n)}, DType::kUInt8, s);
    auto src = pattern(n, 3), expect = src;
    copy_from_host(t, src.data(), n, s, false);
    std::fill(src.begin(), src.end(), 0xEE);  // overwrite immediately
    gate.open();
    std::vector<uint8_t> back(n);
    copy_to_host(back.data(), t, n, s);
    EXPECT_EQ(back, expect) << n;
  }
}

TEST(Copy, DeviceToDeviceAndFill) {
  Stream s = Stream::create(kDev);
  Tensor a = Tensor::empty({33}, DType::kInt32, s), b = Tensor::empty({33}, DType::kInt32, s);
  std::vector<int32_t> src(33);
  std::iota(src.begin(), src.end(), -5);
  copy_from_host(a, src.data(), a.nbytes(), s);
  copy_device_to_device(b, a, s);
  std::vector<int32_t> back(33);
  copy_to_host(back.data(), b, b.nbytes(), s);
  EXPECT_EQ(back, src);
  fill_bytes(b, 0xFF, s);
  copy_to_host(back.data(), b, b.nbytes(), s);
  for (int32_t v : back) EXPECT_EQ(v, -1);
  Tensor empty = Tensor::empty({0}, DType::kFloat32, s);
  EXPECT_NO_THROW(fill_bytes(empty, 0, s));
  EXPECT_NO_THROW(copy_to_host(nullptr, empty, 0, s));
}

TEST(Copy, BadInputsRaiseClearErrors) {
  Stream s = Stream::create(kDev);
  Tensor t = Tensor::empty({4, 4}, DType::kFloat32, s);
  std::vector<float> host(32);
  auto expect_msg = [](auto&& f, const char* part) {
    try {
      f();
      ADD_FAILURE() << "no error, expected: " << part;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_msg([&] { copy_from_host(t, host.data(), 65 * 4, s); }, "npurt.copy_from_host: argument 'bytes'");
  expect_msg([&] { copy_from_host(t, nullptr, 16, s); }, "argument 'src': null host pointer");
  expect_msg([&] { copy_to_host(host.data(), t.view({4, 4}, {1, 4}, 0), 64, s); }, "is not contiguous");
  expect_msg([&] { copy_to_host(host.data(), Tensor(), 4, s); }, "argument 'src': undefined tensor");
  Tensor small = Tensor::empty({3}, DType::kFloat32, s);
  expect_msg([&] { copy_device_to_device(t, small, s); }, "differs from dst");
  Stream closed = Stream::create(kDev);
  closed.close();
  expect_msg([&] { copy_from_host(t, host.data(), 4, closed); }, "is closed");
}

TEST(Copy, RawCopyToMemoryOutsideThePoolFailsOnItsStream) {
  Stream s = Stream::create(kDev);
  std::vector<char> not_device(64), host(64);
  s.memcpy_async(not_device.data(), host.data(), 64, CopyKind::kHostToDevice);
  try {
    s.synchronize();
    FAIL() << "expected an error";
  } catch (const InvalidArgument& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("on sim:0: copy H2D 64 bytes: destination"), std::string::npos) << m;
    EXPECT_NE(m.find("not inside any allocation"), std::string::npos) << m;
  }
  Tensor t = Tensor::empty({16}, DType::kUInt8, s);
  s.memcpy_async(host.data(), t.data(), 64, CopyKind::kDeviceToHost);  // 64 > 16 bytes
  try {
    s.synchronize();
    FAIL() << "expected an overrun error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("overruns its allocation"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace npurt
