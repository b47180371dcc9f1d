// kernels/elementwise/ew_kernels_astype.cc: device code of `astype`: EwKernel
// with the identity functor and an output type chosen by the tiling's out_dtype.
#include "elementwise/ew_complex_types.h"
#include "elementwise/ew_functors.h"
#include "elementwise/ew_kernel.h"
#include "elementwise/ew_op_info.h"

namespace npurt::kernels::ew {
struct IdentityF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kAll | kComplex;
  template <class W> static W F(W a) { return a; }
};
}  // namespace npurt::kernels::ew

extern "C" __global__ __aicore__ void npurt_ew_astype_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  (void)ws;
  using namespace npurt::kernels::ew;
  GET_TILING_DATA_WITH_STRUCT(npurt::kernels::EwTiling, t, tiling);
  GM_ADDR in[1] = {x};
  visit_dtype<kAll | kComplex>(t.dtype, [&](auto from) {
    visit_dtype<kAll | kComplex>(t.out_dtype, [&](auto to) {
      EwKernel<IdentityF, decltype(from)::value, typename Elem<decltype(to)::value>::T> k;
      k.Init(in, y, t);
      k.Process();
    });
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::ew {
extern const SimKernelEntry kAstypeEntry;  // external linkage: ew_ops.cc registers it
const SimKernelEntry kAstypeEntry = NPURT_SIM_ENTRY(npurt_ew_astype_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
