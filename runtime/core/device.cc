// runtime/core/device.cc: Device names and parsing ("sim", "sim:1", "ascend:0").
#include "npurt/device.h"

#include <cctype>
#include <cstdlib>

#include "npurt/status.h"

namespace npurt {

const char* device_type_name(DeviceType t) {
  switch (t) {
    case DeviceType::kSim: return "sim";
    case DeviceType::kAscend: return "ascend";
  }
  return "unknown";
}

std::string Device::str() const { return std::string(device_type_name(type)) + ":" + std::to_string(index); }

Device parse_device(const std::string& s) {
  const char* where = "npurt.Device";
  std::string text;
  for (char c : s) text.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  std::string type_part = text, index_part;
  size_t colon = text.find(':');
  if (colon != std::string::npos) {
    type_part = text.substr(0, colon);
    index_part = text.substr(colon + 1);
  }
  Device d;
  if (type_part == "sim") {
    d.type = DeviceType::kSim;
  } else if (type_part == "ascend" || type_part == "npu") {
    d.type = DeviceType::kAscend;
  } else {
    throw_invalid_argument(where, "device", "unknown device type in '" + s + "' (expected 'sim' or 'ascend', optionally ':<index>')");
  }
  if (colon != std::string::npos) {
    bool digits = !index_part.empty() && index_part.size() <= 9;
    for (char c : index_part) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits)
      throw_invalid_argument(where, "device", "index in '" + s + "' is not a non-negative integer");
    d.index = static_cast<int32_t>(std::strtol(index_part.c_str(), nullptr, 10));
  }
  return d;
}

}  // namespace npurt
