// sdk_python/bindings/index_advanced.cpp: x[key] = v and x[key] for keys
// holding index arrays or boolean masks (npurt, numpy or list), from C++
// (index_advanced.h): the key is read into npurt::IndexEntry
// values and handed to npurt::AdvancedIndex (npurt/advanced_index.h), the public
// C++ plan; this file only converts Python objects.
//
// Why: the Python layer's _Plan (_advanced.py) cost 80-180 us CPU per
// assignment with several index arrays, slices next to arrays, numpy / list /
// broadcast values or a non-contiguous target; the plan is now C++ and so is
// the call.
// Invariant: whatever this file declines (a key entry it does not read, a
// value index_values.h declines, a key the plan refuses) leaves x untouched
// and goes to the Python layer, which raises nr.IndexingError /
// nr.InvalidArgumentError / nr.OutOfRangeError in its own words.
#include "index_advanced.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host_index.h"
#include "index_values.h"
#include "mask_assign.h"
#include "npurt/advanced_index.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

constexpr Py_ssize_t kMaxEntries = 32;  // longer keys take the Python path

// One key entry as an IndexEntry: a basic one, an integer nr.ndarray on x's
// device (not 0-d: that is an integer), a bool nr.ndarray of rank >= 1 on x's
// device (a mask), or a list / tuple / numpy array of integers or of bools (a
// host mask); false for anything else (0-d masks, other objects).
bool read_entry(PyObject* k, const Tensor& x, PyTypeObject* ndarray, bool* is_array, IndexEntry* out) {
  static PyTypeObject* np_ndarray = nullptr;
  *is_array = false;
  if (read_index_item(k, &out->item)) return true;
  if (Py_TYPE(k) == ndarray) {
    const Tensor& t = *nb::inst_ptr<Tensor>(nb::handle(k));
    const bool mask = t.dtype() == DType::kBool;
    if (!(mask || is_integral(t.dtype())) || (mask && t.ndim() == 0) || !(t.device() == x.device())) return false;
    *out = mask ? IndexEntry::device_mask(t) : IndexEntry::device_array(t);
  } else if (PyList_Check(k) || PyTuple_Check(k) || is_numpy(k, "ndarray", &np_ndarray)) {
    Dims shape;
    std::vector<int64_t> indices;
    if (host_indices(nb::handle(k), &shape, &indices))
      *out = IndexEntry::host_array(std::move(shape), std::move(indices));
    else if (host_mask(nb::handle(k), &shape, &indices))
      *out = IndexEntry::host_mask(std::move(shape), std::move(indices));
    else
      return false;
  } else {
    return false;
  }
  *is_array = true;
  return true;
}

// The key as IndexEntries; false when an entry is not read or none is an array.
bool read_key(PyObject* key, const Tensor& x, PyTypeObject* ndarray, std::vector<IndexEntry>* entries) {
  const bool tuple = PyTuple_Check(key);
  const Py_ssize_t n = tuple ? PyTuple_GET_SIZE(key) : 1;
  if (n > kMaxEntries) return false;
  entries->resize(static_cast<size_t>(n));
  bool any_array = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    bool is_array = false;
    if (!read_entry(tuple ? PyTuple_GET_ITEM(key, i) : key, x, ndarray, &is_array, &(*entries)[i])) return false;
    any_array = any_array || is_array;
  }
  return any_array;
}

// x[mask] = value for a bool nr.ndarray mask as the whole key (mask_assign.h's conditions).
bool mask_put(const Tensor& x, const Tensor& mask, PyObject* value, PyTypeObject* ndarray) {
  if (mask.ndim() == 0 || mask.ndim() > x.ndim() || !(mask.device() == x.device()) || !mask.is_contiguous() ||
      !x.is_contiguous())
    return false;
  for (size_t d = 0; d < mask.ndim(); ++d)
    if (mask.shape()[d] != x.shape()[d]) return false;
  Tensor v = value_tensor(x, value, ndarray);
  if (!v.defined()) return false;
  if (v.storage() == x.storage()) v = ops::copy(v);  // values read before x is written
  return mask_assign(x, mask, ops::contiguous(v));
}

