// sdk_python/bindings/view_bindings.cpp: view construction and DLPack for the array-API layer.
//
// Views: `_view(x, shape, strides, offset)` makes a Tensor over x's storage
// (strides and offset in elements, offset relative to x's first element); the
// runtime validates it against the storage bounds (Tensor::Tensor). Indexing
// and manipulation (sdk_python/npurt/array_api/) compute the metadata in Python
// and call this: a view never moves data.
//
// DLPack (https://dmlc.github.io/dlpack/latest/python_spec.html):
//   - export: on `sim`, device memory is host memory, so a tensor is exported as
//     a CPU (kDLCPU, 0) tensor, zero-copy, after its stream's pending work has
//     finished. The capsule owns a Tensor handle, so the storage outlives the
//     consumer's use. Versioned capsules ("dltensor_versioned", DLPack 1.x) when
//     the consumer asks for max_version >= (1, 0), legacy ones otherwise. Other
//     backends refuse (their memory is not host-addressable).
//   - import: CPU tensors become sim tensors wrapping the producer's memory
//     (Storage::wrap_external) when the memory is writable and aligned to the
//     element size (DataCopy's GM rule); otherwise, or with copy=True, the data
//     is copied into a pool allocation on the device.
// The DLPack ABI structs are declared here (the header is not vendored); they
// follow dlpack.h v1.0 exactly.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "bindings.h"
#include "npurt/array_ops.h"
#include "npurt/copy.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

// ---- DLPack ABI (dlpack.h v1.0) ---------------------------------------------
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  uint64_t flags;
  DLTensor dl_tensor;
};
constexpr int32_t kDLCPU = 1;
constexpr uint64_t kDLFlagReadOnly = 1ULL << 0;
constexpr uint8_t kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6;

// ---- views -------------------------------------------------------------------

Dims int_sequence(nb::handle seq) {
  Dims out;
  for (nb::handle v : seq) out.push_back(nb::cast<int64_t>(v));
  return out;
}

Tensor make_view(const Tensor& x, nb::handle shape, nb::handle strides, int64_t offset) {
  const int64_t item = static_cast<int64_t>(x.itemsize());
  return x.view(shape_arg(shape, "npurt._view"), int_sequence(strides), x.byte_offset() + offset * item);
}

nb::tuple dims_tuple(const Dims& d) {
  nb::list l;
  for (int64_t v : d) l.append(v);
  return nb::tuple(l);
}

// ---- dtype mapping -------------------------------------------------------------

DLDataType to_dl(DType t) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(t) * 8);
  switch (t) {
    case DType::kBool: return {kDLBool, 8, 1};
    case DType::kInt8: case DType::kInt16: case DType::kInt32: case DType::kInt64: return {kDLInt, bits, 1};
    case DType::kUInt8: case DType::kUInt16: case DType::kUInt32: case DType::kUInt64: return {kDLUInt, bits, 1};
    case DType::kFloat16: case DType::kFloat32: case DType::kFloat64: return {kDLFloat, bits, 1};
    case DType::kBFloat16: return {kDLBfloat, 16, 1};
    case DType::kComplex64: case DType::kComplex128: return {kDLComplex, bits, 1};
  }
  throw Error(StatusCode::kInternal, "npurt.ndarray.__dlpack__: unknown dtype");
}

