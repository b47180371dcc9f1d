// runtime/backends/sim/aicore/dcache_check.cc: bookkeeping of GM scalar writes
// through the simulated DCache and the two checks on it (aicore/dcache.h):
// a line still dirty at block end, and a line scalar-written by two blocks.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "aicore/dcache.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

namespace {

std::string line_where(const LaunchView& v, uintptr_t line) {
  const GmRegion* r = find_region(v, line);
  if (r == nullptr) {  // the line may start before the allocation it belongs to
    r = find_region(v, line + kDCacheLineBytes - 1);
    if (r != nullptr && r->begin > line) return "'" + r->name() + "'-" + hex(r->begin - line);
  }
  return r ? "'" + r->name() + "'+" + hex(line - r->begin) : hex(line);
}

// -1: not read yet; else NPURT_SIM_DCACHE_CHECK=1 (or set_dcache_check).
std::atomic<int> g_dcache_check{-1};

}  // namespace

bool dcache_check_enabled() {
  int on = g_dcache_check.load(std::memory_order_relaxed);
  if (on < 0) {
    const char* e = std::getenv("NPURT_SIM_DCACHE_CHECK");
    on = e != nullptr && std::strcmp(e, "1") == 0 ? 1 : 0;
    g_dcache_check.store(on, std::memory_order_relaxed);
  }
  return on == 1;
}

void set_dcache_check(bool on) { g_dcache_check.store(on ? 1 : 0, std::memory_order_relaxed); }

void record_gm_scalar_write(CoreContext* c, uintptr_t line) {
  c->dirty_line = line;  // off: later writes to this line stay inline
  if (!dcache_check_enabled()) return;
  DCacheLog& log = state_of(c).dcache;
  log.written.push_back(line);
  log.dirty.push_back(line);
}

void clean_dcache(CoreContext* c, const uint8_t* p, bool entire) {
  DCacheLog& log = state_of(c).dcache;
  c->dirty_line = 0;
  if (entire) {
    log.dirty.clear();
    return;
  }
  const uintptr_t line = reinterpret_cast<uintptr_t>(p) & ~(kDCacheLineBytes - 1);
  log.dirty.erase(std::remove(log.dirty.begin(), log.dirty.end(), line), log.dirty.end());
}

void dcache_end_of_block(CoreState& st) {
  if (st.dcache.dirty.empty() || st.fault.set) return;
  const uintptr_t line = *std::min_element(st.dcache.dirty.begin(), st.dcache.dirty.end());
  std::sort(st.dcache.dirty.begin(), st.dcache.dirty.end());
  const size_t n = size_t(std::unique(st.dcache.dirty.begin(), st.dcache.dirty.end()) -
                          st.dcache.dirty.begin());
  record_fault(st, Diag::kDCacheClean, "GlobalTensor::SetValue",
               "the 64 B GM line at " + line_where(*st.view, line) +
                   " was written by scalar SetValue/operator() and not cleaned before the "
                   "kernel ended" + (n > 1 ? " (" + std::to_string(n) + " such lines)" : "") +
                   ": scalar GM writes stay in the core's DCache; call "
                   "DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, "
                   "DcciDst::CACHELINE_OUT>(gm) on the written line (or "
                   "CacheLine::ENTIRE_DATA_CACHE) after the last scalar write, or stage the "
                   "values in UB and DataCopy them out");
}

void dcache_take_lines(CoreState& st, uint32_t block, std::vector<LineOwner>& out) {
  std::vector<uintptr_t>& w = st.dcache.written;
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  for (uintptr_t line : w) out.emplace_back(line, block);
}

bool find_dcache_share(const LaunchView& v, std::vector<LineOwner>& lines, DCacheShare* out) {
  std::sort(lines.begin(), lines.end());
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].first != lines[i - 1].first) continue;  // blocks' lists are distinct
    out->first_block = lines[i - 1].second;
    out->second_block = lines[i].second;
    out->detail = "blocks " + std::to_string(out->first_block) + " and " +
                  std::to_string(out->second_block) + " both write the 64 B GM line at " +
                  line_where(v, lines[i].first) +
                  " by scalar SetValue/operator(); a core's DCache writes back whole 64 B "
                  "lines, so one block's write-back overwrites the other's bytes (even after "
                  "DataCacheCleanAndInvalid): keep each block's scalar GM outputs >= 64 B "
                  "apart (pad per-block outputs to 64 B), or stage them in UB and DataCopy "
                  "them out";
    return true;
  }
  return false;
}

}  // namespace npurt::sim
