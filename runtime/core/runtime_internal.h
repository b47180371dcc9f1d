// runtime/core/runtime_internal.h: the device manager's concrete DeviceContext (internal).
//
// Invariants:
//   - One DeviceContextImpl per device, created on first use, never destroyed
//     (stream workers may run during static destruction).
//   - streams_ holds weak references: the context never keeps a stream alive.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "npurt/runtime.h"

namespace npurt {

class StreamImpl;

class DeviceContextImpl final : public DeviceContext {
 public:
  DeviceContextImpl(Device device, Backend* backend, int backend_index);

  Device device() const override { return device_; }
  Backend& backend() const override { return *backend_; }
  int backend_index() const override { return index_; }
  const ChipProfile& profile() const override { return *profile_; }
  MemoryPool& pool() const override { return *pool_; }
  Stream default_stream() const override { return default_stream_; }
  std::vector<Stream> streams() const override;

  void add_stream(const std::shared_ptr<StreamImpl>& s);

 private:
  Device device_;
  Backend* backend_;
  int index_;
  const ChipProfile* profile_;
  std::unique_ptr<MemoryPool> pool_;
  Stream default_stream_;
  mutable std::mutex mu_;
  mutable std::vector<std::weak_ptr<StreamImpl>> streams_;
};

DeviceContextImpl& device_context_impl(Device device);

// Creates the StreamImpl of a new stream on `ctx` (exec/stream.cc).
std::shared_ptr<StreamImpl> create_stream_impl(DeviceContextImpl& ctx, bool is_default);

}  // namespace npurt
