// runtime/exec/profiler_summary.cc: the op summary (msprof "op summary") and its text table.
//
// Rows group executed activities by name (op name when the dispatcher annotated
// the launch, otherwise kernel name; "copy H2D", "memset", ...). GB/s and
// GFLOP/s use the bytes/flops the OpDef declared (bytes for copies and
// memsets) over the device time; an OpDef declares them for every call or none.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "npurt/profiler.h"
#include "npurt/status.h"

namespace npurt::profiler {

SortKey sort_key_from_name(const std::string& name, const char* where) {
  static const std::pair<const char*, SortKey> kKeys[] = {
      {"device_time", SortKey::kDeviceTime}, {"total", SortKey::kDeviceTime},
      {"calls", SortKey::kCalls},            {"mean", SortKey::kMeanTime},
      {"max", SortKey::kMaxTime},            {"name", SortKey::kName}};
  for (const auto& k : kKeys)
    if (name == k.first) return k.second;
  throw_invalid_argument(where, "sort_by",
                         "unknown key '" + name + "' (expected device_time, calls, mean, max or name)");
}

std::vector<OpStats> Profile::op_summary(SortKey key) const {
  std::map<std::string, OpStats> rows;
  for (const Activity& a : activities) {
    if (!a.executed) continue;
    OpStats& s = rows[a.name];
    int64_t ns = a.device_ns();
    if (s.calls == 0) {
      s.name = a.name;
      s.kind = a.kind;
      s.min_ns = ns;
      s.max_ns = ns;
    }
    ++s.calls;
    s.total_ns += ns;
    s.min_ns = std::min(s.min_ns, ns);
    s.max_ns = std::max(s.max_ns, ns);
    s.flops += a.flops;
    s.bytes += a.mem_bytes;
  }
  std::vector<OpStats> out;
  out.reserve(rows.size());
  for (auto& kv : rows) out.push_back(std::move(kv.second));
  auto metric = [key](const OpStats& s) -> double {
    switch (key) {
      case SortKey::kCalls: return double(s.calls);
      case SortKey::kMeanTime: return s.mean_ns();
      case SortKey::kMaxTime: return double(s.max_ns);
      default: return double(s.total_ns);
    }
  };
  if (key != SortKey::kName)
    std::stable_sort(out.begin(), out.end(),
                     [&](const OpStats& x, const OpStats& y) { return metric(x) > metric(y); });
  return out;
}

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string rate(double v) { return v > 0 ? fixed(v, 2) : "-"; }

}  // namespace

std::string Profile::table(SortKey key, size_t limit) const {
  std::vector<OpStats> rows = op_summary(key);
  int64_t total = 0;
  for (const OpStats& s : rows) total += s.total_ns;
  const std::vector<std::string> header = {"Name", "Kind", "Calls", "Total(us)", "Mean(us)",
                                           "Min(us)", "Max(us)", "Time%", "GB/s", "GFLOP/s"};
  std::vector<std::vector<std::string>> cells;
  size_t shown = limit == 0 ? rows.size() : std::min(limit, rows.size());
  for (size_t i = 0; i < shown; ++i) {
    const OpStats& s = rows[i];
    cells.push_back({s.name, activity_kind_name(s.kind), std::to_string(s.calls),
                     fixed(s.total_ns / 1e3, 3), fixed(s.mean_ns() / 1e3, 3),
                     fixed(s.min_ns / 1e3, 3), fixed(s.max_ns / 1e3, 3),
                     fixed(total ? 100.0 * double(s.total_ns) / double(total) : 0.0, 1),
                     rate(s.gbps()), rate(s.gflops())});
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : cells) width[c] = std::max(width[c], r[c].size());
  }
  std::ostringstream os;
  auto emit = [&](const std::vector<std::string>& r) {
    for (size_t c = 0; c < r.size(); ++c) {
      std::string pad(width[c] - r[c].size(), ' ');
      os << (c < 2 ? r[c] + pad : pad + r[c]) << (c + 1 < r.size() ? "  " : "\n");
    }
  };
  emit(header);
  for (const auto& r : cells) emit(r);
  os << rows.size() << " ops, " << fixed(total / 1e3, 3) << " us device time";
  if (shown < rows.size()) os << " (" << rows.size() - shown << " rows not shown)";
  if (incomplete) os << ", " << incomplete << " activities had not run when profiling stopped";
  os << "\n";
  return os.str();
}

}  // namespace npurt::profiler
