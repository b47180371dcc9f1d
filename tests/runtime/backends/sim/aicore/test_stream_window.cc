// tests/runtime/backends/sim/aicore/test_stream_window.cc: the look-ahead
// bookkeeping of GM reads straight from a mirror (stream_window.h). Long reads
// record a window the reading loop prefetches ahead of; short reads (a row of
// a row-wise kernel) leave a cursor over their next kStreamAhead bytes that
// every vector op advances by kDripLines lines, unless they follow each other
// with at most kStreamOps ops per read (a stream: windows after the first); a
// memcpy'd store to GM leaves a write cursor over the bytes after it (never
// past the allocation) that the vector ops advance by kWriteDripLines lines,
// or, after a tile of at most kWriteDripChunkBytes, float unary loops one
// line per vector chunk. Prefetches never change a result, so what is tested
// is where the cursors go, which reads get a window, that the vector ops
// drive them, and that prefetching past the end of mapped (or writable)
// memory never faults.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "aicore/vec_raw.h"
#include "backends/sim/aicore/stream_window.h"

namespace {

using npurt::sim::drip_prefetch;
using npurt::sim::drip_write_line;
using npurt::sim::kWriteDripChunkBytes;
using npurt::sim::write_drip_pending;
using npurt::sim::in_stream_window;
using npurt::sim::kDripLines;
using npurt::sim::kDripMaxBytes;
using npurt::sim::kStreamAhead;
using npurt::sim::kStreamOps;
using npurt::sim::kWriteAheadMax;
using npurt::sim::kWriteDripLines;
using npurt::sim::kWriteDripMinBytes;
using npurt::sim::note_stream_read;
using npurt::sim::note_stream_write;
using npurt::sim::t_stream_windows;

constexpr uint64_t kLine = 64;

class StreamWindowTest : public ::testing::Test {
 protected:
  void SetUp() override { t_stream_windows = npurt::sim::StreamWindows{}; }
  void TearDown() override { t_stream_windows = npurt::sim::StreamWindows{}; }
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(64 * 1024);
};

// Calls drip_prefetch until the cursor cur() has walked [from, from + bytes),
// `lines` lines per call, and once more: it stays at the end.
template <class Cursor>
void ExpectDripWalk(Cursor cur, const uint8_t* from, uint64_t bytes, int lines) {
  for (uint64_t i = 1; i <= bytes / (kLine * lines); ++i) {
    drip_prefetch();
    EXPECT_EQ(cur(), from + i * kLine * lines) << "call " << i;
  }
  drip_prefetch();
  EXPECT_EQ(cur(), from + bytes);
}

TEST_F(StreamWindowTest, ShortReadLeavesACursorOverItsNextBytesNotAWindow) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  EXPECT_FALSE(in_stream_window(p));  // no in-loop prefetch for a row-sized read
  EXPECT_EQ(t_stream_windows.drip, p + 4096);
  EXPECT_EQ(t_stream_windows.drip_end, p + 4096 + kStreamAhead);
  ExpectDripWalk([] { return t_stream_windows.drip; }, p + 4096, kStreamAhead, kDripLines);
}

TEST_F(StreamWindowTest, RereadingTheSameRowKeepsTheProgressANewRowRestarts) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  drip_prefetch();
  note_stream_read(p, 4096);  // the row's second reader (e.g. Adds after ReduceSum)
  EXPECT_EQ(t_stream_windows.drip, p + 4096 + kLine * kDripLines);
  for (int op = 1; op <= kStreamOps; ++op) drip_prefetch();  // the row's other ops
  note_stream_read(p + 4096, 4096);  // the next row
  EXPECT_EQ(t_stream_windows.drip, p + 8192);
  EXPECT_EQ(t_stream_windows.drip_end, p + 8192 + kStreamAhead);
}

// A sum's tiles: each read starts where the last one ended, one op reads it.
TEST_F(StreamWindowTest, FollowingReadsWithOneOpEachAreAStream) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  EXPECT_FALSE(in_stream_window(p));  // the first read of a run drips
  for (uint64_t at = 4096; at <= 3 * 4096; at += 4096) {
    drip_prefetch();  // the op that reads the previous piece
    note_stream_read(p + at, 4096);
    EXPECT_TRUE(in_stream_window(p + at + 100)) << at;  // its loop prefetches ahead
    EXPECT_EQ(t_stream_windows.drip, t_stream_windows.drip_end) << at;  // and no drip beside it
  }
  note_stream_read(p + 8 * 4096, 4096);  // not where the last one ended: a new run
  EXPECT_FALSE(in_stream_window(p + 8 * 4096));
  EXPECT_EQ(t_stream_windows.drip_end, p + 9 * 4096 + kStreamAhead);
}

