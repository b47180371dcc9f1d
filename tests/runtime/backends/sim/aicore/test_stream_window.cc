// tests/runtime/backends/sim/aicore/test_stream_window.cc: the look-ahead
// bookkeeping of GM reads straight from a mirror (stream_window.h). Long reads
// record a window the reading loop prefetches ahead of; short reads (a row of
// a row-wise kernel) leave a cursor over their next kStreamAhead bytes that
// every vector op advances by kDripLines lines, unless they follow each other
// with at most kStreamOps ops per read (a stream: windows after the first); a
// memcpy'd store to GM leaves a write cursor over the bytes after it that the
// vector ops advance by kWriteDripLines lines. Prefetches never change a
// result, so what is tested is where the cursors go, which reads get a window,
// that the vector ops drive them, and that prefetching past the end of mapped
// (or writable) memory never faults.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "aicore/vec_raw.h"
#include "backends/sim/aicore/stream_window.h"

namespace {

using npurt::sim::drip_prefetch;
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
// that page, and the last tile of an output leaves a write cursor past its
// allocation, possibly over read-only or unmapped pages: prefetches there (for
// reading or writing) must not fault.
TEST_F(StreamWindowTest, DripPastMappedMemoryDoesNotFault) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<uint8_t*>(m);
  ASSERT_EQ(0, mprotect(base + page, page, PROT_READ));
  ASSERT_EQ(0, munmap(base + 2 * page, 2 * page));
  note_stream_read(base + 2 * page - 1024, 1024);
  note_stream_write(base + page, 3 * page);
  for (int i = 0; i < 256; ++i) drip_prefetch();
  EXPECT_EQ(t_stream_windows.drip, t_stream_windows.drip_end);
  EXPECT_EQ(t_stream_windows.wdrip, t_stream_windows.wdrip_end);
  munmap(base, 2 * page);
}

TEST_F(StreamWindowTest, StoreLeavesAWriteCursorOverTheSameLengthAfterIt) {
  uint8_t* p = buf_.data();
  note_stream_write(p + 4096, 4096);  // a 4 KiB tile stored at p
  EXPECT_EQ(t_stream_windows.wdrip, p + 4096);
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 8192);
  ExpectDripWalk([] { return t_stream_windows.wdrip; }, p + 4096, 4096, kWriteDripLines);
}

TEST_F(StreamWindowTest, ShortStoresLeaveNoWriteCursorLongOnesAreCapped) {
  uint8_t* p = buf_.data();
  note_stream_write(p + 100, kWriteDripMinBytes - 1);
  EXPECT_EQ(t_stream_windows.wdrip, nullptr);
  note_stream_write(p, uint64_t{1} << 20);
  EXPECT_EQ(t_stream_windows.wdrip_end, p + kWriteAheadMax);
}

// Both cursors advance in the same vector op, independently.
TEST_F(StreamWindowTest, VectorOpsDriveBothCursors) {
  uint8_t* p = buf_.data();
  note_stream_read(p, 2048);
  note_stream_write(p + 16384, 8192);
  std::vector<float> a(64, 1.0f), d(64);
  namespace vec = npurt::aicore::vec;
  ASSERT_TRUE(vec::binary(vec::BinaryOp::kMul, vec::VType::kF32, d.data(), a.data(), a.data(), a.size()));
  EXPECT_EQ(t_stream_windows.drip, p + 2048 + kLine * kDripLines);
  EXPECT_EQ(t_stream_windows.wdrip, p + 16384 + kLine * kWriteDripLines);
  EXPECT_EQ(d[0], 1.0f);
}

}  // namespace
