// runtime/backends/sim/aicore/gm_check.cc: GM access checks against the
// launch's regions and SetGlobalBuffer sizes, and the full-level per-block
// GM write log used by the multi-core overlap check.
#include <algorithm>
#include <string>

#include "aicore/global_tensor.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

std::string gm_where(const LaunchView& v, uintptr_t p) {
  if (const GmRegion* r = find_region(v, p)) return "'" + r->name() + "'+" + hex(p - r->begin);
  return hex(p);
}

namespace {

std::string region_list(const LaunchView& v) {
  std::string s;
  size_t n = 0;
  for (const GmRegion& r : v.regions) {
    if (n++ == 6) return s + ", ...";
    s += (s.empty() ? "" : ", ") + r.name() + " [" + hex(r.begin) + ", +" +
         std::to_string(r.end - r.begin) + ")";
  }
  return s.empty() ? "none" : s;
}

void log_write(CoreState& st, uintptr_t b, uint64_t bytes) {  // merges with the last range
  if (bytes == 0) return;
  uintptr_t e = b + bytes;
  auto& w = st.gm_writes;
  if (!w.empty() && b <= w.back().second && e >= w.back().first) {  // touches the last range
    w.back().first = std::min(w.back().first, b);
    w.back().second = std::max(w.back().second, e);
    return;
  }
  w.emplace_back(b, e);
}

}  // namespace

void bind_gm_region(CoreContext* c, GmRef& g) {
  const GmRegion* r = find_region(*state_of(c).view, reinterpret_cast<uintptr_t>(g.ptr));
  g.region_begin = r ? r->begin : 0;
  g.region_end = r ? r->end : 0;
}

void check_gm_bounds(CoreContext* c, const GmRef& g, const uint8_t* p, uint64_t bytes,
                     uint32_t align, const char* api, Access a) {
  CoreState& st = state_of(c);
  const LaunchView& v = *st.view;
  const bool rd = a == Access::kRead;
  const Diag code = rd ? Diag::kGmRead : Diag::kGmWrite;
  const uintptr_t b = reinterpret_cast<uintptr_t>(p);
  // Built only on a fault: this runs for every DataCopy of every block.
  auto what = [&] {
    return std::string(rd ? "GM read" : "GM write") + " of " + std::to_string(bytes) + " B at " +
           gm_where(v, b);
  };
  if (g.region_end == 0)
    raise_fault(code, api,
                what() + ": the tensor's buffer " + hex(reinterpret_cast<uintptr_t>(g.ptr)) +
                    " is not inside any GM allocation of the launch (regions: " +
                    region_list(v) + ")");
  const GmRegion* r = find_region(v, g.region_begin);
  if (b < g.region_begin || b > g.region_end || bytes > g.region_end - b)
    raise_fault(code, api,
                what() + " runs outside its allocation '" + (r ? r->name() : std::string("?")) + "' of " +
                    std::to_string(g.region_end - g.region_begin) + " B (access ends at +" +
                    std::to_string(int64_t(b - g.region_begin) + int64_t(bytes)) + ")");
  if (g.limit != nullptr && (p > g.limit || bytes > uint64_t(g.limit - p)))
    raise_fault(code, api,
                what() + " runs past the SetGlobalBuffer size (buffer ends at " +
                    gm_where(v, reinterpret_cast<uintptr_t>(g.limit)) + ")");
  if ((b & (align - 1)) != 0)
    raise_fault(rd ? Diag::kRead4 : Diag::kWrite4, api,
                what() + ": GM address is not aligned to the element size " + std::to_string(align));
}

void log_gm_write(CoreContext* c, const uint8_t* p, uint64_t bytes) {
  log_write(state_of(c), reinterpret_cast<uintptr_t>(p), bytes);
}

void check_gm_slow(CoreContext* c, const GmRef& g, const uint8_t* p, uint64_t bytes,
                   uint32_t align, const char* api, Access a) {
  if (c->level == SimCheckLevel::kOff) return;
  if (!gm_access_ok(g, p, bytes, align)) check_gm_bounds(c, g, p, bytes, align, api, a);
  if (a == Access::kWrite && c->level == SimCheckLevel::kFull && c->atomic == AtomicMode::kNone)
    log_gm_write(c, p, bytes);
}

}  // namespace npurt::sim
