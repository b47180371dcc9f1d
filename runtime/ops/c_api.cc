// runtime/ops/c_api.cc: the C API (npurt/npurt.h) over the C++ runtime.
//
// Every entry point runs its body through capture_status, so no exception
// crosses the C boundary; failures set the thread's last error message.
// Handles are heap objects owning C++ values (Stream, Tensor, PreparedOp);
// graphs are in c_api_graph.cc.
#include "npurt/npurt.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/dispatch.h"
#include "npurt/ops.h"
#include "npurt/plugin.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "ops/c_api_internal.h"

namespace {
thread_local std::string t_last_error;
}  // namespace

void npurt::c_api::set_last_error(std::string message) { t_last_error = std::move(message); }

namespace {

using npurt::Status;
using npurt::StatusCode;
using npurt::c_api::guarded;
using npurt::c_api::require;
using npurt::c_api::stream_arg;

npurt::Device device_arg(const char* device) {
  return device ? npurt::parse_device(device) : npurt::current_device();
}

std::vector<npurt::Tensor> tensors_arg(const npurtTensor* ts, size_t n, const char* fn, const char* arg,
                                       bool allow_null) {
  require(ts != nullptr || n == 0, fn, arg, "is NULL but the count is not 0");
  std::vector<npurt::Tensor> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (ts[i]) out[i] = ts[i]->tensor;
    else if (!allow_null) npurt::throw_invalid_argument(fn, std::string(arg) + "[" + std::to_string(i) + "]", "is NULL");
  }
  return out;
}

npurt::AttrValue attr_value(const npurtAttr& a, const char* fn) {
  require(a.struct_size >= sizeof(npurtAttr), fn, "attrs", "struct_size is smaller than sizeof(npurtAttr)");
  switch (a.type) {
    case NPURT_ATTR_INT: return npurt::AttrValue(a.int_value);
    case NPURT_ATTR_FLOAT: return npurt::AttrValue(a.float_value);
    case NPURT_ATTR_BOOL: return npurt::AttrValue(a.int_value != 0);
    case NPURT_ATTR_STRING:
      require(a.string_value != nullptr, fn, a.name ? a.name : "attrs", "string attribute value is NULL");
      return npurt::AttrValue(std::string(a.string_value));
    case NPURT_ATTR_INT_LIST:
      require(a.int_list != nullptr || a.int_list_len == 0, fn, a.name ? a.name : "attrs", "int_list is NULL");
      return npurt::AttrValue(std::vector<int64_t>(a.int_list, a.int_list + a.int_list_len));
    case NPURT_ATTR_DTYPE:
      require(a.int_value >= 0 && a.int_value < npurt::kNumDTypes, fn, a.name ? a.name : "attrs", "unknown dtype value");
      return npurt::AttrValue(static_cast<npurt::DType>(a.int_value));
  }
  npurt::throw_invalid_argument(fn, a.name ? a.name : "attrs", "unknown attribute type " + std::to_string(a.type));
}

std::vector<npurt::AttrValue> attrs_arg(const npurt::OpDef& def, const npurtAttr* attrs, size_t n, const char* fn) {
  require(attrs != nullptr || n == 0, fn, "attrs", "is NULL but num_attrs is not 0");
  std::vector<npurt::NamedAttr> named;
  named.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    require(attrs[i].name != nullptr, fn, "attrs", "an attribute has a NULL name");
    named.push_back(npurt::NamedAttr{attrs[i].name, attr_value(attrs[i], fn)});
  }
  return npurt::resolve_attrs(def, named);
}

}  // namespace

