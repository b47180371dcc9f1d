// runtime/backends/sim/aicore/data_copy.cc: the copy engine behind DataCopy /
// DataCopyPad. A CopyPlan (data_copy.h) is checked once over its whole span at
// basic level, per block at full level (so gaps are neither marked written nor
// hazards), then executed with one memcpy for contiguous plans or one per block;
// local -> GM copies into large allocations use streaming stores (stream_copy.h).
// Copy elision (copy_elision.h): the local side arrives unmaterialized; a
// contiguous GM -> UB copy (DataCopy, or a DataCopyPad without padding) from a
// read-only argument only records a mirror
// after the same checks, and a contiguous UB -> GM copy reads a mirrored
// source from GM. Every other path materializes the mirror before touching UB.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "aicore/data_copy.h"
#include "aicore/mirror.h"
#include "backends/sim/aicore/copy_elision.h"
#include "backends/sim/aicore/core_state.h"
#include "backends/sim/aicore/load_copy.h"
#include "backends/sim/aicore/stream_copy.h"
#include "backends/sim/aicore/stream_window.h"
#include "backends/sim/aicore/unit_scatter.h"

namespace npurt::sim {

namespace {

// Serialises atomic accumulation into GM across the blocks of all launches.
std::mutex& atomic_mutex() {
  static std::mutex m;
  return m;
}

uint64_t span(uint32_t count, uint64_t stride, uint64_t last) {
  return count == 0 ? 0 : uint64_t(count - 1) * stride + last;
}

// Blocks of exactly B (1, 2, 4 or 8) bytes, e.g. one unit per 32-B UB block of a
// scattered write: a fixed-size copy each (one load and store) instead of a
// memcpy call and a prefetch per block (16 Mi float32 x[::2] = y: process CPU
// 23 -> 15 ms, docs/performance-history.md "Strided copy spread (wave 11)").
// Blocks from `first` on; the vector body (unit_scatter.h) did those before.
template <unsigned B>
void copy_small_blocks(uint8_t* d, const uint8_t* s, const CopyPlan& p, uint32_t first) {
  for (uint32_t i = first; i < p.block_count; ++i) std::memcpy(d + i * p.dst_stride, s + i * p.src_stride, B);
}

void check_params(CoreContext* c, const CopyPlan& p, const char* api) {
  if (p.block_count > 4095)
    raise_fault(Diag::kParam, api,
                "blockCount " + std::to_string(p.block_count) + " is outside [0, 4095]");
  if (!p.pad_form) return;
  if (c->profile && !c->profile->has_datacopy_pad)
    raise_fault(Diag::kParam, api,
                "DataCopyPad is not supported on " + c->profile->name + " (use DataCopy with "
                "32-byte aligned sizes)");
  if (p.block_bytes > 2097151)
    raise_fault(Diag::kParam, api, "blockLen " + std::to_string(p.block_bytes) +
                                       " B exceeds 2097151 B");
  if (p.block_bytes % p.elem != 0)
    raise_fault(Diag::kParam, api,
                "blockLen " + std::to_string(p.block_bytes) + " B is not a multiple of the " +
                    std::to_string(p.elem) + "-byte element");
  if (p.left_pad > 32 || p.right_pad > 32)
    raise_fault(Diag::kParam, api, "left/right padding must be at most 32 bytes each");
  if (p.is_pad && p.elem == 8 && p.pad_value) {
    uint64_t v;
    std::memcpy(&v, p.pad_value, 8);
    if (v != 0) raise_fault(Diag::kParam, api, "paddingValue must be 0 for 64-bit types");
  }
}

// Checks the local side: whole span at basic, each block at full.
void check_local_side(CoreContext* c, const LocalRef& t, const CopyPlan& p, uint64_t stride,
                      uint64_t block, const AccessSpec& s) {
  if (c->level == SimCheckLevel::kBasic) {
    check_local(c, t, 0, span(p.block_count, stride, block), s);
    return;
  }
  check_local_bounds(c, t, 0, span(p.block_count, stride, block), s);
  for (uint32_t i = 0; i < p.block_count; ++i) check_local_slow(c, t, i * stride, block, s);
}

// Checks the GM side: whole span at basic (and for bounds), each block's write at full.
void check_gm_side(CoreContext* c, const GmRef& g, const CopyPlan& p, uint64_t stride,
                   Access a, const char* api) {
  const uint64_t bytes = span(p.block_count, stride, p.block_bytes);
  if (!gm_access_ok(g, g.ptr, bytes, p.elem)) check_gm_bounds(c, g, g.ptr, bytes, p.elem, api, a);
  if (c->level != SimCheckLevel::kFull) return;
  if (a == Access::kWrite && !p.atomic_add)
    for (uint32_t i = 0; i < p.block_count; ++i) log_gm_write(c, g.ptr + i * stride, p.block_bytes);
  // In-core GM ordering (gm_order.h): reads run before the UB side's pipe
  // model update, writes after it (their op number is the MTE3 clock).
  const GmSpan s{reinterpret_cast<uintptr_t>(g.ptr), p.block_bytes, stride, p.block_count};
  if (a == Access::kRead) gm_order_read(state_of(c), s, api);
  else gm_order_write(state_of(c), s, p.atomic_add != nullptr, api);
}

void fill_pattern(uint8_t* dst, uint64_t bytes, const uint8_t* elem, uint32_t elem_bytes) {
  for (uint64_t i = 0; i < bytes; ++i) dst[i] = elem[i % elem_bytes];
}

bool contiguous(const CopyPlan& p) {
  return p.src_stride == p.block_bytes && p.dst_stride == p.block_bytes &&
         (p.dst_footprint == 0 || p.dst_footprint == p.block_bytes) && p.left_pad == 0 &&
         p.right_pad == 0;
}

// Size of the GM allocation a copy writes into: the launch region when the
// checks bound it (levels basic/full), else what SetGlobalBuffer declared.
uint64_t gm_extent(const GmRef& g) {
  if (g.region_end != 0) return g.region_end - g.region_begin;
  return g.limit != nullptr && g.limit > g.ptr ? uint64_t(g.limit - g.ptr) : 0;
}

// True when p lies in the launch's workspace: scratch the kernel itself reads
// back soon (attention's P tiles, split-K partials), so it must stay cached
// even though the workspace allocation (16 MiB of system workspace in front)
// is large.
bool in_workspace(CoreContext* c, const uint8_t* p) {
  const KernelLaunch* L = state_of(c).view->launch;
  const auto* ws = static_cast<const uint8_t*>(L->workspace);
  return ws != nullptr && p >= ws && p < ws + L->workspace_bytes;
}

// Strided plans (several blocks with gaps: a transposed block's runs, rows of
// a sliced view) copy one short block at a time. The hardware prefetchers do
// not follow dozens of interleaved streams, so each block's lines would be
// fetched (or, for stores, read for ownership) only when memcpy touches them.
// Touching block i + kPrefetchAhead while copying block i overlaps those
// misses: a 4096 x 4096 transpose copy took 27 % less CPU (float32; 24 %
// float16) and rows of 32-64 B from a strided view 13-17 % less (2026-11-30,
// docs/performance.md "Elementwise and transpose (wave 5)").
constexpr uint32_t kPrefetchAhead = 12;
template <int kForWrite>
inline void prefetch_block(const uint8_t* p, uint64_t bytes) {
  for (uint64_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o, kForWrite, 3);
}

// Streaming stores (stream_copy.h) go to large outputs only: smaller blocks
// stay cached for the next kernel or for this one, and the launch workspace is
// read back soon. Contiguous copies stream from kStreamMinBytes on, the runs of
// strided ones from kStreamRunMinBytes (decided once per copy, not per run).
}  // namespace

bool streaming_target(CoreContext* c, const GmRef& dst, uint64_t min_region) {
  return gm_extent(dst) >= min_region && !in_workspace(c, dst.ptr);
}

uint64_t datacopy_round(CoreContext* c, const char* api, uint64_t bytes, uint32_t elem) {
  if (c->level != SimCheckLevel::kOff && !c->truncate_datacopy)
    raise_fault(Diag::kDataCopyCount, api,
                "count " + std::to_string(bytes / elem) + " x " + std::to_string(elem) + " B = " +
                    std::to_string(bytes) + " B is not a multiple of 32 B (the NPU silently "
                    "copies only " + std::to_string(bytes / 32 * 32) +
                    " B; use DataCopyPad for tails, or KernelLaunch::truncate_datacopy to "
                    "emulate the NPU)");
  return bytes / 32 * 32;
}

void copy_in_checked(CoreContext* c, const LocalRef& dst, const uint8_t* src, uint64_t bytes) {
  if (elide_copy_in(c, dst, src, bytes)) return;
  if (bytes >= kLoadCopyMinBytes) load_copy(dst.ptr, src, bytes);
  else std::memcpy(dst.ptr, src, bytes);
}

void copy_out_checked(CoreContext* c, const GmRef& dst, const LocalRef& src, uint64_t bytes) {
  const uint8_t* from = src.buf && src.buf->mirror_bytes ? mirror_read(src.buf, src.ptr, bytes) : src.ptr;
  if (bytes >= kStreamMinBytes && streaming_target(c, dst)) {
    stream_copy(dst.ptr, from, bytes);
    return;
  }
  std::memcpy(dst.ptr, from, bytes);
  // The next tile's destination is owned before its copy (stream_window.h),
  // never looking past the allocation (checks on) or the declared buffer.
  const uint8_t* end = dst.region_end != 0 ? reinterpret_cast<const uint8_t*>(dst.region_end) : dst.limit;
  if (end != nullptr) note_stream_write(dst.ptr, bytes, end);
}

void copy_gm_to_local(CoreContext* c, const LocalRef& dst, const GmRef& src, const CopyPlan& p,
                      const char* api) {
  const uint64_t footprint = p.dst_footprint ? p.dst_footprint : p.block_bytes;
  if (c->level != SimCheckLevel::kOff) check_params(c, p, api);
  if (p.block_count == 0 || p.block_bytes == 0) return;  // a NOP on A2/A3
  if (c->level != SimCheckLevel::kOff) {
    check_gm_side(c, src, p, p.src_stride, Access::kRead, api);
    check_local_side(c, dst, p, p.dst_stride, footprint,
                     AccessSpec{api, Access::kWrite, Pipe::MTE2, 32, kGmLocalPools});
  }
  if (contiguous(p)) {
    // A contiguous DataCopyPad (no padding, no filler: every row 32-byte
    // aligned and packed) moves exactly the bytes a DataCopy would, so it is
    // elided the same way (the norm and softmax kernels load rows with it).
    copy_in_checked(c, dst, src.ptr, uint64_t{p.block_count} * p.block_bytes);
    return;
  }
  settle(dst.buf);  // strided and padded writes cover only part of the buffer
  const auto* pad = static_cast<const uint8_t*>(p.pad_value);
  for (uint32_t i = 0; i < p.block_count; ++i) {
    if (i + kPrefetchAhead < p.block_count)
      prefetch_block<0>(src.ptr + (i + kPrefetchAhead) * p.src_stride, p.block_bytes);
    uint8_t* d = dst.ptr + i * p.dst_stride;
    const uint8_t* s = src.ptr + i * p.src_stride;
    if (pad && p.left_pad) fill_pattern(d, p.left_pad, pad, p.elem);
    std::memcpy(d + p.left_pad, s, p.block_bytes);
    uint64_t used = p.left_pad + p.block_bytes;
    if (pad && p.right_pad) fill_pattern(d + used, p.right_pad, pad, p.elem);
    used += p.right_pad;
    // Filler up to the 32-B aligned block end: the pad value when padding,
    // otherwise the block's first element (what A2 hardware leaves there).
    if (footprint > used)
      fill_pattern(d + used, footprint - used, (p.is_pad && pad) ? pad : s, p.elem);
  }
}

void copy_local_to_gm(CoreContext* c, const GmRef& dst, const LocalRef& src, const CopyPlan& p,
                      const char* api) {
  if (c->level != SimCheckLevel::kOff) check_params(c, p, api);
  if (p.block_count == 0 || p.block_bytes == 0) return;
  if (c->level != SimCheckLevel::kOff) {
    check_local_side(c, src, p, p.src_stride, p.block_bytes,
                     AccessSpec{api, Access::kRead, Pipe::MTE3, 32, kUbOnly});
    check_gm_side(c, dst, p, p.dst_stride, Access::kWrite, api);
  }
  if (p.atomic_add || !contiguous(p)) settle(src.buf);
  if (p.atomic_add) {
    std::lock_guard<std::mutex> lock(atomic_mutex());
    for (uint32_t i = 0; i < p.block_count; ++i)
      p.atomic_add(dst.ptr + i * p.dst_stride, src.ptr + i * p.src_stride, p.block_bytes);
    return;
  }
  if (contiguous(p)) {
    copy_out_checked(c, dst, src, uint64_t{p.block_count} * p.block_bytes);
    return;
  }
  if (p.block_bytes >= kStreamRunMinBytes && streaming_target(c, dst)) {  // one fence for all runs
    for (uint32_t i = 0; i < p.block_count; ++i)
      stream_copy_unfenced(dst.ptr + i * p.dst_stride, src.ptr + i * p.src_stride, p.block_bytes);
    stream_fence();
    return;
  }
  // Unit blocks at a small GM stride: whole destination lines per masked store
  // ("Strided assignment lines (wave 13)" in docs/performance.md).
  static const UnitScatterFn scatter = unit_scatter_kernel();
  uint32_t first = 0;
  if (scatter && p.block_bytes <= 8 && (p.block_bytes & (p.block_bytes - 1)) == 0 && p.dst_stride <= 16)
    first = scatter(dst.ptr, p.dst_stride, src.ptr, p.src_stride, p.block_count, p.block_bytes);
  switch (p.block_bytes) {
    case 1: return copy_small_blocks<1>(dst.ptr, src.ptr, p, first);
    case 2: return copy_small_blocks<2>(dst.ptr, src.ptr, p, first);
    case 4: return copy_small_blocks<4>(dst.ptr, src.ptr, p, first);
    case 8: return copy_small_blocks<8>(dst.ptr, src.ptr, p, first);
    default: break;
  }
  for (uint32_t i = 0; i < p.block_count; ++i) {  // memcpy reads each line first: prefetch for write
    if (i + kPrefetchAhead < p.block_count)
      prefetch_block<1>(dst.ptr + (i + kPrefetchAhead) * p.dst_stride, p.block_bytes);
    std::memcpy(dst.ptr + i * p.dst_stride, src.ptr + i * p.src_stride, p.block_bytes);
  }
}

void copy_local_to_local(CoreContext* c, const LocalRef& dst, const LocalRef& src,
                         const CopyPlan& p, const char* api) {
  if (c->level != SimCheckLevel::kOff) check_params(c, p, api);
  if (p.block_count == 0 || p.block_bytes == 0) return;
  if (c->level != SimCheckLevel::kOff) {
    check_local_side(c, src, p, p.src_stride, p.block_bytes,
                     AccessSpec{api, Access::kRead, Pipe::V, 32, kAnyLocal});
    check_local_side(c, dst, p, p.dst_stride, p.block_bytes,
                     AccessSpec{api, Access::kWrite, Pipe::V, 32, kAnyLocal});
  }
  for (uint32_t i = 0; i < p.block_count; ++i)
    std::memmove(dst.ptr + i * p.dst_stride, src.ptr + i * p.src_stride, p.block_bytes);
}

}  // namespace npurt::sim
