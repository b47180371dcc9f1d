// examples/cpp_service/reference_ops.h: host (float64) references for the ops
// of the service's pipeline - layer_norm, attention, matmul - written as plain
// loops so they share no code with the kernels they check.
//
// Semantics follow the ops' documented contracts:
//   layer_norm(x[..., D], gamma[D]?, beta[D]?; eps) -> y (mean, rstd not returned)
//   attention(q[..., S, D], k[..., T, D], v[..., T, Dv]; scale (0 = 1/sqrt(D)),
//             causal: key j > query i masked) -> out[..., S, Dv] (lse not returned)
//   matmul(a[..., M, K], b[K, N]; trans_b) -> y[..., M, N]
// Invariants: inputs are row-major and their shapes are checked; a mismatch
// throws std::invalid_argument naming the op and the argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<double> data;  // row-major, product(shape) values
  int64_t dim(int i) const { return shape.at(static_cast<size_t>(i < 0 ? i + int(shape.size()) : i)); }
  int64_t numel() const;
};

// An attribute value of a pipeline stage (the ops here take floats and bools).
struct StageAttr {
  std::string name;
  enum class Type { kFloat, kBool } type = Type::kFloat;
  double value = 0.0;  // kBool: 0 or 1
};

// Value of `name` in attrs, or `fallback` when the stage does not set it.
double attr_or(const std::vector<StageAttr>& attrs, const std::string& name, double fallback);

// inputs: in the op's declared order; nullptr = absent optional input.
using HostReference = HostTensor (*)(const std::vector<const HostTensor*>& inputs,
                                     const std::vector<StageAttr>& attrs);

HostTensor reference_layer_norm(const std::vector<const HostTensor*>& inputs,
                                const std::vector<StageAttr>& attrs);
HostTensor reference_attention(const std::vector<const HostTensor*>& inputs,
                               const std::vector<StageAttr>& attrs);
HostTensor reference_matmul(const std::vector<const HostTensor*>& inputs,
                            const std::vector<StageAttr>& attrs);
