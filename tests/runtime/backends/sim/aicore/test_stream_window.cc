// tests/runtime/backends/sim/aicore/test_stream_window.cc: the look-ahead
// bookkeeping of GM reads straight from a mirror (stream_window.h). Long reads
// record a window the reading loop prefetches ahead of; short reads (a row of
// a row-wise kernel) leave a cursor over their next kStreamAhead bytes that
// every vector op advances by kDripLines lines. Prefetches never change a
// result, so what is tested is where the cursor goes, that the vector ops
// drive it, and that prefetching past the end of mapped memory never faults.
// Writes: a local -> GM memcpy continuing the previous one leaves a write
// cursor over its next bytes, which float unary loops advance one line per
// vector chunk (prefetch for write).
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
using npurt::sim::kWriteDripMaxBytes;
using npurt::sim::note_stream_write;
using npurt::sim::write_drip_pending;
using npurt::sim::in_stream_window;
using npurt::sim::kDripLines;
using npurt::sim::kDripMaxBytes;
using npurt::sim::kStreamAhead;
using npurt::sim::note_stream_read;
using npurt::sim::t_stream_windows;

constexpr uint64_t kLine = 64;

class StreamWindowTest : public ::testing::Test {
 protected:
  void SetUp() override { t_stream_windows = npurt::sim::StreamWindows{}; }
  void TearDown() override { t_stream_windows = npurt::sim::StreamWindows{}; }
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(64 * 1024);
};

TEST_F(StreamWindowTest, ShortReadLeavesACursorOverItsNextBytesNotAWindow) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  EXPECT_FALSE(in_stream_window(p));  // no in-loop prefetch for a row-sized read
  EXPECT_EQ(t_stream_windows.drip, p + 4096);
  EXPECT_EQ(t_stream_windows.drip_end, p + 4096 + kStreamAhead);
  const uint64_t calls = kStreamAhead / (kLine * kDripLines);
  for (uint64_t i = 1; i <= calls; ++i) {
    drip_prefetch();
    EXPECT_EQ(t_stream_windows.drip, p + 4096 + i * kLine * kDripLines) << "call " << i;
  }
  drip_prefetch();  // exhausted: stays at the end
  EXPECT_EQ(t_stream_windows.drip, t_stream_windows.drip_end);
}

TEST_F(StreamWindowTest, RereadingTheSameRowKeepsTheProgressANewRowRestarts) {
  const uint8_t* p = buf_.data();
  note_stream_read(p, 4096);
  drip_prefetch();
  note_stream_read(p, 4096);  // the row's second reader (e.g. Adds after ReduceSum)
  EXPECT_EQ(t_stream_windows.drip, p + 4096 + kLine * kDripLines);
  note_stream_read(p + 4096, 4096);  // the next row
  EXPECT_EQ(t_stream_windows.drip, p + 8192);
  EXPECT_EQ(t_stream_windows.drip_end, p + 8192 + kStreamAhead);
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
// that page: prefetches there must not fault.
TEST_F(StreamWindowTest, DripPastMappedMemoryDoesNotFault) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<uint8_t*>(m);
  ASSERT_EQ(0, munmap(base + page, 3 * page));
  note_stream_read(base + page - 1024, 1024);
  for (int i = 0; i < 64; ++i) drip_prefetch();
  EXPECT_EQ(t_stream_windows.drip, t_stream_windows.drip_end);
  munmap(base, page);
}

TEST_F(StreamWindowTest, OnlyAWriteContinuingThePreviousOneLeavesAWriteCursor) {
  const uint8_t* p = buf_.data();
  const uint8_t* limit = p + buf_.size();
  note_stream_write(p, 4096, limit);  // the first write of a stream: nothing known yet
  EXPECT_FALSE(write_drip_pending());
  note_stream_write(p + 4096, 4096, limit);  // continues it: the next 4 KiB are the cursor
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192);
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 12288);
  drip_write_line();
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192 + kLine);
  note_stream_write(p + 40960, 4096, limit);  // a jump: the old cursor stays, no new one
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192 + kLine);
  EXPECT_EQ(t_stream_windows.wlast, p + 45056);
}

TEST_F(StreamWindowTest, WriteCursorStopsAtTheLimitAndSkipsLongWrites) {
  const uint8_t* p = buf_.data();
  note_stream_write(p, 4096, p + 10000);
  note_stream_write(p + 4096, 4096, p + 10000);  // its next 4 KiB would pass the limit
  EXPECT_EQ(t_stream_windows.wdrip_end, p + 10000);
  for (int i = 0; i < 100; ++i) drip_write_line();
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192 + 29 * kLine);  // 1808 B: 28 lines and a partial one
  EXPECT_FALSE(write_drip_pending());
  t_stream_windows = npurt::sim::StreamWindows{};
  note_stream_write(p, kWriteDripMaxBytes + 64, p + buf_.size());
  note_stream_write(p + kWriteDripMaxBytes + 64, kWriteDripMaxBytes + 64, p + buf_.size());
  EXPECT_FALSE(write_drip_pending());  // a long copy is not a row-wise kernel's tile
  note_stream_write(p, 4096, p + 8192);
  note_stream_write(p + 4096, 4096, p + 8192);  // ends at the limit: nothing after it
  EXPECT_FALSE(write_drip_pending());
}

// A float unary loop (Exp) advances the write cursor a line per vector chunk
// (so 1024 floats drain 4 KiB on every ISA, K <= 16 lanes) and computes the
// same bits as without it; binary ops leave the cursor alone.
TEST_F(StreamWindowTest, FloatUnaryLoopsDrainTheWriteCursorSameResults) {
  namespace vec = npurt::aicore::vec;
  std::vector<float> x(1024), plain(1024), drained(1024);
  for (size_t i = 0; i < x.size(); ++i) x[i] = -20.0f + 0.04f * static_cast<float>(i);
  ASSERT_TRUE(vec::unary(vec::UnaryOp::kExp, vec::VType::kF32, plain.data(), x.data(), x.size()));
  const uint8_t* p = buf_.data();
  note_stream_write(p, 4096, p + buf_.size());
  note_stream_write(p + 4096, 4096, p + buf_.size());
  ASSERT_TRUE(vec::binary(vec::BinaryOp::kAdd, vec::VType::kF32, drained.data(), x.data(), x.data(), 64));
  EXPECT_EQ(t_stream_windows.wdrip, p + 8192);
  ASSERT_TRUE(vec::unary(vec::UnaryOp::kExp, vec::VType::kF32, drained.data(), x.data(), x.size()));
  EXPECT_FALSE(write_drip_pending());
  EXPECT_EQ(t_stream_windows.wdrip, p + 12288);
  EXPECT_EQ(0, std::memcmp(plain.data(), drained.data(), plain.size() * sizeof(float)));
}

}  // namespace
