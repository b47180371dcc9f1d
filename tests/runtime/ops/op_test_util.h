// tests/runtime/ops/op_test_util.h: host <-> device helpers for the registry tests.
#pragma once

#include <cstdlib>
#include <cstring>
#include <vector>

#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt_test {

// Two sim devices for the cross-device checks; must happen before the runtime starts.
inline const bool kTwoSimDevices = [] { setenv("NPURT_SIM_DEVICES", "2", 0); return true; }();

inline npurt::Stream stream0() { return npurt::Stream::default_stream(npurt::Device{npurt::DeviceType::kSim, 0}); }

template <class T>
npurt::Tensor upload(const std::vector<T>& v, const npurt::Dims& shape, npurt::DType dt,
                     const npurt::Stream& s = stream0()) {
  npurt::Tensor t = npurt::Tensor::empty(shape, dt, s);
  if (!v.empty()) npurt::copy_from_host(t, v.data(), v.size() * sizeof(T), s, /*blocking=*/true);
  return t;
}

template <class T>
std::vector<T> download(const npurt::Tensor& t, const npurt::Stream& s = stream0()) {
  std::vector<T> v(static_cast<size_t>(t.nbytes() / sizeof(T)));
  if (!v.empty()) npurt::copy_to_host(v.data(), t, t.nbytes(), s, /*blocking=*/true);
  else s.synchronize();
  return v;
}

inline std::vector<float> iota_f(size_t n, float scale = 0.5f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale - 3.0f;
  return v;
}

}  // namespace npurt_test
