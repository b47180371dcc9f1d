// aicore/mirror.h: the read side of the simulator's copy elision.
//
// A contiguous GM -> UB DataCopy whose source lies inside a read-only argument
// of the launch (KernelLaunch::readonly_arg_mask) is checked exactly like any
// other copy but leaves a pending "mirror" on the destination buffer record
// instead of doing the memcpy (data_copy.cc, copy_elision.h). The UB bytes are
// then defined to be the GM bytes, which nothing writes during the launch, so
// a mirror-aware reader may read them from GM directly: same bytes, one copy
// less. Everything else materializes the copy first (buffer_record.h).
// This changes only where bytes are read, never which bytes.
//
// read_source(t, p, count): p is the checked UB address of t's first element
// (from src_view); returns the address to read `count` elements from: the GM
// mirror when [p, p + count) lies wholly inside the mirror, else p (after
// materializing a mirror the range partly overlaps).
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "aicore/local_access.h"
#include "aicore/local_tensor.h"
#include "npurt/export.h"

namespace npurt::sim {

NPURT_PUBLIC_BEGIN
const uint8_t* mirror_read(BufferRecord* r, const uint8_t* p, uint64_t bytes);
NPURT_PUBLIC_END

template <class T>
NPURT_SIM_HOT_INLINE const T* read_source(const AscendC::LocalTensor<T>& t, const T* p, uint64_t count) {
  BufferRecord* r = t.npurt_ref_lazy().buf;
  if (__builtin_expect(r == nullptr || r->mirror_bytes == 0 || count == 0, 1)) return p;
  return reinterpret_cast<const T*>(mirror_read(r, reinterpret_cast<const uint8_t*>(p), bytes_of<T>(count)));
}

}  // namespace npurt::sim
