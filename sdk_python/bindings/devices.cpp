// sdk_python/bindings/devices.cpp: nr.Device, nr.ChipProfile, device and backend listing.
//
// nr.Device is the runtime's Device value (backend type + index); its profile
// and memory size come from the device's DeviceContext. Devices compare equal
// to their string form (nr.Device("sim:0") == "sim:0").
#include <string>

#include "bindings.h"
#include "npurt/backend.h"
#include "npurt/sim_check.h"
#include "npurt/chip_profile.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

Device device_from_args(nb::handle spec, nb::handle index) {
  const char* where = "npurt.Device";
  if (index.is_none()) return device_arg(spec.is_none() ? nb::handle(nb::str("sim")) : spec, where, "device");
  if (!nb::isinstance<nb::str>(spec)) throw_invalid_argument(where, "type", "expected 'sim' or 'ascend'");
  std::string text = nb::cast<std::string>(spec) + ":" + nb::cast<std::string>(nb::str(index));
  return device_arg(nb::str(text.c_str()), where, "device");
}

bool device_equals(Device self, nb::handle other) {
  if (nb::isinstance<Device>(other)) return nb::cast<Device>(other) == self;
  if (nb::isinstance<nb::str>(other)) {
    try {
      return parse_device(nb::cast<std::string>(other)) == self;
    } catch (const Error&) {
      return false;
    }
  }
  return false;
}

nb::dict backend_entry(DeviceType type) {
  nb::dict d;
  Backend* b = backend_for(type);
  d["name"] = device_type_name(type);
  d["available"] = b != nullptr;
  d["device_count"] = b ? b->device_count() : 0;
  d["reason"] = b ? std::string() : backend_unavailable_reason(type);
  return d;
}

void bind_chip_profile(nb::module_& m) {
  nb::class_<ChipProfile>(m, "ChipProfile", "Hardware constants of one Ascend chip model (read-only).")
      .def_ro("name", &ChipProfile::name)
      .def_ro("npu_arch", &ChipProfile::npu_arch)
      .def_ro("separated", &ChipProfile::separated, "AIC and AIV are separate cores")
      .def_ro("cube_cores", &ChipProfile::cube_cores)
      .def_ro("vector_cores", &ChipProfile::vector_cores)
      .def_ro("ub_bytes", &ChipProfile::ub_bytes)
      .def_ro("ub_usable_bytes", &ChipProfile::ub_usable_bytes)
      .def_ro("l1_bytes", &ChipProfile::l1_bytes)
      .def_ro("l0a_bytes", &ChipProfile::l0a_bytes)
      .def_ro("l0b_bytes", &ChipProfile::l0b_bytes)
      .def_ro("l0c_bytes", &ChipProfile::l0c_bytes)
      .def_ro("l2_bytes", &ChipProfile::l2_bytes)
      .def_ro("hbm_bytes", &ChipProfile::hbm_bytes)
      .def_ro("sys_workspace_bytes", &ChipProfile::sys_workspace_bytes)
      .def_ro("ub_align", &ChipProfile::ub_align)
      .def_ro("l1_align", &ChipProfile::l1_align)
      .def_ro("l0ab_align", &ChipProfile::l0ab_align)
      .def_ro("l0c_align", &ChipProfile::l0c_align)
      .def_ro("has_datacopy_pad", &ChipProfile::has_datacopy_pad)
      .def_ro("has_bf16", &ChipProfile::has_bf16)
      .def_ro("est_fp16_tflops", &ChipProfile::est_fp16_tflops, "derived estimate, not a datasheet value")
      .def_ro("est_hbm_gbps", &ChipProfile::est_hbm_gbps, "third-party estimate")
      .def("__repr__", [](const ChipProfile& p) {
        return "ChipProfile('" + p.name + "', vector_cores=" + std::to_string(p.vector_cores) +
               ", cube_cores=" + std::to_string(p.cube_cores) + ", ub_bytes=" + std::to_string(p.ub_bytes) + ")";
      });
  m.def("chip_profiles", &chip_profiles, nb::rv_policy::reference, "All built-in chip profiles.");
  m.def("chip_profile", [](const std::string& name) -> const ChipProfile& { return chip_profile(name); },
        nb::rv_policy::reference, nb::arg("name"), "The profile named e.g. 'Ascend910B3' or '910B3'.");
}

}  // namespace

void bind_devices(nb::module_& m) {
  bind_chip_profile(m);
  nb::class_<Device>(m, "Device", "A device: backend type and index, e.g. nr.Device('sim:0').")
      .def("__init__", [](Device* self, nb::handle spec, nb::handle index) { new (self) Device(device_from_args(spec, index)); },
           nb::arg("device") = nb::none(), nb::arg("index") = nb::none())
      .def_prop_ro("type", [](Device d) { return device_type_name(d.type); })
      .def_prop_ro("index", [](Device d) { return d.index; })
      .def_prop_ro("profile", [](Device d) -> const ChipProfile& { return device_context(d).profile(); },
                   nb::rv_policy::reference, "the chip profile kernels and tiling read")
      .def_prop_ro("name", [](Device d) { return device_context(d).profile().name; })
      .def_prop_ro("backend", [](Device d) { return device_context(d).backend().name(); })
      .def_prop_ro("total_memory",
                   [](Device d) {
                     DeviceContext& c = device_context(d);
                     return c.backend().total_memory(c.backend_index());
                   },
                   "device memory in bytes (sim: host memory the pool may use)")
      .def("__eq__", &device_equals, nb::arg("other").none())
      .def("__ne__", [](Device d, nb::handle o) { return !device_equals(d, o); }, nb::arg("other").none())
      .def("__hash__", [](Device d) { return nb::hash(nb::str(d.str().c_str())); })
      .def("__str__", &Device::str)
      .def("__repr__", [](Device d) { return "npurt.Device('" + d.str() + "')"; })
      .def("__reduce__", [](Device d) { return nb::make_tuple(nb::type<Device>(), nb::make_tuple(d.str())); });

  m.def("devices", &devices, "Every available device, sim devices first.");
  m.def("device_count", []() { return devices().size(); });
  m.def("current_device", &current_device, "This thread's current device (default sim:0).");
  m.def("set_device", [](nb::handle d) { set_current_device(device_arg(d, "npurt.set_device")); }, nb::arg("device"),
        "Sets this thread's current device.");
  m.def("backends",
        []() {
          nb::list out;
          for (DeviceType t : {DeviceType::kSim, DeviceType::kAscend}) out.append(backend_entry(t));
          return out;
        },
        "Each backend: name, available, device_count, and the reason when unavailable.");
  m.def("runtime_version", &version, "Version of libnpurt.");
  m.def("_reload_sim_check_level", [] { return static_cast<int>(reload_sim_check_level()); },
        "Re-reads NPURT_SIM_CHECK (launches read it once); npurt.debug.sim_check_level calls it.");
}

}  // namespace npurt::python
