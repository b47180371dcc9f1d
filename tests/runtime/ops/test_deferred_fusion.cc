// Deferred elementwise fusion behind npurt::array::binary (npurt/array_ops.h,
// runtime/ops/deferred_fusion.h): fused results are bit-identical to the two
// eager launches (the same calls with the switch off), fusion happens exactly
// for temporaries of >= kDeferMinElements, and every observer (copies,
// synchronize, events, writes to an input, errors, other threads) sees eager
// results.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "npurt/array_ops.h"
#include "npurt/copy.h"
#include "npurt/status.h"
#include "op_test_util.h"
#include "ops/deferred_fusion.h"

using namespace npurt;
using npurt::array::BinaryOp;
using npurt_test::download;
using npurt_test::upload;

namespace {

constexpr int64_t kThr = array::deferral::kDeferMinElements;

std::vector<float> noise(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed * 2654435761u + 1;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(s >> 8) - (1 << 23)) / static_cast<float>(1 << 20);
  }
  return v;
}

Tensor f32(const std::vector<float>& v, const Dims& shape) { return upload(v, shape, DType::kFloat32); }

// Restores the switch (default on) whatever a test did.
struct SwitchGuard {
  ~SwitchGuard() { array::set_deferred_fusion(true); }
};

using Chain = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)>;

// f's result with fusion on (and whether it fused) against f with fusion off: bit-identical.
void expect_bit_identical(const Chain& f, const Tensor& a, const Tensor& b, const Tensor& c, bool expect_fused,
                          const char* what) {
  SwitchGuard g;
  array::set_deferred_fusion(true);
  const uint64_t before = array::deferred_fusion_count();
  const std::vector<float> on = download<float>(f(a, b, c));
  const uint64_t fused = array::deferred_fusion_count() - before;
  array::set_deferred_fusion(false);
  const std::vector<float> off = download<float>(f(a, b, c));
  EXPECT_EQ(array::deferred_fusion_count() - before, fused) << what << ": fused with the switch off";
  EXPECT_EQ(fused, expect_fused ? 1u : 0u) << what;
  ASSERT_EQ(on.size(), off.size()) << what;
  EXPECT_EQ(std::memcmp(on.data(), off.data(), on.size() * sizeof(float)), 0) << what;
}

// By value + std::move: a helper that forwards a temporary keeps it a
// temporary (a const& parameter would add a handle and keep the call eager).
Tensor mul(Tensor x, Tensor y) { return array::binary(BinaryOp::kMultiply, std::move(x), std::move(y)); }

TEST(DeferredFusion, ChainsAreBitIdenticalAroundTheThreshold) {
  const Tensor two = f32({2.0f}, {});
  for (int64_t n : {kThr - 1, kThr, kThr + 33, kThr * 4 + 15}) {
    const Tensor a = f32(noise(n, 1), {n}), b = f32(noise(n, 2), {n}), c = f32(noise(n, 3), {n});
    const bool big = n >= kThr;
    expect_bit_identical([&](const Tensor& x, const Tensor&, const Tensor& y) {
      return array::binary(BinaryOp::kAdd, mul(x, two), y);
    }, a, b, c, big, "a*2+b");
    expect_bit_identical([](const Tensor& x, const Tensor& u, const Tensor& y) {
      return array::binary(BinaryOp::kAdd, mul(x, u), y);
    }, a, b, c, big, "a*x+y");
    expect_bit_identical([](const Tensor& x, const Tensor& y, const Tensor& z) {
      return mul(array::binary(BinaryOp::kAdd, x, y), z);
    }, a, b, c, big, "(a+b)*c");
    expect_bit_identical([&](const Tensor& x, const Tensor& y, const Tensor&) {
      return array::binary(BinaryOp::kSubtract, x, mul(y, two));
    }, a, b, c, big, "x-y*2");
  }
}

