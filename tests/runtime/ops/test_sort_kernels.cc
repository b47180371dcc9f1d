// The sort family's kernels (kernels/sort: sort_block, sort_merge,
// searchsorted, isin_sorted, unique_count, unique_compact) and argmax/argmin
// (kernels/reduction/argreduce_*) called from C++, against std::stable_sort,
// std::lower_bound/upper_bound and scalar loops. Exact comparisons.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "npurt/ops.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::upload;

namespace {

std::vector<int32_t> random_ints(size_t n, int range, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(g() % static_cast<uint32_t>(range)) - range / 2;
  return v;
}

// values, indices of every row sorted by sort_block + sort_merge passes.
std::vector<Tensor> full_sort(const Tensor& x, int64_t chunk, bool desc) {
  std::vector<Tensor> r = ops::call("sort_block", {x}, {{"chunk", chunk}, {"descending", desc}});
  for (int64_t w = chunk; chunk > 0 && w < x.shape().back(); w *= 2)  // chunk 0: rows fit one chunk
    r = ops::call("sort_merge", {r[0], r[1]}, {{"width", w}, {"descending", desc}});
  return r;
}

}  // namespace

// Sorts rows x n random int32 (or their double copies) and checks every row.
template <class T>
void check_rows(int64_t rows, int64_t n, int64_t chunk, bool desc, DType dt) {
  auto ints = random_ints(static_cast<size_t>(rows * n), 50, static_cast<uint32_t>(n + rows));
  std::vector<T> host(ints.begin(), ints.end());
  auto r = full_sort(upload(host, {rows, n}, dt), chunk, desc);
  auto v = download<T>(r[0]);
  auto ix = download<int64_t>(r[1]);
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<int64_t> want(static_cast<size_t>(n));
    std::iota(want.begin(), want.end(), 0);
    const T* h = host.data() + row * n;
    std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return desc ? h[a] > h[b] : h[a] < h[b]; });
    for (int64_t k = 0; k < n; ++k) {
      ASSERT_EQ(ix[row * n + k], want[k]) << rows << "x" << n << " " << desc << " " << row << " " << k;
      ASSERT_EQ(v[row * n + k], h[want[k]]);
    }
  }
}

TEST(SortKernels, BlockAndMergeMatchStableSort) {
  for (int64_t n : {1, 15, 33, 64, 1023, 5000})
    for (bool desc : {false, true}) {
      check_rows<int32_t>(3, n, 64, desc, DType::kInt32);
      check_rows<double>(3, n, 64, desc, DType::kFloat64);
    }
}

TEST(SortKernels, ShortRowsShareUnits) {
  for (int64_t n : {1, 5, 33, 200})
    for (bool desc : {false, true}) {
      check_rows<int32_t>(1001, n, 0, desc, DType::kInt32);  // chunk 0: auto, rows packed per unit
      check_rows<double>(1001, n, 0, desc, DType::kFloat64);
    }
}

TEST(SortKernels, DoubleNanLastAndAutoChunk) {
  std::vector<double> host = {2.0, NAN, -1.0, INFINITY, -0.0, 0.0, NAN, -INFINITY, 2.0};
  auto r = ops::call("sort_block", {upload(host, {9}, DType::kFloat64)});
  auto v = download<double>(r[0]);
  auto ix = download<int64_t>(r[1]);
  const std::vector<int64_t> want = {7, 2, 4, 5, 0, 8, 3, 1, 6};
  EXPECT_EQ(ix, want);
  EXPECT_TRUE(std::signbit(v[2]) && !std::signbit(v[3]) && std::isnan(v[7]) && std::isnan(v[8]));
}

TEST(SortKernels, SearchsortedAndIsin) {
  auto x1 = random_ints(1000, 300, 1);
  std::sort(x1.begin(), x1.end());
  auto x2 = random_ints(3001, 400, 2);
  Tensor t1 = upload(x1, {1000}, DType::kInt32), t2 = upload(x2, {3001}, DType::kInt32);
  auto left = download<int64_t>(ops::call("searchsorted", {t1, t2, Tensor()}, {{"side", "left"}})[0]);
  auto right = download<int64_t>(ops::call("searchsorted", {t1, t2, Tensor()}, {{"side", "right"}})[0]);
  auto in = download<uint8_t>(ops::call("isin_sorted", {t1, t2, Tensor()})[0]);
  for (size_t i = 0; i < x2.size(); ++i) {
    ASSERT_EQ(left[i], std::lower_bound(x1.begin(), x1.end(), x2[i]) - x1.begin());
    ASSERT_EQ(right[i], std::upper_bound(x1.begin(), x1.end(), x2[i]) - x1.begin());
    ASSERT_EQ(in[i] != 0, std::binary_search(x1.begin(), x1.end(), x2[i]));
  }
  EXPECT_THROW(ops::call("searchsorted", {t1, t2, Tensor()}, {{"side", "up"}}), InvalidArgument);
}

TEST(SortKernels, UniqueCompact) {
  auto host = random_ints(20000, 40, 3);  // long runs that cross the cores' ranges
  auto r = full_sort(upload(host, {20000}, DType::kInt32), 4096, false);
  Tensor counts = ops::call("unique_count", {r[0]})[0];
  auto u = ops::call("unique_compact", {r[0], r[1], counts});
  const int64_t k = download<int64_t>(u[4])[0];
  auto vals = download<int32_t>(u[0]);
  auto first = download<int64_t>(u[1]);
  auto cnt = download<int64_t>(u[2]);
  auto inv = download<int64_t>(u[3]);
  std::vector<int32_t> distinct(host);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  ASSERT_EQ(k, static_cast<int64_t>(distinct.size()));
  for (int64_t g = 0; g < k; ++g) {
    ASSERT_EQ(vals[g], distinct[g]);
    ASSERT_EQ(first[g], std::find(host.begin(), host.end(), distinct[g]) - host.begin());
    ASSERT_EQ(cnt[g], std::count(host.begin(), host.end(), distinct[g]));
  }
  for (size_t i = 0; i < host.size(); ++i) ASSERT_EQ(vals[inv[i]], host[i]);
}

TEST(ArgReduceKernels, ArgmaxArgminOverAxes) {
  const int64_t a = 7, b = 301, c = 5;
  auto host = random_ints(static_cast<size_t>(a * b * c), 60, 4);
  Tensor x = upload(host, {a, b, c}, DType::kInt32);
  auto mx = download<int64_t>(ops::call("argmax", {x}, {{"axis", Dims{1}}})[0]);
  auto mn = download<int64_t>(ops::call("argmin", {x}, {{"axis", Dims{2}}})[0]);
  for (int64_t i = 0; i < a; ++i)
    for (int64_t k = 0; k < c; ++k) {
      int64_t best = 0;
      for (int64_t j = 1; j < b; ++j)
        if (host[(i * b + j) * c + k] > host[(i * b + best) * c + k]) best = j;
      ASSERT_EQ(mx[i * c + k], best);
    }
  for (int64_t r = 0; r < a * b; ++r) {
    auto row = host.begin() + r * c;
    ASSERT_EQ(mn[r], std::min_element(row, row + c) - row);
  }
  auto all = download<int64_t>(ops::call("argmax", {x})[0]);
  EXPECT_EQ(all[0], std::max_element(host.begin(), host.end()) - host.begin());
  EXPECT_THROW(ops::call("argmax", {upload(std::vector<float>{}, {0}, DType::kFloat32)}), InvalidArgument);
}
