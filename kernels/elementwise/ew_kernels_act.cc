// kernels/elementwise/ew_kernels_act.cc: device code: the kernel entries of the
// activation ops (ew_act_functors.h), each one or two instances of EwKernel.
// gelu and gelu_backward pick the erf or tanh functor from the tiling's
// variant; swiglu reads the two halves of x as two inputs (tiling offsets);
// swiglu_backward runs two passes writing the two halves of dx.
#include "elementwise/ew_act_functors.h"
#include "elementwise/ew_act_tiling.h"
#include "elementwise/ew_kernel.h"
#include "npurt/backend.h"

using npurt::kernels::EwTiling;
namespace ew = npurt::kernels::ew;

NPURT_EW_ENTRY1(npurt_ew_silu_kernel, ew::SiluF)
NPURT_EW_ENTRY2(npurt_ew_silu_backward_kernel, ew::SiluGradF)

extern "C" __global__ __aicore__ void npurt_ew_gelu_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  (void)ws;
  GET_TILING_DATA_WITH_STRUCT(EwTiling, t, tiling);
  GM_ADDR in[1] = {x};
  if (t.variant == ew::kGeluTanh) ew::RunEwWith<ew::GeluTanhF>(in, y, t);
  else ew::RunEwWith<ew::GeluErfF>(in, y, t);
}

extern "C" __global__ __aicore__ void npurt_ew_gelu_backward_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR ws,
                                                                    GM_ADDR tiling) {
  (void)ws;
  GET_TILING_DATA_WITH_STRUCT(EwTiling, t, tiling);
  GM_ADDR in[2] = {dy, x};
  if (t.variant == ew::kGeluTanh) ew::RunEwWith<ew::GeluTanhGradF>(in, dx, t);
  else ew::RunEwWith<ew::GeluErfGradF>(in, dx, t);
}

extern "C" __global__ __aicore__ void npurt_ew_swiglu_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  (void)ws;
  GM_ADDR in[2] = {x, x};  // a = x[..., :h], b = x[..., h:] (tiling offset)
  ew::RunEw<ew::SwigluF>(in, y, tiling);
}

extern "C" __global__ __aicore__ void npurt_ew_swiglu_backward_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR ws,
                                                                      GM_ADDR tiling) {
  (void)ws;
  GET_TILING_DATA_WITH_STRUCT(ew::SwigluBackwardTiling, t, tiling);
  GM_ADDR in_a[3] = {dy, x, x};
  ew::RunEwWith<ew::SwigluGradAF>(in_a, dx, t.da);
  // Pass db's TPipe reuses the UB that pass da's vector ops and copies last touched.
  AscendC::PipeBarrier<PIPE_ALL>();
  GM_ADDR in_b[2] = {dy, x};
  ew::RunEwWith<ew::SwigluGradBF>(in_b, dx, t.db);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunks (the device build keeps only the __global__ entries)
namespace npurt::kernels::ew {
// External linkage: ew_act_ops.cc registers them.
extern const SimKernelEntry kGeluEntry, kGeluBackwardEntry, kSiluEntry, kSiluBackwardEntry, kSwigluEntry,
    kSwigluBackwardEntry;
const SimKernelEntry kGeluEntry = NPURT_SIM_ENTRY(npurt_ew_gelu_kernel);
const SimKernelEntry kGeluBackwardEntry = NPURT_SIM_ENTRY(npurt_ew_gelu_backward_kernel);
const SimKernelEntry kSiluEntry = NPURT_SIM_ENTRY(npurt_ew_silu_kernel);
const SimKernelEntry kSiluBackwardEntry = NPURT_SIM_ENTRY(npurt_ew_silu_backward_kernel);
const SimKernelEntry kSwigluEntry = NPURT_SIM_ENTRY(npurt_ew_swiglu_kernel);
const SimKernelEntry kSwigluBackwardEntry = NPURT_SIM_ENTRY(npurt_ew_swiglu_backward_kernel);
}  // namespace npurt::kernels::ew
#endif  // NPURT_ASCEND_DEVICE_BUILD
