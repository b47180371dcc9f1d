// runtime/ops/linalg_ops.cc: npurt::ops::lu_factor / lu_solve / cholesky
// (npurt/linalg_ops.h): one launch each of the kernels of kernels/linalg/,
// resolved once and kept (the registry lookup is not repeated per call).
#include "npurt/linalg_ops.h"

#include <atomic>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/op_def.h"

namespace npurt {
namespace ops {
namespace {

enum Kernel { kFactor, kSolve, kCholesky, kKernels };
constexpr const char* kName[kKernels] = {"lu_factor", "lu_solve", "cholesky"};
std::atomic<RegisteredOp*> g_ops[kKernels];

OpHandle kernel(Kernel k) {
  RegisteredOp* h = g_ops[k].load(std::memory_order_acquire);
  if (h == nullptr) {
    h = OpHandle::find(kName[k]).impl();
    g_ops[k].store(h, std::memory_order_release);
  }
  return OpHandle(h);
}

}  // namespace

LuFactors lu_factor(const Tensor& a, const Stream& stream) {
  std::vector<Tensor> r = dispatch(kernel(kFactor), Span<const Tensor>(&a, 1), {}, stream);
  return LuFactors{r[0], r[1], r[2], r[3]};
}

Tensor lu_solve(const LuFactors& f, const Tensor& b, const Stream& stream) {
  const Tensor in[3] = {f.lu, f.pivots, b};
  return dispatch(kernel(kSolve), Span<const Tensor>(in, 3), {}, stream)[0];
}

CholeskyFactor cholesky(const Tensor& a, bool upper, const Stream& stream) {
  const AttrValue attrs[1] = {AttrValue(upper)};
  std::vector<Tensor> r = dispatch(kernel(kCholesky), Span<const Tensor>(&a, 1), Span<const AttrValue>(attrs, 1), stream);
  return CholeskyFactor{r[0], r[1]};
}

}  // namespace ops
}  // namespace npurt
