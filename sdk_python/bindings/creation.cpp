// sdk_python/bindings/creation.cpp: nr.empty, nr.zeros, nr.asarray.
//
// Hot paths: nr.empty(n) parses its arguments without calling into Python and
// allocates from the pool on the current stream.
//
// Default dtypes: empty/zeros use float32 (the NPU's native float). asarray
// keeps the dtype of numpy arrays; Python scalars and (nested) lists follow
// numpy's inference except that Python floats become float32 and complex
// numbers complex64, so plain Python data lands in dtypes the vector unit has.
#include <string>

#include "bindings.h"
#include "host_transfer.h"
#include "npurt/copy.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

DType dtype_or(nb::handle dtype, DType fallback, const char* where) {
  return dtype.is_none() ? fallback : dtype_arg(dtype, where);
}

Tensor empty(nb::handle shape, nb::handle dtype, nb::handle device, nb::handle stream) {
  const char* where = "npurt.empty";
  Dims dims = shape_arg(shape, where);
  DType t = dtype_or(dtype, DType::kFloat32, where);
  return Tensor::empty(dims, t, stream_arg(stream, device, where));
}

Tensor zeros(nb::handle shape, nb::handle dtype, nb::handle device, nb::handle stream) {
  const char* where = "npurt.zeros";
  Dims dims = shape_arg(shape, where);
  DType t = dtype_or(dtype, DType::kFloat32, where);
  Stream s = stream_arg(stream, device, where);
  Tensor out = Tensor::empty(dims, t, s);
  if (out.nbytes() > 0) fill_bytes(out, 0, s);
  return out;
}

// An existing nr.ndarray: returned as is unless a copy is asked for.
nb::object asarray_from_tensor(nb::handle obj, nb::handle dtype, nb::handle device, nb::handle stream, nb::handle copy) {
  const char* where = "npurt.asarray";
  const Tensor& t = nb::cast<const Tensor&>(obj);
  if (!dtype.is_none() && dtype_arg(dtype, where) != t.dtype()) {
    throw Error(StatusCode::kUnimplemented, std::string(where) + ": argument 'dtype': converting an npurt.ndarray from " +
                                                dtype_name(t.dtype()) + " is a device cast: use x.astype(dtype)");
  }
  if (!device.is_none() && device_arg(device, where) != t.device()) {
    throw Error(StatusCode::kUnimplemented, std::string(where) + ": argument 'device': the array is on " +
                                                t.device().str() + ": use x.to_device(device)");
  }
  if (!stream.is_none()) stream_arg(stream, device, where);  // validates it
  if (!copy.is_none() && PyObject_IsTrue(copy.ptr())) {
    Tensor out = Tensor::empty(t.shape(), t.dtype(), stream.is_none() ? t.stream() : nb::cast<const Stream&>(stream));
    if (out.nbytes() == 0) return nb::cast(std::move(out));
    if (!t.is_contiguous()) {
      // Not a plain memcpy: the strided copy kernel gathers the view on the device.
      ops::copy(t, out.stream(), out);
      return nb::cast(std::move(out));
    }
    copy_device_to_device(out, t, out.stream());
    return nb::cast(std::move(out));
  }
  return nb::borrow(obj);
}

// Host data -> a numpy array of the target dtype (on the host).
nb::object host_array(nb::handle obj, nb::handle dtype, DType* out_dtype) {
  const char* where = "npurt.asarray";
  nb::handle np = numpy_module();
  bool is_numpy = nb::isinstance(obj, np.attr("ndarray")) || nb::isinstance(obj, np.attr("generic"));
  nb::object array;
  try {
    // With a dtype, Python ints convert exactly (e.g. uint64 above 2**63, which a plain asarray
    // would pass through float64); bfloat16 and friends are handled by the cast below.
    if (!is_numpy && !dtype.is_none() && dtype_arg(dtype, where) != DType::kBFloat16)
      array = np.attr("asarray")(obj, numpy_dtype(dtype_arg(dtype, where)));
    else
      array = np.attr("asarray")(obj);
  } catch (nb::python_error& e) {
    if (e.matches(PyExc_OverflowError))  // nr.OutOfRangeError: an InvalidArgumentError and an OverflowError
      throw_out_of_range(std::string(where) + ": argument 'obj': a value is out of range for the dtype: " +
                         nb::str(e.value()).c_str());
    if (!e.matches(PyExc_ValueError) && !e.matches(PyExc_TypeError)) throw;
    throw_invalid_argument(where, "obj", "cannot convert to an array: " + std::string(nb::str(e.value()).c_str()));
  }
  nb::object host_dtype = array.attr("dtype");
  if (!is_numpy && nb::cast<std::string>(host_dtype.attr("kind")) == "O") {
    throw_invalid_argument(where, "obj", "ragged nested sequence, or elements of a type npurt has no dtype for "
                                         "(numpy would make an object array of it)");
  }
  if (nb::cast<std::string>(host_dtype.attr("byteorder")) == ">") {  // big-endian input: swap on the host
    array = array.attr("astype")(host_dtype.attr("newbyteorder")("="));
  }
  DType target;
  if (!dtype.is_none()) {
    target = dtype_arg(dtype, where);
  } else {
    target = dtype_from_numpy(array.attr("dtype"), where, "obj");
    if (!is_numpy && target == DType::kFloat64) target = DType::kFloat32;
    if (!is_numpy && target == DType::kComplex128) target = DType::kComplex64;
  }
  *out_dtype = target;
  nb::handle np_target = numpy_dtype(target);
  if (!array.attr("dtype").equal(np_target)) array = array.attr("astype")(np_target);
  return array;
}

nb::object asarray(nb::handle obj, nb::handle dtype, nb::handle device, nb::handle stream, nb::handle copy) {
  const char* where = "npurt.asarray";
  if (nb::isinstance<Tensor>(obj)) return asarray_from_tensor(obj, dtype, device, stream, copy);
  if (!copy.is_none() && !PyObject_IsTrue(copy.ptr())) {
    throw_invalid_argument(where, "copy", "copy=False is impossible for host data: it is copied to the device");
  }
  Stream s = stream_arg(stream, device, where);
  DType target;
  nb::object array = host_array(obj, dtype, &target);
  return nb::cast(tensor_from_numpy(array, target, s));
}

}  // namespace

void bind_creation(nb::module_& m) {
  // shape accepts None at the binding level so shape_arg names the function and the argument
  // (nanobind's own "incompatible function arguments" names neither).
  m.def("empty", &empty, nb::arg("shape").none(), nb::arg("dtype") = nb::none(), nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("stream") = nb::none(),
        "An uninitialised array (default float32) on the current stream of `device`, or on `stream`.");
  m.def("zeros", &zeros, nb::arg("shape").none(), nb::arg("dtype") = nb::none(), nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("stream") = nb::none(), "An array of zeros (a device memset).");
  m.def("asarray", &asarray, nb::arg("obj").none(), nb::arg("dtype") = nb::none(), nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("stream") = nb::none(), nb::arg("copy") = nb::none(),
        "A device array from a numpy array, nested lists or a scalar (a host->device copy); an "
        "npurt.ndarray is returned as is unless copy=True.");
}

}  // namespace npurt::python