TEST_F(StreamWindowTest, RowsWithMoreOpsOrShorterReadsKeepTheDrip) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  for (int op = 0; op <= kStreamOps; ++op) drip_prefetch();
  note_stream_read(p + 4096, 4096);  // the next row after kStreamOps + 1 ops
  EXPECT_FALSE(in_stream_window(p + 4096));
  EXPECT_EQ(t_stream_windows.drip_end, p + 8192 + kStreamAhead);
  const uint8_t* q = p + 32 * 1024;
  note_stream_read(q, 2048);
  drip_prefetch();
  note_stream_read(q + 2048, 2048);  // one op per read, but shorter than the look-ahead
  EXPECT_FALSE(in_stream_window(q + 2048));
  EXPECT_EQ(t_stream_windows.drip, q + 4096);
  EXPECT_EQ(t_stream_windows.drip_end, q + 4096 + kStreamAhead);
}

TEST_F(StreamWindowTest, LongReadRecordsAWindowAndLeavesTheCursorAlone) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  note_stream_read(p + 8192, kDripMaxBytes + 1);
  EXPECT_TRUE(in_stream_window(p + 8192 + 100));
  EXPECT_FALSE(in_stream_window(p + 100));
  EXPECT_EQ(t_stream_windows.drip, p + 4096);
}

// Every vector op (dispatch.cc table()) advances the cursor.
TEST_F(StreamWindowTest, VectorOpsDriveTheCursor) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 2048);
  std::vector<float> a(64, 1.0f), b(64, 2.0f), d(64);
  namespace vec = npurt::aicore::vec;
  ASSERT_TRUE(vec::binary(vec::BinaryOp::kAdd, vec::VType::kF32, d.data(), a.data(), b.data(), a.size()));
  EXPECT_EQ(t_stream_windows.drip, p + 2048 + kLine * kDripLines);
  EXPECT_EQ(d[0], 3.0f);
}

// The look-ahead of a read that ends right before an unmapped page runs into
// that page, and a write cursor may lie over read-only or unmapped pages of
// the allocation: prefetches there (for reading or writing, per op or per
// chunk) must not fault.
TEST_F(StreamWindowTest, DripPastMappedMemoryDoesNotFault) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<uint8_t*>(m);
  ASSERT_EQ(0, mprotect(base + page, page, PROT_READ));
  ASSERT_EQ(0, munmap(base + 2 * page, 2 * page));
  note_stream_read(base + 2 * page - 1024, 1024);
  // A large tile ending at base + page: its cursor covers the other three pages.
  const auto* from = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(base + page) - 5 * page);
  note_stream_write(from, 5 * page, base + 4 * page);
  ASSERT_EQ(t_stream_windows.wdrip_end, base + 4 * page);
  for (int i = 0; i < 256; ++i) drip_prefetch();
  EXPECT_EQ(t_stream_windows.drip, t_stream_windows.drip_end);
  EXPECT_EQ(t_stream_windows.wdrip, t_stream_windows.wdrip_end);
  note_stream_write(base, 2 * page, base + 4 * page);  // a small tile: drained per chunk
  for (int i = 0; i < 256; ++i) drip_write_line();
  EXPECT_FALSE(write_drip_pending());
  munmap(base, 2 * page);
}

// A tile larger than kWriteDripChunkBytes: every vector op drains
// kWriteDripLines of the cursor over the same length after it.
TEST_F(StreamWindowTest, LargeStoreLeavesAWriteCursorDrainedPerOp) {
  const uint8_t* p = buf_.data();
  note_stream_write(p, 20480, p + buf_.size());
  EXPECT_EQ(t_stream_windows.wdrip, p + 20480);
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 40960);
  EXPECT_FALSE(write_drip_pending());  // not the unary loops' business
  ExpectDripWalk([] { return t_stream_windows.wdrip; }, p + 20480, 20480, kWriteDripLines);
}

TEST_F(StreamWindowTest, ShortStoresLeaveNoWriteCursorLongOnesAreCapped) {
  const uint8_t* p = buf_.data();
  note_stream_write(p + 100, kWriteDripMinBytes - 1, p + buf_.size());
  EXPECT_EQ(t_stream_windows.wdrip, nullptr);
  // Only pointers: a 1 MiB store inside a (pretended) 4 MiB allocation.
  note_stream_write(p, uint64_t{1} << 20, p + (uint64_t{4} << 20));
  EXPECT_EQ(t_stream_windows.wdrip_end, p + (uint64_t{1} << 20) + kWriteAheadMax);
}

