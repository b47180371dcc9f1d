// kernels/elementwise/ew_op_info.h: what the device side of one elementwise op
// tells the host registration (ew_ops.cc): its sim entry and the functor's
// traits, so the OpDef's dtypes and sim-only dtypes come from the functor.
// NPURT_EW_DEFINE is expanded where ew_complex_functors.h (EwFunctor) is included.
#pragma once

#include <cstdint>

#include "npurt/backend.h"

namespace npurt::kernels::ew {

struct EwOpInfo {
  SimKernelEntry entry;
  int arity;
  uint32_t dtypes;       // DType bit mask the functor takes
  uint32_t vec_dtypes;   // subset computed by the vector unit (the rest is sim-only)
  bool bool_out;
  bool cond_first;
  bool real_out = false;  // complex inputs give the real part's dtype (abs, real, imag)
  uint32_t scratch = 0;   // the functor's float UB scratch tiles (kScratch; tiles then a multiple of 64)
  bool widen = false;     // 16-bit floats run the float32 vector form through float UB tiles (kWidenVec)
};

}  // namespace npurt::kernels::ew

// Declares / defines npurt::kernels::ew::kInfo_<name>.
#define NPURT_EW_DECLARE_INFO(name, Op, arity, doc) \
  namespace npurt::kernels::ew { extern const EwOpInfo kInfo_##name; }
#ifdef NPURT_ASCEND_DEVICE_BUILD  // the __global__ entry only: no sim thunk, no host info
#define NPURT_EW_DEFINE(name, Op, arity, doc) NPURT_EW_ENTRY##arity(npurt_ew_##name##_kernel, npurt::kernels::ew::Op)
#else
#define NPURT_EW_DEFINE(name, Op, arity, doc)                                                     \
  NPURT_EW_ENTRY##arity(npurt_ew_##name##_kernel, npurt::kernels::ew::EwFunctor<npurt::kernels::ew::Op>) \
  namespace npurt::kernels::ew {                                                                  \
  extern const EwOpInfo kInfo_##name; /* external linkage: ew_ops.cc reads it */                  \
  const EwOpInfo kInfo_##name = {NPURT_SIM_ENTRY(npurt_ew_##name##_kernel), arity,                \
                                 EwFunctor<Op>::kDTypes,                                           \
                                 EwVecDTypes<EwFunctor<Op>>() | EwFunctor<Op>::kCmpVec |           \
                                     EwFunctor<Op>::kWhereVec,                                     \
                                 EwFunctor<Op>::kBoolOut, EwFunctor<Op>::kCondFirst,              \
                                 HasRealOut<EwFunctor<Op>>::value, EwFunctor<Op>::kScratch,       \
                                 EwFunctor<Op>::kWidenVec};                                       \
  }
#endif  // NPURT_ASCEND_DEVICE_BUILD
