// npurt/memory_pool.h: the caching device allocator, one per device.
//
// Design (PyTorch / torch_npu caching allocator, see shared/DESIGN.md):
//   - Request sizes are rounded to max(512, align_up(n + 32, 512)) so the pool is
//     valid on AscendCL too; every block starts 512-byte aligned within a segment
//     whose base is at least 128-byte aligned, so every block is >= 128-byte aligned.
//   - Small pool (rounded size <= 1 MiB) carves 2 MiB segments; large requests
//     <= 10 MiB carve 20 MiB segments; larger ones get their own segment rounded
//     to 2 MiB. Best fit, split (small: remainder >= 512; large: remainder > 1 MiB)
//     and coalesce with free neighbours in the same segment.
//   - Stream-ordered reuse: a block freed on stream S is reusable at once by work
//     on S, and by other streams only after the work S had queued before the free
//     has finished. record_stream(block, S2) adds S2's work (queued until the free)
//     to that condition.
//   - On exhaustion: free cached segments (empty_cache) and retry, then throw
//     OutOfMemoryError with request, allocated, reserved-but-unused, graph pools,
//     limit and a hint.
//   - Limit: NPURT_MEMORY_LIMIT (bytes, "8G", or "50%" of device memory) or
//     set_limit(); counts reserved (segment) bytes.
//   - NPURT_NO_CACHING=1: every block is its own segment, freed at once (after
//     the stream work that used it), so sanitizers see raw allocations.
//   - Graph-private pools (exec/graph): while a pool is "active for capture" on a
//     stream, allocations on that stream come from it; its segments are kept until
//     the pool is released.
//   - Thread-safe: one mutex per pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "npurt/device.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class Backend;
class Stream;
class MemoryPool;
class StreamImpl;  // internal, hidden (NPURT_HIDDEN in runtime/exec/stream_impl.h)
struct PoolBlock;  // internal

// Owning handle to one pool allocation. Destruction returns it to the pool
// (stream-ordered). Move-only.
class DataPtr {
 public:
  DataPtr() = default;
  DataPtr(void* ptr, size_t size, PoolBlock* block, MemoryPool* pool)
      : ptr_(ptr), size_(size), block_(block), pool_(pool) {}
  DataPtr(DataPtr&& o) noexcept { *this = std::move(o); }
  DataPtr& operator=(DataPtr&& o) noexcept;
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  ~DataPtr() { reset(); }

  void reset();
  void* get() const { return ptr_; }
  size_t size() const { return size_; }       // requested bytes
  PoolBlock* block() const { return block_; }
  MemoryPool* pool() const { return pool_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
  PoolBlock* block_ = nullptr;
  MemoryPool* pool_ = nullptr;
};

using GraphPoolId = uint64_t;  // 0 = none

class MemoryPool {
 public:
  MemoryPool(Backend* backend, int device_index, Device device);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // Size actually reserved for a request of n bytes.
  static size_t round_size(size_t n);

  // bytes == 0 gives an empty DataPtr. Throws OutOfMemoryError / InvalidArgument.
  DataPtr allocate(size_t bytes, const Stream& stream);
  // Marks the block as used by `stream` until the block is freed (cross-stream use).
  void record_stream(const DataPtr& p, const Stream& stream);

  void empty_cache();                    // returns all fully free cached segments
  void set_limit(uint64_t bytes);        // 0 = no limit
  uint64_t limit() const;
  void set_caching(bool enabled);        // false = NPURT_NO_CACHING behaviour
  bool caching() const;

  // PyTorch-style keys: "allocated_bytes.all.current", ".peak", ".allocated", ".freed",
  // same for "reserved_bytes", "active_bytes", "inactive_split_bytes", "requested_bytes",
  // counts "allocation.all.current", "segment.all.current", per pool "small_pool"/"large_pool",
  // "graph_pool_bytes.current", and counters "num_alloc_retries", "num_ooms",
  // "num_device_alloc", "num_device_free".
  std::vector<std::pair<std::string, int64_t>> stats() const;
  int64_t stat(const std::string& key) const;  // 0 if unknown
  void reset_peak_stats();

  // Kernel GM bounds: the live allocation containing ptr (base and requested size).
  bool find_allocation(const void* ptr, const void** base, size_t* size) const;
  // find_allocation of ptrs[0..n) under one lock (a kernel launch resolves all
  // its arguments at once); fills bases[i] / sizes[i] and returns how many
  // pointers were found before the first one that is in no allocation (n: all).
  size_t find_allocations(const void* const* ptrs, size_t n, const void** bases, size_t* sizes) const;

  // Graph-private pools (issue 7).
  GraphPoolId create_graph_pool();
  void begin_allocate_to_graph_pool(GraphPoolId pool, const Stream& stream);
  void end_allocate_to_graph_pool(GraphPoolId pool, const Stream& stream);
  void release_graph_pool(GraphPoolId pool);  // segments freed once no live block remains

  Device device() const;
  std::string describe_usage() const;  // one line for OOM messages and reprs

  void free_block(PoolBlock* block);   // used by DataPtr

  // Memory npurt does not own (Storage::wrap_external, DLPack imports) that
  // kernels may access: find_allocation reports it too.
  void register_external(const void* ptr, size_t bytes);
  void unregister_external(const void* ptr);
  // Internal: `stream` is being destroyed after its work drained; drop every
  // reference the pool holds to it.
  void forget_stream(StreamImpl* stream);

  struct Impl;  // internal, hidden (NPURT_HIDDEN in runtime/memory/pool_impl.h)

 private:
  std::unique_ptr<Impl> impl_;
};

// Parses NPURT_MEMORY_LIMIT-style values ("1073741824", "8G", "512M", "50%").
uint64_t parse_memory_limit(const std::string& text, uint64_t device_total);

}  // namespace npurt
NPURT_PUBLIC_END
