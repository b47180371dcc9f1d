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
// a loop rewriting its output, and only when memcpy reaches it. When a copy
// continues the previous one (a row-wise kernel storing tile after tile), its
// next bytes are the likely next destination: note_stream_write leaves a
// write cursor over them that float unary loops (Exp: compute-bound) advance
// one prefetchw per vector chunk, so the next tile's lines are owned before
// its copy (docs/performance.md "Softmax (wave 12)"); a 16-line burst per
// vector op instead stalled on the line-fill buffers and gained nothing.
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
// that prefetch (docs/performance.md "Layer_norm float16 (wave 11)"). Reads up
// to kDripMaxBytes instead leave a cursor over their next kStreamAhead bytes,
// and every vector op (dispatch.cc table()) prefetches kDripLines lines of it,
// so the next row arrives while this one computes. 16 lines: a float32
// layer_norm row has four vector ops per 4 KiB row before the next row's read
// (8 lines left half of it unfetched: float32 3 % slower).
constexpr uint64_t kDripMaxBytes = 8192;
constexpr int kDripLines = 16;
// Writes continuing the previous one up to this size leave a write cursor
// over as many following bytes (a row-wise kernel's tile of rows).
constexpr uint64_t kWriteDripMaxBytes = 16 * 1024;

struct StreamWindows {
  const uint8_t* lo[kStreamWindows] = {};
  const uint8_t* hi[kStreamWindows] = {};
  int next = 0;
  const uint8_t* drip = nullptr;      // next line to prefetch
  const uint8_t* drip_end = nullptr;  // end of the look-ahead range
  const uint8_t* drip_from = nullptr; // its start (a re-read of the same row keeps the progress)
  const uint8_t* wdrip = nullptr;     // next destination line to prefetch for write
  const uint8_t* wdrip_end = nullptr; // end of the write look-ahead
  const uint8_t* wlast = nullptr;     // end of the last local -> GM memcpy
};

// initial-exec TLS: the default model of -fPIC code calls __tls_get_addr on
// every vector op's window test (~0.7 % of a float16 layer_norm profile). The
// 88 bytes join libnpurt's static TLS block, like tls_core (core_context.h).
inline thread_local StreamWindows t_stream_windows __attribute__((tls_model("initial-exec")));

inline void note_stream_read(const uint8_t* p, uint64_t bytes) {
  StreamWindows& w = t_stream_windows;
  if (bytes <= kDripMaxBytes) {
    if (p + bytes != w.drip_from) w.drip = w.drip_from = p + bytes, w.drip_end = p + bytes + kStreamAhead;
    return;
  }
  w.lo[w.next] = p;
  w.hi[w.next] = p + bytes;
  w.next = (w.next + 1) % kStreamWindows;
}

// A memcpy of `bytes` into GM at p, inside an allocation ending at `limit`:
// when it continues the previous one (p is where that ended) and is at most
// kWriteDripMaxBytes, its next `bytes` (up to limit) become the write cursor.
inline void note_stream_write(const uint8_t* p, uint64_t bytes, const uint8_t* limit) {
  StreamWindows& w = t_stream_windows;
  const uint8_t* end = p + bytes;
  if (p == w.wlast && bytes <= kWriteDripMaxBytes && end < limit) {
    w.wdrip = end;
    w.wdrip_end = uint64_t(limit - end) < bytes ? limit : end + bytes;
  }
  w.wlast = end;
}

// Issues up to kDripLines prefetches of the pending look-ahead (one call per vector op).
inline void drip_prefetch() {
  StreamWindows& w = t_stream_windows;
  const uint8_t* d = w.drip;
  if (d >= w.drip_end) return;
  for (int k = 0; k < kDripLines && d < w.drip_end; ++k, d += 64) __builtin_prefetch(d, 0, 3);
  w.drip = d;
}

inline bool write_drip_pending() { return t_stream_windows.wdrip < t_stream_windows.wdrip_end; }
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
