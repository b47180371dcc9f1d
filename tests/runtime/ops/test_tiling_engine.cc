// tests/runtime/ops/test_tiling_engine.cc: property tests of the row tiling
// engine (npurt/tiling.h) over thousands of shapes for every chip profile and
// several buffer layouts (the norms', softmax's and a column-split one):
// every element covered exactly once, every plan within UB, alignment kept,
// and the degradation order (double -> single buffering -> chunks) respected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "npurt/chip_profile.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "npurt/tiling.h"
#include "op_test_util.h"

namespace npurt::tiling {
namespace {

struct Layout {
  const char* name;
  Split split;
  std::vector<BufferRequest> buffers;
};

std::vector<Layout> layouts() {
  return {
      {"layer_norm fp16", Split::kRows,
       {{"x", Scope::kTile, 2, true}, {"y", Scope::kTile, 2, true}, {"xf", Scope::kTile, 4, false},
        {"gamma", Scope::kColumns, 4, false}, {"beta", Scope::kColumns, 4, false},
        {"stats", Scope::kRows, 4, true}, {"work", Scope::kFixed, 512, false}}},
      {"softmax fp32", Split::kRows,
       {{"x", Scope::kTile, 4, true}, {"y", Scope::kTile, 4, true}, {"work", Scope::kFixed, 2048, false}}},
      {"dgamma bf16", Split::kColumns,
       {{"dy", Scope::kTile, 2, true}, {"x", Scope::kTile, 2, true}, {"f", Scope::kTile, 4, false},
        {"acc", Scope::kColumns, 4, false}, {"stats", Scope::kRows, 4, true}}},
  };
}

std::vector<std::pair<uint64_t, uint64_t>> shapes(uint32_t seed, int n) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const uint64_t fixed_rows[] = {1, 2, 3, 7, 8, 15, 33, 40, 41, 1023, 8192};
  const uint64_t fixed_cols[] = {1, 15, 16, 33, 63, 64, 65, 1023, 1024, 4096, 24000, 49152, 100000, 1000003};
  for (uint64_t r : fixed_rows)
    for (uint64_t c : fixed_cols) out.emplace_back(r, c);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> logu(0.0, 1.0);
  while (static_cast<int>(out.size()) < n) {
    uint64_t r = static_cast<uint64_t>(std::pow(2.0, logu(rng) * 17));
    uint64_t c = static_cast<uint64_t>(std::pow(2.0, logu(rng) * 21));
    out.emplace_back(std::max<uint64_t>(r, 1), std::max<uint64_t>(c, 1));
  }
  return out;
}

// Walks the plan the way a kernel does and counts coverage: exactly for small
// shapes (per element), by intervals for large ones.
void check_coverage(const RowPlan& plan) {
  const RowTilingData& d = plan.data;
  const bool by_rows = d.split == 0;
  const uint64_t total = by_rows ? d.rows : d.cols;
  const bool exact = d.rows * d.cols <= 200000;
  std::vector<uint8_t> hits(exact ? d.rows * d.cols : 0, 0);
  uint64_t next_unit = 0, covered = 0;
  for (uint32_t b = 0; b < d.num_blocks; ++b) {
    const uint64_t begin = core_begin(d, b), count = core_count(d, b);
    ASSERT_EQ(begin, next_unit) << "core " << b;
    ASSERT_GT(count, 0u) << "core " << b << " has no work";
    next_unit = begin + count;
    const uint64_t r0 = by_rows ? begin : 0, nrows = by_rows ? count : d.rows;
    const uint64_t c0 = by_rows ? 0 : begin, ncols = by_rows ? d.cols : count;
    uint64_t chunk_cols = 0;
    for (uint32_t c = 0; c < d.num_chunks; ++c) chunk_cols += chunk_len(d, ncols, c);
    ASSERT_EQ(chunk_cols, ncols) << "chunks of core " << b;
    ASSERT_EQ(chunk_len(d, ncols, d.num_chunks), 0u);
    covered += nrows * chunk_cols;
    if (!exact) continue;
    for (uint64_t r = r0; r < r0 + nrows; r += d.rows_per_tile) {
      const uint64_t n = std::min<uint64_t>(d.rows_per_tile, r0 + nrows - r);
      for (uint32_t c = 0; c < d.num_chunks; ++c) {
        const uint32_t len = chunk_len(d, ncols, c);
        for (uint64_t i = 0; i < n; ++i)
          for (uint32_t j = 0; j < len; ++j) ++hits[(r + i) * d.cols + c0 + uint64_t{c} * d.chunk + j];
      }
    }
  }
  ASSERT_EQ(next_unit, total);
  ASSERT_EQ(covered, d.rows * d.cols);
  for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << "element " << i;
}

void check_capacity_alignment(const RowRequest& req, const RowPlan& plan, const ChipProfile& p) {
  const RowTilingData& d = plan.data;
  ASSERT_LE(ub_bytes_needed(req, d.rows_per_tile, d.chunk_stride, d.depth), p.ub_usable_bytes);
  uint64_t sum = req.reserve_bytes;
  for (const BufferPlan& b : plan.buffers) {
    ASSERT_EQ(b.bytes % 32, 0u) << b.name;
    sum += b.bytes * b.count;
  }
  ASSERT_EQ(sum, plan.ub_used);
  ASSERT_LE(sum, p.ub_usable_bytes);
  ASSERT_GE(d.rows_per_tile, 1u);
  ASSERT_LE(d.rows_per_tile, 4095u);
  ASSERT_TRUE(d.depth == 1 || d.depth == 2);
  ASSERT_EQ(d.chunk_stride % d.align_elems, 0u);
  ASSERT_GE(d.chunk_stride, d.chunk);
  for (const BufferRequest& b : req.buffers) {
    if (b.scope == Scope::kTile || b.scope == Scope::kColumns) {
      ASSERT_EQ(uint64_t{d.chunk_stride} * b.elem_bytes % 32, 0u);
    }
  }
  if (d.num_chunks > 1) {
    ASSERT_EQ(d.rows_per_tile, 1u) << "a chunked plan moves one row at a time";
  }
  ASSERT_LE(d.num_blocks, std::max<uint32_t>(1, p.vector_cores));
}

// Degradation order: a chunked plan only when one whole row segment does not
// fit single-buffered; single buffering only when double buffering does not fit.
void check_degradation(const RowRequest& req, const RowPlan& plan, const ChipProfile& p) {
  const RowTilingData& d = plan.data;
  const uint64_t seg_stride = d.split == 0 ? (d.cols + d.align_elems - 1) / d.align_elems * d.align_elems
                                           : (d.per_core + d.align_elems - 1) / d.align_elems * d.align_elems;
  if (d.num_chunks > 1) {
    ASSERT_GT(ub_bytes_needed(req, 1, static_cast<uint32_t>(seg_stride), 1), p.ub_usable_bytes);
  } else if (d.depth == 1) {
    ASSERT_GT(ub_bytes_needed(req, 1, d.chunk_stride, 2), p.ub_usable_bytes);
  } else if (d.rows_per_tile < std::min<uint64_t>(4095, d.split == 0 ? d.per_core : d.rows)) {
    ASSERT_GT(ub_bytes_needed(req, d.rows_per_tile + 1, d.chunk_stride, 2), p.ub_usable_bytes)
        << "rows per tile not maximal";
  }
}

TEST(TilingEngine, PropertiesOverThousandsOfShapesOnEveryProfile) {
  size_t plans = 0;
  for (const ChipProfile& p : chip_profiles()) {
    for (const Layout& l : layouts()) {
      for (auto [rows, cols] : shapes(static_cast<uint32_t>(plans + 17), 1200)) {
        RowRequest req;
        req.rows = rows, req.cols = cols, req.split = l.split, req.buffers = l.buffers;
        RowPlan plan = plan_rows(req, p);
        SCOPED_TRACE(std::string(l.name) + " on " + p.name + " [" + std::to_string(rows) + ", " +
                     std::to_string(cols) + "]: " + plan.to_string());
        ASSERT_GT(plan.data.num_blocks, 0u);
        check_coverage(plan);
        check_capacity_alignment(req, plan, p);
        check_degradation(req, plan, p);
        ++plans;
      }
    }
  }
  EXPECT_GT(plans, 10000u);
}

TEST(TilingEngine, EmptyShapesPlanNoLaunch) {
  RowRequest req;
  req.buffers = {{"x", Scope::kTile, 4, true}};
  for (auto [r, c] : {std::pair<uint64_t, uint64_t>{0, 5}, {5, 0}, {0, 0}}) {
    req.rows = r, req.cols = c;
    RowPlan plan = plan_rows(req, default_chip_profile());
    EXPECT_EQ(plan.data.num_blocks, 0u);
    EXPECT_NE(plan.to_string().find("no launch"), std::string::npos);
  }
}

TEST(TilingEngine, LongRowsBecomeAMultiPassPlan) {
  RowRequest req;
  req.rows = 3, req.cols = 100000;
  req.buffers = {{"x", Scope::kTile, 4, true}, {"y", Scope::kTile, 4, true}};
  RowPlan plan = plan_rows(req, chip_profile("910B3"));
  EXPECT_TRUE(plan.chunked());
  EXPECT_EQ(plan.data.depth, 2u);
  EXPECT_EQ(plan.data.rows_per_tile, 1u);
  EXPECT_NE(plan.to_string().find("multi-pass"), std::string::npos);
  req.allow_chunks = false;
  try {
    plan_rows(req, chip_profile("910B3"));
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot split rows"), std::string::npos) << e.what();
  }
}

TEST(TilingEngine, SeedShapePlanIsDoubleBufferedOverAllCores) {
  RowRequest req;
  req.rows = 32 * 256, req.cols = 1024;
  req.buffers = {{"x", Scope::kTile, 2, true}, {"y", Scope::kTile, 2, true}, {"xf", Scope::kTile, 4, false}};
  const ChipProfile& p = chip_profile("910B3");
  RowPlan plan = plan_rows(req, p);
  EXPECT_EQ(plan.data.num_blocks, p.vector_cores);
  EXPECT_EQ(plan.data.depth, 2u);
  EXPECT_EQ(plan.data.num_chunks, 1u);
  EXPECT_GT(plan.data.rows_per_tile, 1u);
}

TEST(TilingEngine, MalformedRequestsRaiseNamingTheArgument) {
  RowRequest req;
  req.rows = 4, req.cols = 4;
  EXPECT_THROW(plan_rows(req, default_chip_profile()), InvalidArgument);  // no buffers
  req.buffers = {{"x", Scope::kTile, 3, true}};
  try {
    plan_rows(req, default_chip_profile());
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
  }
  req.buffers = {{"x", Scope::kTile, 4, true}, {"huge", Scope::kFixed, 1u << 20, false}};
  EXPECT_THROW(plan_rows(req, default_chip_profile()), InvalidArgument);
}

// The built-in row kernels use the engine: callable from C++ by name, and
// describe() shows the engine's plan (chunked for rows longer than UB).
TEST(TilingEngine, BuiltinRowOpsFromCppAndDescribe) {
  const size_t rows = 3, cols = 70001;  // longer than UB: the multi-pass plan
  std::vector<float> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 1000) * 0.01f - 5.0f;
  npurt::Tensor t = npurt_test::upload(x, {int64_t(rows), int64_t(cols)}, DType::kFloat32);
  std::vector<npurt::Tensor> out = npurt::ops::call("layer_norm", {t, npurt::Tensor(), npurt::Tensor()},
                                                    {{"eps", AttrValue(1e-5)}});
  ASSERT_EQ(out.size(), 3u);
  std::vector<float> y = npurt_test::download<float>(out[0]), mean = npurt_test::download<float>(out[1]);
  std::vector<float> sm = npurt_test::download<float>(npurt::ops::call("softmax", {t})[0]);
  for (size_t r = 0; r < rows; ++r) {
    double m = 0, v = 0, mx = -1e300, se = 0;
    for (size_t c = 0; c < cols; ++c) m += x[r * cols + c], mx = std::max<double>(mx, x[r * cols + c]);
    m /= cols;
    for (size_t c = 0; c < cols; ++c) v += (x[r * cols + c] - m) * (x[r * cols + c] - m);
    for (size_t c = 0; c < cols; ++c) se += std::exp(x[r * cols + c] - mx);
    const double rstd = 1 / std::sqrt(v / cols + 1e-5);
    EXPECT_NEAR(mean[r], m, 1e-5);
    for (size_t c = 0; c < cols; c += 997) {
      EXPECT_NEAR(y[r * cols + c], (x[r * cols + c] - m) * rstd, 1e-4) << r << "," << c;
      EXPECT_NEAR(sm[r * cols + c], std::exp(x[r * cols + c] - mx) / se, 1e-9) << r << "," << c;
    }
  }
  const std::string text = npurt::ops::describe("rms_norm", {TensorSpec{true, DType::kFloat16, {4, 100000}, {}}});
  EXPECT_NE(text.find("multi-pass"), std::string::npos) << text;
  EXPECT_NE(text.find("chunks="), std::string::npos) << text;
}

}  // namespace
}  // namespace npurt::tiling
