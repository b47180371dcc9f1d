// runtime/ops/op_registry.cc: the op table, static registrars, load scopes and
// loading the built-in kernel library.
#include "npurt/op_registry.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sys/stat.h>

#include "npurt/dispatch.h"
#include "npurt/status.h"
#include "registry_internal.h"

namespace npurt {

namespace {

struct RegistryState {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<RegisteredOp>> ops;
  std::atomic<uint64_t> generation{0};
  std::vector<std::string> startup_errors;
  std::string kernels_error;  // why the built-in kernel library did not load, or ""
};

// Leaked on purpose: OpHandles and in-flight launches may outlive static destruction.
RegistryState& state() {
  static RegistryState* s = new RegistryState;
  return *s;
}

thread_local LoadScope* t_scope = nullptr;

std::string duplicate_message(const OpDef& def, const RegisteredOp& existing) {
  return "npurt.register_op: op '" + def.name + "' is already registered (by " +
         existing.def.source + "); the one from " + def.source + " was not registered";
}

// Caller holds the lock.
const OpDef& insert_locked(RegistryState& s, OpDef def) {
  auto op = std::make_unique<RegisteredOp>();
  op->where = op_where(def);
  op->def = std::move(def);
  const OpDef& stored = op->def;
  s.ops.emplace(stored.name, std::move(op));
  s.generation.fetch_add(1, std::memory_order_release);
  return stored;
}

bool file_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

// Records why the built-in kernels are missing: registration_errors(), stderr,
// and the "unknown op" message (builtin_kernels_error()).
void kernels_load_failed(std::string msg) {
  std::fprintf(stderr, "%s\n", msg.c_str());
  RegistryState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.kernels_error = msg;
  s.startup_errors.push_back(std::move(msg));
}

// The default kernels library: libnpurt_kernels.so next to this libnpurt.so
// (the wheel's npurt/lib, an install's lib/); "" when this code is not in a
// shared libnpurt (a static copy of the runtime would load a second runtime
// through the kernels' dependency on libnpurt.so).
std::string default_kernels_path() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&default_kernels_path), &info) || !info.dli_fname) return "";
  std::string self = info.dli_fname;
  size_t slash = self.rfind('/');
  std::string base = slash == std::string::npos ? self : self.substr(slash + 1);
  if (base.rfind("libnpurt.so", 0) != 0) return "";
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/libnpurt_kernels.so";
}

// Loads the built-in kernels unless they are linked into the process already.
// A non-empty $NPURT_KERNELS_LIBRARY replaces the default location, and a
// missing file there is an error (a silently absent default is not: builds
// without a kernels library exist).
void load_builtin_kernels() {
  {
    RegistryState& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.ops.count("copy")) return;  // linked in (static runtime: C++ tests, embedders)
  }
  const char* env = std::getenv("NPURT_KERNELS_LIBRARY");
  std::string path = env && *env ? std::string(env) : default_kernels_path();
  if (path.empty()) return;
  if (!file_exists(path)) {
    if (env && *env)
      kernels_load_failed("npurt: could not load the built-in kernels: NPURT_KERNELS_LIBRARY='" + path +
                          "': no such file");
    return;
  }
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* err = dlerror();
    kernels_load_failed("npurt: could not load the built-in kernels '" + path +
                        "': " + (err ? err : "unknown dlopen error"));
  }
}

