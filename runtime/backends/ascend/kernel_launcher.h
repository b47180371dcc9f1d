// runtime/backends/ascend/kernel_launcher.h: kernel binaries and host-argument launches.
//
// Kernels for the NPU are compiled by CANN's toolchain (cmake/ascend_kernels.cmake)
// into kernel binaries, one per kernel family, installed in a kernel directory.
// At the first launch of a kernel name on a device the launcher finds the
// function: it loads `<dir>/<kernel_name>.o` if that file exists, otherwise
// every `*.o` in the directories of NPURT_ASCEND_KERNEL_PATH (':'-separated),
// then <directory of libnpurt>/ascend_kernels (the installed layout), then the
// build tree's directory, and asks each binary for the symbol
// (aclrtBinaryLoadFromFile + aclrtBinaryGetFunction). The result is cached per
// (device, kernel name), as are the loaded binaries. The dispatcher resolves a
// registered op's kernel through Backend::kernel_function -> function_for
// before it allocates anything (runtime/ops/device_dispatch.h), so a missing
// kernel is refused synchronously and the launch carries device_function.
//
// Launch uses host-side arguments (kernel_args.h): aclrtLaunchKernelWithHostArgs
// when the library has it (CANN 9.0+), else the aclrtKernelArgsInit/Append/
// AppendPlaceHolder/Finalize builder with aclrtLaunchKernelWithConfig (8.1+).
//
// Invariants:
//   - A KernelLaunch with device_function set is launched with that handle as is.
//   - A kernel name no binary exports fails with NotFound listing the files searched.
//   - Binaries are unloaded when the launcher is destroyed (after streams are gone).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/ascend/acl_context.h"
#include "npurt/backend.h"

namespace npurt::ascend {

class KernelLauncher {
 public:
  KernelLauncher(std::shared_ptr<AclContext> ctx, std::vector<std::string> kernel_dirs);
  ~KernelLauncher();

  // The directories searched: $NPURT_ASCEND_KERNEL_PATH entries, <libnpurt dir>/ascend_kernels,
  // then NPURT_ASCEND_KERNEL_DIR (compile definition from cmake/ascend_kernels.cmake) when set.
  static std::vector<std::string> default_kernel_dirs();

  // Resolves (and caches) the function for launch.kernel_name on `device`.
  aclrtFuncHandle function_for(int device, const char* kernel_name);

  // Enqueues the launch on `stream` (the device must be bound by the caller).
  void launch(int device, aclrtStream stream, const KernelLaunch& launch);

 private:
  aclrtBinHandle load_binary_locked(int device, const std::string& path);
  void launch_with_builder(aclrtFuncHandle fn, aclrtStream stream, const KernelLaunch& launch,
                           aclrtLaunchKernelCfg* cfg);

  std::shared_ptr<AclContext> ctx_;
  std::vector<std::string> dirs_;
  std::mutex mu_;
  std::map<std::pair<int, std::string>, aclrtBinHandle> binaries_;
  std::map<std::pair<int, std::string>, aclrtFuncHandle> functions_;
};

}  // namespace npurt::ascend