DType from_dl(DLDataType d) {
  const char* where = "npurt.from_dlpack";
  if (d.lanes != 1) throw_invalid_argument(where, "x", "vector dtypes (lanes != 1) are not supported");
  auto pick = [&](std::initializer_list<DType> cands) {
    for (DType t : cands)
      if (itemsize(t) * 8 == d.bits) return t;
    throw_invalid_argument(where, "x", "no npurt dtype for DLPack code " + std::to_string(d.code) + " with " +
                                           std::to_string(d.bits) + " bits");
    return DType::kBool;  // unreachable
  };
  switch (d.code) {
    case kDLBool: return pick({DType::kBool});
    case kDLInt: return pick({DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64});
    case kDLUInt: return pick({DType::kUInt8, DType::kUInt16, DType::kUInt32, DType::kUInt64});
    case kDLFloat: return pick({DType::kFloat16, DType::kFloat32, DType::kFloat64});
    case kDLBfloat: return pick({DType::kBFloat16});
    case kDLComplex: return pick({DType::kComplex64, DType::kComplex128});
    default: break;
  }
  throw_invalid_argument(where, "x", "unknown DLPack dtype code " + std::to_string(d.code));
  return DType::kBool;
}

// ---- export --------------------------------------------------------------------

// What a capsule owns: the tensor (keeps the storage alive) and the shape and
// strides arrays DLTensor points to.
struct ExportCtx {
  Tensor tensor;
  std::unique_ptr<int64_t[]> shape, strides;
};

void fill_dl(DLTensor& dl, ExportCtx& ctx) {
  const Tensor& t = ctx.tensor;
  const size_t n = t.ndim();
  ctx.shape.reset(new int64_t[n > 0 ? n : 1]);
  ctx.strides.reset(new int64_t[n > 0 ? n : 1]);
  for (size_t i = 0; i < n; ++i) {
    ctx.shape[i] = t.shape()[i];
    ctx.strides[i] = t.strides()[i];
  }
  dl.data = t.numel() > 0 ? t.data() : nullptr;
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(n);
  dl.dtype = to_dl(t.dtype());
  dl.shape = ctx.shape.get();
  dl.strides = ctx.strides.get();
  dl.byte_offset = 0;
}

template <class M>
void delete_managed(M* m) {
  delete static_cast<ExportCtx*>(m->manager_ctx);
  delete m;
}

// Capsule destructor: only frees tensors no consumer took ("used_" renamed).
template <class M>
void capsule_destructor(PyObject* cap, const char* name) {
  if (!PyCapsule_IsValid(cap, name)) return;
  auto* m = static_cast<M*>(PyCapsule_GetPointer(cap, name));
  if (m && m->deleter) m->deleter(m);
}

void check_exportable(const Tensor& t, nb::handle dl_device, nb::handle copy) {
  const char* where = "npurt.ndarray.__dlpack__";
  if (t.device().type != DeviceType::kSim) {
    throw Error(StatusCode::kUnimplemented, std::string(where) + ": argument 'self': device " + t.device().str() +
                                                " memory is not host-addressable; copy it with x.numpy()");
  }
  if (!dl_device.is_none()) {
    auto dev = nb::cast<nb::tuple>(dl_device);
    if (nb::len(dev) != 2 || nb::cast<int>(dev[0]) != kDLCPU) {
      throw nb::buffer_error("npurt.ndarray.__dlpack__: argument 'dl_device': only (1, 0) (kDLCPU) is "
                             "supported: sim arrays live in host memory");
    }
  }
  if (!copy.is_none() && PyObject_IsTrue(copy.ptr())) {
    throw nb::buffer_error("npurt.ndarray.__dlpack__: argument 'copy': copy=True is not supported; export "
                           "x.copy() instead");
  }
}

