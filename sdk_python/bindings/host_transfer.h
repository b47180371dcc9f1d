// sdk_python/bindings/host_transfer.h: numpy host arrays <-> device tensors.
//
// The only places where the Python SDK moves array data between the host and
// a device. Both directions release the GIL while bytes move.
#pragma once

#include "bindings.h"
#include "npurt/tensor.h"

namespace npurt::python {

// A new device tensor on `stream` holding a copy of `array` (a numpy ndarray
// whose dtype is numpy_dtype(dtype); any layout: non-contiguous arrays are made
// C-contiguous on the host first). The host buffer may be reused on return.
Tensor tensor_from_numpy(nb::handle array, DType dtype, const Stream& stream);

// A new C-contiguous numpy array with t's values: waits for the array's stream
// (the copy is queued behind its work), so pending work's errors raise here.
nb::object tensor_to_numpy(const Tensor& t);

}  // namespace npurt::python
