// examples/cpp_service/pipeline.cc: see pipeline.h.
#include "pipeline.h"

#include <stdexcept>

#include "npurt/copy.h"

Batch make_batch(uint64_t id, int64_t rows, int64_t cols) {
  Batch b;
  b.id = id;
  b.rows = rows;
  b.cols = cols;
  b.x.resize(static_cast<size_t>(rows * cols));
  uint32_t state = static_cast<uint32_t>(id * 2654435761u + 12345u);
  for (float& v : b.x) {  // small integers and halves: exact in float
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(static_cast<int32_t>(state >> 20) - 2048) * 0.5f;
  }
  return b;
}

PipelineParams make_params(int64_t rows, int64_t cols) {
  PipelineParams p;
  p.rows = rows;
  p.cols = cols;
  for (int64_t i = 0; i < rows * cols; ++i) {
    p.bias.push_back(static_cast<float>(i % 7) - 3.0f);
    p.scale.push_back(0.25f * static_cast<float>(1 + i % 5));
  }
  return p;
}

void reference(const Batch& b, const PipelineParams& p, std::vector<float>& out) {
  out.resize(b.x.size());
  for (size_t i = 0; i < b.x.size(); ++i) {
    const float h = b.x[i] + p.bias[i];
    out[i] = h * p.scale[i];
  }
}

int64_t count_mismatches(const Batch& b, const PipelineParams& p, const std::vector<float>& got) {
  std::vector<float> want;
  reference(b, p, want);
  if (got.size() != want.size()) return static_cast<int64_t>(want.size());
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += got[i] != want[i];
  return bad;
}

// ---- C++ API ------------------------------------------------------------------

namespace {

npurt::Tensor upload(const std::vector<float>& v, int64_t rows, int64_t cols,
                     const npurt::Stream& s) {
  npurt::Tensor t = npurt::Tensor::empty({rows, cols}, npurt::DType::kFloat32, s);
  npurt::copy_from_host(t, v.data(), v.size() * sizeof(float), s, /*blocking=*/true);
  return t;
}

}  // namespace

CppPipeline::CppPipeline(const PipelineParams& p, const npurt::Stream& stream)
    : add_(npurt::OpHandle::find("add")), mul_(npurt::OpHandle::find("mul")) {
  bias_ = upload(p.bias, p.rows, p.cols, stream);
  scale_ = upload(p.scale, p.rows, p.cols, stream);
}

npurt::Tensor CppPipeline::run(const npurt::Tensor& x, const npurt::Stream& stream) const {
  if (x.stream() != stream) x.storage()->record_stream(stream);  // used here too
  npurt::Tensor h = npurt::dispatch(add_, {x, bias_}, {}, stream).at(0);
  return npurt::dispatch(mul_, {h, scale_}, {}, stream).at(0);
}

// ---- C API ----------------------------------------------------------------------

namespace {

void c_check(npurtStatus st, const char* what) {
  if (st != NPURT_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + npurtStatusName(st) + ": " +
                             npurtGetLastErrorMessage());
  }
}

npurtTensor c_tensor(npurtStream s, int64_t rows, int64_t cols) {
  const int64_t shape[2] = {rows, cols};
  npurtTensorDesc d{};
  d.struct_size = sizeof d;
  d.dtype = NPURT_FLOAT32;
  d.ndim = 2;
  d.shape = shape;
  npurtTensor t = nullptr;
  c_check(npurtTensorCreate(&d, s, &t), "npurtTensorCreate");
  return t;
}

}  // namespace

CPipeline::CPipeline(const PipelineParams& p, npurtStream stream) : stream_(stream) {
  const uint64_t bytes = p.bias.size() * sizeof(float);
  bias_ = c_tensor(stream_, p.rows, p.cols);
  scale_ = c_tensor(stream_, p.rows, p.cols);
  c_check(npurtTensorCopyFromHost(bias_, p.bias.data(), bytes, stream_), "upload bias");
  c_check(npurtTensorCopyFromHost(scale_, p.scale.data(), bytes, stream_), "upload scale");
}

CPipeline::~CPipeline() {
  npurtTensorDestroy(bias_);
  npurtTensorDestroy(scale_);
}

npurtTensor CPipeline::call(const char* op, npurtTensor a, npurtTensor b) {
  npurtTensor inputs[2] = {a, b};
  npurtDataType dtype;
  int32_t ndim = 0;
  int64_t shape[8];
  c_check(npurtOpInferOutput(op, inputs, 2, nullptr, 0, 0, &dtype, &ndim, shape, 8), op);
  npurtTensor out = c_tensor(stream_, shape[0], shape[1]);
  uint64_t ws = 0;
  npurtOpExecutor ex = nullptr;
  c_check(npurtOpGetWorkspaceSize(op, inputs, 2, nullptr, 0, &out, 1, &ws, &ex), op);
  if (ws != 0) {  // elementwise ops need none; a service would pool this buffer
    npurtOpExecutorDestroy(ex);
    npurtTensorDestroy(out);
    throw std::runtime_error(std::string(op) + ": unexpected workspace");
  }
  c_check(npurtOpLaunch(nullptr, 0, ex, stream_), op);
  return out;
}

void CPipeline::run(const Batch& b, std::vector<float>& out) {
  npurtTensor x = c_tensor(stream_, b.rows, b.cols);
  const uint64_t bytes = b.x.size() * sizeof(float);
  c_check(npurtTensorCopyFromHost(x, b.x.data(), bytes, stream_), "upload x");
  npurtTensor h = call("add", x, bias_);
  npurtTensor y = call("mul", h, scale_);
  out.resize(b.x.size());
  c_check(npurtTensorCopyToHost(y, out.data(), bytes, stream_), "download y");
  npurtTensorDestroy(x);  // stream-ordered frees: safe with queued work
  npurtTensorDestroy(h);
  npurtTensorDestroy(y);
}