nb::object dlpack_export(const Tensor& t, nb::handle max_version, nb::handle dl_device, nb::handle copy) {
  check_exportable(t, dl_device, copy);
  {
    nb::gil_scoped_release release;
    const Stream& s = t.stream();
    array::flush_deferred();  // a deferred launch writing t is enqueued even if the stream is closed
    if (s.valid() && !s.closed()) s.synchronize();  // pending writes land before the consumer reads
  }
  bool versioned = false;
  if (!max_version.is_none()) versioned = nb::cast<int>(nb::cast<nb::tuple>(max_version)[0]) >= 1;
  if (t.read_only() && !versioned) {  // numpy refuses the same way: only DLPack >= 1.0 can say read-only
    throw nb::buffer_error("npurt.ndarray.__dlpack__: argument 'max_version': a read-only view (nr.broadcast_to) "
                           "needs DLPack >= 1.0 to be exported read-only; pass max_version=(1, 0) or export a copy");
  }
  auto ctx = std::make_unique<ExportCtx>();
  ctx->tensor = t;
  PyObject* cap = nullptr;
  if (versioned) {
    auto* m = new DLManagedTensorVersioned{};
    m->version = {1, 0};
    m->flags = t.read_only() ? kDLFlagReadOnly : 0;
    fill_dl(m->dl_tensor, *ctx);
    m->manager_ctx = ctx.release();
    m->deleter = &delete_managed<DLManagedTensorVersioned>;
    cap = PyCapsule_New(m, "dltensor_versioned", [](PyObject* c) {
      capsule_destructor<DLManagedTensorVersioned>(c, "dltensor_versioned");
    });
    if (!cap) delete_managed(m);
  } else {
    auto* m = new DLManagedTensor{};
    fill_dl(m->dl_tensor, *ctx);
    m->manager_ctx = ctx.release();
    m->deleter = &delete_managed<DLManagedTensor>;
    cap = PyCapsule_New(m, "dltensor", [](PyObject* c) { capsule_destructor<DLManagedTensor>(c, "dltensor"); });
    if (!cap) delete_managed(m);
  }
  if (!cap) throw nb::python_error();
  return nb::steal(cap);
}

// ---- import --------------------------------------------------------------------

// Owns an imported managed tensor; calls the producer's deleter when the last
// npurt storage referring to it goes away.
struct Imported {
  DLManagedTensor* legacy = nullptr;
  DLManagedTensorVersioned* versioned = nullptr;
  ~Imported() {
    if (legacy && legacy->deleter) legacy->deleter(legacy);
    if (versioned && versioned->deleter) versioned->deleter(versioned);
  }
};

// Element range [lo, hi] reachable from element 0 through the strides.
void element_range(const DLTensor& dl, const Dims& strides, int64_t* lo, int64_t* hi) {
  *lo = *hi = 0;
  for (int32_t i = 0; i < dl.ndim; ++i) {
    int64_t step = strides[i] * (dl.shape[i] - 1);
    (step < 0 ? *lo : *hi) += step;
  }
}

Tensor wrap_dl(const DLTensor& dl, std::shared_ptr<Imported> owner, bool read_only, nb::handle copy,
               const Stream& stream) {
  const char* where = "npurt.from_dlpack";
  if (dl.device.device_type != kDLCPU)
    throw_invalid_argument(where, "x", "only CPU (kDLCPU) DLPack tensors can be imported on sim, got device type " +
                                           std::to_string(dl.device.device_type));
  DType dtype = from_dl(dl.dtype);
  Dims shape, strides;
  for (int32_t i = 0; i < dl.ndim; ++i) shape.push_back(dl.shape[i]);
  strides = dl.strides ? Dims() : contiguous_strides(shape);
  for (int32_t i = 0; dl.strides && i < dl.ndim; ++i) strides.push_back(dl.strides[i]);
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  auto* base = static_cast<uint8_t*>(dl.data) + dl.byte_offset;
  int64_t lo = 0, hi = 0;
  const bool empty = shape_numel(shape) == 0;
  if (!empty) element_range(dl, strides, &lo, &hi);
  uint8_t* first = base + lo * item;
  const size_t nbytes = empty ? 0 : static_cast<size_t>((hi - lo + 1) * item);
  const bool force_copy = !copy.is_none() && PyObject_IsTrue(copy.ptr());
  const bool never_copy = !copy.is_none() && !PyObject_IsTrue(copy.ptr());
  const bool aligned = reinterpret_cast<uintptr_t>(first) % static_cast<uintptr_t>(item < 8 ? item : 8) == 0;
  if (never_copy && (read_only || !aligned)) {
    throw nb::buffer_error(read_only ? "npurt.from_dlpack: argument 'copy': copy=False but the producer's memory is "
                                       "read-only (device kernels may write to imported arrays)"
                                     : "npurt.from_dlpack: argument 'copy': copy=False but the memory is not "
                                       "aligned to the element size, which device DataCopy requires");
  }
  Device dev = stream.device();
  auto storage = Storage::wrap_external(dev, empty ? nullptr : first, nbytes, std::move(owner), stream);
  Tensor wrapped(storage, -lo * item, shape, strides, dtype);
  if (!force_copy && !read_only && aligned) return wrapped;
  // A copy: the covered byte span is copied into a pool allocation (host data -> device).
  auto fresh = Storage::allocate(nbytes, stream);
  if (nbytes) copy_from_host(Tensor(fresh, 0, Dims{static_cast<int64_t>(nbytes)}, Dims{1}, DType::kUInt8), first,
                             nbytes, stream, /*blocking=*/true);
  return Tensor(fresh, -lo * item, shape, strides, dtype);
}

