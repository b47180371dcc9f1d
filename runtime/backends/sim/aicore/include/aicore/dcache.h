// aicore/dcache.h: the core's data cache (DCache) as GM scalar writes see it,
// and AscendC::DataCacheCleanAndInvalid.
//
// On the NPU, GlobalTensor::SetValue / operator() write GM through the core's
// DCache (64 B lines, ascend-facts §2.4): the bytes reach GM (other cores, the
// host) only when the line is cleaned by DataCacheCleanAndInvalid, and a line
// written back carries all 64 B, so scalar writes of two cores to one line
// overwrite each other. The host has no such cache; the sim records instead
// (levels basic and full, on unless NPURT_SIM_DCACHE_CHECK=0, dcache_check.cc):
//  - every 64 B GM line a block writes by a scalar write,
//  - which of them are still dirty (not cleaned since the last scalar write).
// At block end a dirty line is an ErrorDCacheClean fault; after the launch a
// line scalar-written by two blocks is an ErrorDCacheShare fault (even when
// both cleaned it). DataCopy/DataCopyPad writes bypass the DCache and are not
// recorded. Invariant: CoreContext::dirty_line is 0 or the last line recorded
// dirty and not cleaned since, so repeated writes to one line stay inline.
#pragma once

#include <cstdint>

#include "aicore/core_context.h"
#include "npurt/export.h"

namespace npurt::sim {

constexpr uintptr_t kDCacheLineBytes = 64;

NPURT_PUBLIC_BEGIN
// Records a scalar write to the line holding p (out of line: first write of a line).
void record_gm_scalar_write(CoreContext* c, uintptr_t line);
// Cleans one line (the one holding p), or every line when entire is true.
void clean_dcache(CoreContext* c, const uint8_t* p, bool entire);
NPURT_PUBLIC_END

inline void note_gm_scalar_write(CoreContext* c, const uint8_t* p) {
  if (c->level == SimCheckLevel::kOff) return;
  const uintptr_t line = reinterpret_cast<uintptr_t>(p) & ~(kDCacheLineBytes - 1);
  if (line != c->dirty_line) record_gm_scalar_write(c, line);
}

}  // namespace npurt::sim

namespace AscendC {

template <class T>
class GlobalTensor;  // aicore/global_tensor.h (which includes this header)

enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// Writes back and invalidates the DCache line holding dst's first element
// (SINGLE_CACHE_LINE) or the whole DCache (ENTIRE_DATA_CACHE). GM bytes are
// already current on the host; only the sim's bookkeeping changes.
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  if (c->level == npurt::SimCheckLevel::kOff) return;
  npurt::sim::clean_dcache(c, dst.npurt_ref().ptr, entireType == CacheLine::ENTIRE_DATA_CACHE);
}

template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  DataCacheCleanAndInvalid<T, entireType, DcciDst::CACHELINE_OUT>(dst);
}

}  // namespace AscendC
