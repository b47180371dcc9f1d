// runtime/backends/ascend/device_segments.cc
#include "backends/ascend/device_segments.h"

#include <cstdint>
#include <string>

namespace npurt::ascend {

namespace {

bool is_out_of_memory(int rc) {
  return status_code_for_acl_error(rc) == StatusCode::kOutOfMemory;
}

}  // namespace

int DeviceSegments::malloc_raw(void** out, size_t bytes) const {
  const AclApi& api = ctx_->api();
  const auto policy = static_cast<aclrtMemMallocPolicy>(acl::kMemMallocHugeFirst);
  return api.aclrtMallocAlign32 ? api.aclrtMallocAlign32(out, bytes, policy)
                                : api.aclrtMalloc(out, bytes, policy);
}

void* DeviceSegments::allocate(int device, size_t bytes) {
  if (bytes == 0) throw_invalid_argument("ascend allocate_segment", "bytes", "must be > 0");
  ctx_->bind_device(device);
  const char* fn = ctx_->api().aclrtMallocAlign32 ? "aclrtMallocAlign32" : "aclrtMalloc";
  void* p = nullptr;
  int rc = malloc_raw(&p, bytes);
  if (rc == acl::kSuccess && p != nullptr && reinterpret_cast<uintptr_t>(p) % kAlignment == 0) return p;
  if (rc != acl::kSuccess) {
    Status s = ctx_->status(std::string(fn) + "(" + std::to_string(bytes) + " bytes)", rc);
    if (is_out_of_memory(rc)) return nullptr;
    s.throw_if_error();
  }
  // Base only 64-byte aligned: retry with room to align up inside the segment.
  if (p != nullptr) ctx_->api().aclrtFree(p);
  void* raw = nullptr;
  rc = malloc_raw(&raw, bytes + kAlignment);
  if (rc != acl::kSuccess) {
    Status s = ctx_->status(std::string(fn) + "(" + std::to_string(bytes + kAlignment) + " bytes)", rc);
    if (is_out_of_memory(rc)) return nullptr;
    s.throw_if_error();
  }
  auto addr = reinterpret_cast<uintptr_t>(raw);
  void* aligned = reinterpret_cast<void*>((addr + kAlignment - 1) & ~uintptr_t(kAlignment - 1));
  std::lock_guard<std::mutex> lock(mu_);
  realigned_[aligned] = raw;
  return aligned;
}

void DeviceSegments::free(int device, void* ptr) {
  if (ptr == nullptr) return;
  void* raw = ptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = realigned_.find(ptr);
    if (it != realigned_.end()) {
      raw = it->second;
      realigned_.erase(it);
    }
  }
  ctx_->bind_device(device);
  ctx_->check("aclrtFree", ctx_->api().aclrtFree(raw));
}

size_t DeviceSegments::realigned_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return realigned_.size();
}

}  // namespace npurt::ascend
