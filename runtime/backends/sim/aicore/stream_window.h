// runtime/backends/sim/aicore/stream_window.h: which GM bytes the running
// core's current vector op is reading straight from GM (copy elision's mirror
// reads, aicore/mirror.h), so the vector loops can prefetch ahead of them.
//
// Why: a mirror read streams a tile from L3 (the 16 Mi-element benchmark
// arrays do not fit L2) with only the hardware prefetcher ahead of it, which
// stops at every 4 KiB page; the copy it replaced (load_copy.h) prefetched
// 4 KiB ahead in software. mirror_read() records the mirrored GM range of each
// hit here (the last kStreamWindows of them: a binary op may read two); the
// chunk loop of the vector kernels (simd/lanes.inc) prefetches kStreamAhead
// bytes ahead of every source operand that lies inside a recorded range,
// running past its end into what a streaming kernel's next tile will read.
// Short reads (<= kDripMaxBytes) record no window but a look-ahead cursor
// that the following vector ops advance a few lines at a time (drip_prefetch).
// Writes: a local -> GM memcpy (not the streaming stores of large outputs)
// reads every destination line for ownership, from L3 in the steady state of
// a loop rewriting its output, and only when memcpy reaches it. A row-wise
// kernel stores tile after tile, so a store's next bytes are the likely next
// destination: note_stream_write leaves one write cursor over them (never
// past the allocation), and vector ops prefetch it for writing so the next
// tile's lines are owned before its copy. Two drains of the same cursor:
// every vector op issues kWriteDripLines (layer_norm's 28 KiB tiles), and
// float unary loops (Exp: compute-bound) one line per vector chunk when the
// tile was small (softmax's 16 KiB tiles); docs/performance-history.md "Write
// look-ahead (wave 12)".
// Invariants: per host thread (one simulated core runs on one thread at a
// time); only ever used for prefetch hints, which never fault and never change
// a result, so a stale or missing window costs speed, not correctness.
#pragma once

#include <cstdint>

