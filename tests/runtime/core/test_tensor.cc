// Tensor views validated against storage bounds, shape helpers, external storage.
#include <gtest/gtest.h>

#include <vector>

#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};

TEST(Tensor, EmptyIsContiguousWithTheRightSizes) {
  Tensor t = Tensor::empty({2, 3, 5}, DType::kFloat16, kDev);
  EXPECT_EQ(t.ndim(), 3u);
  EXPECT_EQ(t.numel(), 30);
  EXPECT_EQ(t.nbytes(), 60u);
  EXPECT_EQ(t.strides(), (Dims{15, 5, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data()) % 128, 0u);
  EXPECT_EQ(t.describe(), "float16[2, 3, 5] sim:0");
  EXPECT_EQ(t.stream(), Stream::current(kDev));
  Tensor scalar = Tensor::empty({}, DType::kFloat64, kDev);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(scalar.nbytes(), 8u);
  EXPECT_NE(scalar.data(), nullptr);
  Tensor none = Tensor::empty({4, 0}, DType::kInt32, kDev);
  EXPECT_EQ(none.numel(), 0);
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_TRUE(none.is_contiguous());
}

TEST(Tensor, ViewsShareStorageAndAreBoundsChecked) {
  Tensor t = Tensor::empty({4, 6}, DType::kInt32, kDev);  // 96 bytes
  Tensor tr = t.view({6, 4}, {1, 6}, 0);
  EXPECT_EQ(tr.storage(), t.storage());
  EXPECT_FALSE(tr.is_contiguous());
  Tensor rev = t.view({6}, {-1}, 5 * 4);  // last row of the first column block, reversed
  EXPECT_EQ(rev.data(), static_cast<char*>(t.data()) + 20);
  Tensor bcast = t.view({1000, 6}, {0, 1}, 0);  // zero strides stay inside
  EXPECT_EQ(bcast.numel(), 6000);
  Tensor row = t.view({6}, {1}, 18 * 4);
  EXPECT_EQ(row.data(), static_cast<char*>(t.data()) + 72);
  auto expect_bad = [&](const Dims& shape, const Dims& strides, int64_t off, const char* part) {
    try {
      t.view(shape, strides, off);
      ADD_FAILURE() << "accepted a view: " << part;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_bad({4, 7}, {7, 1}, 0, "outside the storage of 96 bytes");
  expect_bad({6}, {1}, 19 * 4, "outside the storage");
  expect_bad({6}, {-1}, 4 * 4, "outside the storage");
  expect_bad({2}, {1}, -4, "argument 'byte_offset': is negative");
  expect_bad({2, 2}, {1}, 0, "argument 'strides': has 1 entries for 2 dimensions");
  expect_bad({-1}, {1}, 0, "argument 'shape': dimension 0 is negative (-1)");
  expect_bad({int64_t(1) << 40, int64_t(1) << 40}, {1, 1}, 0, "int64 overflow");
  EXPECT_NO_THROW(t.view({0}, {1}, 96));  // empty view at the end is fine
}

TEST(Tensor, ReadOnlyViewsStayReadOnlyAndRefuseHostCopies) {
  Tensor t = Tensor::empty({3}, DType::kFloat32, kDev);
  EXPECT_FALSE(t.read_only());
  Tensor b = t.view({2, 3}, {0, 1}, t.byte_offset()).as_read_only();  // a broadcast view
  EXPECT_TRUE(b.read_only());
  EXPECT_FALSE(t.read_only());  // the base is untouched
  EXPECT_TRUE(b.view({3}, {1}, b.byte_offset()).read_only());
  const Tensor row = b.view({3}, {1}, b.byte_offset());
  const float host[3] = {1, 2, 3};
  try {
    copy_from_host(row, host, sizeof host, Stream::current(kDev));
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.copy_from_host: argument 'dst': tensor float32[3] sim:0 is a "
                                         "read-only view"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(fill_bytes(row, 0, Stream::current(kDev)), InvalidArgument);
  EXPECT_THROW(copy_device_to_device(row, t, Stream::current(kDev)), InvalidArgument);
  copy_device_to_device(t, row, Stream::current(kDev));  // reading one is fine
  Stream::current(kDev).synchronize();
}

TEST(Tensor, ShapeHelpers) {
  EXPECT_EQ(shape_numel({}), 1);
  EXPECT_EQ(shape_numel({3, 0, 2}), 0);
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (Dims{12, 4, 1}));
  EXPECT_EQ(contiguous_strides({2, 0, 4}), (Dims{4, 4, 1}));
  EXPECT_THROW(check_shape({1, -2}, "npurt.zeros"), InvalidArgument);
  EXPECT_THROW(Tensor::empty({-3}, DType::kFloat32, kDev), InvalidArgument);
  EXPECT_THROW(Tensor::empty({int64_t(1) << 62, 4}, DType::kFloat32, kDev), InvalidArgument);
  EXPECT_THROW(Tensor(nullptr, 0, {1}, {1}, DType::kFloat32), InvalidArgument);
}

TEST(Storage, ExternalMemoryIsRegisteredForKernelsWhileAlive) {
  std::vector<char> host(256);
  MemoryPool& pool = device_context(kDev).pool();
  const void* base;
  size_t size;
  {
    auto st = Storage::wrap_external(kDev, host.data(), host.size(), nullptr, Stream());
    EXPECT_TRUE(st->is_external());
    EXPECT_EQ(st->data(), host.data());
    EXPECT_EQ(st->stream(), device_context(kDev).default_stream());
    ASSERT_TRUE(pool.find_allocation(host.data() + 10, &base, &size));
    EXPECT_EQ(size, 256u);
  }
  EXPECT_FALSE(pool.find_allocation(host.data() + 10, &base, &size));
  EXPECT_THROW(Storage::wrap_external(kDev, nullptr, 8, nullptr, Stream()), InvalidArgument);
  auto pooled = Storage::allocate(100, Stream::current(kDev));
  EXPECT_FALSE(pooled->is_external());
  EXPECT_THROW(Storage::allocate(1, Stream()), InvalidArgument);
}

}  // namespace
}  // namespace npurt
