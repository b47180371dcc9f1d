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

// -1: not read yet; else 0 when NPURT_SIM_DCACHE_CHECK=0 (or set_dcache_check(false)), 1 otherwise.
std::atomic<int> g_dcache_check{-1};

size_t line_hash(uintptr_t line) { return size_t((line >> 6) * 0x9E3779B97F4A7C15ull >> 20); }

}  // namespace

void DCacheLog::clear() {
  if (count == 0) return;
  if (slots.size() > (size_t{1} << 16)) {  // a big block's table is not kept for the next ones
    slots = {};
    wrote = {};
  } else {
    std::fill(slots.begin(), slots.end(), uintptr_t{0});
  }
  count = 0;
  epoch = 1;
}

size_t DCacheLog::find(uintptr_t line) const {
  const size_t mask = slots.size() - 1;
  size_t i = line_hash(line) & mask;
  while (slots[i] != 0 && slots[i] != line) i = (i + 1) & mask;
  return i;
}

void DCacheLog::grow() {
  std::vector<uintptr_t> old = std::move(slots);
  std::vector<uint32_t> old_wrote = std::move(wrote);
  slots.assign(std::max<size_t>(64, old.size() * 2), 0);
  wrote.assign(slots.size(), 0);
  for (size_t j = 0; j < old.size(); ++j) {
    if (old[j] == 0) continue;
    const size_t i = find(old[j]);
    slots[i] = old[j];
    wrote[i] = old_wrote[j];
  }
}

void DCacheLog::insert(uintptr_t line) {
  if ((count + 1) * 2 > slots.size()) grow();
  const size_t i = find(line);
  if (slots[i] == 0) slots[i] = line, ++count;
  wrote[i] = epoch;
}

void DCacheLog::clean(uintptr_t line) {
  if (count == 0) return;
  const size_t i = find(line);
  if (slots[i] != 0) wrote[i] = 0;
}

void DCacheLog::clean_all() {
  if (++epoch == 0) {  // 2^32 cleans: no stored epoch may equal the new one
    std::fill(wrote.begin(), wrote.end(), 0u);
    epoch = 1;
  }
}

bool dcache_check_enabled() {
  int on = g_dcache_check.load(std::memory_order_relaxed);
  if (on < 0) {
    const char* e = std::getenv("NPURT_SIM_DCACHE_CHECK");
    on = e != nullptr && std::strcmp(e, "0") == 0 ? 0 : 1;
    g_dcache_check.store(on, std::memory_order_relaxed);
  }
  return on == 1;
}

void set_dcache_check(bool on) { g_dcache_check.store(on ? 1 : 0, std::memory_order_relaxed); }
void reset_dcache_check() { g_dcache_check.store(-1, std::memory_order_relaxed); }

void record_gm_scalar_write(CoreContext* c, uintptr_t line) {
  c->dirty_line = line;  // off: later writes to this line stay inline
  if (!dcache_check_enabled()) return;
  state_of(c).dcache.insert(line);
}

void clean_dcache(CoreContext* c, const uint8_t* p, bool entire) {
  DCacheLog& log = state_of(c).dcache;
  c->dirty_line = 0;
  if (entire) {
    log.clean_all();
    return;
  }
  log.clean(reinterpret_cast<uintptr_t>(p) & ~(kDCacheLineBytes - 1));
}

void dcache_end_of_block(CoreState& st) {
  const DCacheLog& log = st.dcache;
  if (log.empty() || st.fault.set) return;
  uintptr_t line = 0;
  size_t n = 0;
  for (size_t i = 0; i < log.slots.size(); ++i) {
    if (!log.dirty(i)) continue;
    line = n++ == 0 ? log.slots[i] : std::min(line, log.slots[i]);
  }
  if (n == 0) return;
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
  for (uintptr_t line : st.dcache.slots)
    if (line != 0) out.emplace_back(line, block);
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
