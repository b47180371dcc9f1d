// The scan (cumsum/cumprod), creation (arange/linspace/eye/tril/triu) and
// indexing (index_check/gather/scatter/mask_count/mask_positions) kernel
// families called from C++ by name, against scalar references, at sizes
// 1/15/33/1023/large; plus their argument errors and gather/scatter's kernel-side
// index check (the runtime stays usable).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "npurt/ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

const std::vector<int64_t> kSizes = {1, 15, 33, 1023, 100003};

// The message of the E that f throws ("(no error)" when it throws none).
template <class E>
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

std::string invalid_message(const std::function<void()>& f) { return message_of<InvalidArgument>(f); }
std::string fault_message(const std::function<void()>& f) { return message_of<KernelFault>(f); }

}  // namespace

TEST(ScanKernels, Int32RowsAccumulateInInt64WithInitial) {
  for (int64_t n : kSizes) {
    std::vector<int32_t> x(static_cast<size_t>(2 * n));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i % 7) * 400000000 - 1000000000;
    Tensor t = upload(x, {2, n}, DType::kInt32);
    Tensor y = ops::call("cumsum", {t}, {{"axis", int64_t{1}}, {"include_initial", true}})[0];
    ASSERT_EQ(y.dtype(), DType::kInt64);
    ASSERT_EQ(y.shape(), Dims({2, n + 1}));
    auto ys = download<int64_t>(y);
    for (int64_t r = 0; r < 2; ++r) {
      int64_t acc = 0;
      for (int64_t j = 0; j <= n; ++j) {
        ASSERT_EQ(ys[static_cast<size_t>(r * (n + 1) + j)], acc) << "n=" << n << " r=" << r << " j=" << j;
        if (j < n) acc += x[static_cast<size_t>(r * n + j)];
      }
    }
  }
}

TEST(ScanKernels, Float32ColumnsProduct) {
  const int64_t rows = 37, cols = 1023;
  std::vector<float> x(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0f + static_cast<float>(i % 5) * 0.001f;
  auto ys = download<float>(ops::call("cumprod", {upload(x, {rows, cols}, DType::kFloat32)}, {{"axis", int64_t{0}}})[0]);
  for (int64_t c = 0; c < cols; ++c) {
    float acc = 1.0f;
    for (int64_t r = 0; r < rows; ++r) {
      acc *= x[static_cast<size_t>(r * cols + c)];  // same float32 order as the kernel
      ASSERT_EQ(ys[static_cast<size_t>(r * cols + c)], acc) << r << "," << c;
    }
  }
}

TEST(CreationKernels, ArangeEyeTril) {
  auto a = download<int64_t>(ops::call("arange", {}, {{"num", int64_t{1023}}, {"dtype", DType::kInt64},
                                                      {"integral", true}, {"int_start", int64_t{-5}},
                                                      {"int_step", int64_t{3}}})[0]);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], -5 + 3 * static_cast<int64_t>(i));
  auto e = download<int32_t>(ops::call("eye", {}, {{"n_rows", int64_t{15}}, {"n_cols", int64_t{33}},
                                                   {"k", int64_t{2}}, {"dtype", DType::kInt32}})[0]);
  for (int64_t i = 0; i < 15; ++i)
    for (int64_t j = 0; j < 33; ++j) ASSERT_EQ(e[static_cast<size_t>(i * 33 + j)], j - i == 2 ? 1 : 0);
  std::vector<float> x(3 * 15 * 33);
  std::iota(x.begin(), x.end(), 1.0f);
  auto l = download<float>(ops::call("tril", {upload(x, {3, 15, 33}, DType::kFloat32)}, {{"k", int64_t{-1}}})[0]);
  for (size_t idx = 0; idx < x.size(); ++idx) {
    const int64_t i = static_cast<int64_t>(idx / 33 % 15), j = static_cast<int64_t>(idx % 33);
    ASSERT_EQ(l[idx], j - i <= -1 ? x[idx] : 0.0f) << idx;
  }
}

