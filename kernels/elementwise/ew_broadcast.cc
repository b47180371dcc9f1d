// kernels/elementwise/ew_broadcast.cc: broadcasting and dim collapsing (host).
#include "elementwise/ew_broadcast.h"

#include <algorithm>

namespace npurt::kernels::ew {

std::string dims_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

bool broadcast_shapes(const Dims& a, const Dims& b, Dims& out, std::string& reason) {
  const size_t r = std::max(a.size(), b.size());
  out.resize(r);
  for (size_t k = 0; k < r; ++k) {  // k counts from the last dim
    int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) {
      reason = "shapes " + dims_str(a) + " and " + dims_str(b) + " cannot be broadcast (dimension -" +
               std::to_string(k + 1) + ": " + std::to_string(da) + " vs " + std::to_string(db) + ")";
      return false;
    }
    out[r - 1 - k] = da == 1 ? db : da;
  }
  return true;
}

bool collapse_layout(const Dims& out_shape, const TensorSpec* inputs, int num_inputs, EwLayout& layout) {
  const int r = static_cast<int>(out_shape.size());
  int64_t shape[64];
  int64_t strides[kEwMaxInputs][64];
  int n = 0;
  for (int d = 0; d < r && d < 64; ++d) {
    if (out_shape[d] == 1) continue;  // size-1 dims never move the index
    shape[n] = out_shape[d];
    for (int i = 0; i < num_inputs; ++i) {
      const TensorSpec& in = inputs[i];
      int id = d - (r - static_cast<int>(in.shape.size()));
      strides[i][n] = (id < 0 || in.shape[id] == 1) ? 0 : in.strides[id];
    }
    if (n > 0) {  // merge with the previous dim when every operand allows it
      bool merge = true;
      for (int i = 0; i < num_inputs; ++i) merge = merge && strides[i][n - 1] == strides[i][n] * shape[n];
      if (merge) {
        shape[n - 1] *= shape[n];
        for (int i = 0; i < num_inputs; ++i) strides[i][n - 1] = strides[i][n];
        continue;
      }
    }
    ++n;
  }
  if (n > kEwMaxDims) return false;
  layout = EwLayout();
  layout.ndim = std::max(n, 1);
  for (int d = 0; d < n; ++d) {
    layout.shape[d] = shape[d];
    for (int i = 0; i < num_inputs; ++i) layout.strides[i][d] = strides[i][d];
  }
  return true;
}

}  // namespace npurt::kernels::ew
