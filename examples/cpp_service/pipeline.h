// examples/cpp_service/pipeline.h: runs the active stages (stages.h) on one
// worker's stream, through npurt's C++ API or its two-phase C API.
//
// Invariants:
//   - Ops are resolved and attributes converted once per worker, never per batch.
//   - Parameters are uploaded once per worker and reused for every batch.
//   - A device tensor used on a stream other than the one it was allocated on
//     is record_stream()ed there, so the pool never reuses it too early.
//   - C API path: every tensor and workspace it creates is destroyed (stream-
//     ordered) before run() returns, also when a call fails.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/npurt.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"
#include "stages.h"

// C++ API path: OpHandles + resolved attributes + device parameters.
class CppPipeline {
 public:
  CppPipeline(const std::vector<Stage>& stages, const PipelineParams& p, const npurt::Stream& stream);
  // Enqueues every stage on `stream`; x may come from another stream.
  npurt::Tensor run(const npurt::Tensor& x, const npurt::Stream& stream) const;

 private:
  struct Step {
    npurt::OpHandle op;
    std::vector<std::string> inputs;
    std::vector<npurt::AttrValue> attrs;  // in the op's declared order
  };
  std::vector<Step> steps_;
  std::map<std::string, npurt::Tensor> params_;
};

// C API path (npurt/npurt.h only): one stream, two-phase op calls.
class CPipeline {
 public:
  // Throws std::runtime_error with the C API's message on failure.
  CPipeline(const std::vector<Stage>& stages, const PipelineParams& p, npurtStream stream);
  ~CPipeline();
  CPipeline(const CPipeline&) = delete;
  CPipeline& operator=(const CPipeline&) = delete;
  // Uploads x, runs every stage, downloads the result into out (waits for it).
  void run(const Batch& b, std::vector<float>& out);

 private:
  struct Step {
    std::string op;
    std::vector<std::string> inputs;
    std::vector<npurtAttr> attrs;  // names point into the stage table (static)
    size_t num_outputs = 1;
  };
  npurtTensor call(const Step& s, npurtTensor act);
  std::vector<Step> steps_;
  std::map<std::string, npurtTensor> params_;
  npurtStream stream_;
};
