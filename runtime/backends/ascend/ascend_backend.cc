// runtime/backends/ascend/ascend_backend.cc: the Backend on AscendCL, and its factory.
#include "backends/ascend/ascend_backend.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "backends/ascend/acl_context.h"
#include "backends/ascend/ascend_event.h"
#include "backends/ascend/ascend_graph.h"
#include "backends/ascend/ascend_stream.h"
#include "backends/ascend/device_profile.h"
#include "backends/ascend/device_segments.h"
#include "backends/ascend/kernel_launcher.h"

namespace npurt::ascend {

namespace {

struct DeviceInfo {
  ChipProfile profile;
  uint64_t total_memory = 0;
};

class AscendBackend final : public Backend {
 public:
  AscendBackend(std::shared_ptr<AclContext> ctx, std::vector<DeviceInfo> devices)
      : ctx_(std::move(ctx)),
        devices_(std::move(devices)),
        segments_(ctx_),
        launcher_(std::make_shared<KernelLauncher>(ctx_, KernelLauncher::default_kernel_dirs())) {}

  DeviceType type() const override { return DeviceType::kAscend; }
  const char* name() const override { return "ascend"; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  const ChipProfile& profile(int device) const override { return info(device, "profile").profile; }
  uint64_t total_memory(int device) const override { return info(device, "total_memory").total_memory; }

  void* allocate_segment(int device, size_t bytes) override {
    info(device, "allocate_segment");
    return segments_.allocate(device, bytes);
  }
  void free_segment(int device, void* ptr, size_t /*bytes*/) override {
    Status s = capture_status([&] { segments_.free(device, ptr); });
    // Called from the pool's release paths, which cannot fail; say it loudly.
    if (!s.is_ok()) std::fprintf(stderr, "npurt ascend: free_segment: %s\n", s.message().c_str());
  }
  size_t segment_alignment() const override { return DeviceSegments::kAlignment; }

  std::unique_ptr<BackendStream> create_stream(int device) override {
    info(device, "create_stream");
    return std::make_unique<AscendStream>(ctx_, launcher_, device);
  }
  std::unique_ptr<BackendGraph> instantiate_graph(int device, const std::vector<const Command*>& nodes) override {
    info(device, "instantiate_graph");
    return capture_ascend_graph(ctx_, launcher_, device, nodes);
  }
  void* kernel_function(int device, const char* kernel_name) override {
    info(device, "kernel_function");
    return launcher_->function_for(device, kernel_name);
  }
  std::shared_ptr<BackendEvent> create_event(int device, bool timing) override {
    info(device, "create_event");
    return std::make_shared<AscendEvent>(ctx_, device, timing);
  }

  void copy_sync(void* dst, const void* src, size_t bytes, CopyKind kind, int device) override {
    if (bytes == 0) return;
    if (kind == CopyKind::kHostToHost) {
      std::memcpy(dst, src, bytes);
      return;
    }
    info(device, "copy_sync");
    ctx_->bind_device(device);
    static const int kinds[] = {acl::kMemcpyHostToHost, acl::kMemcpyHostToDevice,
                                acl::kMemcpyDeviceToHost, acl::kMemcpyDeviceToDevice};
    ctx_->check("aclrtMemcpy", ctx_->api().aclrtMemcpy(dst, bytes, src, bytes,
                                                       static_cast<aclrtMemcpyKind>(kinds[static_cast<int>(kind)])));
  }

  std::string describe() const {
    std::string s = "ascend: " + ctx_->api().library_path + ", " + std::to_string(devices_.size()) +
                    " device(s)";
    for (size_t i = 0; i < devices_.size(); ++i) {
      s += (i ? ", " : " [") + devices_[i].profile.name + " " +
           std::to_string(devices_[i].profile.cube_cores) + " AIC/" +
           std::to_string(devices_[i].profile.vector_cores) + " AIV";
    }
    if (!devices_.empty()) s += "]";
    if (!ctx_->api().missing_optional.empty()) {
      s += "; optional AscendCL entry points missing: " + ctx_->api().describe_missing_optional();
    }
    return s;
  }

 private:
  const DeviceInfo& info(int device, const char* where) const {
    if (device < 0 || device >= device_count()) {
      throw_invalid_argument(std::string("ascend ") + where, "device",
                             std::to_string(device) + " is out of range [0, " +
                                 std::to_string(device_count()) + ")");
    }
    return devices_[static_cast<size_t>(device)];
  }

  std::shared_ptr<AclContext> ctx_;
  std::vector<DeviceInfo> devices_;
  DeviceSegments segments_;
  std::shared_ptr<KernelLauncher> launcher_;
};

int64_t device_attr(const AclApi& api, uint32_t device, int attr) {
  if (api.aclrtGetDeviceInfo == nullptr) return -1;
  int64_t v = -1;
  if (api.aclrtGetDeviceInfo(device, static_cast<aclrtDevAttr>(attr), &v) != acl::kSuccess) {
    api.aclGetRecentErrMsg();  // attribute unknown to this CANN: keep the built-in value
    return -1;
  }
  return v;
}

// The SoC name is per machine (one NPU model per host). It is asked before any
// aclrtSetDevice so that probing does not create a context on every device; if
// this CANN needs a current device for it, device 0 is bound and asked again.
std::string query_soc_name(AclContext& ctx) {
  const char* soc = ctx.api().aclrtGetSocName();
  if (soc == nullptr || *soc == '\0') {
    ctx.bind_device(0);
    soc = ctx.api().aclrtGetSocName();
  }
  if (soc == nullptr || *soc == '\0') throw Unavailable("ascend: aclrtGetSocName returned no SoC name");
  return soc;
}

DeviceInfo query_device(AclContext& ctx, const std::string& soc, uint32_t device) {
  const AclApi& api = ctx.api();
  DeviceAttributes attrs;  // aclrtGetDeviceInfo takes the device id: no context needed
  attrs.aicore_cores = device_attr(api, device, acl::kDevAttrAicoreCoreNum);
  attrs.cube_cores = device_attr(api, device, acl::kDevAttrCubeCoreNum);
  attrs.vector_cores = device_attr(api, device, acl::kDevAttrVectorCoreNum);
  attrs.global_mem = device_attr(api, device, acl::kDevAttrTotalGlobalMemSize);
  attrs.l2_bytes = device_attr(api, device, acl::kDevAttrL2CacheSize);
  DeviceInfo info{device_chip_profile(soc, attrs), 0};
  if (attrs.global_mem > 0) {
    info.total_memory = static_cast<uint64_t>(attrs.global_mem);
  } else {
    // Older CANN without aclrtGetDeviceInfo: aclrtGetMemInfo reports the current device.
    ctx.bind_device(static_cast<int>(device));
    size_t free_bytes = 0, total_bytes = 0;
    ctx.check("aclrtGetMemInfo(ACL_HBM_MEM)",
              api.aclrtGetMemInfo(static_cast<aclrtMemAttr>(acl::kHbmMem), &free_bytes, &total_bytes));
    info.total_memory = total_bytes;
    info.profile.hbm_bytes = total_bytes;
  }
  return info;
}

}  // namespace

std::unique_ptr<Backend> create_ascend_backend(const AclSearchEnv& env, std::string* unavailable_reason) {
  std::string why;
  std::unique_ptr<AclApi> api = load_acl_api(env, &why);
  if (!api) {
    *unavailable_reason = why;
    return nullptr;
  }
  const std::string lib = api->library_path;
  int rc = api->aclInit(nullptr);
  if (rc != acl::kSuccess && rc != acl::kErrorRepeatInitialize) {
    *unavailable_reason = acl_error_status(*api, "aclInit (" + lib + ")", rc).message();
    return nullptr;  // not initialised: nothing to finalize
  }
  // From here the context finalizes AscendCL on every exit (if we initialised it).
  auto ctx = std::make_shared<AclContext>(std::move(api), rc == acl::kSuccess);
  uint32_t count = 0;
  rc = ctx->api().aclrtGetDeviceCount(&count);
  if (rc != acl::kSuccess) {
    *unavailable_reason = ctx->status("aclrtGetDeviceCount (" + lib + ")", rc).message();
    return nullptr;
  }
  if (count == 0) {
    *unavailable_reason = "aclrtGetDeviceCount (" + lib + ") reports 0 devices";
    return nullptr;
  }
  std::vector<DeviceInfo> devices;
  Status s = capture_status([&] {
    const std::string soc = query_soc_name(*ctx);
    for (uint32_t d = 0; d < count; ++d) devices.push_back(query_device(*ctx, soc, d));
  });
  if (!s.is_ok()) {
    *unavailable_reason = s.message();
    return nullptr;
  }
  return std::make_unique<AscendBackend>(std::move(ctx), std::move(devices));
}

std::unique_ptr<Backend> create_ascend_backend(std::string* unavailable_reason) {
  return create_ascend_backend(AclSearchEnv::from_environment(), unavailable_reason);
}

std::string describe_ascend_backend(const Backend& backend) {
  auto* b = dynamic_cast<const AscendBackend*>(&backend);
  return b ? b->describe() : std::string();
}

}  // namespace npurt::ascend
