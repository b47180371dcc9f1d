// examples/cpp_service/pipeline.h: the per-batch op pipeline of the example
// service, runnable through npurt's C++ API or its C API, with the scalar
// reference the service checks every result against.
//
// The pipeline is out = (x + bias) * scale with the built-in "add" and "mul"
// kernels (which take equal shapes: bias and scale are [rows, cols] tensors
// uploaded once per worker and reused for every batch).
// Issue 9 asks for LayerNorm + attention + matmul; those kernels are not in
// this build's registry yet, so the service runs the ops that exist; the
// structure (resolve ops once, per-thread streams, events, two-phase C API)
// is the same for any op list.
//
// Invariants:
//   - Ops are resolved once (OpHandle / names checked at start-up), never per batch.
//   - Every device tensor used on a stream other than the one it was allocated
//     on is record_stream()ed there, so the pool never reuses it too early.
//   - Results are compared element-wise and exactly (each op is one IEEE float
//     operation, identical in the reference).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/npurt.h"
#include "npurt/ops.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

struct Batch {
  uint64_t id = 0;
  int64_t rows = 0, cols = 0;
  std::vector<float> x;  // rows * cols
};

// Deterministic batch contents from its id (any thread can regenerate them).
Batch make_batch(uint64_t id, int64_t rows, int64_t cols);

// The parameters every worker shares (uploaded once per worker stream).
struct PipelineParams {
  int64_t rows = 0, cols = 0;
  std::vector<float> bias, scale;  // [rows, cols]
};
PipelineParams make_params(int64_t rows, int64_t cols);

// out = (x + bias) * scale element-wise, computed on the host.
void reference(const Batch& b, const PipelineParams& p, std::vector<float>& out);
// Number of elements that differ from the reference.
int64_t count_mismatches(const Batch& b, const PipelineParams& p, const std::vector<float>& got);

// C++ API path: device parameters + resolved op handles for one worker.
class CppPipeline {
 public:
  CppPipeline(const PipelineParams& p, const npurt::Stream& stream);
  // Enqueues the ops on `stream`; x may come from another stream (record_stream).
  npurt::Tensor run(const npurt::Tensor& x, const npurt::Stream& stream) const;

 private:
  npurt::OpHandle add_, mul_;
  npurt::Tensor bias_, scale_;  // [rows, cols]
};

// C API path (npurt/npurt.h only): one stream, two-phase op calls.
class CPipeline {
 public:
  // Throws std::runtime_error with the C API's message on failure.
  CPipeline(const PipelineParams& p, npurtStream stream);
  ~CPipeline();
  CPipeline(const CPipeline&) = delete;
  CPipeline& operator=(const CPipeline&) = delete;
  // Uploads x, runs add then mul, downloads into out (waits for the data).
  void run(const Batch& b, std::vector<float>& out);

 private:
  npurtTensor call(const char* op, npurtTensor a, npurtTensor b);
  npurtStream stream_;
  npurtTensor bias_ = nullptr, scale_ = nullptr;
};
