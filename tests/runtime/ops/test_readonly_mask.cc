// KernelLaunch::readonly_arg_mask as the dispatcher fills it: an input gets
// its bit only when no output (nor the workspace) shares a byte of its
// allocation, so the sim's copy elision (docs/backends.md) never mirrors memory
// the launch writes. In-place ops and out= views into an input's buffer clear it.
#include <gtest/gtest.h>

#include <vector>

#include "npurt/dispatch.h"
#include "npurt/op_registry.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

uint64_t g_mask = ~uint64_t{0};
int g_launches = 0;

void observe(const DispatchEvent& ev, void*) {
  if (ev.launch == nullptr) return;
  g_mask = ev.launch->readonly_arg_mask;
  ++g_launches;
}

// Runs add(a, b) into `out` (undefined: allocated) and returns the launch's mask.
uint64_t add_mask(const Tensor& a, const Tensor& b, Tensor out) {
  g_launches = 0;
  set_dispatch_observer(&observe, nullptr);
  Tensor ins[] = {a, b};
  dispatch(OpHandle::find("add"), Span<const Tensor>(ins, 2), {}, npurt_test::stream0(), Span<Tensor>(&out, 1));
  set_dispatch_observer(nullptr, nullptr);
  EXPECT_EQ(g_launches, 1);
  return g_mask;
}

TEST(ReadonlyMask, DistinctInputsAreReadOnly) {
  Tensor x = upload(std::vector<float>(1023, 1.5f), {1023}, DType::kFloat32);
  Tensor y = upload(std::vector<float>(1023, 2.0f), {1023}, DType::kFloat32);
  EXPECT_EQ(add_mask(x, y, Tensor()), 0b11u);
  EXPECT_EQ(add_mask(x, x, Tensor()), 0b11u);  // the same input twice is still only read
  Tensor z = Tensor::empty({1023}, DType::kFloat32, npurt_test::stream0());
  EXPECT_EQ(add_mask(x, y, z), 0b11u);
  EXPECT_EQ(download<float>(z), std::vector<float>(1023, 3.5f));
}

TEST(ReadonlyMask, InPlaceOutputClearsTheBit) {
  Tensor x = upload(std::vector<float>(33, 1.0f), {33}, DType::kFloat32);
  Tensor y = upload(std::vector<float>(33, 0.25f), {33}, DType::kFloat32);
  EXPECT_EQ(add_mask(x, y, x), 0b10u);  // x += y
  EXPECT_EQ(download<float>(x), std::vector<float>(33, 1.25f));
  EXPECT_EQ(add_mask(x, x, x), 0b00u);  // x = x + x
  EXPECT_EQ(download<float>(x), std::vector<float>(33, 2.5f));
}

TEST(ReadonlyMask, OutputViewIntoAnInputsBufferClearsTheBit) {
  std::vector<float> v(2 * 15);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i);
  Tensor base = upload(v, {30}, DType::kFloat32);
  Tensor lo = base.view({15}, {1}, 0);
  Tensor hi = base.view({15}, {1}, 15 * sizeof(float));  // disjoint bytes, same allocation
  Tensor y = upload(std::vector<float>(15, 100.0f), {15}, DType::kFloat32);
  EXPECT_EQ(add_mask(lo, y, hi), 0b10u);
  std::vector<float> got = download<float>(base);
  for (size_t i = 0; i < 15; ++i) {
    EXPECT_EQ(got[i], float(i));
    EXPECT_EQ(got[15 + i], float(i) + 100.0f);
  }
}

}  // namespace