namespace npurt::sim {

constexpr int kStreamWindows = 2;
// Prefetch distance: one 4 KiB page, as load_copy (2-8 KiB measured within a
// few % of each other on the sum loop: docs/performance.md "Sum (wave 8)").
constexpr uint64_t kStreamAhead = 4096;
// Reads shorter than this are not worth the prefetch instructions.
constexpr uint64_t kStreamWindowMinBytes = 1024;
// Short reads (a row or two of a row-wise kernel: layer_norm, softmax) are
// followed by compute on the L1-hot row, not by more streaming. Prefetching
// their next kStreamAhead bytes inside the reading loop issued 64 prefetches at
// loop speed, which waited on the core's few line-fill buffers at the memory
// rate: the float16 layer_norm's f16 -> f32 Cast spent 80 % of its samples on
// that prefetch (docs/performance-history.md "Layer_norm float16 (wave 11)"). Reads up
// to kDripMaxBytes instead leave a cursor over their next kStreamAhead bytes,
// and every vector op (dispatch.cc table()) prefetches kDripLines lines of it,
// so the next row arrives while this one computes. 16 lines: a float32
// layer_norm row has four vector ops per 4 KiB row before the next row's read
// (8 lines left half of it unfetched: float32 3 % slower).
constexpr uint64_t kDripMaxBytes = 8192;
constexpr int kDripLines = 16;
// A run of short reads of at least kStreamAhead bytes, each starting where the
// previous one ended, with at most kStreamOps vector ops per read is a stream
// (a sum's tiles: one Add or Axpy per 4-8 KiB read), not rows computed on: the
// drip's 16 lines per op would cover a quarter of the next read, so each read
// after the first records a window and its loop prefetches ahead as for a long
// read (16 Mi float16 sums -19 %: docs/performance-history.md "Sum against PyTorch
// (wave 12)"). Row-wise kernels run several ops per row and keep the drip, and
// so do shorter reads (a float16 layer_norm row, 2 KiB, Cast row after row:
// as a stream it took 2.6 % longer).
constexpr int kStreamOps = 2;

struct StreamWindows {
  const uint8_t* lo[kStreamWindows] = {};
  const uint8_t* hi[kStreamWindows] = {};
  int next = 0;
  int ops_since_read = 0;             // vector ops since the last new short read (kStreamOps); fills next's padding
  const uint8_t* drip = nullptr;      // next line to prefetch
  const uint8_t* drip_end = nullptr;  // end of the look-ahead range
  const uint8_t* drip_from = nullptr; // its start (a re-read of the same row keeps the progress)
  const uint8_t* wdrip = nullptr;     // next destination line to prefetch for write (note_stream_write)
  const uint8_t* wdrip_end = nullptr; // end of the write look-ahead
  bool wchunk = false;                // the cursor's tile was small: unary loops drain it per chunk
};

// initial-exec TLS: the default model of -fPIC code calls __tls_get_addr on
// every vector op's window test (~0.7 % of a float16 layer_norm profile). The
// 88 bytes join libnpurt's static TLS block, like tls_core (core_context.h).
inline thread_local StreamWindows t_stream_windows __attribute__((tls_model("initial-exec")));

inline void note_window(StreamWindows& w, const uint8_t* p, uint64_t bytes) {
  w.lo[w.next] = p;
  w.hi[w.next] = p + bytes;
  w.next = (w.next + 1) % kStreamWindows;
}

inline void note_stream_read(const uint8_t* p, uint64_t bytes) {
  StreamWindows& w = t_stream_windows;
  if (bytes > kDripMaxBytes) return note_window(w, p, bytes);
  if (p + bytes == w.drip_from) return;  // a re-read of the last short read keeps its look-ahead's progress
  const bool stream = bytes >= kStreamAhead && p == w.drip_from && w.ops_since_read <= kStreamOps;
  w.ops_since_read = 0;
  w.drip_from = p + bytes;
  if (stream) {
    w.drip = w.drip_end = p + bytes;  // the reading loop prefetches instead (kStreamOps)
    return note_window(w, p, bytes);
  }
  w.drip = p + bytes;
  w.drip_end = p + bytes + kStreamAhead;
}

// The write side of the drip. A row-wise kernel stores each finished tile
// with one DataCopy into GM, a memcpy for outputs below kStreamRegionBytes
// (stream_copy.h), and the next tile's output follows it in GM. memcpy reads
// each destination line for ownership first (layer_norm float16 [32, 256,
// 1024]: 16-18 % of the samples; softmax [4096, 1024] float32: 26-30 %). A
// memcpy'd store of at least kWriteDripMinBytes leaves a cursor over the same
// number of bytes after it, at most kWriteAheadMax and never past `limit`
// (the allocation's end), and one of two drains owns those lines before the
// next store reaches them:
// - large tiles: every vector op prefetches kWriteDripLines lines (8: 4 and
//   16 gained less on layer_norm, 32 nothing: "Layer_norm float16 pairs
//   (wave 12)");
// - tiles of at most kWriteDripChunkBytes (softmax's): float unary loops
//   issue one line per vector chunk, spread through a compute-bound Exp; a
//   burst per op stalled on the line-fill buffers there ("Softmax (wave
//   12)"), and the per-chunk drain of 64 KiB tiles made nr.exp 4 Mi float32
//   10-17 % slower (the prefetched lines overflow L1), hence the size split.
constexpr int kWriteDripLines = 8;
constexpr uint64_t kWriteAheadMax = 65536;
constexpr uint64_t kWriteDripMinBytes = 4096;
constexpr uint64_t kWriteDripChunkBytes = 16 * 1024;

// A memcpy of `bytes` into GM at p, inside an allocation ending at `limit`.
inline void note_stream_write(const uint8_t* p, uint64_t bytes, const uint8_t* limit) {
  const uint8_t* end = p + bytes;
  if (bytes < kWriteDripMinBytes || end >= limit) return;
  StreamWindows& w = t_stream_windows;
  const uint64_t ahead = bytes < kWriteAheadMax ? bytes : kWriteAheadMax;
  w.wdrip = end;
  w.wdrip_end = uint64_t(limit - end) < ahead ? limit : end + ahead;
  w.wchunk = bytes <= kWriteDripChunkBytes;
}

// Issues the per-op part of the pending look-aheads: up to kWriteDripLines
// write prefetches (large tiles) and kDripLines read prefetches (one call per
// vector op).
inline void drip_prefetch() {
  StreamWindows& w = t_stream_windows;
  ++w.ops_since_read;
  const uint8_t* o = w.wdrip;
  if (!w.wchunk && o < w.wdrip_end) {
    for (int k = 0; k < kWriteDripLines && o < w.wdrip_end; ++k, o += 64) __builtin_prefetch(o, 1, 3);
    w.wdrip = o;
  }
  const uint8_t* d = w.drip;
  if (d >= w.drip_end) return;
  for (int k = 0; k < kDripLines && d < w.drip_end; ++k, d += 64) __builtin_prefetch(d, 0, 3);
  w.drip = d;
}

// True when a float unary loop should drain the write cursor per chunk.
inline bool write_drip_pending() {
  const StreamWindows& w = t_stream_windows;
  return w.wchunk && w.wdrip < w.wdrip_end;
}
// One line of the write look-ahead, issued once per vector chunk of a
// compute-bound loop (simd/elementwise.inc run_unary).
inline void drip_write_line() {
  StreamWindows& w = t_stream_windows;
  if (w.wdrip < w.wdrip_end) __builtin_prefetch(w.wdrip, 1, 3), w.wdrip += 64;
}

// True when p lies inside a recorded mirror read (a GM source being streamed).
inline bool in_stream_window(const void* p) {
  const auto* b = static_cast<const uint8_t*>(p);
  const StreamWindows& w = t_stream_windows;
  for (int i = 0; i < kStreamWindows; ++i)
    if (b >= w.lo[i] && b < w.hi[i]) return true;
  return false;
}

}  // namespace npurt::sim
