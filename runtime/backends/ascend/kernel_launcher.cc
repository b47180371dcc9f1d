// runtime/backends/ascend/kernel_launcher.cc
#include "backends/ascend/kernel_launcher.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "backends/ascend/kernel_args.h"
#include "backends/ascend/launch_config.h"

namespace npurt::ascend {

namespace {

bool is_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> binaries_in(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 2 && name.compare(name.size() - 2, 2, ".o") == 0) out.push_back(dir + "/" + name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());  // deterministic search order
  return out;
}

}  // namespace

KernelLauncher::KernelLauncher(std::shared_ptr<AclContext> ctx, std::vector<std::string> kernel_dirs)
    : ctx_(std::move(ctx)), dirs_(std::move(kernel_dirs)) {}

KernelLauncher::~KernelLauncher() {
  if (ctx_->api().aclrtBinaryUnLoad == nullptr) return;
  for (auto& [key, bin] : binaries_) ctx_->api().aclrtBinaryUnLoad(bin);
}

std::vector<std::string> KernelLauncher::default_kernel_dirs() {
  std::vector<std::string> dirs;
  if (const char* p = std::getenv("NPURT_ASCEND_KERNEL_PATH")) {
    std::string s = p;
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(':', start);
      if (end == std::string::npos) end = s.size();
      if (end > start) dirs.push_back(s.substr(start, end - start));
      start = end + 1;
    }
  }
  // Installed layout: <dir of libnpurt>/ascend_kernels (cmake/ascend_kernels.cmake).
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&KernelLauncher::default_kernel_dirs), &info) != 0 && info.dli_fname) {
    std::string lib = info.dli_fname;
    size_t slash = lib.rfind('/');
    if (slash != std::string::npos) dirs.push_back(lib.substr(0, slash) + "/ascend_kernels");
  }
#ifdef NPURT_ASCEND_KERNEL_DIR
  dirs.push_back(NPURT_ASCEND_KERNEL_DIR);  // uninstalled build tree
#endif
  return dirs;
}

aclrtBinHandle KernelLauncher::load_binary_locked(int device, const std::string& path) {
  auto key = std::make_pair(device, path);
  auto it = binaries_.find(key);
  if (it != binaries_.end()) return it->second;
  aclrtBinHandle bin = nullptr;
  ctx_->check(("aclrtBinaryLoadFromFile('" + path + "')").c_str(),
              ctx_->api().aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin));
  binaries_[key] = bin;
  return bin;
}

