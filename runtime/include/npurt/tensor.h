// npurt/tensor.h: Storage (device memory with an owner) and Tensor (a strided view).
//
// Invariants:
//   - A Tensor is shared storage + byte offset + shape + strides (in elements,
//     may be 0 or negative) + dtype; its device is the storage's. Views share
//     storage; Tensor handles are cheap to copy.
//   - A Storage's memory is device memory: host code never dereferences it
//     except through explicit copies (copy.h) or DLPack export on sim.
//   - A Storage remembers the stream it was allocated on ("the array's stream");
//     freeing it is ordered after that stream's queued work (memory_pool.h).
//   - Zero-byte tensors have a null data pointer.
//   - A read-only Tensor (numpy's writeable=False; nr.broadcast_to's views,
//     whose elements alias each other) is never written: ops refuse it as an
//     output, host copies as a destination, DLPack exports flag it. Views of
//     it are read-only too; a copy of it is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "npurt/device.h"
#include "npurt/dtype.h"
#include "npurt/memory_pool.h"
#include "npurt/small_vector.h"
#include "npurt/stream.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class Storage {
 public:
  // Pool allocation of nbytes on `stream` (its device).
  static std::shared_ptr<Storage> allocate(size_t nbytes, const Stream& stream);
  // Wraps memory npurt does not own (DLPack import). `owner` keeps it alive.
  static std::shared_ptr<Storage> wrap_external(Device device, void* ptr, size_t nbytes,
                                                std::shared_ptr<void> owner, const Stream& stream);

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  const Stream& stream() const { return stream_; }
  bool is_external() const { return external_owner_ != nullptr; }
  // The allocation is used by work on `s` too (see MemoryPool::record_stream).
  void record_stream(const Stream& s);

  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

 private:
  // Only allocate()/wrap_external() make Storages, by std::make_shared (one
  // heap block for the object and its count: the tiny-op path frees one per
  // call); make_shared needs a public constructor, so it takes this tag,
  // which outside code can neither name nor brace-initialise.
  struct MakeTag {
    explicit MakeTag() = default;
  };

 public:
  explicit Storage(MakeTag) {}

 private:
  // Declared first so it is destroyed last: the pool block's stream-ordered
  // free below needs the allocation stream alive.
  Stream stream_;
  DataPtr pool_ptr_;
  std::shared_ptr<void> external_owner_;
  void* data_ = nullptr;
  size_t nbytes_ = 0;
  Device device_;
};

class Tensor {
 public:
  Tensor() = default;  // undefined
  Tensor(std::shared_ptr<Storage> storage, int64_t byte_offset, Dims shape, Dims strides,
         DType dtype);

  // Uninitialised contiguous tensor on `stream` (default: device's current stream).
  static Tensor empty(const Dims& shape, DType dtype, Device device);
  static Tensor empty(const Dims& shape, DType dtype, const Stream& stream);

  bool defined() const { return storage_ != nullptr; }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  int64_t byte_offset() const { return byte_offset_; }
  const Dims& shape() const { return shape_; }
  const Dims& strides() const { return strides_; }
  DType dtype() const { return dtype_; }
  Device device() const;
  const Stream& stream() const;      // the storage's stream
  size_t ndim() const { return shape_.size(); }
  int64_t numel() const;
  size_t itemsize() const { return npurt::itemsize(dtype_); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
  void* data() const;                // device address of element [0,...,0]
  bool is_contiguous() const;        // C order

  // A view over the same storage (read-only when this is); validated against the storage bounds.
  Tensor view(const Dims& shape, const Dims& strides, int64_t byte_offset) const;
  bool read_only() const { return read_only_; }
  Tensor as_read_only() const {  // this view, marked read-only
    Tensor t = *this;
    t.read_only_ = true;
    return t;
  }
  std::string describe() const;      // "float32[2, 3] sim:0"

 private:
  std::shared_ptr<Storage> storage_;
  int64_t byte_offset_ = 0;
  Dims shape_;
  Dims strides_;
  DType dtype_ = DType::kFloat32;
  bool read_only_ = false;
};

// Shape helpers.
int64_t shape_numel(const Dims& shape);
Dims contiguous_strides(const Dims& shape);
// Throws InvalidArgument("where: argument 'arg': ...") for negative dims or overflow.
void check_shape(const Dims& shape, const char* where, const char* arg = "shape");

}  // namespace npurt
NPURT_PUBLIC_END
