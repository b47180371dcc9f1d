// Dispatch: results, every kind of bad input, out=, tiling cache, contiguity, faults.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <cmath>

#include "npurt/dispatch.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "op_test_util.h"
#include "test_kernels.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

class Dispatch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!OpRegistry::instance().find("t_affine")) {
      OpRegistry::instance().add(npurt_test::affine_def("t_affine", NPURT_SIM_ENTRY(npurt_test_affine_kernel)).take());
      OpRegistry::instance().add(
          npurt_test::affine_def("t_fault", NPURT_SIM_ENTRY(npurt_test_affine_kernel), /*fault=*/true).take());
    }
  }
  std::string invalid(const std::function<void()>& f) {
    try {
      f();
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    ADD_FAILURE() << "expected InvalidArgument";
    return "";
  }
  // The runtime still works after an error: a normal call gives the right answer.
  void expect_usable() {
    Tensor x = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
    auto y = download<float>(ops::call("t_affine", {x}, {{"a", 2.0}, {"b", 1.0}})[0]);
    EXPECT_EQ(y, (std::vector<float>{3, 5, 7}));
  }
};

}  // namespace

TEST_F(Dispatch, ComputesAgainstScalarReference) {
  for (size_t n : {1, 15, 33, 1023, 100000}) {
    auto xs = npurt_test::iota_f(n);
    Tensor x = upload(xs, {static_cast<int64_t>(n)}, DType::kFloat32);
    Tensor y = ops::call("t_affine", {x}, {{"a", 1.5}, {"b", -2.0}})[0];
    EXPECT_EQ(y.shape(), Dims({static_cast<int64_t>(n)}));
    auto ys = download<float>(y);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(ys[i], xs[i] * 1.5f - 2.0f) << "n=" << n << " i=" << i;
  }
}

TEST_F(Dispatch, WrongDtype) {
  Tensor x = upload(std::vector<int32_t>{1, 2}, {2}, DType::kInt32);
  std::string m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'x': dtype int32 is not supported (supported: float32)");
  expect_usable();
}

TEST_F(Dispatch, WrongRank) {
  Tensor x = upload(std::vector<float>(32, 1.f), {2, 2, 2, 2, 2}, DType::kFloat32);
  std::string m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}); });
  EXPECT_NE(m.find("argument 'x': rank 5 (shape (2, 2, 2, 2, 2)) is outside the supported range [1, 4]"),
            std::string::npos) << m;
  Tensor s = upload(std::vector<float>{1.f}, {}, DType::kFloat32);
  m = invalid([&] { ops::call("t_affine", {s}, {{"a", 1.0}}); });
  EXPECT_NE(m.find("rank 0"), std::string::npos) << m;
  expect_usable();
}

TEST_F(Dispatch, MissingInputAndTooManyInputs) {
  std::string m = invalid([&] { ops::call("t_affine", {}, {{"a", 1.0}}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'x': required input is missing");
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  m = invalid([&] { ops::call("t_affine", {x, x}, {{"a", 1.0}}); });
  EXPECT_NE(m.find("the op takes 1 input(s), got 2"), std::string::npos) << m;
  expect_usable();
}

// Several missing required arguments are named in one message (the first alone sent the user
// round once per argument); optional inputs and defaulted attributes are never listed.
TEST_F(Dispatch, EveryMissingRequiredArgumentIsNamed) {
  std::string m = invalid([&] { ops::call("add", {}, {}); });
  EXPECT_EQ(m, "npurt.ops.add: arguments 'x', 'y': required inputs are missing");
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  m = invalid([&] { ops::call("add", {x}, {}); });
  EXPECT_EQ(m, "npurt.ops.add: argument 'y': required input is missing");
  m = invalid([&] { ops::call("add", {Tensor(), x}, {}); });
  EXPECT_EQ(m, "npurt.ops.add: argument 'x': required input is missing");
  m = invalid([&] { ops::call("eye", {}, {}); });
  EXPECT_EQ(m, "npurt.ops.eye: arguments 'n_rows', 'n_cols': required attributes are missing");
  m = invalid([&] { ops::call("eye", {}, {{"n_cols", 3}}); });
  EXPECT_EQ(m, "npurt.ops.eye: argument 'n_rows': required attribute is missing");
  expect_usable();
}

TEST_F(Dispatch, AttributeErrors) {
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  std::string m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}, {"alpha", 2.0}}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'alpha': unknown attribute (the op's attributes: a, b, note, flags, as_int)");
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", "two"}}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'a': expected float, got str 'two'");
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}, {"as_int", 1}}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'as_int': expected bool, got int 1");
  m = invalid([&] { ops::call("t_affine", {x}, {}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'a': required attribute is missing");
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}, {"a", 2.0}}); });
  EXPECT_NE(m.find("attribute given twice"), std::string::npos) << m;
  // An int where a float is declared is accepted (Python's a=2).
  EXPECT_EQ(download<float>(ops::call("t_affine", {x}, {{"a", 2}})[0]), (std::vector<float>{2, 4}));
  expect_usable();
}

