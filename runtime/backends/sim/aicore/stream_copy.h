// runtime/backends/sim/aicore/stream_copy.h: the host copy behind local -> GM
// DataCopy when the destination is a large GM allocation.
//
// A plain memcpy into GM first reads every destination cache line (read for
// ownership) and leaves the output in the cache, where it evicts the input the
// next tile needs. Streaming (non-temporal) stores write whole lines without
// reading them. Measured on this VM (docs/performance.md, "Sim fixed costs
// (wave 4)"): 64 MiB written in 32 KiB tiles in about half the time of
// memcpy, and reading it back afterwards costs no more than after memcpy.
// Smaller outputs keep memcpy: a chain like exp(exp(a) + b) on 4 or 8 MiB
// float32 arrays was 10-30 % slower with streaming stores (the next kernel
// finds its input in cache). Wave 11 moved the switch from 16 to 40 MiB
// (docs/performance-history.md, "Softmax (wave 11)"): on this host (480 MiB L3) an
// output that a loop rewrites is still in L3, so memcpy's read for ownership
// hits there, while streaming stores send every line to DRAM. Per call, in
// steady state: 16 MiB outputs (softmax [4096, 1024] float32, a + b on 4 Mi
// float32, layer_norm float16 [32, 256, 1024]) 4-10 % faster with memcpy,
// the 16 MiB exp chain 23 %; 32 MiB ones 0-6 % (the chain 14 %); at 40 MiB
// a + b was 7 % faster streamed (the chain still 11 % slower), at 48 and
// 64 MiB 29 %, and softmax [32, 8, 512, 512] (256 MiB) 23 %.
// The launch's workspace never gets streaming stores although it is large (the
// 16 MiB system workspace sits in front of every op workspace): a kernel reads
// its own scratch back soon (attention's P tiles: 10-20 % less CPU, wave 5).
// Invariant: after stream_copy returns, its stores are ordered before any
// later store of this thread (sfence), like memcpy's.
#pragma once

#include <cstdint>

namespace npurt::sim {

// Destination allocations at least this large use streaming stores (the
// measured crossover of a + b, see above).
constexpr uint64_t kStreamRegionBytes = uint64_t{40} << 20;
// Copies below this size stay memcpy (the head/tail alignment and the sfence
// are not worth it, and short rows would write partial lines).
constexpr uint64_t kStreamMinBytes = 4096;
// The runs of a strided copy (block_count blocks with gaps, e.g. a transposed
// tile's 256-704 B rows) stream from this size on, with one fence per copy
// rather than one per run: a 4096 x 4096 transpose copy took 17 % (float32)
// and 12 % (float16) less CPU than with memcpy and write-prefetch (with a
// fence per run it had taken 40 % more: docs/performance.md, "Bandwidth-bound
// ops (wave 6)").
constexpr uint64_t kStreamRunMinBytes = 256;

// memcpy(dst, src, bytes) with streaming stores where the host has them
// (x86-64: AVX-512F, AVX, else SSE2), plain memcpy elsewhere.
void stream_copy(uint8_t* dst, const uint8_t* src, uint64_t bytes);

// stream_copy without its closing fence, for a loop of many short blocks (the
// strided runs of a transposed tile): a fence per block waits for every
// write-combining buffer to drain, so the caller fences once after the loop
// (stream_fence) before any later store of this thread.
void stream_copy_unfenced(uint8_t* dst, const uint8_t* src, uint64_t bytes);
void stream_fence();

struct CoreContext;
struct GmRef;
// Whether a local -> GM write into dst gets streaming stores: dst's allocation
// is at least min_region bytes (DataCopy: kStreamRegionBytes) and outside the
// launch's workspace (data_copy.cc; Fixpipe passes its own threshold, cube_move.cc).
bool streaming_target(CoreContext* c, const GmRef& dst, uint64_t min_region = kStreamRegionBytes);

}  // namespace npurt::sim
