// aicore/local_tensor.h: AscendC::LocalTensor<T>, a typed window on a buffer in
// the core's local memory (UB, L1, L0*).
//
// A LocalTensor is a small value (pointer, byte length, position, record) that
// kernels copy freely. It never owns memory: the buffer belongs to a TQue/TBuf
// and the TPipe. operator[] narrows the window and keeps the record, so every
// access is checked against the tensor it came from. GetPhyAddr() is the host
// address of the first element (the CPU-debug convention), so address
// arithmetic and 32-B alignment tests work as on hardware.
// GetValue/SetValue/operator() are scalar accesses (pipe S); they are only
// allowed on UB positions, like on hardware.
// Every accessor that exposes the buffer's bytes (npurt_ref, npurt_host,
// GetPhyAddr, GetValue/SetValue/operator()) first materializes a pending copy
// elision mirror (aicore/buffer_record.h); only npurt_ref_lazy(), used by the
// mirror-aware paths (queue bookkeeping, GM->UB DataCopy, vector sources),
// leaves it pending.
#pragma once

#include <cstdint>
#include <cstring>

#include "aicore/buffer_record.h"
#include "aicore/fault.h"
#include "aicore/local_access.h"

namespace AscendC {

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  explicit LocalTensor(const npurt::sim::LocalRef& ref) : ref_(ref) {}

  uint32_t GetSize() const { return ref_.bytes / static_cast<uint32_t>(sizeof(T)); }
  uint32_t GetLength() const { return ref_.bytes; }
  TPosition GetPosition() const { return ref_.pos; }
  uint64_t GetPhyAddr() const {
    npurt::sim::settle(ref_.buf);  // the kernel may read through the address
    return reinterpret_cast<uintptr_t>(ref_.ptr);
  }
  uint64_t GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + uint64_t{offset} * sizeof(T); }

  // Resizes the window (elements); it may grow up to the end of its buffer.
  void SetSize(uint32_t size) {
    uint64_t room = ref_.buf ? ref_.buf->addr + ref_.buf->bytes - ref_.ptr : 0;
    if (npurt::sim::bytes_of<T>(size) > room)
      npurt::sim::raise_fault(npurt::sim::Diag::kBuffer3, "LocalTensor::SetSize",
                              "size " + std::to_string(size) + " elements exceeds the " +
                                  std::to_string(room) + " bytes left in the buffer");
    ref_.bytes = static_cast<uint32_t>(size * sizeof(T));
  }

  // Inline with an out-of-line fault: kernels index tiles row by row.
  NPURT_SIM_HOT_INLINE LocalTensor operator[](uint32_t offset) const {
    npurt::sim::CoreContext* c = npurt::sim::core();
    if (__builtin_expect(npurt::sim::checks_on(c) && offset > GetSize(), 0)) offset_fault(offset);
    npurt::sim::LocalRef r = ref_;
    r.ptr += uint64_t{offset} * sizeof(T);
    r.bytes -= offset * static_cast<uint32_t>(sizeof(T));
    return LocalTensor(r);
  }

  NPURT_SIM_HOT_INLINE T GetValue(uint32_t index) const {
    scalar_check("LocalTensor::GetValue", index, npurt::sim::Access::kRead);
    T v;
    std::memcpy(&v, ref_.ptr + uint64_t{index} * sizeof(T), sizeof(T));
    return v;
  }

  NPURT_SIM_HOT_INLINE void SetValue(uint32_t index, T value) const {
    scalar_check("LocalTensor::SetValue", index, npurt::sim::Access::kWrite);
    std::memcpy(ref_.ptr + uint64_t{index} * sizeof(T), &value, sizeof(T));
  }

  // Scalar reference (read-modify-write); checked as a write.
  NPURT_SIM_HOT_INLINE T& operator()(uint32_t index) const {
    scalar_check("LocalTensor::operator()", index, npurt::sim::Access::kWrite);
    return reinterpret_cast<T*>(ref_.ptr)[index];
  }

  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(ref_);
  }

  // npurt extensions (not Ascend C): the raw view and host pointer, for the
  // simulator's own APIs.
  const npurt::sim::LocalRef& npurt_ref() const {
    npurt::sim::settle(ref_.buf);
    return ref_;
  }
  T* npurt_host() const {
    npurt::sim::settle(ref_.buf);
    return reinterpret_cast<T*>(ref_.ptr);
  }
  // The view without materializing a pending mirror: only for code that
  // handles mirrors itself (aicore/mirror.h) or touches no bytes.
  const npurt::sim::LocalRef& npurt_ref_lazy() const { return ref_; }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void offset_fault(uint32_t offset) const {
    npurt::sim::raise_fault(npurt::sim::Diag::kRead3, "LocalTensor::operator[]",
                            "offset " + std::to_string(offset) + " is past the tensor's " +
                                std::to_string(GetSize()) + " elements");
  }

  // Forced inline (kernels read row statistics back with GetValue, ~3 per
  // row of a layer_norm): out of line it cost ~45 instructions of call,
  // TLS lookup and spills per access; failures still leave through
  // check_local's out-of-line miss path (wave 13).
  NPURT_SIM_HOT_INLINE void scalar_check(const char* api, uint32_t index, npurt::sim::Access a) const {
    npurt::sim::settle(ref_.buf);
    npurt::sim::CoreContext* c = npurt::sim::core();
    npurt::sim::check_local(c, ref_, uint64_t{index} * sizeof(T), sizeof(T),
                            {api, a, npurt::sim::Pipe::S, 1, npurt::sim::kUbOnly});
  }

  npurt::sim::LocalRef ref_;
};

}  // namespace AscendC
