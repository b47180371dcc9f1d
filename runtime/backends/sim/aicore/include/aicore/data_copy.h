// aicore/data_copy.h: DataCopy and DataCopyPad, the MTE data movement between
// GM and local memory (and local to local), ascend-facts §2.5.
//
// Every form is reduced to one CopyPlan (block count, payload bytes per block,
// start-to-start strides of both sides, padding) and executed by data_copy.cc
// with one memcpy per contiguous run. Units, as on hardware:
//   DataCopy(count)          count x sizeof(T) must be a multiple of 32 B
//                            (ErrorDataCopyCount; with truncate_datacopy or at
//                            level off it is rounded down like the NPU does);
//   DataCopyParams           blockLen and both gaps in 32-B blocks; gaps are
//                            end-of-block to start-of-next;
//   DataCopyExtParams (Pad)  blockLen in bytes; the GM-side gap in bytes, the
//                            UB-side gap in 32-B blocks; each UB block starts
//                            32-B aligned (GM->UB pads the block tail).
// Local addresses must be 32-B aligned, GM addresses sizeof(T)-aligned
// (ErrorRead4/ErrorWrite4). Pipes: GM->local MTE2, local->GM MTE3, local->local V.
// With SetAtomicAdd<T>() active, local->GM copies add into GM (atomic across
// the blocks of a launch) and are exempt from the multi-core overlap check.
// GM -> UB and UB -> GM copies pass the local side unmaterialized
// (npurt_ref_lazy): data_copy.cc handles copy elision mirrors (aicore/mirror.h).
#pragma once

#include <cstdint>

#include "aicore/core_context.h"
#include "aicore/global_tensor.h"
#include "aicore/local_tensor.h"
#include "npurt/export.h"

namespace AscendC {

struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // 32-B blocks
  uint16_t srcStride = 0;  // gap, 32-B blocks
  uint16_t dstStride = 0;  // gap, 32-B blocks
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes
  uint32_t srcStride = 0;  // gap: bytes on the GM side, 32-B blocks on the UB side
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t reserved)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(reserved) {}
};

template <class T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue{};
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

namespace npurt::sim {

using CombineFn = void (*)(void* dst, const void* src, uint64_t bytes);

struct CopyPlan {
  uint32_t block_count = 1;
  uint64_t block_bytes = 0;      // payload bytes per block
  uint64_t src_stride = 0;       // start-to-start distance between blocks (bytes)
  uint64_t dst_stride = 0;
  uint32_t elem = 1;             // sizeof(T): GM alignment, padding element size
  // GM -> local with DataCopyPad: padding around each block, then filler up to
  // dst_footprint (the 32-B aligned size of one destination block).
  uint32_t left_pad = 0;         // bytes
  uint32_t right_pad = 0;        // bytes
  uint64_t dst_footprint = 0;    // 0: block_bytes
  bool is_pad = false;
  bool pad_form = false;         // DataCopyPad (checks DataCopyPad support)
  const void* pad_value = nullptr;
  CombineFn atomic_add = nullptr;  // local -> GM: how to add T elements
};

NPURT_PUBLIC_BEGIN
// count x elem bytes not a multiple of 32: raises ErrorDataCopyCount, or
// returns the rounded-down byte count (truncate mode / level off).
uint64_t datacopy_round(CoreContext* c, const char* api, uint64_t bytes, uint32_t elem);
void copy_gm_to_local(CoreContext* c, const LocalRef& dst, const GmRef& src, const CopyPlan& p,
                      const char* api);
void copy_local_to_gm(CoreContext* c, const GmRef& dst, const LocalRef& src, const CopyPlan& p,
                      const char* api);
void copy_local_to_local(CoreContext* c, const LocalRef& dst, const LocalRef& src,
                         const CopyPlan& p, const char* api);
// The contiguous copies of `bytes` (> 0) whose checks the caller has done
// (count_copy_in / count_copy_out): elide or copy in; copy out (mirror-aware,
// streaming stores for large outputs). Not for atomic-add copies.
void copy_in_checked(CoreContext* c, const LocalRef& dst, const uint8_t* src, uint64_t bytes);
void copy_out_checked(CoreContext* c, const GmRef& dst, const LocalRef& src, uint64_t bytes);
NPURT_PUBLIC_END

// Pools a GM <-> local DataCopy may use on the local side.
constexpr uint8_t kGmLocalPools = pool_bit(Pool::kUB) | pool_bit(Pool::kL1);

template <class T>
void atomic_add_elements(void* dst, const void* src, uint64_t bytes) {
  T* d = static_cast<T*>(dst);
  const T* s = static_cast<const T*>(src);
  for (uint64_t i = 0, n = bytes / sizeof(T); i < n; ++i) d[i] = static_cast<T>(d[i] + s[i]);
}

template <class T>
CopyPlan count_plan(CoreContext* c, const char* api, uint64_t count) {
  uint64_t bytes = bytes_of<T>(count);
  if (bytes % 32 != 0) bytes = datacopy_round(c, api, bytes, sizeof(T));
  CopyPlan p;
  p.block_bytes = p.src_stride = p.dst_stride = bytes;
  p.elem = sizeof(T);
  return p;
}

template <class T>
CopyPlan block_plan(const AscendC::DataCopyParams& d) {
  CopyPlan p;
  p.block_count = d.blockCount;
  p.block_bytes = uint64_t{d.blockLen} * 32;
  p.src_stride = (uint64_t{d.blockLen} + d.srcStride) * 32;
  p.dst_stride = (uint64_t{d.blockLen} + d.dstStride) * 32;
  p.elem = sizeof(T);
  return p;
}

inline uint64_t align32(uint64_t n) { return (n + 31) / 32 * 32; }

// DataCopy(count) between GM and local memory, the form streaming kernels call
// once per tile. At level basic a copy that passes every check (a 32-B
// multiple, local side inside its live tensor, 32-B aligned and in an allowed
// pool, GM side inside its allocation and SetGlobalBuffer size, aligned) goes
// straight to the copy: the same checks copy_gm_to_local / copy_local_to_gm
// make on a one-block plan, without building and re-checking the plan. Any
// other case (a failing check, level full or off, count 0, atomic add) takes
// the general path, which raises the diagnostics.
template <class T>
NPURT_SIM_HOT_INLINE void count_copy_in(CoreContext* c, const LocalRef& dst, const GmRef& src, uint32_t count) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (__builtin_expect(c->level == SimCheckLevel::kBasic && bytes % 32 == 0 && bytes != 0 &&
                           local_access_ok(dst, 0, bytes, AccessSpec{"DataCopy", Access::kWrite, Pipe::MTE2, 32,
                                                                     kGmLocalPools}) &&
                           gm_access_ok(src, src.ptr, bytes, sizeof(T)),
                       1))
    return copy_in_checked(c, dst, src.ptr, bytes);
  copy_gm_to_local(c, dst, src, count_plan<T>(c, "DataCopy", count), "DataCopy");
}