TEST(IndexingKernels, CheckGatherScatter) {
  for (int64_t n : kSizes) {
    std::vector<int32_t> idx;
    for (int64_t i = 0; i < 2 * n + 3; ++i) idx.push_back(static_cast<int32_t>((i * 7919) % (2 * n) - n));
    auto outs = ops::call("index_check", {upload(idx, {static_cast<int64_t>(idx.size())}, DType::kInt32)},
                          {{"size", n}});
    auto norm = download<int64_t>(outs[0]);
    auto status = download<int64_t>(outs[1]);
    int64_t bad = 0;
    for (size_t s = 0; s < status.size(); s += 2) bad += status[s];
    ASSERT_EQ(bad, 0) << n;
    std::vector<float> x(static_cast<size_t>(n));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.25f;
    Tensor xt = upload(x, {n}, DType::kFloat32);
    auto y = download<float>(ops::call("gather", {xt, outs[0]})[0]);
    for (size_t i = 0; i < idx.size(); ++i) {
      ASSERT_EQ(norm[i], idx[i] < 0 ? idx[i] + n : idx[i]);
      ASSERT_EQ(y[i], x[static_cast<size_t>(norm[i])]) << "n=" << n << " i=" << i;
    }
    // scatter on one core in order: repeated indices keep the last value
    std::vector<float> v(idx.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = -static_cast<float>(i);
    Tensor dst = upload(x, {n}, DType::kFloat32);
    ops::call("scatter", {outs[0], upload(v, {static_cast<int64_t>(v.size())}, DType::kFloat32)},
              {{"shape", Dims{n}}}, Stream(), {dst});
    std::vector<float> ref = x;
    for (size_t i = 0; i < v.size(); ++i) ref[static_cast<size_t>(norm[i])] = v[i];
    ASSERT_EQ(download<float>(dst), ref) << n;
  }
}

TEST(IndexingKernels, OutOfBoundsIsCountedPerBlock) {
  std::vector<int64_t> idx(5000, 1);
  idx[4321] = 77;
  idx[17] = -78;
  auto outs = ops::call("index_check", {upload(idx, {5000}, DType::kInt64)}, {{"size", int64_t{77}}});
  auto status = download<int64_t>(outs[1]);
  int64_t bad = 0, first = 0;
  for (size_t s = 0; s < status.size(); s += 2) {
    if (status[s] && bad == 0) first = status[s + 1];
    bad += status[s];
  }
  EXPECT_EQ(bad, 2);
  EXPECT_EQ(first, -78);
}

TEST(IndexingKernels, MaskCompaction) {
  for (int64_t n : kSizes) {
    std::vector<uint8_t> mask(static_cast<size_t>(n));
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = (i * 2654435761u) % 3 == 0;
    Tensor m = upload(mask, {n}, DType::kBool);
    Tensor counts = ops::call("mask_count", {m})[0];
    Tensor offsets = ops::call("cumsum", {counts}, {{"include_initial", true}})[0];
    auto offs = download<int64_t>(offsets);
    std::vector<int64_t> ref;
    for (size_t i = 0; i < mask.size(); ++i)
      if (mask[i]) ref.push_back(static_cast<int64_t>(i));
    ASSERT_EQ(offs.back(), static_cast<int64_t>(ref.size()));
    if (ref.empty()) continue;
    auto pos = download<int64_t>(ops::call("mask_positions", {m, offsets}, {{"count", offs.back()}})[0]);
    ASSERT_EQ(pos, ref) << n;
  }
}

TEST(IndexingKernels, ArgumentErrorsNameOpAndArgument) {
  Tensor x = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
  Tensor i = upload(std::vector<int64_t>{0}, {1}, DType::kInt64);
  EXPECT_EQ(invalid_message([&] { ops::call("gather", {x, i}, {{"axis", int64_t{1}}}); }),
            "npurt.ops.gather: argument 'axis': axis 1 is out of bounds for array of dimension 1");
  EXPECT_EQ(invalid_message([&] { ops::call("cumsum", {x}, {{"dtype", std::string("int8")}}); }).find(
                "npurt.ops.cumsum: argument 'dtype': 'int8' is not available for float32"),
            0u);
  EXPECT_EQ(invalid_message([&] { ops::call("tril", {x}); }),
            "npurt.ops.tril: argument 'x': must have at least 2 dimensions (a stack of matrices), got 1");
  EXPECT_EQ(invalid_message([&] { ops::call("scatter", {i, x}, {{"shape", Dims{3}}}); }).find(
                "npurt.ops.scatter: argument 'values': has 3 elements"),
            0u);
  auto y = download<float>(ops::call("gather", {x, i})[0]);  // still usable
  EXPECT_EQ(y, std::vector<float>{1});
}

// Indices are device data: the kernel checks each before it addresses GM and
// stops with the op's argument error (kernels/common/kernel_check.h), raised at sync.
TEST(IndexingKernels, OutOfRangeIndexStopsTheKernelNamingOpAndArgument) {
  std::vector<float> host(3 * 40);
  std::iota(host.begin(), host.end(), 0.0f);
  Tensor x = upload(host, {3, 40}, DType::kFloat32);
  for (int64_t bad : {int64_t{3}, int64_t{-1}, int64_t{1} << 40}) {
    Tensor i = upload(std::vector<int64_t>{0, 2, bad}, {3}, DType::kInt64);
    const std::string want = "npurt.ops.gather: ErrorParam: argument 'indices': index " + std::to_string(bad) +
                             " (flat position 2) is out of range for axis 0 of size 3";
    const std::string got = fault_message([&] { download<float>(ops::call("gather", {x, i})[0]); });
    EXPECT_NE(got.find(want), std::string::npos) << got;
    // axis 1, one index per element (the tiled-index path)
    Tensor j = upload(std::vector<int64_t>{0, 39, 40}, {3}, DType::kInt64);
    EXPECT_NE(fault_message([&] { download<float>(ops::call("gather", {x, j}, {{"axis", int64_t{-1}}})[0]); })
                  .find("index 40 (flat position 2) is out of range for axis 1 of size 40"),
              std::string::npos);
    Tensor dst = upload(std::vector<float>(3, 0.0f), {3}, DType::kFloat32);
    Tensor v = upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
    EXPECT_NE(fault_message([&] {
                ops::call("scatter", {i, v}, {{"shape", Dims{3}}}, Stream(), {dst});
                download<float>(dst);
              }).find("npurt.ops.scatter: ErrorParam: argument 'indices': index " + std::to_string(bad)),
              std::string::npos);
  }
  Tensor ok = upload(std::vector<int64_t>{2, 0}, {2}, DType::kInt64);  // still usable
  auto y = download<float>(ops::call("gather", {x, ok})[0]);
  ASSERT_EQ(y.size(), 80u);
  EXPECT_EQ(y[0], host[80]);
  EXPECT_EQ(y[40], host[0]);
}
