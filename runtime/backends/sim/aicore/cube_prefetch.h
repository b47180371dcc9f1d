// cube_prefetch.h: the simulated MTE2's look-ahead for GM -> L1 Nd2Nz copies
// (internal to libnpurt).
//
// On the NPU the copy of a matmul's next L1 chunk runs on MTE2 while the cube
// multiplies the current one. The sim runs the copy synchronously, and a
// chunk (256 GM rows x 512 B of A for float 2048^3) comes from the host's L3
// with about 16 line fills in flight per core: the copy waits on L3 latency.
// This predictor watches each core's Nd2Nz source regions; once copies of
// one shape have advanced by the same address step twice (a kernel walking
// K: the stride), each copy of that shape queues the rows the next one will
// read at that stride (also after a jump to the next walk), and the float
// Mmad micro-kernel prefetches two of those rows into the host's L2 per
// register tile, one line of each per k iteration, so the loads overlap
// compute instead of the copy waiting for them. (Prefetching a whole row
// group's lines at once instead stalled the kernel on the fill buffers:
// more time lost on the prefetches than the copy saved.)
//
// Invariants: prefetching is only a hint (never faults, never changes a
// result, so a wrong prediction costs bandwidth only); the state is per host
// thread (one host thread = one simulated core at a time); next_row() with
// nothing queued is a load and a compare.
#pragma once

#include <cstdint>

namespace npurt::sim::cube {

constexpr int kPrefetchStreams = 4;  // copy shapes tracked at once (a matmul tile alternates A and B)

// Rows [row, rows) of base + i * pitch, [0, span) bytes of each, still to prefetch.
struct PrefetchRegion {
  const uint8_t* base = nullptr;
  uint64_t pitch = 0, span = 0;
  uint32_t rows = 0, row = 0;
};

// The lines of one row: prefetch p, p + 64, ... while p < end.
struct PrefetchRow {
  const uint8_t* p = nullptr;
  const uint8_t* end = nullptr;
};

struct PrefetchQueue {
  uint32_t active = 0;  // bit i: regions[i] has rows left
  PrefetchRegion regions[kPrefetchStreams];

  // The next queued row (an empty one when nothing is queued).
  PrefetchRow next_row() {
    if (active == 0) return {};
    const int i = __builtin_ctz(active);
    PrefetchRegion& r = regions[i];
    const uint8_t* row = r.base + uint64_t{r.row} * r.pitch;
    if (++r.row == r.rows) active &= ~(1u << i);
    const uint8_t* line = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(row) & ~uintptr_t{63});
    return {line, row + r.span};
  }
};

// The calling thread's queue. Kernels look it up once per Mmad.
PrefetchQueue& prefetch_queue();

// One Nd2Nz source: `rows` rows `pitch` bytes apart, each [src, src + span) relative to its row start.
void note_nd2nz_source(const uint8_t* src, uint64_t pitch, uint32_t rows, uint64_t span);

}  // namespace npurt::sim::cube