// Both cursors advance in the same vector op, independently.
TEST_F(StreamWindowTest, VectorOpsDriveBothCursors) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 2048);
  note_stream_write(p + 8192, 20480, p + buf_.size());
  std::vector<float> a(64, 1.0f), d(64);
  namespace vec = npurt::aicore::vec;
  ASSERT_TRUE(vec::binary(vec::BinaryOp::kMul, vec::VType::kF32, d.data(), a.data(), a.data(), a.size()));
  EXPECT_EQ(t_stream_windows.drip, p + 2048 + kLine * kDripLines);
  EXPECT_EQ(t_stream_windows.wdrip, p + 28672 + kLine * kWriteDripLines);
  EXPECT_EQ(d[0], 1.0f);
}

// A tile of at most kWriteDripChunkBytes (softmax's rows): its cursor is left
// to the float unary loops, one line per chunk; the per-op burst skips it.
TEST_F(StreamWindowTest, SmallStoreLeavesACursorDrainedPerChunkNotPerOp) {
  const uint8_t* p = buf_.data();
  note_stream_write(p, kWriteDripChunkBytes, p + buf_.size());
  EXPECT_TRUE(write_drip_pending());
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 2 * kWriteDripChunkBytes);
  drip_prefetch();
  EXPECT_EQ(t_stream_windows.wdrip, p + kWriteDripChunkBytes);
  drip_write_line();
  EXPECT_EQ(t_stream_windows.wdrip, p + kWriteDripChunkBytes + kLine);
  note_stream_write(p, kWriteDripChunkBytes + 64, p + buf_.size());  // one line more: per op
  EXPECT_FALSE(write_drip_pending());
  drip_prefetch();
  EXPECT_EQ(t_stream_windows.wdrip, p + kWriteDripChunkBytes + 64 + kLine * kWriteDripLines);
}

TEST_F(StreamWindowTest, WriteCursorStopsAtTheLimit) {
  const uint8_t* p = buf_.data();
  note_stream_write(p + 4096, 4096, p + 10000);  // its next 4 KiB would pass the limit
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 10000);
  for (int i = 0; i < 100; ++i) drip_write_line();
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192 + 29 * kLine);  // 1808 B: 28 lines and a partial one
  EXPECT_FALSE(write_drip_pending());
  t_stream_windows = npurt::sim::StreamWindows{};
  note_stream_write(p, 32768, p + 40000);  // a large tile: the per-op burst stops there too
  for (int i = 0; i < 100; ++i) drip_prefetch();
  EXPECT_EQ(t_stream_windows.wdrip, p + 40000);
  t_stream_windows = npurt::sim::StreamWindows{};
  note_stream_write(p + 4096, 4096, p + 8192);  // ends at the limit: nothing after it
  EXPECT_EQ(t_stream_windows.wdrip, nullptr);
}

// A float unary loop (Exp) advances a small tile's write cursor a line per
// vector chunk (so 1024 floats drain 4 KiB on every ISA, K <= 16 lanes) and
// computes the same bits as without it; binary ops leave that cursor alone.
TEST_F(StreamWindowTest, FloatUnaryLoopsDrainTheWriteCursorSameResults) {
  namespace vec = npurt::aicore::vec;
  std::vector<float> x(1024), plain(1024), drained(1024);
  for (size_t i = 0; i < x.size(); ++i) x[i] = -20.0f + 0.04f * static_cast<float>(i);
  ASSERT_TRUE(vec::unary(vec::UnaryOp::kExp, vec::VType::kF32, plain.data(), x.data(), x.size()));
  const uint8_t* p = buf_.data();
  note_stream_write(p + 4096, 4096, p + buf_.size());
  ASSERT_TRUE(vec::binary(vec::BinaryOp::kAdd, vec::VType::kF32, drained.data(), x.data(), x.data(), 64));
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192);
  ASSERT_TRUE(vec::unary(vec::UnaryOp::kExp, vec::VType::kF32, drained.data(), x.data(), x.size()));
  EXPECT_FALSE(write_drip_pending());
  EXPECT_EQ(t_stream_windows.wdrip, p + 12288);
  EXPECT_EQ(0, std::memcmp(plain.data(), drained.data(), plain.size() * sizeof(float)));
}

}  // namespace