TEST_F(Dispatch, MismatchedDevices) {
  ASSERT_GE(devices().size(), 2u) << "NPURT_SIM_DEVICES=2 expected";
  Stream s1 = Stream::default_stream(Device{DeviceType::kSim, 1});
  Tensor x1 = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32, s1);
  Tensor x0 = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  std::string m = invalid([&] { ops::call("t_affine", {x1}, {{"a", 1.0}}, npurt_test::stream0()); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'x': is on sim:1 but the op runs on sim:0 (all inputs must be on one device)");
  Tensor out1 = Tensor::empty({2}, DType::kFloat32, s1);
  m = invalid([&] { ops::call("t_affine", {x0}, {{"a", 1.0}}, Stream(), {out1}); });
  EXPECT_NE(m.find("argument 'out[0] ('y')': is on sim:1 but the op runs on sim:0"), std::string::npos) << m;
  // Without an explicit stream the op runs on the inputs' device.
  EXPECT_EQ(download<float>(ops::call("t_affine", {x1}, {{"a", 3.0}})[0], s1), (std::vector<float>{3, 6}));
  expect_usable();
}

TEST_F(Dispatch, OutArgument) {
  Tensor x = upload(std::vector<float>{1, 2, 3, 4}, {2, 2}, DType::kFloat32);
  Tensor out = Tensor::empty({2, 2}, DType::kFloat32, npurt_test::stream0());
  Tensor r = ops::call("t_affine", {x}, {{"a", 10.0}}, Stream(), {out})[0];
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(download<float>(out), (std::vector<float>{10, 20, 30, 40}));
  Tensor bad_shape = Tensor::empty({4}, DType::kFloat32, npurt_test::stream0());
  std::string m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}, Stream(), {bad_shape}); });
  EXPECT_EQ(m, "npurt.ops.t_affine: argument 'out[0] ('y')': shape (4,) does not match the result shape (2, 2)");
  Tensor bad_dtype = Tensor::empty({2, 2}, DType::kInt32, npurt_test::stream0());
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}, Stream(), {bad_dtype}); });
  EXPECT_NE(m.find("dtype int32 does not match the result dtype float32"), std::string::npos) << m;
  Tensor transposed = out.view({2, 2}, {1, 2}, 0);
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}, Stream(), {transposed}); });
  EXPECT_NE(m.find("must be contiguous"), std::string::npos) << m;
  // A read-only view (nr.broadcast_to's), contiguous or not, is never an output.
  m = invalid([&] { ops::call("t_affine", {x}, {{"a", 1.0}}, Stream(), {out.as_read_only()}); });
  EXPECT_NE(m.find("argument 'out[0] ('y')': is a read-only view"), std::string::npos) << m;
  EXPECT_EQ(download<float>(out), (std::vector<float>{10, 20, 30, 40}));
  // In place: out aliases the input.
  ops::call("t_affine", {x}, {{"a", 2.0}}, Stream(), {x});
  EXPECT_EQ(download<float>(x), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(Dispatch, TilingCacheHitsAndMisses) {
  OpHandle h = OpHandle::find("t_affine");
  h.clear_tiling_cache();
  Tensor x = upload(std::vector<float>(8, 1.f), {8}, DType::kFloat32);
  Tensor x2 = upload(std::vector<float>(9, 1.f), {9}, DType::kFloat32);
  AttrValue a2[] = {AttrValue(2.0)};
  AttrValue a3[] = {AttrValue(3.0)};
  AttrValue a2_note[] = {AttrValue(2.0), AttrValue(), AttrValue("n")};
  auto run = [&](const Tensor& t, Span<const AttrValue> attrs) { return dispatch(h, Span<const Tensor>(&t, 1), attrs); };
  run(x, a2);
  EXPECT_EQ(h.tiling_cache_stats().misses, 1u);
  EXPECT_EQ(h.tiling_cache_stats().hits, 0u);
  run(x, a2);
  run(x, a2);
  EXPECT_EQ(h.tiling_cache_stats().hits, 2u);
  run(x2, a2);       // new shape
  run(x, a3);        // new attribute value
  run(x, a2_note);   // new string attribute
  auto s = h.tiling_cache_stats();
  EXPECT_EQ(s.misses, 4u);
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.entries, 4u);
  // The cached plan carries the attribute: a=3 gives 3, not the a=2 plan.
  EXPECT_EQ(download<float>(run(x, a3)[0]), std::vector<float>(8, 3.f));
  // A failing call leaves no entry behind.
  Tensor bad = upload(std::vector<int32_t>{1}, {1}, DType::kInt32);
  EXPECT_THROW(run(bad, a2), InvalidArgument);
  EXPECT_EQ(h.tiling_cache_stats().entries, 4u);
}

