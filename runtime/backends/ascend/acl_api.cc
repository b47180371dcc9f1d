// runtime/backends/ascend/acl_api.cc: finding libascendcl.so and resolving the function table.
#include "backends/ascend/acl_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <sstream>

namespace npurt::ascend {

namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

void add_prefix(std::vector<std::string>* out, const std::string& prefix) {
  if (prefix.empty()) return;
  std::string p = prefix;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  // CANN installs the runtime under <prefix>/lib64; ASCEND_HOME_PATH usually
  // points at .../ascend-toolkit/latest, whose runtime/lib64 is the same file.
  for (const char* sub : {"/lib64/libascendcl.so", "/runtime/lib64/libascendcl.so"}) {
    std::string path = p + sub;
    bool seen = false;
    for (const auto& s : *out) seen = seen || s == path;
    if (!seen) out->push_back(path);
  }
}

}  // namespace

AclApi::~AclApi() {
  // Deliberately not dlclose'd: AscendCL registers atexit handlers and
  // background threads; unloading it before process exit is unsafe.
  handle_ = nullptr;
}

std::string AclApi::describe_missing_optional() const {
  std::string out;
  for (const auto& m : missing_optional) out += (out.empty() ? "" : ", ") + m;
  return out;
}

const std::vector<AclEntry>& acl_entries() {
  static const std::vector<AclEntry> entries = {
#define NPURT_ACL_ENTRY(name, required, ret, params) {#name, required},
      NPURT_ACL_FUNCTIONS(NPURT_ACL_ENTRY)
#undef NPURT_ACL_ENTRY
  };
  return entries;
}

AclSearchEnv AclSearchEnv::from_environment() {
  AclSearchEnv env;
  env.ascend_home_path = env_or_empty("ASCEND_HOME_PATH");
  env.ascend_toolkit_home = env_or_empty("ASCEND_TOOLKIT_HOME");
  env.library_override = env_or_empty("NPURT_ASCENDCL_LIBRARY");
  return env;
}

std::vector<std::string> acl_library_candidates(const AclSearchEnv& env) {
  if (!env.library_override.empty()) return {env.library_override};
  std::vector<std::string> out;
  add_prefix(&out, env.ascend_home_path);
  add_prefix(&out, env.ascend_toolkit_home);
  add_prefix(&out, "/usr/local/Ascend/ascend-toolkit/latest");
  out.push_back("libascendcl.so");  // LD_LIBRARY_PATH and the default search
  return out;
}

class AclLibraryLoader {
 public:
  static std::unique_ptr<AclApi> load(const AclSearchEnv& env, std::string* why) {
    std::ostringstream tried;
    for (const std::string& path : acl_library_candidates(env)) {
      dlerror();
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        const char* dl_err = dlerror();
        std::string err = dl_err ? dl_err : "dlopen failed";
        if (err.rfind(path + ": ", 0) == 0) err = err.substr(path.size() + 2);  // dlerror repeats the path
        tried << "\n  " << path << (path.find('/') == std::string::npos ? " (LD_LIBRARY_PATH, system paths)" : "")
              << ": " << err;
        continue;
      }
      auto api = std::make_unique<AclApi>();
      api->handle_ = handle;
      api->library_path = path;
      std::string missing;
      if (!resolve(api.get(), &missing)) {
        api->handle_ = nullptr;
        dlclose(handle);  // nothing from it is in use yet
        *why = "AscendCL library " + path + " lacks required symbol " + missing +
               " (CANN too old or not libascendcl.so)";
        return nullptr;
      }
      return api;
    }
    *why = "libascendcl.so not found (set ASCEND_HOME_PATH, e.g. by sourcing "
           "/usr/local/Ascend/ascend-toolkit/set_env.sh); tried:" + tried.str();
    return nullptr;
  }

 private:
  static bool resolve(AclApi* api, std::string* first_missing) {
#define NPURT_ACL_RESOLVE(name, required, ret, params)                                \
  api->name = reinterpret_cast<AclApi::name##_fn>(dlsym(api->handle_, #name));      \
  if (api->name == nullptr) {                                                       \
    if (required) {                                                                 \
      *first_missing = #name;                                                       \
      return false;                                                                 \
    }                                                                               \
    api->missing_optional.push_back(#name);                                         \
  }
    NPURT_ACL_FUNCTIONS(NPURT_ACL_RESOLVE)
#undef NPURT_ACL_RESOLVE
    return true;
  }
};

std::unique_ptr<AclApi> load_acl_api(const AclSearchEnv& env, std::string* why) {
  return AclLibraryLoader::load(env, why);
}

}  // namespace npurt::ascend
