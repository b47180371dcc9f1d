// runtime/backends/sim/aicore/load_copy.h: the host copy behind GM -> local
// DataCopy for long contiguous blocks.
//
// Kernels stream GM through UB tile by tile, so the simulator's copy-in reads
// the source from L3 (the benchmark arrays do not fit L2) while the UB buffer
// it writes stays in L1/L2. A plain memcpy of one tile waits on each line's
// L3 latency with only the hardware prefetcher ahead of it, and that
// prefetcher stops at every 4 KiB page. load_copy issues a software prefetch
// a fixed distance ahead of the read position (running past the end of the
// block into what the kernel's next copy will read: a prefetch never faults
// and does not change any simulated state), so more lines are in flight.
// Invariant: the same bytes as memcpy(dst, src, bytes) land in dst; nothing
// outside [dst, dst + bytes) is written.
#pragma once

#include <cstdint>

namespace npurt::sim {

// Blocks below this size keep memcpy (prefetching ahead pays off over a few
// lines; short copies are dominated by the call).
constexpr uint64_t kLoadCopyMinBytes = 1024;

// memcpy(dst, src, bytes) with software prefetch of the source ahead (x86-64:
// AVX-512F or AVX; plain memcpy elsewhere).
void load_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes);

}  // namespace npurt::sim
