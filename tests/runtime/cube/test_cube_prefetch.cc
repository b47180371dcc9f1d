// tests/runtime/cube/test_cube_prefetch.cc: the Nd2Nz look-ahead of the
// simulated cube (runtime/backends/sim/aicore/cube_prefetch.h). A copy shape
// seen at the same address step twice queues exactly the rows of the next
// copy, in order, and nothing else (a later jump keeps that stride); no
// repeated step, oversized regions and a shape evicted by newer ones queue
// nothing. A thread_local destructor that reaches the predictor after the
// thread's state was freed at thread exit gets a fresh state. The float
// micro-kernel consumes
// the queue while it multiplies, and its results must not change (the
// prefetches are hints).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_prefetch.h"

namespace {

using npurt::sim::cube::note_nd2nz_source;
using npurt::sim::cube::prefetch_queue;
using npurt::sim::cube::PrefetchRow;

// Empties this thread's queue (earlier tests on the thread may have queued rows).
void drain() {
  while (prefetch_queue().active != 0) prefetch_queue().next_row();
}

// The rows left in the queue, in the order the kernel would prefetch them.
std::vector<PrefetchRow> queued_rows() {
  std::vector<PrefetchRow> rows;
  while (prefetch_queue().active != 0) rows.push_back(prefetch_queue().next_row());
  return rows;
}

TEST(CubePrefetch, ConfirmedStrideQueuesTheNextCopy) {
  drain();
  std::vector<uint8_t> gm(1 << 20);
  const uint8_t* base = gm.data() + 64 - reinterpret_cast<uintptr_t>(gm.data()) % 64;
  const uint64_t pitch = 8192, span = 512;
  note_nd2nz_source(base, pitch, 4, span);
  note_nd2nz_source(base + 512, pitch, 4, span);
  EXPECT_EQ(prefetch_queue().active, 0u) << "one step is not yet a stride";
  note_nd2nz_source(base + 1024, pitch, 4, span);
  const std::vector<PrefetchRow> rows = queued_rows();
  ASSERT_EQ(rows.size(), 4u);
  for (uint64_t r = 0; r < 4; ++r) {
    EXPECT_EQ(rows[r].p, base + 1536 + r * pitch) << r;
    EXPECT_EQ(rows[r].end, base + 1536 + r * pitch + span) << r;
  }
  EXPECT_EQ(prefetch_queue().next_row().p, nullptr) << "an empty queue gives an empty row";
  // A jump (the next tile's first chunk) keeps the stride: its second chunk is queued.
  note_nd2nz_source(base + 65536, pitch, 4, span);
  const std::vector<PrefetchRow> next = queued_rows();
  ASSERT_EQ(next.size(), 4u);
  EXPECT_EQ(next[0].p, base + 65536 + 512);
}

TEST(CubePrefetch, UnalignedRowsStartOnTheirFirstLine) {
  drain();
  std::vector<uint8_t> gm(1 << 16);
  const uint8_t* base = gm.data() + 64 - reinterpret_cast<uintptr_t>(gm.data()) % 64 + 8;
  for (int i = 0; i < 3; ++i) note_nd2nz_source(base + i * 100, 1000, 2, 40);
  const std::vector<PrefetchRow> rows = queued_rows();
  ASSERT_EQ(rows.size(), 2u);
  for (uint64_t r = 0; r < 2; ++r) {
    const uint8_t* start = base + 300 + r * 1000;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(rows[r].p) % 64, 0u);
    EXPECT_LE(rows[r].p, start);
    EXPECT_GT(rows[r].p + 64, start);
    EXPECT_EQ(rows[r].end, start + 40);
  }
}

TEST(CubePrefetch, NoPredictionWithoutAStride) {
  drain();
  std::vector<uint8_t> gm(1 << 20);
  const uint8_t* b = gm.data();
  note_nd2nz_source(b, 4096, 8, 256);
  note_nd2nz_source(b + 256, 4096, 8, 256);
  note_nd2nz_source(b + 1024, 4096, 8, 256);  // step 768 after 256
  EXPECT_EQ(prefetch_queue().active, 0u);
  note_nd2nz_source(b + 1024, 4096, 8, 256);  // step 0: the same chunk again
  EXPECT_EQ(prefetch_queue().active, 0u);
  // Too long a row run or too many rows: not one chunk of a K walk.
  for (int i = 0; i < 3; ++i) note_nd2nz_source(b + i * 4096, 65536, 2, 4096);
  for (int i = 0; i < 3; ++i) note_nd2nz_source(b + i * 64, 128, 2000, 64);
  EXPECT_EQ(prefetch_queue().active, 0u);
}

