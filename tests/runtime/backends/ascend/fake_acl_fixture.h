// tests/runtime/backends/ascend/fake_acl_fixture.h: helpers to run the ascend
// backend against the FAKE AscendCL libraries built by fake/fake_ascendcl.cmake.
// The fake is not CANN: passing tests prove npurt's code paths and its use of
// the documented API contract, not behaviour on an NPU.
#pragma once

#include <dlfcn.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "backends/ascend/ascend_backend.h"
#include "private_kernel_dir.h"  // private_kernel_dir(): per process, removed at exit

namespace npurt::ascend::testing {

inline std::string fake_root() { return NPURT_FAKE_ASCEND_ROOT; }
inline std::string fake_library(const std::string& variant) {
  return fake_root() + "/" + variant + "/lib64/libascendcl.so";
}

// Search environment that finds the given fake variant through ASCEND_HOME_PATH.
inline AclSearchEnv fake_env(const std::string& variant) {
  AclSearchEnv env;
  env.ascend_home_path = fake_root() + "/" + variant;
  return env;
}

// fake_acl_counter() of the loaded fake (live allocations, calls made).
inline long fake_counter(const std::string& variant, const char* name) {
  void* h = dlopen(fake_library(variant).c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h == nullptr) return -1;
  auto fn = reinterpret_cast<long (*)(const char*)>(dlsym(h, "fake_acl_counter"));
  long v = fn ? fn(name) : -1;
  dlclose(h);  // drops only the reference taken here
  return v;
}

// Sets an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_ = true;
      old_ = old;
    }
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_, old_.c_str(), 1); else unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

}  // namespace npurt::ascend::testing
