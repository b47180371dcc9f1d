// examples/cpp_service/stages.cc: see stages.h.
#include "stages.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "npurt/op_registry.h"

const std::vector<Stage>& pipeline_table() {
  using T = StageAttr::Type;
  static const std::vector<Stage> table = {
      {"layer_norm", {"act", "gamma", "beta"}, {{"eps", T::kFloat, 1e-5}}, reference_layer_norm},
      {"attention", {"act", "act", "act"}, {{"causal", T::kBool, 1.0}}, reference_attention},
      {"matmul", {"act", "w"}, {}, reference_matmul},
  };
  return table;
}

std::vector<Stage> active_stages() {
  std::vector<Stage> out;
  for (const Stage& s : pipeline_table()) {
    const npurt::OpDef* def = npurt::OpRegistry::instance().find(s.op);
    if (!def) {
      std::printf("stage '%s' skipped: op '%s' is not registered in this build\n", s.op.c_str(), s.op.c_str());
      continue;
    }
    Stage active = s;
    active.num_outputs = def->outputs.size();
    out.push_back(std::move(active));
  }
  if (out.empty()) throw std::runtime_error("none of the pipeline's ops is registered");
  return out;
}

namespace {

// A deterministic value in [-1, 1) from a 32-bit LCG state.
double next_value(uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return static_cast<double>(static_cast<int32_t>(state >> 8) - (1 << 23)) / (1 << 23);
}

HostTensor random_tensor(std::vector<int64_t> shape, uint32_t seed, double scale, double offset) {
  HostTensor t{std::move(shape), {}};
  t.data.resize(static_cast<size_t>(t.numel()));
  for (double& v : t.data) v = offset + scale * static_cast<double>(static_cast<float>(next_value(seed)));
  return t;
}

}  // namespace

PipelineParams make_params(int64_t rows, int64_t cols) {
  PipelineParams p;
  p.rows = rows;
  p.cols = cols;
  // float-representable values so device and host start from the same numbers
  p.tensors["gamma"] = random_tensor({cols}, 11u, 0.25, 1.0);
  p.tensors["beta"] = random_tensor({cols}, 12u, 0.5, 0.0);
  p.tensors["w"] = random_tensor({cols, cols}, 13u, 1.0 / std::sqrt(static_cast<double>(cols)), 0.0);
  for (auto& kv : p.tensors)
    for (double& v : kv.second.data) v = static_cast<double>(static_cast<float>(v));
  return p;
}

Batch make_batch(uint64_t id, int64_t rows, int64_t cols) {
  Batch b;
  b.id = id;
  b.rows = rows;
  b.cols = cols;
  b.x.resize(static_cast<size_t>(rows * cols));
  uint32_t state = static_cast<uint32_t>(id * 2654435761u + 12345u);
  for (float& v : b.x) v = static_cast<float>(2.0 * next_value(state));
  return b;
}

std::vector<double> reference_result(const std::vector<Stage>& stages, const PipelineParams& p,
                                     const Batch& b) {
  HostTensor act{{1, b.rows, b.cols}, std::vector<double>(b.x.begin(), b.x.end())};
  for (const Stage& s : stages) {
    std::vector<const HostTensor*> inputs;
    for (const std::string& name : s.inputs)
      inputs.push_back(name.empty() ? nullptr : name == "act" ? &act : &p.tensors.at(name));
    act = s.reference(inputs, s.attrs);
  }
  return act.data;
}

int64_t count_mismatches(const std::vector<double>& want, const std::vector<float>& got) {
  if (got.size() != want.size()) return static_cast<int64_t>(want.size());
  constexpr double kAtol = 1e-3, kRtol = 1e-3;
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    bad += !(std::fabs(static_cast<double>(got[i]) - want[i]) <= kAtol + kRtol * std::fabs(want[i]));
  return bad;
}
