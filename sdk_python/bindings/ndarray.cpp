// sdk_python/bindings/ndarray.cpp: nr.ndarray, the bound npurt::Tensor.
//
// The Python array is the C++ Tensor itself (no Python wrapper), so functions
// bound elsewhere (ops, graphs) take and return npurt::Tensor directly. This
// file gives it numpy's introspection (shape, dtype, strides in bytes, ...),
// host conversion (numpy(), __array__, repr) and copy(). Arithmetic and
// indexing are added by the array-API layer.
#include <string>

#include "bindings.h"
#include "host_transfer.h"
#include "npurt/copy.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

nb::tuple dims_tuple(const Dims& dims, int64_t scale) {
  nb::list l;
  for (int64_t d : dims) l.append(d * scale);
  return nb::tuple(l);
}

// numpy's protocol: np.asarray(x), np.array(x, dtype=...). Always a new host copy.
nb::object array_protocol(const Tensor& t, nb::handle dtype, nb::handle copy) {
  if (!copy.is_none() && !PyObject_IsTrue(copy.ptr())) {
    throw_invalid_argument("npurt.ndarray.__array__", "copy",
                           "copy=False is impossible: the data lives on the device, reading it makes a host copy");
  }
  nb::object host = tensor_to_numpy(t);
  if (!dtype.is_none()) host = host.attr("astype")(dtype, nb::arg("copy") = false);
  return host;
}

Tensor tensor_copy(const Tensor& t) {
  if (t.numel() > 0 && !t.is_contiguous()) return ops::copy(t, t.stream());  // the strided copy kernel
  Tensor out = Tensor::empty(t.shape(), t.dtype(), t.stream());
  if (t.numel() == 0) return out;
  copy_device_to_device(out, t, t.stream());
  return out;
}

std::string tensor_repr(const Tensor& t) {
  const char* prefix = "ndarray(";
  nb::object host = tensor_to_numpy(t);
  nb::object text = numpy_module().attr("array2string")(host, nb::arg("separator") = ", ",
                                                         nb::arg("prefix") = prefix);
  return std::string(prefix) + nb::cast<std::string>(text) + ", dtype=" + dtype_name(t.dtype()) + ", device='" +
         t.device().str() + "')";
}

size_t tensor_len(const Tensor& t) {
  if (t.ndim() == 0) throw nb::type_error("len() of a 0-d npurt.ndarray");
  return static_cast<size_t>(t.shape()[0]);
}

}  // namespace

void bind_ndarray(nb::module_& m) {
  nb::class_<Tensor>(m, "ndarray",
                     "An n-dimensional array in device memory. Create with nr.asarray, nr.empty, nr.zeros; "
                     "read back with x.numpy() or np.asarray(x).")
      .def_prop_ro("shape", [](const Tensor& t) { return dims_tuple(t.shape(), 1); })
      .def_prop_ro("strides", [](const Tensor& t) { return dims_tuple(t.strides(), static_cast<int64_t>(t.itemsize())); },
                   "bytes to step in each dimension, like numpy")
      .def_prop_ro("ndim", &Tensor::ndim)
      .def_prop_ro("size", &Tensor::numel)
      .def_prop_ro("nbytes", &Tensor::nbytes)
      .def_prop_ro("itemsize", &Tensor::itemsize)
      .def_prop_ro("dtype", [](const Tensor& t) { return nb::borrow(dtype_object(t.dtype())); })
      .def_prop_ro("device", &Tensor::device)
      .def_prop_ro("stream", [](const Tensor& t) { return t.stream(); }, "the stream the array was allocated on")
      .def_prop_ro("is_contiguous", &Tensor::is_contiguous)
      .def_prop_ro("read_only", &Tensor::read_only,
                   "True for a read-only view (nr.broadcast_to / broadcast_arrays: numpy's writeable=False)")
      .def("numpy", &tensor_to_numpy, "A numpy copy, after the array's pending work (errors raise here).")
      .def("__array__", &array_protocol, nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none())
      .def("copy", &tensor_copy, "A new array with the same values, on the same stream.")
      .def("__len__", &tensor_len)
      .def("__repr__", &tensor_repr)
      .def("__str__", [](const Tensor& t) { return nb::str(tensor_to_numpy(t)); });
}

}  // namespace npurt::python