TEST(CubePrefetch, InterleavedShapesAndEviction) {
  drain();
  std::vector<uint8_t> gm(1 << 22);
  const uint8_t* a = gm.data() + 64 - reinterpret_cast<uintptr_t>(gm.data()) % 64;  // line-aligned rows
  const uint8_t* b = a + (1 << 21);
  // A matmul tile alternates A's and B's copies: both strides are tracked.
  for (int i = 0; i < 3; ++i) {
    note_nd2nz_source(a + i * 512, 8192, 16, 512);
    note_nd2nz_source(b + i * 131072, 8192, 16, 512 + 64);
  }
  std::vector<PrefetchRow> rows = queued_rows();  // each region in row order, regions in slot order
  ASSERT_EQ(rows.size(), 32u);
  std::sort(rows.begin(), rows.end(), [](const PrefetchRow& x, const PrefetchRow& y) { return x.p < y.p; });
  for (uint64_t r = 0; r < 16; ++r) {
    EXPECT_EQ(rows[r].p, a + 1536 + r * 8192) << r;
    EXPECT_EQ(rows[16 + r].p, b + 3 * 131072 + r * 8192) << r;
    EXPECT_EQ(rows[16 + r].end, rows[16 + r].p + 576) << r;
  }
  // A's prediction is re-queued by its next copy; four new shapes evict A's
  // stream (least recently used) and its queued rows with it.
  note_nd2nz_source(a + 1536, 8192, 16, 512);
  EXPECT_NE(prefetch_queue().active, 0u);
  for (uint32_t s = 1; s <= 4; ++s) note_nd2nz_source(b, 64 * s, 3, 32);
  EXPECT_EQ(prefetch_queue().active, 0u);
}

// Destroyed after the predictor's per-thread state (constructed before it, so
// destroyed after it at thread exit): its destructor predicts a stride anew.
struct LateCubeUser {
  const uint8_t* base = nullptr;
  bool* fresh = nullptr;
  bool* predicted = nullptr;
  ~LateCubeUser() {
    *fresh = prefetch_queue().active == 0;  // a freed State holds heap metadata here
    if (!*fresh) return;  // draining garbage regions would run away
    for (int i = 0; i < 3; ++i) note_nd2nz_source(base + i * 512, 8192, 4, 512);
    *predicted = queued_rows().size() == 4;
  }
};

TEST(CubePrefetch, StateUsedAgainDuringThreadExitIsFresh) {
  static uint8_t gm[1 << 16];
  bool fresh = false, predicted = false;
  std::thread t([&] {
    thread_local LateCubeUser late;
    late.base = gm;
    late.fresh = &fresh;
    late.predicted = &predicted;
    // Leave a prediction queued: the state is in use when the thread exits.
    for (int i = 0; i < 3; ++i) note_nd2nz_source(gm + i * 256, 4096, 8, 256);
    ASSERT_NE(prefetch_queue().active, 0u);
  });
  t.join();
  EXPECT_TRUE(fresh) << "the late destructor saw the freed state";
  EXPECT_TRUE(predicted);
}

// The float kernels with rows queued: the prefetches read other memory while
// the FMAs run, and the products stay bit-identical to the portable kernel.
TEST(CubePrefetch, KernelResultsUnchanged) {
  auto zz = npurt::sim::cube::gemm_avx512_zz();
  if (zz == nullptr) GTEST_SKIP() << "no AVX-512 on this host";
  const uint32_t m16 = 64, nb = 8, k = 64, kbs = k / 8;
  std::mt19937 rng(5);
  std::normal_distribution<float> d;
  std::vector<float> ap(m16 * k), bp(nb * k * 16), c(nb * m16 * 16), zzA(m16 / 16 * kbs * 128);
  for (float& v : ap) v = d(rng);
  for (float& v : bp) v = d(rng);
  for (uint32_t i = 0; i < m16; ++i)
    for (uint32_t kk = 0; kk < k; ++kk) zzA[(i / 16 * kbs + kk / 8) * 128 + (i % 16) * 8 + kk % 8] = ap[i * k + kk];
  std::vector<uint8_t> gm(1 << 20);
  drain();
  for (int i = 0; i < 3; ++i) note_nd2nz_source(gm.data() + i * 512, 4096, 48, 512);
  ASSERT_NE(prefetch_queue().active, 0u);
  std::vector<float> ref = c, got = c;
  npurt::sim::cube::gemm_generic(ref.data(), m16, nb, k, ap.data(), bp.data(), true);
  zz(got.data(), m16, nb, k, zzA.data(), bp.data(), true);
  EXPECT_EQ(0, std::memcmp(ref.data(), got.data(), ref.size() * sizeof(float)));
  EXPECT_EQ(prefetch_queue().active, 0u) << "24 register tiles x 2 rows consume the 48 queued rows";
}

}  // namespace
