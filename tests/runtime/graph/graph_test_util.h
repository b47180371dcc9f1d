// tests/runtime/graph/graph_test_util.h: helpers shared by the graph tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/graph.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace graph_test {

inline npurt::Device dev0() { return npurt::Device{npurt::DeviceType::kSim, 0}; }

inline npurt::Tensor upload(const std::vector<float>& v, const npurt::Stream& s) {
  npurt::Tensor t = npurt::Tensor::empty({static_cast<int64_t>(v.size())}, npurt::DType::kFloat32, s);
  if (!v.empty()) npurt::copy_from_host(t, v.data(), v.size() * sizeof(float), s, /*blocking=*/true);
  return t;
}

inline std::vector<float> download(const npurt::Tensor& t, const npurt::Stream& s) {
  std::vector<float> v(t.nbytes() / sizeof(float));
  if (!v.empty()) npurt::copy_to_host(v.data(), t, t.nbytes(), s, /*blocking=*/true);
  return v;
}

inline void set_values(const npurt::Tensor& t, const std::vector<float>& v, const npurt::Stream& s) {
  npurt::copy_from_host(t, v.data(), v.size() * sizeof(float), s, /*blocking=*/false);
}

inline int64_t graph_pool_bytes() { return npurt::device_context(dev0()).pool().stat("graph_pool_bytes.current"); }

// Runs f, expects a CaptureError whose message contains `code`.
template <class F>
void expect_capture_error(F&& f, const std::string& code) {
  try {
    f();
    ADD_FAILURE() << "expected CaptureError " << code;
  } catch (const npurt::CaptureError& e) {
    EXPECT_NE(std::string(e.what()).find(code), std::string::npos) << e.what();
  }
}

}  // namespace graph_test