TEST(DeferredFusion, ConstantOperandsAreBitIdentical) {
  const float cv = 0.1f;
  const Tensor c = f32({cv}, {});
  for (int64_t n : {kThr - 1, kThr + 33}) {
    const Tensor a = f32(noise(n, 50), {n}), b = f32(noise(n, 51), {n}), unused = f32({0.0f}, {});
    const bool big = n >= kThr;
    for (BinaryOp op1 : {BinaryOp::kAdd, BinaryOp::kSubtract, BinaryOp::kMultiply})
      for (int pos : {0, 1}) {
        const std::string what = std::string(array::binary_op_name(op1)) + " const at " + std::to_string(pos);
        expect_bit_identical([&](const Tensor& x, const Tensor& y, const Tensor&) {
          Tensor t = pos == 1 ? array::binary_with_constant(op1, x, c, 1, cv) : array::binary_with_constant(op1, c, x, 0, cv);
          return array::binary(BinaryOp::kSubtract, y, std::move(t));
        }, a, b, unused, big, what.c_str());
      }
  }
  EXPECT_THROW(array::binary_with_constant(BinaryOp::kAdd, c, c, 2, cv), InvalidArgument);
  const Tensor v = f32({1.0f, 2.0f}, {2});
  EXPECT_THROW(array::binary_with_constant(BinaryOp::kAdd, v, v, 1, cv), InvalidArgument);
}

TEST(DeferredFusion, MatchesAFloat32Reference) {
  const int64_t n = kThr + 7;
  const auto av = noise(n, 4), bv = noise(n, 5);
  const Tensor two = f32({2.0f}, {});
  const auto got = download<float>(array::binary(BinaryOp::kAdd, mul(f32(av, {n}), two), f32(bv, {n})));
  for (int64_t i = 0; i < n; i += 97) {
    volatile float t = av[i] * 2.0f;  // volatile: no contraction into an FMA
    EXPECT_EQ(got[i], t + bv[i]) << i;
  }
}

TEST(DeferredFusion, StridedAndBroadcastOperands) {
  const int64_t rows = 512, cols = 1024;  // rows * cols = 2 * kThr
  auto wide = noise(rows * 2 * cols, 6);
  Tensor base = f32(wide, {rows, 2 * cols});
  Tensor strided = base.view({rows, cols}, {2 * cols, 2}, 4);  // every other column, odd offset
  Tensor col = f32(noise(rows, 7), {rows, 1});
  Tensor row = f32(noise(cols, 8), {cols});
  Tensor full = f32(noise(rows * cols, 9), {rows, cols});
  expect_bit_identical([](const Tensor& s, const Tensor& c, const Tensor& f) {
    return array::binary(BinaryOp::kAdd, mul(s, c), f);
  }, strided, col, full, true, "strided*col+full");
  expect_bit_identical([](const Tensor& f, const Tensor& r, const Tensor& c) {
    return array::binary(BinaryOp::kSubtract, mul(f, r), c);
  }, full, row, col, true, "full*row-col");
  // The second op broadcasts the deferred output itself to a larger shape.
  Tensor big_col = f32(noise(rows * cols, 10), {rows * cols, 1});
  Tensor two_cols = f32(noise(2, 11), {2});
  expect_bit_identical([](const Tensor& x, const Tensor& y, const Tensor& z) {
    return array::binary(BinaryOp::kAdd, mul(x, y), z);
  }, big_col, big_col, two_cols, true, "(n,1)*(n,1)+(2,)");
}

TEST(DeferredFusion, NamedOutputIsNotFusedAndStaysReadable) {
  const int64_t n = kThr + 1;
  const auto av = noise(n, 12), bv = noise(n, 13);
  const Tensor a = f32(av, {n}), b = f32(bv, {n}), two = f32({2.0f}, {});
  const uint64_t before = array::deferred_fusion_count();
  Tensor t = mul(a, two);
  Tensor u = array::binary(BinaryOp::kAdd, t, b);
  EXPECT_EQ(array::deferred_fusion_count(), before);
  const auto tv = download<float>(t), uv = download<float>(u);
  for (int64_t i = 0; i < n; i += 61) {
    EXPECT_EQ(tv[i], av[i] * 2.0f);
    EXPECT_EQ(uv[i], tv[i] + bv[i]);
  }
}

