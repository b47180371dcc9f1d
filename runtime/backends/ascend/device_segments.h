// runtime/backends/ascend/device_segments.h: raw device memory segments for the npurt pool.
//
// The MemoryPool carves segments into blocks and guarantees every block is at
// least 128-byte aligned, so it needs segments whose base is 128-byte aligned.
// AscendCL documents only a 64-byte start alignment for aclrtMalloc, and pads
// every allocation (aclrtMalloc: round up to 32 B then +32 B; aclrtMallocAlign32:
// round up to 32 B only). npurt allocates with aclrtMallocAlign32 when present
// (as torch_npu does; the pool itself already adds the 32-byte pad to block
// sizes), else aclrtMalloc, always with ACL_MEM_MALLOC_HUGE_FIRST. If a base
// comes back less than 128-byte aligned, the segment is re-allocated 128 bytes
// larger and the aligned address inside it is handed out (the original address
// is remembered for aclrtFree). So alignment() == 128 is enforced, not assumed.
//
// Invariants:
//   - allocate() returns nullptr only for out-of-memory AscendCL codes; other
//     failures throw the mapped npurt error.
//   - free() accepts exactly the pointers allocate() returned.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "backends/ascend/acl_context.h"

namespace npurt::ascend {

class DeviceSegments {
 public:
  static constexpr size_t kAlignment = 128;

  explicit DeviceSegments(std::shared_ptr<AclContext> ctx) : ctx_(std::move(ctx)) {}

  void* allocate(int device, size_t bytes);
  void free(int device, void* ptr);

  // Number of live segments that needed re-alignment (diagnostics and tests).
  size_t realigned_count() const;

 private:
  int malloc_raw(void** out, size_t bytes) const;

  std::shared_ptr<AclContext> ctx_;
  mutable std::mutex mu_;
  std::unordered_map<void*, void*> realigned_;  // handed-out address -> aclrtMalloc address
};

}  // namespace npurt::ascend
