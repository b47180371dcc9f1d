// aicore/check.h: the checking interface that kernel-side APIs built on top of
// the core (the vector APIs in vec_*.h, later the cube) use for their operands.
//
// Everything lives in namespace npurt::sim:
//   Pipe, Access                 (aicore/core_context.h)
//   vec_operand(api, t, n, a)    checks that the first n elements of t may be
//                                read/written by a vector instruction and
//                                returns the host pointer;
//   vec_fault(api, rule)         raises a parameter diagnostic (ErrorParam),
//                                e.g. unsupported dtype or bad mask (fault.h);
//   local_operand(...)           the same for any pipe/pool/alignment.
//   vec_source_view(api, t, n)   the read check of vec_operand, leaving a
//                                pending copy elision mirror in place: the
//                                returned UB address serves the overlap checks,
//                                and the op reads through read_source(t, p, n)
//                                (aicore/mirror.h).
// Checks by level: off: none. basic: tensor from InitBuffer and not freed
// (ErrorRead1/ErrorWrite1), position in UB (ErrorBuffer2), first byte 32-B
// aligned (ErrorRead4/ErrorWrite4), [0, n) inside the tensor (ErrorRead3/
// ErrorWrite2). full: also never-written bytes read (ErrorRead2), write into
// enqueued, not yet dequeued data (ErrorWrite3), and the pipe model (ErrorSync2
// when an access on PIPE_V depends on another pipe without a flag/barrier/queue).
// Call vec_operand for reads before writes when dst may alias a source, so that
// in-place operations see the source's written state.
#pragma once

#include <cstdint>
#include <string>

#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/local_access.h"
#include "aicore/local_tensor.h"
#include "aicore/mirror.h"

namespace npurt::sim {

// Each check takes the core the caller looked up once per API call (the
// overloads without it look it up themselves): tls_core stays bound for the
// whole block, and one lookup per call instead of one per operand saves the
// GOT + %fs loads and the null test of every further operand (wave 13).
template <class T>
NPURT_SIM_HOT_INLINE T* local_operand(CoreContext* c, const AscendC::LocalTensor<T>& t, uint64_t count,
                                      const AccessSpec& spec) {
  const LocalRef& r = t.npurt_ref();  // materializes a pending mirror once; r stays settled below
  if (c->level != SimCheckLevel::kOff) check_local(c, r, 0, bytes_of<T>(count), spec);
  return reinterpret_cast<T*>(r.ptr);
}
template <class T>
NPURT_SIM_HOT_INLINE T* local_operand(const AscendC::LocalTensor<T>& t, uint64_t count, const AccessSpec& spec) {
  return local_operand(core(), t, count, spec);
}

template <class T>
NPURT_SIM_HOT_INLINE const T* vec_source_view(CoreContext* c, const char* api, const AscendC::LocalTensor<T>& t,
                                              uint64_t count) {
  const LocalRef& r = t.npurt_ref_lazy();
  if (c->level != SimCheckLevel::kOff)
    check_local(c, r, 0, bytes_of<T>(count), AccessSpec{api, Access::kRead, Pipe::V, 32, kUbOnly});
  return reinterpret_cast<const T*>(r.ptr);
}
template <class T>
NPURT_SIM_HOT_INLINE const T* vec_source_view(const char* api, const AscendC::LocalTensor<T>& t, uint64_t count) {
  return vec_source_view(core(), api, t, count);
}

template <class T>
NPURT_SIM_HOT_INLINE T* vec_operand(CoreContext* c, const char* api, const AscendC::LocalTensor<T>& t,
                                    uint64_t count, Access a) {
  return local_operand(c, t, count, AccessSpec{api, a, Pipe::V, 32, kUbOnly});
}
template <class T>
NPURT_SIM_HOT_INLINE T* vec_operand(const char* api, const AscendC::LocalTensor<T>& t, uint64_t count, Access a) {
  return vec_operand(core(), api, t, count, a);
}

}  // namespace npurt::sim
