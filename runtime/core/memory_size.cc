// runtime/core/memory_size.cc: parse_memory_limit ("1073741824", "8G", "512MiB", "50%").
//
// Shared by the pool limit (NPURT_MEMORY_LIMIT) and the sim device budget
// (NPURT_SIM_MEMORY). Suffixes are binary (K = 1024); a percentage is of
// device_total. Anything else is an InvalidArgument naming the text.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "npurt/memory_pool.h"
#include "npurt/status.h"

namespace npurt {

uint64_t parse_memory_limit(const std::string& text, uint64_t device_total) {
  const char* where = "npurt.parse_memory_limit";
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (t.empty()) throw_invalid_argument(where, "text", "empty memory size");
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  std::string suffix(end);
  if (end == t.c_str() || !std::isfinite(v) || v < 0)
    throw_invalid_argument(where, "text", "'" + text + "' is not a non-negative size (bytes, '8G', '512M' or '50%')");
  double scale = 0;
  if (suffix == "%") {
    if (v > 100) throw_invalid_argument(where, "text", "percentage '" + text + "' is above 100%");
    return static_cast<uint64_t>(v / 100.0 * static_cast<double>(device_total));
  }
  if (suffix.empty() || suffix == "B") scale = 1;
  else if (suffix == "K" || suffix == "KB" || suffix == "KIB") scale = 1024.0;
  else if (suffix == "M" || suffix == "MB" || suffix == "MIB") scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "GB" || suffix == "GIB") scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "TB" || suffix == "TIB") scale = 1024.0 * 1024 * 1024 * 1024;
  else
    throw_invalid_argument(where, "text", "unknown unit '" + suffix + "' in '" + text + "' (use K, M, G, T or %)");
  double bytes = v * scale;
  if (bytes >= 1.8e19) throw_invalid_argument(where, "text", "'" + text + "' is too large");
  return static_cast<uint64_t>(bytes);
}

}  // namespace npurt