template <class T>
NPURT_SIM_HOT_INLINE void count_copy_out(CoreContext* c, const GmRef& dst, const LocalRef& src, uint32_t count) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (__builtin_expect(c->level == SimCheckLevel::kBasic && c->atomic == AtomicMode::kNone && bytes % 32 == 0 &&
                           bytes != 0 &&
                           local_access_ok(src, 0, bytes, AccessSpec{"DataCopy", Access::kRead, Pipe::MTE3, 32,
                                                                     kUbOnly}) &&
                           gm_access_ok(dst, dst.ptr, bytes, sizeof(T)),
                       1))
    return copy_out_checked(c, dst, src, bytes);
  CopyPlan p = count_plan<T>(c, "DataCopy", count);
  if (c->atomic == AtomicMode::kAdd) p.atomic_add = &atomic_add_elements<T>;
  copy_local_to_gm(c, dst, src, p, "DataCopy");
}

}  // namespace npurt::sim

namespace AscendC {

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  npurt::sim::count_copy_in<T>(npurt::sim::core(), dst.npurt_ref_lazy(), src.npurt_ref(), count);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  npurt::sim::count_copy_out<T>(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref_lazy(), count);
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  npurt::sim::copy_local_to_local(c, dst.npurt_ref(), src.npurt_ref(),
                                  npurt::sim::count_plan<T>(c, "DataCopy", count), "DataCopy");
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params) {
  npurt::sim::copy_gm_to_local(npurt::sim::core(), dst.npurt_ref_lazy(), src.npurt_ref(),
                               npurt::sim::block_plan<T>(params), "DataCopy");
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  npurt::sim::CopyPlan p = npurt::sim::block_plan<T>(params);
  if (c->atomic == npurt::sim::AtomicMode::kAdd) p.atomic_add = &npurt::sim::atomic_add_elements<T>;
  npurt::sim::copy_local_to_gm(c, dst.npurt_ref(), src.npurt_ref_lazy(), p, "DataCopy");
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params) {
  npurt::sim::copy_local_to_local(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(),
                                  npurt::sim::block_plan<T>(params), "DataCopy");
}

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyExtParams& params, const DataCopyPadExtParams<T>& pad) {
  npurt::sim::CopyPlan p;
  p.block_count = params.blockCount;
  p.block_bytes = params.blockLen;
  p.elem = sizeof(T);
  p.left_pad = pad.leftPadding * static_cast<uint32_t>(sizeof(T));
  p.right_pad = pad.rightPadding * static_cast<uint32_t>(sizeof(T));
  p.dst_footprint = npurt::sim::align32(p.left_pad + p.block_bytes + p.right_pad);
  p.src_stride = uint64_t{params.blockLen} + params.srcStride;
  p.dst_stride = p.dst_footprint + uint64_t{params.dstStride} * 32;
  p.is_pad = pad.isPad;
  p.pad_form = true;
  p.pad_value = &pad.paddingValue;
  npurt::sim::copy_gm_to_local(npurt::sim::core(), dst.npurt_ref_lazy(), src.npurt_ref(), p,
                               "DataCopyPad");
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& params) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  npurt::sim::CopyPlan p;
  p.block_count = params.blockCount;
  p.block_bytes = params.blockLen;
  p.elem = sizeof(T);
  p.src_stride = npurt::sim::align32(params.blockLen) + uint64_t{params.srcStride} * 32;
  p.dst_stride = uint64_t{params.blockLen} + params.dstStride;
  p.pad_form = true;
  if (c->atomic == npurt::sim::AtomicMode::kAdd) p.atomic_add = &npurt::sim::atomic_add_elements<T>;
  npurt::sim::copy_local_to_gm(c, dst.npurt_ref(), src.npurt_ref_lazy(), p, "DataCopyPad");
}

// Atomic accumulation of local->GM copies (SetAtomicAdd<T>() ... SetAtomicNone()).
template <class T>
void SetAtomicAdd() {
  npurt::sim::core()->atomic = npurt::sim::AtomicMode::kAdd;
}
inline void SetAtomicNone() { npurt::sim::core()->atomic = npurt::sim::AtomicMode::kNone; }

}  // namespace AscendC