Tensor dlpack_import(nb::handle capsule, nb::handle copy, nb::handle stream_h) {
  const char* where = "npurt.from_dlpack";
  Stream stream = stream_arg(stream_h, nb::none(), where);
  if (stream.device().type != DeviceType::kSim)
    throw Error(StatusCode::kUnimplemented, std::string(where) + ": importing host memory onto " +
                                                stream.device().str() + " is not supported; use nr.asarray");
  PyObject* cap = capsule.ptr();
  auto owner = std::make_shared<Imported>();
  const DLTensor* dl = nullptr;
  bool read_only = false;
  if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    owner->versioned = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, "dltensor_versioned"));
    if (owner->versioned->version.major > 1) {
      owner->versioned = nullptr;  // we may not touch it; the capsule destructor frees it
      throw nb::buffer_error("npurt.from_dlpack: argument 'x': DLPack major version > 1 is not supported");
    }
    dl = &owner->versioned->dl_tensor;
    read_only = (owner->versioned->flags & kDLFlagReadOnly) != 0;
    PyCapsule_SetName(cap, "used_dltensor_versioned");
  } else if (PyCapsule_IsValid(cap, "dltensor")) {
    owner->legacy = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    dl = &owner->legacy->dl_tensor;
    PyCapsule_SetName(cap, "used_dltensor");
  } else {
    throw_invalid_argument(where, "x", "__dlpack__() did not return an unused DLPack capsule");
  }
  return wrap_dl(*dl, std::move(owner), read_only, copy, stream);
}

}  // namespace

void bind_views(nb::module_& m) {
  m.def("_view", &make_view, nb::arg("x"), nb::arg("shape"), nb::arg("strides"), nb::arg("offset"),
        "A view of x's storage: strides and offset in elements, offset relative to x's first element.");
  m.def("_read_only_view", [](const Tensor& t) { return t.as_read_only(); },
        "x as a read-only view (nr.broadcast_to's: writes raise, DLPack exports flag it)");
  m.def("_elem_strides", [](const Tensor& t) { return dims_tuple(t.strides()); }, "strides in elements");
  m.def("_elem_offset", [](const Tensor& t) { return t.byte_offset() / static_cast<int64_t>(t.itemsize()); },
        "offset of element [0, ..., 0] in elements from the start of the storage");
  m.def("_shares_storage", [](const Tensor& a, const Tensor& b) { return a.storage() == b.storage(); });
  m.def("_dlpack_export", &dlpack_export, nb::arg("x"), nb::arg("max_version").none(), nb::arg("dl_device").none(),
        nb::arg("copy").none());
  m.def("_dlpack_import", &dlpack_import, nb::arg("capsule"), nb::arg("copy").none(), nb::arg("stream").none());
}

}  // namespace npurt::python