TEST_F(Dispatch, NonContiguousInputIsCopiedOnDevice) {
  std::vector<float> base = npurt_test::iota_f(12);
  Tensor m = upload(base, {3, 4}, DType::kFloat32);
  Tensor t = m.view({4, 3}, {1, 4}, 0);  // transpose
  ASSERT_FALSE(t.is_contiguous());
  auto y = download<float>(ops::call("t_affine", {t}, {{"a", 1.0}})[0]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(y[i * 3 + j], base[j * 4 + i]);
}

TEST_F(Dispatch, KernelFaultSurfacesAtSynchronize) {
  Tensor x = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
  Tensor y = ops::call("t_fault", {x}, {{"a", 1.0}})[0];  // returns at once
  try {
    npurt_test::stream0().synchronize();
    ADD_FAILURE() << "expected KernelFault";
  } catch (const KernelFault& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("t_fault_kernel"), std::string::npos) << m;
  }
  npurt_test::stream0().synchronize();  // the error was reported once; the stream is usable
  expect_usable();
}

TEST_F(Dispatch, EmptyTensorsLaunchNothing) {
  Tensor x = Tensor::empty({0}, DType::kFloat32, npurt_test::stream0());
  Tensor y = ops::call("t_affine", {x}, {{"a", 1.0}})[0];
  EXPECT_EQ(y.numel(), 0);
  npurt_test::stream0().synchronize();
}

TEST_F(Dispatch, ObserverSeesLaunches) {
  static std::atomic<int> seen{0};
  static std::string last_op;
  set_dispatch_observer([](const DispatchEvent& ev, void*) { ++seen; last_op = ev.op->name; }, nullptr);
  Tensor x = upload(std::vector<float>{1}, {1}, DType::kFloat32);
  ops::call("t_affine", {x}, {{"a", 1.0}});
  set_dispatch_observer(nullptr, nullptr);
  ops::call("t_affine", {x}, {{"a", 1.0}});
  EXPECT_EQ(seen.load(), 1);
  EXPECT_EQ(last_op, "t_affine");
}