extern "C" {

npurtStatus npurtGetVersion(npurtVersion* v) {
  return guarded([&] {
    require(v != nullptr, "npurtGetVersion", "version", "is NULL");
    require(v->struct_size >= offsetof(npurtVersion, c_api_major), "npurtGetVersion", "version",
            "struct_size is too small (set it to sizeof(npurtVersion))");
    int major = 0, minor = 0, patch = 0;
    std::sscanf(npurt::version().c_str(), "%d.%d.%d", &major, &minor, &patch);
    v->major = major;
    v->minor = minor;
    v->patch = patch;
    if (v->struct_size >= sizeof(npurtVersion)) {
      v->c_api_major = NPURT_C_API_VERSION_MAJOR;
      v->c_api_minor = NPURT_C_API_VERSION_MINOR;
    }
  });
}

const char* npurtGetLastErrorMessage(void) { return t_last_error.c_str(); }

const char* npurtStatusName(npurtStatus status) {
  return npurt::status_code_name(static_cast<StatusCode>(status));
}

npurtStatus npurtStreamCreate(const char* device, npurtStream* out) {
  return guarded([&] {
    require(out != nullptr, "npurtStreamCreate", "stream", "is NULL");
    *out = new npurtStream_t{npurt::Stream::create(device_arg(device)), true};
  });
}

npurtStatus npurtStreamGetDefault(const char* device, npurtStream* out) {
  return guarded([&] {
    require(out != nullptr, "npurtStreamGetDefault", "stream", "is NULL");
    *out = new npurtStream_t{npurt::Stream::default_stream(device_arg(device)), false};
  });
}

npurtStatus npurtStreamSynchronize(npurtStream s) {
  return guarded([&] { stream_arg(s, "npurtStreamSynchronize").synchronize(); });
}

npurtStatus npurtStreamDestroy(npurtStream s) {
  return guarded([&] { delete s; });  // the queue drains on its own after the last handle
}

npurtStatus npurtTensorCreate(const npurtTensorDesc* desc, npurtStream stream, npurtTensor* out) {
  return guarded([&] {
    const char* fn = "npurtTensorCreate";
    require(desc != nullptr, fn, "desc", "is NULL");
    require(out != nullptr, fn, "tensor", "is NULL");
    require(desc->struct_size >= sizeof(npurtTensorDesc), fn, "desc", "struct_size is smaller than sizeof(npurtTensorDesc)");
    require(desc->dtype >= 0 && desc->dtype < npurt::kNumDTypes, fn, "desc.dtype", "unknown dtype");
    require(desc->ndim >= 0 && desc->ndim <= 64, fn, "desc.ndim", "must be in [0, 64]");
    require(desc->shape != nullptr || desc->ndim == 0, fn, "desc.shape", "is NULL");
    npurt::Dims shape(desc->shape, desc->shape + desc->ndim);
    npurt::check_shape(shape, fn, "desc.shape");
    npurt::Tensor t = npurt::Tensor::empty(shape, static_cast<npurt::DType>(desc->dtype), stream_arg(stream, fn));
    *out = new npurtTensor_t{std::move(t)};
  });
}

npurtStatus npurtTensorDestroy(npurtTensor t) {
  return guarded([&] { delete t; });
}

npurtStatus npurtTensorGetDesc(npurtTensor t, npurtDataType* dtype, int32_t* ndim, const int64_t** shape) {
  return guarded([&] {
    require(t != nullptr, "npurtTensorGetDesc", "tensor", "is NULL");
    if (dtype) *dtype = static_cast<npurtDataType>(t->tensor.dtype());
    if (ndim) *ndim = static_cast<int32_t>(t->tensor.ndim());
    if (shape) *shape = t->tensor.shape().data();
  });
}

npurtStatus npurtTensorGetDataPtr(npurtTensor t, void** data, uint64_t* nbytes) {
  return guarded([&] {
    require(t != nullptr, "npurtTensorGetDataPtr", "tensor", "is NULL");
    if (data) *data = t->tensor.data();
    if (nbytes) *nbytes = t->tensor.nbytes();
  });
}

npurtStatus npurtTensorCopyFromHost(npurtTensor t, const void* src, uint64_t bytes, npurtStream stream) {
  return guarded([&] {
    const char* fn = "npurtTensorCopyFromHost";
    require(t != nullptr, fn, "tensor", "is NULL");
    require(src != nullptr || bytes == 0, fn, "src", "is NULL");
    require(bytes == t->tensor.nbytes(), fn, "bytes", "must equal the tensor's size in bytes");
    npurt::copy_from_host(t->tensor, src, bytes, stream_arg(stream, fn), /*blocking=*/false);
  });
}

npurtStatus npurtTensorCopyToHost(npurtTensor t, void* dst, uint64_t bytes, npurtStream stream) {
  return guarded([&] {
    const char* fn = "npurtTensorCopyToHost";
    require(t != nullptr, fn, "tensor", "is NULL");
    require(dst != nullptr || bytes == 0, fn, "dst", "is NULL");
    require(bytes == t->tensor.nbytes(), fn, "bytes", "must equal the tensor's size in bytes");
    npurt::copy_to_host(dst, t->tensor, bytes, stream_arg(stream, fn), /*blocking=*/true);
  });
}

npurtStatus npurtOpInferOutput(const char* op, const npurtTensor* inputs, size_t num_inputs, const npurtAttr* attrs,
                               size_t num_attrs, size_t output_index, npurtDataType* dtype, int32_t* ndim,
                               int64_t* shape, int32_t shape_capacity) {
  return guarded([&] {
    const char* fn = "npurtOpInferOutput";
    require(op != nullptr, fn, "op", "is NULL");
    npurt::OpHandle h = npurt::OpHandle::find(op);
    auto ins = tensors_arg(inputs, num_inputs, fn, "inputs", true);
    std::vector<npurt::TensorSpec> specs(ins.size());
    for (size_t i = 0; i < ins.size(); ++i)
      if (ins[i].defined()) specs[i] = npurt::TensorSpec{true, ins[i].dtype(), ins[i].shape(), ins[i].strides()};
    auto values = attrs_arg(h.def(), attrs, num_attrs, fn);
    npurt::Device dev = npurt::current_device();
    for (auto& t : ins)
      if (t.defined()) { dev = t.device(); break; }
    npurt::OpPlan plan = npurt::plan_op(h, npurt::Span<const npurt::TensorSpec>(specs.data(), specs.size()),
                                        npurt::Span<const npurt::AttrValue>(values.data(), values.size()),
                                        npurt::device_context(dev).profile());
    require(output_index < plan.outputs.size(), fn, "output_index", "is past the op's outputs");
    const npurt::TensorSpec& o = plan.outputs[output_index];
    require(shape_capacity >= static_cast<int32_t>(o.shape.size()), fn, "shape_capacity", "is smaller than the output rank");
    if (dtype) *dtype = static_cast<npurtDataType>(o.dtype);
    if (ndim) *ndim = static_cast<int32_t>(o.shape.size());
    if (shape) std::memcpy(shape, o.shape.data(), o.shape.size() * sizeof(int64_t));
  });
}

npurtStatus npurtOpGetWorkspaceSize(const char* op, const npurtTensor* inputs, size_t num_inputs,
                                    const npurtAttr* attrs, size_t num_attrs, const npurtTensor* outputs,
                                    size_t num_outputs, uint64_t* workspace_size, npurtOpExecutor* executor) {
  return guarded([&] {
    const char* fn = "npurtOpGetWorkspaceSize";
    require(op != nullptr, fn, "op", "is NULL");
    require(workspace_size != nullptr, fn, "workspace_size", "is NULL");
    require(executor != nullptr, fn, "executor", "is NULL");
    npurt::OpHandle h = npurt::OpHandle::find(op);
    auto ins = tensors_arg(inputs, num_inputs, fn, "inputs", true);
    auto outs = tensors_arg(outputs, num_outputs, fn, "outputs", false);
    auto values = attrs_arg(h.def(), attrs, num_attrs, fn);
    auto prepared = npurt::PreparedOp::prepare(h, npurt::Span<const npurt::Tensor>(ins.data(), ins.size()),
                                               npurt::Span<const npurt::AttrValue>(values.data(), values.size()),
                                               npurt::Span<const npurt::Tensor>(outs.data(), outs.size()));
    *workspace_size = prepared->workspace_bytes();
    *executor = new npurtOpExecutor_t{std::move(prepared)};
  });
}

npurtStatus npurtOpLaunch(void* workspace, uint64_t workspace_size, npurtOpExecutor executor, npurtStream stream) {
  std::unique_ptr<npurtOpExecutor_t> owned(executor);  // consumed even on failure
  return guarded([&] {
    const char* fn = "npurtOpLaunch";
    require(executor != nullptr, fn, "executor", "is NULL");
    owned->prepared->launch(workspace, workspace_size, stream_arg(stream, fn));
  });
}

npurtStatus npurtOpExecutorDestroy(npurtOpExecutor executor) {
  return guarded([&] { delete executor; });
}

npurtStatus npurtLoadLibrary(const char* path) {
  return guarded([&] {
    require(path != nullptr, "npurtLoadLibrary", "path", "is NULL");
    npurt::load_library(path);
  });
}

}  // extern "C"
