// npurt/copy.h: copies between host memory and tensors, and fills.
//
// All functions enqueue on `stream` (default: the tensor's device current
// stream). `blocking` copies return after the data landed and rethrow stream
// errors; non-blocking host->device copies stage the host data first, so the
// host buffer may be reused at once. Device tensors here must be contiguous
// (strided device copies are kernels, see kernels/copy).
#pragma once

#include <cstddef>

#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

void copy_from_host(const Tensor& dst, const void* src, size_t bytes, const Stream& stream,
                    bool blocking = false);
void copy_to_host(void* dst, const Tensor& src, size_t bytes, const Stream& stream,
                  bool blocking = true);
void copy_device_to_device(const Tensor& dst, const Tensor& src, const Stream& stream);
void fill_bytes(const Tensor& dst, int value, const Stream& stream);  // memset

}  // namespace npurt
NPURT_PUBLIC_END
