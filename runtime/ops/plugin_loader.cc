// runtime/ops/plugin_loader.cc: npurt::load_library (dlopen + all-or-nothing commit).
#include "npurt/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <map>
#include <mutex>

#include "npurt/status.h"
#include "registry_internal.h"

namespace npurt {

namespace {

struct LoaderState {
  std::mutex mu;                                   // one load at a time
  std::map<void*, LoadedLibrary> by_handle;        // dlopen handle -> what it registered
  std::vector<LoadedLibrary> order;
};

LoaderState& loader() {
  static LoaderState* s = new LoaderState;  // leaked: handles stay open for the process
  return *s;
}

std::string where(const std::string& path) { return "npurt.load_library: '" + path + "'"; }

}  // namespace

LoadedLibrary load_library(const std::string& path) {
  if (path.empty()) throw_invalid_argument("npurt.load_library", "path", "is empty");
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) throw NotFound(where(path) + ": no such file");
  LoaderState& st = loader();
  std::lock_guard<std::mutex> lock(st.mu);
  // RTLD_NOLOAD finds a library that is already mapped (by this or another path).
  if (void* h = dlopen(resolved, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
    auto it = st.by_handle.find(h);
    dlclose(h);  // drop the reference RTLD_NOLOAD took
    if (it != st.by_handle.end()) return LoadedLibrary{path, it->second.ops};
  }
  LoadScope scope(resolved);
  void* handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    throw NotFound(where(path) + ": dlopen failed: " + (err ? err : "unknown error"));
  }
  std::vector<std::string> names;
  try {
    names = scope.commit();
  } catch (const Error& e) {
    scope.discard();
    dlclose(handle);  // none of its ops were registered, so nothing refers to it
    throw_error(e.code(), where(path) + ": " + e.what());
  }
  LoadedLibrary lib{path, names};
  st.by_handle[handle] = lib;
  st.order.push_back(lib);
  return lib;
}

std::vector<LoadedLibrary> loaded_libraries() {
  LoaderState& st = loader();
  std::lock_guard<std::mutex> lock(st.mu);
  return st.order;
}

}  // namespace npurt