TEST_F(Dispatch, TwoPhasePreparedOp) {
  OpHandle h = OpHandle::find("t_affine");
  Tensor x = upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  Tensor y = Tensor::empty({2}, DType::kFloat32, npurt_test::stream0());
  AttrValue attrs[] = {AttrValue(4.0)};
  auto p = PreparedOp::prepare(h, Span<const Tensor>(&x, 1), attrs, Span<const Tensor>(&y, 1));
  EXPECT_EQ(p->workspace_bytes(), 0u);
  p->launch(nullptr, 0, npurt_test::stream0());
  EXPECT_EQ(download<float>(y), (std::vector<float>{4, 8}));
  try {
    p->launch(nullptr, 0, npurt_test::stream0());
    ADD_FAILURE() << "second launch accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kFailedPrecondition);
  }
}

TEST_F(Dispatch, ManyThreadsShareTheCacheSafely) {
  constexpr int kThreads = 4, kCalls = 200;
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Stream s = Stream::create(Device{});
      Tensor x = upload(std::vector<float>(33, 1.f), {33}, DType::kFloat32, s);
      for (int i = 0; i < kCalls; ++i) {
        AttrValue a[] = {AttrValue(static_cast<double>(i % 3 + t))};
        Tensor y = dispatch(OpHandle::find("t_affine"), Span<const Tensor>(&x, 1), a, s)[0];
        if (i % 50 == 0 && download<float>(y, s) != std::vector<float>(33, static_cast<float>(i % 3 + t))) ++bad;
      }
      s.synchronize();
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

// y = x * a + b through GetUserWorkspace: the workspace must be real device memory
// laid out as [system workspace | op workspace].
extern "C" __global__ __aicore__ void npurt_test_ws_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(npurt_test::AffineTiling, t, tiling);
  if (AscendC::GetBlockIdx() != 0) return;
  AscendC::GlobalTensor<float> xg, yg, wg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
  wg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(AscendC::GetUserWorkspace(ws)), t.n);
  for (uint64_t i = 0; i < t.n; ++i) wg.SetValue(i, xg.GetValue(i) * t.a);
  for (uint64_t i = 0; i < t.n; ++i) yg.SetValue(i, wg.GetValue(i) + t.b);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(yg);  // one block: clean once
}

TEST_F(Dispatch, WorkspaceIsSystemPlusOpAndChecked) {
  if (!OpRegistry::instance().find("t_ws")) {
    OpDefBuilder b = npurt_test::affine_def("t_ws", NPURT_SIM_ENTRY(npurt_test_ws_kernel));
    b.tiling([](const OpContext& c, TilingResult& r) {
      npurt_test::affine_tiling(c, r, false);
      r.workspace_bytes = static_cast<uint64_t>(c.input(0).numel()) * sizeof(float);
    });
    OpRegistry::instance().add(b.take());
  }
  Tensor x = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
  EXPECT_EQ(download<float>(ops::call("t_ws", {x}, {{"a", 2.0}, {"b", 1.0}})[0]), (std::vector<float>{3, 5, 7}));
  Tensor y = Tensor::empty({3}, DType::kFloat32, npurt_test::stream0());
  AttrValue attrs[] = {AttrValue(2.0), AttrValue(1.0)};
  auto p = PreparedOp::prepare(OpHandle::find("t_ws"), Span<const Tensor>(&x, 1), attrs, Span<const Tensor>(&y, 1));
  const uint64_t sys = device_context(Device{}).profile().sys_workspace_bytes;
  EXPECT_EQ(p->workspace_bytes(), sys + 12);
  std::string m = invalid([&] { p->launch(nullptr, 0, npurt_test::stream0()); });
  EXPECT_EQ(m, "npurt.ops.t_ws: argument 'workspace': " + std::to_string(sys + 12) + " bytes needed, 0 given");
  Tensor ws = Tensor::empty({static_cast<int64_t>(p->workspace_bytes())}, DType::kUInt8, npurt_test::stream0());
  p->launch(ws.data(), p->workspace_bytes(), npurt_test::stream0());
  EXPECT_EQ(download<float>(y), (std::vector<float>{3, 5, 7}));
}
