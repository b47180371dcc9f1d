// sdk_python/bindings/host_transfer.cpp: numpy host arrays <-> device tensors.
//
// Host buffers are reached through the buffer protocol with PyBUF_SIMPLE (no
// format string), which works for every dtype including ml_dtypes.bfloat16.
// Uploads of >= kBlockingUploadBytes use a blocking copy (one memcpy, no
// staging buffer); smaller ones are staged and return at once.
// Device tensors that are not contiguous (views) are read by copying the byte
// span they cover and gathering the elements on the host: a data movement, not
// a device computation.
#include "host_transfer.h"

#include <cstring>
#include <vector>

#include "npurt/copy.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

constexpr size_t kBlockingUploadBytes = size_t(1) << 20;

// RAII over PyObject_GetBuffer.
class HostBuffer {
 public:
  HostBuffer(nb::handle array, bool writable) {
    if (PyObject_GetBuffer(array.ptr(), &view_, PyBUF_SIMPLE | (writable ? PyBUF_WRITABLE : 0)) != 0)
      throw nb::python_error();
  }
  ~HostBuffer() { PyBuffer_Release(&view_); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* data() const { return view_.buf; }
  size_t size() const { return static_cast<size_t>(view_.len); }

 private:
  Py_buffer view_;
};

// The stream a read of t is queued on: the array's stream, or, if that one was
// closed, the device's current stream after the device has drained.
Stream read_stream(const Tensor& t) {
  const Stream& own = t.stream();
  if (own.valid() && !own.closed()) return own;
  synchronize_device(t.device());
  return Stream::current(t.device());
}

nb::tuple shape_tuple(const Dims& shape) {
  nb::list l;
  for (int64_t d : shape) l.append(d);
  return nb::tuple(l);
}

// Copies the element at every index of a strided view (base = element [0..0])
// into dst in C order.
void gather(uint8_t* dst, const uint8_t* base, const Dims& shape, const Dims& strides, size_t itemsize) {
  const size_t ndim = shape.size();
  std::vector<int64_t> index(ndim, 0);
  const int64_t total = shape_numel(shape);
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < ndim; ++d) offset += index[d] * strides[d];
    std::memcpy(dst + n * itemsize, base + offset * static_cast<int64_t>(itemsize), itemsize);
    for (size_t d = ndim; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

void read_strided(const Tensor& t, void* dst, const Stream& s) {
  const int64_t item = static_cast<int64_t>(t.itemsize());
  int64_t lo = 0, hi = item;  // byte range covered, relative to element [0..0]
  for (size_t d = 0; d < t.ndim(); ++d) {
    int64_t extent = t.strides()[d] * (t.shape()[d] - 1) * item;
    (extent < 0 ? lo : hi) += extent;
  }
  Tensor span(t.storage(), t.byte_offset() + lo, Dims{hi - lo}, Dims{1}, DType::kUInt8);
  std::vector<uint8_t> host(static_cast<size_t>(hi - lo));
  copy_to_host(host.data(), span, host.size(), s, /*blocking=*/true);
  gather(static_cast<uint8_t*>(dst), host.data() - lo, t.shape(), t.strides(), static_cast<size_t>(item));
}

}  // namespace

Tensor tensor_from_numpy(nb::handle array, DType dtype, const Stream& stream) {
  // not ascontiguousarray: it turns 0-d arrays into 1-d ones
  nb::object contiguous = numpy_module().attr("asarray")(array, nb::arg("order") = "C");
  Dims shape;
  for (nb::handle d : nb::tuple(contiguous.attr("shape"))) shape.push_back(nb::cast<int64_t>(d));
  Tensor t = Tensor::empty(shape, dtype, stream);
  const size_t bytes = t.nbytes();
  if (bytes == 0) return t;
  HostBuffer host(contiguous, /*writable=*/false);
  if (host.size() != bytes) {
    throw Error(StatusCode::kInternal, "npurt.asarray: host buffer has " + std::to_string(host.size()) +
                                           " bytes, expected " + std::to_string(bytes));
  }
  nb::gil_scoped_release release;
  copy_from_host(t, host.data(), bytes, stream, /*blocking=*/bytes >= kBlockingUploadBytes);
  return t;
}

nb::object tensor_to_numpy(const Tensor& t) {
  nb::object out = numpy_module().attr("empty")(shape_tuple(t.shape()), numpy_storage_dtype(t.dtype()));
  if (t.numel() > 0) {
    Stream s = read_stream(t);
    HostBuffer host(out, /*writable=*/true);
    nb::gil_scoped_release release;
    if (t.is_contiguous()) {
      copy_to_host(host.data(), t, t.nbytes(), s, /*blocking=*/true);
    } else {
      read_strided(t, host.data(), s);
    }
  }
  if (t.dtype() == DType::kBFloat16) out = out.attr("view")(numpy_dtype(DType::kBFloat16));
  return out;
}

}  // namespace npurt::python
