// aicore/global_tensor.h: AscendC::GlobalTensor<T>, a typed view of global
// memory (GM, i.e. device allocations of the launch).
//
// SetGlobalBuffer(ptr, size) fixes the view; size 0 (or omitted) means "size
// unknown" and only the enclosing device allocation bounds accesses. The
// allocation (GM region) containing ptr is looked up once at SetGlobalBuffer
// and cached in the view, so each access check is a few compares.
// operator[] offsets the view and keeps both the region and the size limit.
// GetSize() is the number of elements from the view's start to the limit
// (0 when no size was given).
// SetValue / operator() are scalar writes through the DCache (aicore/dcache.h):
// the written line must be cleaned with DataCacheCleanAndInvalid before block end.
#pragma once

#include <cstdint>
#include <cstring>

#include "aicore/core_context.h"
#include "aicore/dcache.h"
#include "aicore/fault.h"
#include "aicore/macros.h"
#include "npurt/export.h"

namespace npurt::sim {

struct GmRef {
  uint8_t* ptr = nullptr;
  uint8_t* limit = nullptr;      // end of the SetGlobalBuffer size; null: no size
  uintptr_t region_begin = 0;    // enclosing device allocation; 0/0: none found
  uintptr_t region_end = 0;
};

NPURT_PUBLIC_BEGIN
// Fills g.region_* with the launch's GM region containing g.ptr (0/0 if none).
void bind_gm_region(CoreContext* c, GmRef& g);
// Raises the GM bounds/alignment diagnostic, or (full) records a write.
void check_gm_slow(CoreContext* c, const GmRef& g, const uint8_t* p, uint64_t bytes,
                   uint32_t align, const char* api, Access a);
NPURT_PUBLIC_END

inline bool gm_access_ok(const GmRef& g, const uint8_t* p, uint64_t bytes, uint32_t align) {
  uintptr_t b = reinterpret_cast<uintptr_t>(p);
  return b >= g.region_begin && b <= g.region_end && bytes <= g.region_end - b &&
         (g.limit == nullptr || (p <= g.limit && bytes <= uint64_t(g.limit - p))) &&
         (b & (align - 1)) == 0;
}

inline void check_gm(CoreContext* c, const GmRef& g, const uint8_t* p, uint64_t bytes,
                     uint32_t align, const char* api, Access a) {
  if (c->level == SimCheckLevel::kOff) return;
  if (gm_access_ok(g, p, bytes, align) &&
      (a == Access::kRead || c->level == SimCheckLevel::kBasic))
    return;
  check_gm_slow(c, g, p, bytes, align, api, a);
}

}  // namespace npurt::sim

namespace AscendC {

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    ref_.ptr = reinterpret_cast<uint8_t*>(buffer);
    ref_.limit = bufferSize ? ref_.ptr + bufferSize * sizeof(T) : nullptr;
    npurt::sim::CoreContext* c = npurt::sim::core();
    if (npurt::sim::checks_on(c)) npurt::sim::bind_gm_region(c, ref_);
  }
  void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

  __gm__ T* GetPhyAddr() const { return reinterpret_cast<T*>(ref_.ptr); }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return GetPhyAddr() + offset; }
  uint64_t GetSize() const {
    return ref_.limit && ref_.limit > ref_.ptr ? uint64_t(ref_.limit - ref_.ptr) / sizeof(T) : 0;
  }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor r = *this;
    r.ref_.ptr += offset * sizeof(T);
    return r;
  }

  T GetValue(uint64_t index) const {
    const uint8_t* p = ref_.ptr + index * sizeof(T);
    npurt::sim::check_gm(npurt::sim::core(), ref_, p, sizeof(T), 1, "GlobalTensor::GetValue",
                         npurt::sim::Access::kRead);
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }

  void SetValue(uint64_t index, T value) const {
    uint8_t* p = ref_.ptr + index * sizeof(T);
    npurt::sim::CoreContext* c = npurt::sim::core();
    npurt::sim::check_gm(c, ref_, p, sizeof(T), 1, "GlobalTensor::SetValue",
                         npurt::sim::Access::kWrite);
    npurt::sim::note_gm_scalar_write(c, p);
    std::memcpy(p, &value, sizeof(T));
  }

  T& operator()(uint64_t index) const {
    uint8_t* p = ref_.ptr + index * sizeof(T);
    npurt::sim::CoreContext* c = npurt::sim::core();
    npurt::sim::check_gm(c, ref_, p, sizeof(T), 1, "GlobalTensor::operator()",
                         npurt::sim::Access::kWrite);
    npurt::sim::note_gm_scalar_write(c, p);  // a reference may be written: a scalar write
    return *reinterpret_cast<T*>(p);
  }

  // npurt extension: the raw view, for the simulator's data movement.
  const npurt::sim::GmRef& npurt_ref() const { return ref_; }

 private:
  npurt::sim::GmRef ref_;
};

}  // namespace AscendC