// The plan of x[key], or none for a key it refuses (the Python path raises nr.IndexingError in its words).
// Built without the GIL, as host_index.cpp's upload and mask_assign's read: the plan uploads the host
// indices and reads device arrays' index_check status (a blocking wait on the stream).
std::optional<AdvancedIndex> make_plan(const Tensor& x, const std::vector<IndexEntry>& entries, const char* where) {
  std::optional<AdvancedIndex> plan;
  try {
    nb::gil_scoped_release release;
    plan.emplace(x, entries.data(), entries.size(), where);
  } catch (const Error&) {
    plan.reset();
  }
  return plan;
}

}  // namespace

Tensor fast_index_take(PyObject* self, PyObject* key, PyTypeObject* ndarray) {
  if (Py_TYPE(self) != ndarray) return Tensor();
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  std::vector<IndexEntry> entries;
  if (!(x.device() == current_device()) || !read_key(key, x, ndarray, &entries)) return Tensor();
  const std::optional<AdvancedIndex> plan = make_plan(x, entries, "npurt.ndarray.__getitem__");
  return plan ? plan->take() : Tensor();
}

bool fast_index_put(PyObject* self, PyObject* key, PyObject* value, PyTypeObject* ndarray) {
  if (Py_TYPE(self) != ndarray) return false;
  const Tensor& x = *nb::inst_ptr<Tensor>(nb::handle(self));
  if (x.read_only() || !(x.device() == current_device())) return false;  // read-only: the Python path raises
  if (Py_TYPE(key) == ndarray && nb::inst_ptr<Tensor>(nb::handle(key))->dtype() == DType::kBool &&
      mask_put(x, *nb::inst_ptr<Tensor>(nb::handle(key)), value, ndarray))
    return true;  // else the plan (a strided x or mask, broadcast values) or the Python path
  std::vector<IndexEntry> entries;
  if (!read_key(key, x, ndarray, &entries)) return false;
  const std::optional<AdvancedIndex> plan = make_plan(x, entries, "npurt.ndarray.__setitem__");
  if (!plan) return false;
  const Tensor v = value_tensor(x, value, ndarray);
  if (!v.defined() || !plan->accepts(v.shape())) return false;
  plan->put(v);
  return true;
}

namespace {

// The key as IndexEntries for _index_put / _index_take, or InvalidArgument naming what it holds.
std::vector<IndexEntry> key_entries(nb::handle x, nb::handle key, const char* where) {
  const Tensor& t = nb::cast<const Tensor&>(x);
  std::vector<IndexEntry> entries;
  if (!read_key(key.ptr(), t, Py_TYPE(x.ptr()), &entries))
    throw_invalid_argument(where, "key",
                           "entries must be basic ones, integer arrays or boolean masks (lists, numpy arrays, "
                           "npurt arrays), at least one an array");
  return entries;
}

}  // namespace

void bind_index_put(nb::module_& m) {
  m.def(
      "_index_put",
      [](nb::handle x, nb::handle key, const Tensor& values, const std::string& where) {
        const std::vector<IndexEntry> entries = key_entries(x, key, where.c_str());
        index_put(nb::cast<const Tensor&>(x), entries.data(), entries.size(), values, where.c_str());
      },
      nb::arg("x"), nb::arg("key").none(), nb::arg("values"), nb::arg("where") = "npurt.index_put",
      "npurt::index_put: x[key] = values for a key holding integer arrays or boolean masks, values of x's "
      "dtype on its device (broadcast); a ValueError (nr.InvalidArgumentError) naming `where` for a bad key or "
      "values.");
  m.def(
      "_index_take",
      [](nb::handle x, nb::handle key, const std::string& where) {
        const std::vector<IndexEntry> entries = key_entries(x, key, where.c_str());
        return index_take(nb::cast<const Tensor&>(x), entries.data(), entries.size(), where.c_str());
      },
      nb::arg("x"), nb::arg("key").none(), nb::arg("where") = "npurt.index_take",
      "npurt::index_take: x[key] for a key holding integer arrays or boolean masks; a ValueError "
      "(nr.InvalidArgumentError) naming `where` for a bad key.");
}

}  // namespace npurt::python
