// runtime/backends/ascend/ascend_graph.cc: see ascend_graph.h.
#include "backends/ascend/ascend_graph.h"

#include "backends/ascend/ascend_stream.h"
#include "npurt/status.h"

namespace npurt::ascend {

namespace {

class AscendGraph final : public BackendGraph {
 public:
  AscendGraph(std::shared_ptr<AclContext> ctx, int device, aclmdlRI ri)
      : ctx_(std::move(ctx)), device_(device), ri_(ri) {}
  ~AscendGraph() override {
    ctx_->bind_device(device_);
    ctx_->api().aclmdlRIDestroy(ri_);  // a failure here has nobody to report to
  }
  void launch(BackendStream& stream) override {
    auto* s = dynamic_cast<AscendStream*>(&stream);
    if (s == nullptr) throw_invalid_argument("npurt.Graph.replay", "stream", "is not an ascend stream");
    ctx_->bind_device(device_);
    ctx_->check("aclmdlRIExecuteAsync", ctx_->api().aclmdlRIExecuteAsync(ri_, s->handle()));
  }

 private:
  std::shared_ptr<AclContext> ctx_;
  int device_;
  aclmdlRI ri_;
};

const char* host_side_copy(const Command& c) {
  switch (c.copy_kind) {
    case CopyKind::kHostToDevice: return "host-to-device copy";
    case CopyKind::kDeviceToHost: return "device-to-host copy";
    case CopyKind::kHostToHost: return "host-to-host copy";
    default: return nullptr;
  }
}

}  // namespace

std::string ascend_graph_unsupported_reason(const AclApi& api, const std::vector<const Command*>& nodes) {
  if (!api.aclmdlRICaptureBegin || !api.aclmdlRICaptureEnd || !api.aclmdlRIExecuteAsync || !api.aclmdlRIDestroy)
    return "this AscendCL has no aclmdlRICaptureBegin/End, aclmdlRIExecuteAsync, aclmdlRIDestroy";
  if (nodes.empty()) return "the graph is empty";
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Command& c = *nodes[i];
    const char* what = nullptr;
    if (c.kind == Command::Kind::kHostFunc) what = "host function";
    else if (c.kind == Command::Kind::kCopy) what = host_side_copy(c);
    else if (c.kind != Command::Kind::kLaunch && c.kind != Command::Kind::kMemset) what = "event command";
    if (what) return "node " + std::to_string(i) + " (" + c.describe() + ") is a " + what;
  }
  return "";
}

std::unique_ptr<BackendGraph> capture_ascend_graph(std::shared_ptr<AclContext> ctx,
                                                   std::shared_ptr<KernelLauncher> launcher, int device,
                                                   const std::vector<const Command*>& nodes) {
  const AclApi& api = ctx->api();
  if (!ascend_graph_unsupported_reason(api, nodes).empty()) return nullptr;
  ctx->bind_device(device);
  for (const Command* c : nodes)  // loads binaries now: not allowed inside the capture
    if (c->kind == Command::Kind::kLaunch && !c->launch.device_function)
      launcher->function_for(device, c->launch.kernel_name);
  AscendStream stream(ctx, launcher, device);  // never the default stream (restriction 5)
  stream.set_name("graph capture stream on ascend:" + std::to_string(device));
  ctx->check("aclmdlRICaptureBegin",
             api.aclmdlRICaptureBegin(stream.handle(), static_cast<aclmdlRICaptureMode>(acl::kCaptureModeThreadLocal)));
  for (const Command* c : nodes) stream.submit(Command(*c));
  aclmdlRI ri = nullptr;
  const int end = api.aclmdlRICaptureEnd(stream.handle(), &ri);
  // Enqueue errors were recorded on the stream; nothing ran on it, so this only reads them.
  Status enqueue = stream.synchronize();
  if (end != 0 || !enqueue.is_ok()) {
    if (ri) api.aclmdlRIDestroy(ri);
    ctx->check("aclmdlRICaptureEnd", end);
    enqueue.throw_if_error();
  }
  if (!ri) throw CaptureError("aclmdlRICaptureEnd: returned no model runtime instance");
  return std::make_unique<AscendGraph>(std::move(ctx), device, ri);
}

}  // namespace npurt::ascend