TEST(DeferredFusion, WritesToAnInputAfterDeferralSeeTheOldValues) {
  const int64_t n = kThr;
  const auto av = noise(n, 14);
  Tensor a = f32(av, {n});
  const Tensor two = f32({2.0f}, {}), one = f32({1.0f}, {});
  Tensor t = mul(a, two);                                             // deferred
  array::binary(BinaryOp::kAdd, a, one, Stream(), a);                 // a += 1 (out=): flushes first
  Tensor t2 = mul(a, two);                                            // deferred
  const std::vector<float> zeros(static_cast<size_t>(n), 0.0f);
  copy_from_host(a, zeros.data(), zeros.size() * sizeof(float), npurt_test::stream0(), /*blocking=*/false);
  const auto tv = download<float>(t), t2v = download<float>(t2);
  for (int64_t i = 0; i < n; i += 59) {
    EXPECT_EQ(tv[i], av[i] * 2.0f) << i;
    EXPECT_EQ(t2v[i], (av[i] + 1.0f) * 2.0f) << i;
  }
}

TEST(DeferredFusion, SynchronizeAndEventsFlush) {
  const int64_t n = kThr;
  const auto av = noise(n, 15);
  const Tensor a = f32(av, {n}), two = f32({2.0f}, {});
  Tensor t = mul(a, two);
  npurt_test::stream0().synchronize();
  // Sim device memory is host memory: after synchronize, t must hold its values.
  EXPECT_EQ(static_cast<const float*>(t.data())[n - 1], av[n - 1] * 2.0f);
  Tensor t2 = mul(t, two);
  Event e(npurt_test::stream0().device());
  e.record(npurt_test::stream0());
  e.synchronize();
  EXPECT_EQ(static_cast<const float*>(t2.data())[3], av[3] * 4.0f);
  Tensor t3 = mul(t2, two);
  synchronize_device(npurt_test::stream0().device());
  EXPECT_EQ(static_cast<const float*>(t3.data())[5], av[5] * 8.0f);
}

TEST(DeferredFusion, ErrorInTheSecondOpFlushesAndLeavesTheRuntimeUsable) {
  const int64_t n = kThr;
  const auto av = noise(n, 16);
  const Tensor a = f32(av, {n}), two = f32({2.0f}, {}), bad = f32(noise(3, 17), {3});
  const Tensor f16 = upload(std::vector<uint16_t>(3, 0), {3}, DType::kFloat16);
  try {
    array::binary(BinaryOp::kAdd, mul(a, two), bad);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.add"), std::string::npos) << e.what();
  }
  EXPECT_THROW(array::binary(BinaryOp::kAdd, mul(a, two), f16), InvalidArgument);
  const auto ok = download<float>(array::binary(BinaryOp::kAdd, mul(a, two), a));
  EXPECT_EQ(ok[10], av[10] * 2.0f + av[10]);
}

TEST(DeferredFusion, ThreadsGetEagerResults) {
  const int64_t n = kThr + 64;
  const Tensor two = f32({2.0f}, {});
  std::vector<std::vector<float>> av(4), bv(4);
  std::vector<Tensor> a(4), b(4);
  for (int k = 0; k < 4; ++k) {
    av[k] = noise(n, 20 + k);
    bv[k] = noise(n, 30 + k);
    a[k] = f32(av[k], {n});
    b[k] = f32(bv[k], {n});
  }
  std::vector<int> bad(4, 0);
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (int it = 0; it < 6; ++it) {
        Tensor t = mul(a[k], two);  // named: must stay readable whatever the others do
        const auto r = download<float>(array::binary(BinaryOp::kAdd, mul(a[k], two), b[k]));
        const auto tv = download<float>(t);
        for (int64_t i = 0; i < n; i += 251) {
          volatile float p = av[k][i] * 2.0f;
          if (r[i] != p + bv[k][i] || tv[i] != p) ++bad[k];
        }
      }
    });
  for (auto& t : threads) t.join();
  for (int k = 0; k < 4; ++k) EXPECT_EQ(bad[k], 0) << "thread " << k;
}

TEST(DeferredFusion, SwitchOffNeverFuses) {
  SwitchGuard g;
  array::set_deferred_fusion(false);
  EXPECT_FALSE(array::deferred_fusion_enabled());
  const int64_t n = kThr * 2;
  const Tensor a = f32(noise(n, 40), {n}), two = f32({2.0f}, {});
  const uint64_t before = array::deferred_fusion_count();
  download<float>(array::binary(BinaryOp::kAdd, mul(a, two), a));
  EXPECT_EQ(array::deferred_fusion_count(), before);
  array::set_deferred_fusion(true);
  download<float>(array::binary(BinaryOp::kAdd, mul(a, two), a));
  EXPECT_EQ(array::deferred_fusion_count(), before + 1);
}

}  // namespace
