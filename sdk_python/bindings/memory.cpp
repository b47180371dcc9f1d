// sdk_python/bindings/memory.cpp: the per-device memory pool, as nr.memory.
//
// A submodule `_npurt._memory` (re-exported as the Python module npurt.memory)
// over MemoryPool: statistics with PyTorch's key names, empty_cache, the limit
// and the caching switch. Every function takes `device=None` (current device).
#include <string>

#include "bindings.h"
#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

MemoryPool& pool_arg(nb::handle device, const char* where) {
  return device_context(device_arg(device, where)).pool();
}

uint64_t limit_arg(nb::handle limit, nb::handle device, const char* where) {
  if (limit.is_none()) return 0;
  if (nb::isinstance<nb::str>(limit)) {
    DeviceContext& c = device_context(device_arg(device, where));
    std::string text = nb::cast<std::string>(limit);
    try {
      return parse_memory_limit(text, c.backend().total_memory(c.backend_index()));
    } catch (const InvalidArgument&) {
      throw_invalid_argument(where, "limit", "cannot parse '" + text + "' (expected bytes, '8G', '512M' or '50%')");
    }
  }
  PyObject* index = PyNumber_Index(limit.ptr());
  if (!index) {
    PyErr_Clear();
    throw_invalid_argument(where, "limit", std::string("expected bytes (int), a string like '8G' or '50%', or None; got ") +
                                               nb::type_name(limit.type()).c_str());
  }
  nb::object value = nb::steal(index);
  if (PyObject_RichCompareBool(value.ptr(), nb::int_(0).ptr(), Py_LT) == 1) {
    throw_invalid_argument(where, "limit", "must be >= 0 (0 or None: no limit), got " +
                                               std::string(nb::str(value).c_str()));
  }
  return nb::cast<uint64_t>(value);
}

}  // namespace

void bind_memory(nb::module_& m) {
  nb::module_ mem = m.def_submodule("_memory", "Device memory pool (use npurt.memory).");
  auto dev = nb::arg("device") = nb::none();

  mem.def("stats",
          [](nb::handle device) {
            nb::dict out;
            for (const auto& kv : pool_arg(device, "npurt.memory.stats").stats()) out[kv.first.c_str()] = kv.second;
            return out;
          },
          dev, "Pool statistics with PyTorch's key names (allocated_bytes.all.current, ...).");
  mem.def("stat", [](const std::string& key, nb::handle device) { return pool_arg(device, "npurt.memory.stat").stat(key); },
          nb::arg("key"), dev, "One statistic (0 when the key is unknown).");
  mem.def("memory_allocated",
          [](nb::handle device) { return pool_arg(device, "npurt.memory.memory_allocated").stat("allocated_bytes.all.current"); },
          dev, "Bytes in live allocations.");
  mem.def("memory_reserved",
          [](nb::handle device) { return pool_arg(device, "npurt.memory.memory_reserved").stat("reserved_bytes.all.current"); },
          dev, "Bytes held by the pool (live + cached).");
  mem.def("empty_cache",
          [](nb::handle device) {
            MemoryPool& pool = pool_arg(device, "npurt.memory.empty_cache");
            nb::gil_scoped_release release;
            pool.empty_cache();
          },
          dev, "Returns every fully free cached segment to the device.");
  mem.def("set_limit",
          [](nb::handle limit, nb::handle device) {
            const char* where = "npurt.memory.set_limit";
            pool_arg(device, where).set_limit(limit_arg(limit, device, where));
          },
          nb::arg("limit").none(), dev, "Caps reserved bytes: an int, '8G', '512M', '50%', or 0/None for no limit.");
  mem.def("get_limit", [](nb::handle device) { return pool_arg(device, "npurt.memory.get_limit").limit(); }, dev,
          "The limit in bytes (0: none).");
  mem.def("reset_peak_stats", [](nb::handle device) { pool_arg(device, "npurt.memory.reset_peak_stats").reset_peak_stats(); },
          dev);
  mem.def("set_caching", [](bool enabled, nb::handle device) { pool_arg(device, "npurt.memory.set_caching").set_caching(enabled); },
          nb::arg("enabled"), dev, "False: every block is its own segment, freed at once (like NPURT_NO_CACHING=1).");
  mem.def("caching", [](nb::handle device) { return pool_arg(device, "npurt.memory.caching").caching(); }, dev);
  mem.def("round_size",
          [](nb::handle nbytes) {
            // Checked here: nanobind's size_t cast refuses -1 or 2**70 without naming the function or argument.
            const char* where = "npurt.memory.round_size";
            if (PyBool_Check(nbytes.ptr()) || !PyLong_Check(nbytes.ptr()))
              throw_invalid_argument(where, "nbytes", "expected an int, got " +
                                                          std::string(nb::type_name(nbytes.type()).c_str()));
            int overflow = 0;
            const long long n = PyLong_AsLongLongAndOverflow(nbytes.ptr(), &overflow);
            if (overflow != 0 || n < 0)
              throw_invalid_argument(where, "nbytes", "must be in [0, 2**63), got " + nb::cast<std::string>(nb::str(nbytes)));
            return MemoryPool::round_size(static_cast<size_t>(n));
          },
          nb::arg("nbytes"), "Bytes the pool reserves for a request.");
  mem.def("describe", [](nb::handle device) { return pool_arg(device, "npurt.memory.describe").describe_usage(); }, dev,
          "One line: allocated, reserved, limit.");
}

}  // namespace npurt::python
