// sdk_python/bindings/host_index.cpp: integer index arrays that come from the
// host (lists, numpy arrays) checked and normalized on the host.
//
// Why: x[idx] = v with a device index array runs index_check (a kernel) and
// reads its 64-slot status back (a synchronization) so that a bad index raises
// at the call, as numpy's IndexError does. Indices the user gave as a list or
// a numpy array are on the host already: one pass over them here finds the
// first index outside [-size, size) and adds `size` to the negative ones, and
// the int64 result is uploaded once, so the device path has no index_check
// launch and no status read (host_index_tensor, for the Python layer's
// _Plan). host_indices reads them unchecked for npurt::AdvancedIndex
// (npurt/advanced_index.h), which checks, normalizes and uploads them itself.
// Invariant: the uploaded array equals index_check's output for the same
// indices (int64, each in [0, size)); a bad index uploads nothing.
#include <cstdint>
#include <cstring>
#include <vector>

#include "host_index.h"
#include "npurt/copy.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

// RAII over PyObject_GetBuffer (C-contiguous bytes of a numpy array).
class IndexBuffer {
 public:
  explicit IndexBuffer(nb::handle array) {
    if (PyObject_GetBuffer(array.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) throw nb::python_error();
  }
  ~IndexBuffer() { PyBuffer_Release(&view_); }
  IndexBuffer(const IndexBuffer&) = delete;
  IndexBuffer& operator=(const IndexBuffer&) = delete;
  const uint8_t* data() const { return static_cast<const uint8_t*>(view_.buf); }
  size_t bytes() const { return static_cast<size_t>(view_.len); }

 private:
  Py_buffer view_;
};

// Element i of a native-order integer buffer as int64 (uint64 beyond int64 saturates:
// it is out of range for any axis anyway), reading `item` bytes, signed or not.
int64_t element(const uint8_t* p, size_t i, size_t item, bool is_signed) {
  switch (item) {
    case 1: return is_signed ? int64_t{reinterpret_cast<const int8_t*>(p)[i]} : int64_t{p[i]};
    case 2: {
      uint16_t u;
      std::memcpy(&u, p + 2 * i, 2);
      return is_signed ? int64_t{static_cast<int16_t>(u)} : int64_t{u};
    }
    case 4: {
      uint32_t u;
      std::memcpy(&u, p + 4 * i, 4);
      return is_signed ? int64_t{static_cast<int32_t>(u)} : int64_t{u};
    }
    default: {
      uint64_t u;
      std::memcpy(&u, p + 8 * i, 8);
      if (!is_signed && u > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
      return static_cast<int64_t>(u);
    }
  }
}

// The first bad index of a buffer (a uint64 beyond int64 as it is).
nb::object bad_index(const uint8_t* p, size_t i, int64_t v, bool is_unsigned64) {
  if (v == INT64_MAX && is_unsigned64) {
    uint64_t u;
    std::memcpy(&u, p + 8 * i, 8);
    return nb::steal(PyLong_FromUnsignedLongLong(u));
  }
  return nb::int_(v);
}

// key as a native-order integer numpy array, or None; with empty_float an
// empty float array too (what numpy.asarray makes of [], read as no indices).
nb::object integer_array(nb::handle key, bool empty_float = false) {
  nb::object a;
  try {
    a = numpy_module().attr("asarray")(key, nb::arg("order") = "C");
  } catch (nb::python_error&) {
    return nb::none();  // not an array of numbers: the Python path says why
  }
  nb::object dt = a.attr("dtype");
  const std::string kind = nb::cast<std::string>(dt.attr("kind"));
  if (empty_float && kind == "f" && nb::cast<int64_t>(a.attr("size")) == 0) return a;
  if ((kind != "i" && kind != "u") || !nb::cast<bool>(dt.attr("isnative"))) return nb::none();
  return a;
}

}  // namespace

Tensor host_index_tensor(nb::handle key, int64_t size, const Tensor& like, nb::object* bad) {
  if (bad) *bad = nb::none();
  const nb::object array = integer_array(key);
  if (array.is_none()) return Tensor();
  nb::object dt = array.attr("dtype");
  const bool is_signed = nb::cast<std::string>(dt.attr("kind")) == "i";
  const size_t item = nb::cast<size_t>(dt.attr("itemsize"));
  Dims shape;
  for (nb::handle d : nb::tuple(array.attr("shape"))) shape.push_back(nb::cast<int64_t>(d));
  IndexBuffer buf(array);
  const size_t n = buf.bytes() / item;
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = element(buf.data(), i, item, is_signed);
    if (v < -size || v >= size) {
      if (bad) *bad = bad_index(buf.data(), i, v, !is_signed && item == 8);
      return Tensor();
    }
    out[i] = v < 0 ? v + size : v;
  }
  Tensor t = Tensor::empty(shape, DType::kInt64, like.stream());
  if (n > 0) {
    nb::gil_scoped_release release;
    copy_from_host(t, out.data(), n * sizeof(int64_t), like.stream(), /*blocking=*/false);  // staged
  }
  return t;
}

bool host_indices(nb::handle key, Dims* shape, std::vector<int64_t>* out) {
  const nb::object array = integer_array(key, /*empty_float=*/true);
  if (array.is_none()) return false;
  nb::object dt = array.attr("dtype");
  const bool is_signed = nb::cast<std::string>(dt.attr("kind")) != "u";
  const size_t item = nb::cast<size_t>(dt.attr("itemsize"));
  shape->clear();
  for (nb::handle d : nb::tuple(array.attr("shape"))) shape->push_back(nb::cast<int64_t>(d));
  out->resize(static_cast<size_t>(shape_numel(*shape)));
  if (out->empty()) return true;  // numpy.asarray([]) is float64: an empty index array all the same
  IndexBuffer buf(array);
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = element(buf.data(), i, item, is_signed);
  return true;
}

bool host_mask(nb::handle key, Dims* shape, std::vector<int64_t>* out) {
  nb::object a;
  try {
    a = numpy_module().attr("asarray")(key, nb::arg("order") = "C");
  } catch (nb::python_error&) {
    return false;
  }
  if (nb::cast<std::string>(a.attr("dtype").attr("kind")) != "b") return false;
  shape->clear();
  for (nb::handle d : nb::tuple(a.attr("shape"))) shape->push_back(nb::cast<int64_t>(d));
  if (shape->empty()) return false;  // a 0-d mask: the Python path
  out->resize(static_cast<size_t>(shape_numel(*shape)));
  if (out->empty()) return true;
  IndexBuffer buf(a);  // numpy bools: one byte each, 0 or 1
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = buf.data()[i] != 0;
  return true;
}

namespace {

// (the normalized indices, None), or (None, the first index outside [-size, size)):
// the caller raises IndexingError in its own words.
nb::tuple host_index(nb::handle array, int64_t size, const Tensor& like) {
  nb::object bad;
  Tensor t = host_index_tensor(array, size, like, &bad);
  if (!t.defined()) {
    if (bad.is_none())
      throw Error(StatusCode::kInvalidArgument, "npurt._host_index: argument 'indices': needs integers");
    return nb::make_tuple(nb::none(), bad);
  }
  return nb::make_tuple(new_ndarray(std::move(t)), nb::none());
}

}  // namespace

void bind_host_index(nb::module_& m) {
  m.def("_host_index", &host_index, nb::arg("indices"), nb::arg("size"), nb::arg("like"),
        "Host integer indices (a C-contiguous numpy array) for an axis of length size: (int64 array "
        "with size added to the negative ones, uploaded on like's stream, None), or (None, the first "
        "index outside [-size, size)).");
}

}  // namespace npurt::python
