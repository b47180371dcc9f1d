// runtime/ops/registry_internal.h: registry functions shared by the dispatcher
// and the plugin loader (internal).
//
// A LoadScope is active on the thread that runs npurt::load_library: static
// registrars of the library being loaded stage their OpDefs in it instead of
// registering, so the library's ops are committed all-or-nothing.
#pragma once

#include <string>
#include <vector>

#include "npurt/op_def.h"
#include "tiling_cache.h"

namespace npurt {

// nullptr when unknown; loads the built-in kernel library on first use.
RegisteredOp* find_registered_op(const std::string& name);
// Why the built-in kernel library failed to load ("" if it loaded or is linked in).
std::string builtin_kernels_error();
// Sorted close matches for "unknown op" messages.
std::vector<std::string> similar_op_names(const std::string& name);

class LoadScope {
 public:
  explicit LoadScope(std::string library_path);
  ~LoadScope();
  LoadScope(const LoadScope&) = delete;
  LoadScope& operator=(const LoadScope&) = delete;

  static LoadScope* current();  // this thread's active scope or nullptr
  void stage(OpDef def) noexcept;
  // Registers every staged op or none; returns their names, throws listing all problems.
  std::vector<std::string> commit();
  // Drops staged OpDefs: their std::function members point into the library,
  // so this must run before the library is unmapped.
  void discard() { staged_.clear(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<OpDef> staged_;
  std::vector<std::string> errors_;
  LoadScope* previous_;
};

}  // namespace npurt
