// examples/cpp_service/stages.h: the service's op pipeline as a table.
//
// Each stage is (op name, inputs, attrs, host reference). An input is "act"
// (the previous stage's first output; the batch for the first stage), a
// parameter name ("gamma", "beta", "w"), or "" for an absent optional input.
// The table is LayerNorm -> attention (self-attention, causal) -> matmul.
// At start-up the table is checked against the op registry: a stage whose op
// is not registered in this build is skipped with a printed reason, so the
// service runs whichever of its ops exist (layer_norm and attention are
// built-in ops added by other work; matmul is always present).
//
// Invariants:
//   - Every tensor in the pipeline is float32 and shaped [1, rows, cols]
//     (parameters: gamma/beta [cols], w [cols, cols]); every stage maps that
//     shape to itself, so any subset of the stages composes.
//   - Only the first output of a stage feeds the next stage.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reference_ops.h"

struct Stage {
  std::string op;
  std::vector<std::string> inputs;
  std::vector<StageAttr> attrs;
  HostReference reference = nullptr;
  size_t num_outputs = 1;  // filled in from the registry by active_stages()
};

// The full pipeline table (before the registry check).
const std::vector<Stage>& pipeline_table();

// The stages whose ops are registered; prints one line per skipped stage.
// Throws std::runtime_error when no stage is left.
std::vector<Stage> active_stages();

// Parameters shared by every batch (host copies; workers upload their own).
struct PipelineParams {
  int64_t rows = 0, cols = 0;
  std::map<std::string, HostTensor> tensors;  // "gamma", "beta", "w"
};
PipelineParams make_params(int64_t rows, int64_t cols);

struct Batch {
  uint64_t id = 0;
  int64_t rows = 0, cols = 0;
  std::vector<float> x;  // [1, rows, cols]
};
// Deterministic batch contents from its id (any thread can regenerate them).
Batch make_batch(uint64_t id, int64_t rows, int64_t cols);

// The pipeline on the host in float64: the expected result of a batch.
std::vector<double> reference_result(const std::vector<Stage>& stages, const PipelineParams& p,
                                     const Batch& b);

// Elements of `got` outside |got - want| <= atol + rtol * |want| (float32 kernels
// against a float64 reference; a wrong size counts every element).
int64_t count_mismatches(const std::vector<double>& want, const std::vector<float>& got);
