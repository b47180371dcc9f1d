// runtime/core/tensor.cc: Storage and Tensor views, shape helpers.
//
// Every view is validated against its storage: the byte range spanned by the
// (possibly negative or zero) strides must lie inside [0, storage.nbytes()).
#include "npurt/tensor.h"

#include <limits>

#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {

namespace {

bool mul_overflow(int64_t a, int64_t b, int64_t* out) { return __builtin_mul_overflow(a, b, out); }
bool add_overflow(int64_t a, int64_t b, int64_t* out) { return __builtin_add_overflow(a, b, out); }

std::string dims_str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace

// ---- shape helpers ------------------------------------------------------------

void check_shape(const Dims& shape, const char* where, const char* arg) {
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      throw_invalid_argument(where, arg, "dimension " + std::to_string(i) + " is negative (" +
                                             std::to_string(shape[i]) + ")");
    if (mul_overflow(n, shape[i], &n))
      throw_invalid_argument(where, arg, "shape " + dims_str(shape) + " has too many elements (int64 overflow)");
  }
}

int64_t shape_numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Dims contiguous_strides(const Dims& shape) {
  Dims strides(shape.size(), 1);
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

// ---- Storage ------------------------------------------------------------------

std::shared_ptr<Storage> Storage::allocate(size_t nbytes, const Stream& stream) {
  if (!stream.valid()) throw_invalid_argument("npurt.Storage.allocate", "stream", "null stream handle");
  auto st = std::make_shared<Storage>(MakeTag());
  st->stream_ = stream;
  st->device_ = stream.device();
  st->pool_ptr_ = device_context(stream.device()).pool().allocate(nbytes, stream);
  st->data_ = st->pool_ptr_.get();
  st->nbytes_ = nbytes;
  return st;
}

std::shared_ptr<Storage> Storage::wrap_external(Device device, void* ptr, size_t nbytes,
                                                std::shared_ptr<void> owner, const Stream& stream) {
  const char* where = "npurt.Storage.wrap_external";
  if (!ptr && nbytes) throw_invalid_argument(where, "ptr", "null pointer for " + std::to_string(nbytes) + " bytes");
  if (stream.valid() && stream.device() != device)
    throw_invalid_argument(where, "stream", "stream is on " + stream.device().str() + ", memory on " + device.str());
  DeviceContext& ctx = device_context(device);
  auto st = std::make_shared<Storage>(MakeTag());
  st->stream_ = stream.valid() ? stream : ctx.default_stream();
  st->device_ = device;
  // A null owner still marks the storage external (the caller keeps the memory alive).
  st->external_owner_ = owner ? std::move(owner) : std::shared_ptr<void>(ptr ? ptr : &st->nbytes_, [](void*) {});
  st->data_ = nbytes ? ptr : nullptr;
  st->nbytes_ = nbytes;
  if (st->data_) ctx.pool().register_external(ptr, nbytes);
  return st;
}

Storage::~Storage() {
  if (external_owner_ && data_) device_context(device_).pool().unregister_external(data_);
}

void Storage::record_stream(const Stream& s) {
  if (pool_ptr_) device_context(device_).pool().record_stream(pool_ptr_, s);
}

// ---- Tensor -------------------------------------------------------------------

Tensor::Tensor(std::shared_ptr<Storage> storage, int64_t byte_offset, Dims shape, Dims strides, DType dtype)
    : storage_(std::move(storage)),
      byte_offset_(byte_offset),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      dtype_(dtype) {
  const char* where = "npurt.Tensor";
  dtype_info(dtype_);  // validates the enum value
  if (!storage_) throw_invalid_argument(where, "storage", "null storage");
  check_shape(shape_, where, "shape");
  if (strides_.size() != shape_.size())
    throw_invalid_argument(where, "strides", "has " + std::to_string(strides_.size()) + " entries for " +
                                                 std::to_string(shape_.size()) + " dimensions");
  if (byte_offset_ < 0) throw_invalid_argument(where, "byte_offset", "is negative (" + std::to_string(byte_offset_) + ")");
  const int64_t cap = static_cast<int64_t>(storage_->nbytes());
  if (shape_numel(shape_) == 0) {
    if (byte_offset_ > cap) throw_invalid_argument(where, "byte_offset", "lies beyond the storage");
    return;
  }
  // Lowest and highest element offsets reachable through the strides.
  int64_t lo = 0, hi = 0, step = 0;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (mul_overflow(shape_[i] - 1, strides_[i], &step)) throw_invalid_argument(where, "strides", "overflow");
    (step < 0 ? lo : hi) += step;
  }
  const int64_t isz = static_cast<int64_t>(npurt::itemsize(dtype_));
  int64_t first = 0, last = 0;
  if (mul_overflow(lo, isz, &first) || mul_overflow(hi + 1, isz, &last) ||
      add_overflow(first, byte_offset_, &first) || add_overflow(last, byte_offset_, &last))
    throw_invalid_argument(where, "strides", "byte range overflows int64");
  if (first < 0 || last > cap)
    throw_invalid_argument(where, "strides", "view " + std::string(dtype_name(dtype_)) + dims_str(shape_) + " strides " +
                                                 dims_str(strides_) + " offset " + std::to_string(byte_offset_) +
                                                 " spans bytes [" + std::to_string(first) + ", " +
                                                 std::to_string(last) + ") outside the storage of " +
                                                 std::to_string(cap) + " bytes");
}

Tensor Tensor::empty(const Dims& shape, DType dtype, Device device) {
  return empty(shape, dtype, Stream::current(device));
}

Tensor Tensor::empty(const Dims& shape, DType dtype, const Stream& stream) {
  const char* where = "npurt.empty";
  check_shape(shape, where, "shape");
  int64_t bytes = 0;
  if (mul_overflow(shape_numel(shape), static_cast<int64_t>(npurt::itemsize(dtype)), &bytes))
    throw_invalid_argument(where, "shape", "byte size overflows int64");
  auto storage = Storage::allocate(static_cast<size_t>(bytes), stream);
  return Tensor(std::move(storage), 0, shape, contiguous_strides(shape), dtype);
}

Device Tensor::device() const { return storage_ ? storage_->device() : Device(); }

const Stream& Tensor::stream() const {
  static const Stream kNull;
  return storage_ ? storage_->stream() : kNull;
}

int64_t Tensor::numel() const { return shape_numel(shape_); }

void* Tensor::data() const {
  if (!storage_ || !storage_->data() || numel() == 0) return nullptr;
  return static_cast<char*>(storage_->data()) + byte_offset_;
}

bool Tensor::is_contiguous() const {
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Tensor Tensor::view(const Dims& shape, const Dims& strides, int64_t byte_offset) const {
  if (!storage_) throw_invalid_argument("npurt.Tensor.view", "self", "undefined tensor");
  Tensor v(storage_, byte_offset, shape, strides, dtype_);
  v.read_only_ = read_only_;
  return v;
}

std::string Tensor::describe() const {
  if (!storage_) return "undefined tensor";
  return std::string(dtype_name(dtype_)) + dims_str(shape_) + " " + device().str();
}

}  // namespace npurt