aclrtFuncHandle KernelLauncher::function_for(int device, const char* kernel_name) {
  const AclApi& api = ctx_->api();
  if (!api.aclrtBinaryLoadFromFile || !api.aclrtBinaryGetFunction) {
    throw_error(StatusCode::kUnimplemented,
                std::string("ascend launch '") + kernel_name + "': " + api.library_path +
                    " lacks aclrtBinaryLoadFromFile/aclrtBinaryGetFunction (needs CANN >= 8.3)");
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(device, std::string(kernel_name));
  auto cached = functions_.find(key);
  if (cached != functions_.end()) return cached->second;
  ctx_->bind_device(device);
  std::vector<std::string> candidates;
  for (const std::string& dir : dirs_) {
    std::string exact = dir + "/" + kernel_name + ".o";
    if (is_file(exact)) candidates.push_back(exact);
  }
  for (const std::string& dir : dirs_) {
    for (std::string& f : binaries_in(dir)) {
      if (std::find(candidates.begin(), candidates.end(), f) == candidates.end()) candidates.push_back(f);
    }
  }
  for (const std::string& path : candidates) {
    aclrtBinHandle bin = load_binary_locked(device, path);
    aclrtFuncHandle fn = nullptr;
    if (api.aclrtBinaryGetFunction(bin, kernel_name, &fn) == acl::kSuccess && fn != nullptr) {
      functions_[key] = fn;
      return fn;
    }
    if (api.aclGetRecentErrMsg) api.aclGetRecentErrMsg();  // clear the lookup miss
  }
  std::string where;
  for (const std::string& d : dirs_) where += (where.empty() ? "" : ", ") + d;
  throw NotFound(std::string("ascend launch '") + kernel_name + "': no kernel binary exports it (searched " +
                 std::to_string(candidates.size()) + " binaries in [" + where +
                 "]; build with -DNPURT_ASCEND_KERNELS=ON or set NPURT_ASCEND_KERNEL_PATH)");
}

void KernelLauncher::launch(int device, aclrtStream stream, const KernelLaunch& launch) {
  aclrtFuncHandle fn = launch.device_function ? launch.device_function
                                              : function_for(device, launch.kernel_name);
  const AclApi& api = ctx_->api();
  LaunchConfig cfg(launch.ascend, launch.kernel_name);
  if (api.aclrtLaunchKernelWithHostArgs) {
    PackedKernelArgs packed = pack_kernel_args(launch);
    std::vector<aclrtPlaceHolderInfo> holders;
    for (const auto& p : packed.placeholders) {
      aclrtPlaceHolderInfo h{};
      h.addrOffset = p.addr_offset;
      h.dataOffset = p.data_offset;
      holders.push_back(h);
    }
    ctx_->check("aclrtLaunchKernelWithHostArgs",
                api.aclrtLaunchKernelWithHostArgs(fn, launch.num_blocks, stream, cfg.get(),
                                                  packed.host_args.data(), packed.host_args.size(),
                                                  holders.empty() ? nullptr : holders.data(),
                                                  holders.size()));
    return;
  }
  launch_with_builder(fn, stream, launch, cfg.get());
}

void KernelLauncher::launch_with_builder(aclrtFuncHandle fn, aclrtStream stream, const KernelLaunch& launch,
                                         aclrtLaunchKernelCfg* cfg) {
  const AclApi& api = ctx_->api();
  if (!api.aclrtKernelArgsInit || !api.aclrtKernelArgsAppend || !api.aclrtKernelArgsAppendPlaceHolder ||
      !api.aclrtKernelArgsGetPlaceHolderBuffer || !api.aclrtKernelArgsFinalize ||
      !api.aclrtLaunchKernelWithConfig) {
    throw_error(StatusCode::kUnimplemented,
                std::string("ascend launch '") + launch.kernel_name + "': " + api.library_path +
                    " has neither aclrtLaunchKernelWithHostArgs nor the aclrtKernelArgs* builder "
                    "with aclrtLaunchKernelWithConfig (needs CANN >= 8.3)");
  }
  PackedKernelArgs packed = pack_kernel_args(launch);
  aclrtArgsHandle args = nullptr;
  ctx_->check("aclrtKernelArgsInit", api.aclrtKernelArgsInit(fn, &args));
  for (size_t i = 0; i < packed.num_slots; ++i) {
    aclrtParamHandle param = nullptr;
    if (i == packed.tiling_slot && packed.tiling_bytes > 0) {
      ctx_->check("aclrtKernelArgsAppendPlaceHolder", api.aclrtKernelArgsAppendPlaceHolder(args, &param));
      void* buffer = nullptr;
      ctx_->check("aclrtKernelArgsGetPlaceHolderBuffer",
                  api.aclrtKernelArgsGetPlaceHolderBuffer(args, param, packed.tiling_bytes, &buffer));
      std::memcpy(buffer, packed.host_args.data() + packed.num_slots * 8, packed.tiling_bytes);
      continue;
    }
    ctx_->check("aclrtKernelArgsAppend",
                api.aclrtKernelArgsAppend(args, packed.host_args.data() + i * 8, 8, &param));
  }
  ctx_->check("aclrtKernelArgsFinalize", api.aclrtKernelArgsFinalize(args));
  ctx_->check("aclrtLaunchKernelWithConfig",
              api.aclrtLaunchKernelWithConfig(fn, launch.num_blocks, stream, cfg, args, nullptr));
}

}  // namespace npurt::ascend
