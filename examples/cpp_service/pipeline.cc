// examples/cpp_service/pipeline.cc: see pipeline.h.
#include "pipeline.h"

#include <stdexcept>

#include "npurt/copy.h"
#include "npurt/ops.h"

namespace {

std::vector<float> to_float(const HostTensor& t) { return std::vector<float>(t.data.begin(), t.data.end()); }

npurt::Tensor upload(const HostTensor& t, const npurt::Stream& s) {
  const std::vector<float> v = to_float(t);
  npurt::Tensor d = npurt::Tensor::empty(npurt::Dims(t.shape.begin(), t.shape.end()), npurt::DType::kFloat32, s);
  npurt::copy_from_host(d, v.data(), v.size() * sizeof(float), s, /*blocking=*/true);
  return d;
}

}  // namespace

// ---- C++ API ------------------------------------------------------------------

CppPipeline::CppPipeline(const std::vector<Stage>& stages, const PipelineParams& p,
                         const npurt::Stream& stream) {
  for (const auto& kv : p.tensors) params_[kv.first] = upload(kv.second, stream);
  for (const Stage& s : stages) {
    Step step{npurt::OpHandle::find(s.op), s.inputs, {}};
    std::vector<npurt::NamedAttr> named;
    for (const StageAttr& a : s.attrs)
      named.push_back({a.name, a.type == StageAttr::Type::kBool ? npurt::AttrValue(a.value != 0.0)
                                                                : npurt::AttrValue(a.value)});
    step.attrs = npurt::resolve_attrs(step.op.def(), named);
    steps_.push_back(std::move(step));
  }
}

npurt::Tensor CppPipeline::run(const npurt::Tensor& x, const npurt::Stream& stream) const {
  if (x.stream() != stream) x.storage()->record_stream(stream);  // used here too
  npurt::Tensor act = x;
  for (const Step& s : steps_) {
    std::vector<npurt::Tensor> inputs;
    for (const std::string& name : s.inputs)
      inputs.push_back(name.empty() ? npurt::Tensor() : name == "act" ? act : params_.at(name));
    act = npurt::dispatch(s.op, inputs, s.attrs, stream).at(0);
  }
  return act;
}

// ---- C API ----------------------------------------------------------------------

namespace {

void c_check(npurtStatus st, const std::string& what) {
  if (st != NPURT_SUCCESS)
    throw std::runtime_error(what + ": " + npurtStatusName(st) + ": " + npurtGetLastErrorMessage());
}

npurtTensor c_tensor(npurtStream s, npurtDataType dtype, const int64_t* shape, int32_t ndim) {
  npurtTensorDesc d{};
  d.struct_size = sizeof d;
  d.dtype = dtype;
  d.ndim = ndim;
  d.shape = shape;
  npurtTensor t = nullptr;
  c_check(npurtTensorCreate(&d, s, &t), "npurtTensorCreate");
  return t;
}

// Destroys the tensors it holds when the scope ends (stream-ordered frees).
struct TensorGuard {
  std::vector<npurtTensor> held;
  ~TensorGuard() {
    for (npurtTensor t : held) npurtTensorDestroy(t);
  }
  npurtTensor keep(npurtTensor t) { return held.push_back(t), t; }
};

}  // namespace

CPipeline::CPipeline(const std::vector<Stage>& stages, const PipelineParams& p, npurtStream stream)
    : stream_(stream) {
  for (const auto& kv : p.tensors) {
    const std::vector<float> v = to_float(kv.second);
    npurtTensor t = c_tensor(stream_, NPURT_FLOAT32, kv.second.shape.data(),
                             static_cast<int32_t>(kv.second.shape.size()));
    params_[kv.first] = t;
    c_check(npurtTensorCopyFromHost(t, v.data(), v.size() * sizeof(float), stream_), "upload " + kv.first);
  }
  for (const Stage& s : stages) {
    Step step{s.op, s.inputs, {}, s.num_outputs};
    for (const StageAttr& a : s.attrs) {
      npurtAttr c{};
      c.struct_size = sizeof c;
      c.name = a.name.c_str();
      c.type = a.type == StageAttr::Type::kBool ? NPURT_ATTR_BOOL : NPURT_ATTR_FLOAT;
      c.int_value = a.value != 0.0;
      c.float_value = a.value;
      step.attrs.push_back(c);
    }
    steps_.push_back(std::move(step));
  }
}

CPipeline::~CPipeline() {
  for (auto& kv : params_) npurtTensorDestroy(kv.second);
}

// One stage: infer every output, prepare (workspace size), launch. Returns the
// first output; the others and the workspace are freed (stream-ordered).
npurtTensor CPipeline::call(const Step& s, npurtTensor act) {
  std::vector<npurtTensor> inputs;
  for (const std::string& name : s.inputs)
    inputs.push_back(name.empty() ? nullptr : name == "act" ? act : params_.at(name));
  TensorGuard extra;
  std::vector<npurtTensor> outputs;
  for (size_t i = 0; i < s.num_outputs; ++i) {
    npurtDataType dtype;
    int32_t ndim = 0;
    int64_t shape[8];
    c_check(npurtOpInferOutput(s.op.c_str(), inputs.data(), inputs.size(), s.attrs.data(), s.attrs.size(),
                               i, &dtype, &ndim, shape, 8),
            s.op);
    npurtTensor t = c_tensor(stream_, dtype, shape, ndim);
    outputs.push_back(i == 0 ? t : extra.keep(t));
  }
  TensorGuard first;  // owns output 0 until the launch succeeded
  first.keep(outputs[0]);
  uint64_t ws = 0;
  npurtOpExecutor ex = nullptr;
  c_check(npurtOpGetWorkspaceSize(s.op.c_str(), inputs.data(), inputs.size(), s.attrs.data(), s.attrs.size(),
                                  outputs.data(), outputs.size(), &ws, &ex),
          s.op);
  void* ws_ptr = nullptr;
  if (ws != 0) {  // a uint8 tensor from the same pool serves as the workspace
    const int64_t n = static_cast<int64_t>(ws);
    npurtTensor w = extra.keep(c_tensor(stream_, NPURT_UINT8, &n, 1));
    uint64_t bytes = 0;
    npurtStatus st = npurtTensorGetDataPtr(w, &ws_ptr, &bytes);
    if (st != NPURT_SUCCESS) npurtOpExecutorDestroy(ex);
    c_check(st, s.op + " workspace");
  }
  c_check(npurtOpLaunch(ws_ptr, ws, ex, stream_), s.op);  // consumes ex
  first.held.clear();
  return outputs[0];
}

void CPipeline::run(const Batch& b, std::vector<float>& out) {
  TensorGuard live;
  const int64_t shape[3] = {1, b.rows, b.cols};
  npurtTensor act = live.keep(c_tensor(stream_, NPURT_FLOAT32, shape, 3));
  const uint64_t bytes = b.x.size() * sizeof(float);
  c_check(npurtTensorCopyFromHost(act, b.x.data(), bytes, stream_), "upload x");
  for (const Step& s : steps_) act = live.keep(call(s, act));
  out.resize(b.x.size());
  c_check(npurtTensorCopyToHost(act, out.data(), bytes, stream_), "download result");
}