void ensure_builtin_kernels() {
  static std::once_flag once;
  std::call_once(once, load_builtin_kernels);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string op_where(const OpDef& def) { return "npurt.ops." + def.name; }

OpRegistry& OpRegistry::instance() {
  static OpRegistry r;
  return r;
}

const OpDef& OpRegistry::add(OpDef def) {
  if (def.source.empty()) def.source = "the C++ API";
  def.validate();
  RegistryState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.ops.find(def.name);
  if (it != s.ops.end()) throw Error(StatusCode::kAlreadyExists, duplicate_message(def, *it->second));
  return insert_locked(s, std::move(def));
}

const OpDef* OpRegistry::find(const std::string& name) const {
  RegisteredOp* op = find_registered_op(name);
  return op ? &op->def : nullptr;
}

std::vector<std::string> OpRegistry::names() const {
  ensure_builtin_kernels();
  RegistryState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  std::vector<std::string> out;
  for (auto& kv : s.ops) out.push_back(kv.first);
  return out;
}

uint64_t OpRegistry::generation() const { return state().generation.load(std::memory_order_acquire); }

std::vector<std::string> registration_errors() {
  ensure_builtin_kernels();
  std::lock_guard<std::mutex> lock(state().mu);
  return state().startup_errors;
}

RegisteredOp* find_registered_op(const std::string& name) {
  ensure_builtin_kernels();
  RegistryState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.ops.find(name);
  return it == s.ops.end() ? nullptr : it->second.get();
}

std::string builtin_kernels_error() {
  ensure_builtin_kernels();
  std::lock_guard<std::mutex> lock(state().mu);
  return state().kernels_error;
}

std::vector<std::string> similar_op_names(const std::string& name) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (auto& n : OpRegistry::instance().names()) {
    size_t d = edit_distance(name, n);
    if (d <= std::max<size_t>(2, name.size() / 3) || n.find(name) != std::string::npos)
      scored.emplace_back(d, n);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 5; ++i) out.push_back(scored[i].second);
  return out;
}

// ---- static registration --------------------------------------------------------

OpRegistrar::OpRegistrar(const OpDefBuilder& builder) noexcept
    : OpRegistrar(std::vector<OpDefBuilder>{builder}) {}

OpRegistrar::OpRegistrar(const std::vector<OpDefBuilder>& builders) noexcept {
  for (const OpDefBuilder& b : builders) {
    if (LoadScope* scope = LoadScope::current()) {
      scope->stage(b.def());
      continue;
    }
    Status st = capture_status([&] {
      OpDef def = b.def();
      def.source = "builtin";
      OpRegistry::instance().add(std::move(def));
    });
    if (!st.is_ok()) {
      std::fprintf(stderr, "npurt: %s\n", st.message().c_str());
      std::lock_guard<std::mutex> lock(state().mu);
      state().startup_errors.push_back(st.message());
    }
  }
}

// ---- load scopes ------------------------------------------------------------------

// The built-in kernels load first, outside the scope: their registrars must not
// stage into a plugin's scope, and a plugin clashing with a built-in op is the
// one refused, whether or not an op ran before.
LoadScope::LoadScope(std::string library_path) : path_(std::move(library_path)), previous_(t_scope) {
  ensure_builtin_kernels();
  t_scope = this;
}
LoadScope::~LoadScope() { t_scope = previous_; }
LoadScope* LoadScope::current() { return t_scope; }

void LoadScope::stage(OpDef def) noexcept {
  Status st = capture_status([&] {
    def.source = path_;
    def.validate();
    staged_.push_back(std::move(def));
  });
  if (!st.is_ok()) errors_.push_back(st.message());
}

std::vector<std::string> LoadScope::commit() {
  RegistryState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  std::vector<std::string> errors = errors_;
  for (size_t i = 0; i < staged_.size(); ++i) {
    const OpDef& d = staged_[i];
    auto it = s.ops.find(d.name);
    if (it != s.ops.end()) errors.push_back(duplicate_message(d, *it->second));
    for (size_t j = 0; j < i; ++j)
      if (staged_[j].name == d.name)
        errors.push_back("npurt.register_op: op '" + d.name + "' is registered twice by " + path_);
  }
  if (!errors.empty()) {
    std::string msg;
    for (auto& e : errors) msg += (msg.empty() ? "" : "; ") + e;
    bool dup = msg.find("already registered") != std::string::npos ||
               msg.find("registered twice") != std::string::npos;
    throw Error(dup ? StatusCode::kAlreadyExists : StatusCode::kInvalidArgument, msg);
  }
  std::vector<std::string> names;
  for (OpDef& d : staged_) {
    names.push_back(d.name);
    insert_locked(s, std::move(d));
  }
  staged_.clear();
  return names;
}

}  // namespace npurt
