// sdk_python/bindings/mask_assign.cpp: x[mask] = values as the Python layer's
// _advanced.py does it (one in-place `where` for one value; else the mask
// compaction and a scatter), launched from C++ so that the call costs no
// Python layer (~30 us CPU per call before, mostly interpreter work).
// Invariant: the same launches and values as the Python path, which stays the
// reference for every case this file declines (tests/python/array_index/
// test_mask_assign.py compares them).
#include "mask_assign.h"

#include <cstdint>

#include "bindings.h"
#include "npurt/copy.h"
#include "npurt/ops.h"

namespace npurt::python {
namespace {

constexpr int64_t kSlots = 64;  // mask_count's block slots (kernels/indexing/indexing_tiling.h)

Tensor view(const Tensor& t, const Dims& shape, int64_t extra_bytes = 0) {
  return Tensor(t.storage(), t.byte_offset() + extra_bytes, shape, contiguous_strides(shape), t.dtype());
}

// Whether `where` runs for dtype on x's device: every dtype on the sim, float16 / float32 elsewhere
// (the op's sim-only marks; _advanced.py's _where_takes).
bool where_takes(const Tensor& x) {
  return x.device().type == DeviceType::kSim || x.dtype() == DType::kFloat16 || x.dtype() == DType::kFloat32;
}

}  // namespace

bool mask_assign(const Tensor& x, const Tensor& mask, const Tensor& values) {
  const Stream& s = x.stream();
  Dims rest;
  for (size_t d = mask.ndim(); d < x.ndim(); ++d) rest.push_back(x.shape()[d]);
  const bool one = values.numel() == 1 && values.ndim() <= rest.size() + 1;  // broadcasts to (count,) + rest
  if (one && where_takes(x)) {
    Dims cond = mask.shape();
    for (size_t d = mask.ndim(); d < x.ndim(); ++d) cond.push_back(1);  // broadcast over the trailing dims
    ops::call("where", {view(mask, cond), view(values, Dims{}), x}, {}, s, {x});  // elementwise, in place
    return true;
  }
  const Tensor counts = ops::call("mask_count", {mask}, {}, s)[0];
  const Tensor offsets = ops::call("cumsum", {counts}, {{"include_initial", AttrValue(true)}}, s)[0];
  int64_t count = 0;
  {
    nb::gil_scoped_release release;
    copy_to_host(&count, view(offsets, Dims{1}, kSlots * 8), sizeof(count), s, /*blocking=*/true);
  }
  Dims want{count};
  for (int64_t d : rest) want.push_back(d);
  if (!(values.shape() == want) && !one) return false;
  if (count == 0 || x.numel() == 0) return true;
  const Tensor pos = ops::call("mask_positions", {mask, offsets}, {{"count", AttrValue(count)}}, s)[0];
  Dims merged{mask.numel()};
  for (int64_t d : rest) merged.push_back(d);
  ops::call("scatter", {view(pos, Dims{count}), values},
            {{"shape", AttrValue(merged)}, {"unique", AttrValue(true)}}, s, {view(x, merged)});
  return true;
}

}  // namespace npurt::python
