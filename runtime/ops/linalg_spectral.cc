// runtime/ops/linalg_spectral.cc: npurt::ops::qr / eigh / svd
// (npurt/linalg_spectral.h) over the linalg_qr / linalg_eigh / linalg_svd ops
// (kernels/linalg/), with the Jacobi ops' convergence report checked here.
#include "npurt/linalg_spectral.h"

#include <algorithm>
#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/ops.h"
#include "npurt/status.h"

namespace npurt {
namespace ops {
namespace {

// info (int32 per matrix): QL steps / sweeps used, -1 when the cap was reached.
void check_converged(const char* where, const Tensor& info, const Stream& stream) {
  std::vector<int32_t> v(static_cast<size_t>(info.numel()));
  if (v.empty()) return;
  const Stream s = stream.valid() ? stream : Stream::current(info.device());
  copy_to_host(v.data(), info, v.size() * sizeof(int32_t), s, /*blocking=*/true);
  if (std::any_of(v.begin(), v.end(), [](int32_t i) { return i < 0; }))
    throw InvalidArgument(std::string(where) + ": argument 'x': the iteration (QL / Jacobi) did not converge "
                          "within its cap for at least one matrix of the stack");
}

}  // namespace

QR qr(const Tensor& x, bool complete, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_qr", {x}, {{"complete", AttrValue(complete)}}, stream);
  return QR{r[0], r[1]};
}

Eigh eigh(const Tensor& x, bool vectors, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_eigh", {x}, {{"vectors", AttrValue(vectors)}}, stream);
  check_converged("npurt::ops::eigh", r[2], stream);
  return Eigh{r[0], r[1]};
}

SVD svd(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_svd", {x},
                               {{"vectors", AttrValue(vectors)}, {"full_matrices", AttrValue(full_matrices)}}, stream);
  check_converged("npurt::ops::svd", r[3], stream);
  return SVD{r[0], r[1], r[2]};
}

}  // namespace ops
}  // namespace npurt
