// npurt/runtime.h: the device manager, the entry point of an embedding program.
//
// The runtime is created lazily on first use and lives until process exit.
// Each device has one DeviceContext (backend, chip profile, memory pool, default
// stream). Sim devices: NPURT_SIM_DEVICES (default 1), profile
// NPURT_SIM_PROFILE (default Ascend910B3). Ascend devices appear only when
// AscendCL loads and reports devices.
#pragma once

#include <string>
#include <vector>

#include "npurt/backend.h"
#include "npurt/chip_profile.h"
#include "npurt/device.h"
#include "npurt/memory_pool.h"
#include "npurt/stream.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class DeviceContext {
 public:
  virtual ~DeviceContext() = default;
  virtual Device device() const = 0;
  virtual Backend& backend() const = 0;
  virtual int backend_index() const = 0;   // index within its backend
  virtual const ChipProfile& profile() const = 0;
  virtual MemoryPool& pool() const = 0;
  virtual Stream default_stream() const = 0;
  // Every live stream of the device (for synchronize_device).
  virtual std::vector<Stream> streams() const = 0;
};

std::vector<Device> devices();                 // all available devices
DeviceContext& device_context(Device device);  // throws NotFound for a bad device
Device current_device();                       // this thread's (default sim:0)
void set_current_device(Device device);

std::string version();                          // "0.1.0"

}  // namespace npurt
NPURT_PUBLIC_END
