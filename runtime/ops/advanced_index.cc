// runtime/ops/advanced_index.cc: npurt::AdvancedIndex (npurt/advanced_index.h), numpy's
// x[key] = values and x[key] for keys holding integer index arrays or boolean
// masks (a mask is expanded to its nonzero() arrays first: expand_masks).
//
// Why here (and not in the Python layer): the plan (where the index axes go,
// the one flat index over them, the permuted view) was _advanced.py's _Plan,
// 40-220 us of interpreter work per call; as C++ it is a few
// microseconds and a C++ user has the same call as Python.
// Invariant: the same launches and values as _advanced.py's advanced_setitem /
// advanced_getitem for every key it takes (tests/python/array_index/
// test_index_put.py, test_mask_key.py and test_advanced_indexing.py compare
// with numpy); nothing is written before every check has passed.
#include "npurt/advanced_index.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/dispatch.h"
#include "npurt/dtype.h"
#include "npurt/fill_value.h"
#include "npurt/ops.h"
#include "npurt/small_vector.h"
#include "npurt/status.h"

namespace npurt {
namespace {

constexpr int kStatusSlots = 64;  // index_check's (count, first bad) slots (kernels/indexing/indexing_tiling.h)

// numpy's repr of a shape: "(2,)", "(2, 3)", "()".
std::string shape_text(const Dims& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

// Appends [b, e) to d (Dims has no range insert).
void append(Dims& d, const int64_t* b, const int64_t* e) {
  for (; b != e; ++b) d.push_back(*b);
}

// Where each entry of the key lands. Ellipsis expands to the full slices the
// other entries leave, as numpy (and basic_index) reads it.
// SmallVectors: the plan runs per assignment, short keys allocate nothing here.
struct KeyLayout {
  SmallVector<IndexItem, 8> basic;  // the key with every array replaced by ':'
  SmallVector<size_t, 6> arrays;    // the array entries' positions in the key
  Dims vaxis;                       // per array: its axis in the basic view
  Dims xaxis;                       // per array: its axis in x (error messages)
  bool adjacent = true;          // array and integer entries adjacent in the (expanded) key
};

KeyLayout layout(const Tensor& x, const IndexEntry* key, size_t n) {
  KeyLayout k;
  int64_t consumed = 0;
  for (size_t i = 0; i < n; ++i)
    if (key[i].is_array || key[i].item.kind == IndexItem::Kind::kInteger ||
        key[i].item.kind == IndexItem::Kind::kSlice)
      ++consumed;
  const int64_t fill = std::max<int64_t>(0, static_cast<int64_t>(x.ndim()) - consumed);
  int64_t pos = 0, vaxis = 0, xaxis = 0, first = -1, last = -1, count = 0;
  auto advanced = [&] { first = first < 0 ? pos : first, last = pos, ++count; };
  for (size_t i = 0; i < n; ++i) {
    const IndexItem& it = key[i].item;
    if (key[i].is_array) {
      k.basic.push_back(IndexItem::all());
      k.arrays.push_back(i), k.vaxis.push_back(vaxis++), k.xaxis.push_back(xaxis++);
      advanced();
      ++pos;
      continue;
    }
    k.basic.push_back(it);
    switch (it.kind) {
      case IndexItem::Kind::kEllipsis: pos += fill, vaxis += fill, xaxis += fill; break;
      case IndexItem::Kind::kNewAxis:
      case IndexItem::Kind::kBoolean: ++pos, ++vaxis; break;
      case IndexItem::Kind::kSlice: ++pos, ++vaxis, ++xaxis; break;
      case IndexItem::Kind::kInteger: advanced(), ++pos, ++xaxis; break;
    }
  }
  k.adjacent = last - first + 1 == count;
  return k;
}

// The shape the index arrays broadcast to (numpy's rule), or InvalidArgument naming them all.
Dims broadcast_arrays(const IndexEntry* key, const KeyLayout& k, const char* where) {
  Dims b;
  for (size_t i : k.arrays)
    while (key[i].shape.size() > b.size()) b.insert(0, 1);
  for (size_t i : k.arrays) {
    const Dims& s = key[i].shape;
    for (size_t d = 0; d < s.size(); ++d) {
      int64_t& out = b[b.size() - s.size() + d];
      if (s[d] == out || s[d] == 1) continue;
      if (out != 1) {
        std::string shapes;
        for (size_t j : k.arrays) shapes += (shapes.empty() ? "" : " ") + shape_text(key[j].shape);
        throw_invalid_argument(where, "key",
                               "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
      }
      out = s[d];
    }
  }
  return b;
}

[[noreturn]] void out_of_bounds(const char* where, int64_t index, int64_t axis, int64_t size) {
  throw InvalidArgument(std::string(where) + ": index " + std::to_string(index) + " is out of bounds for axis " +
                        std::to_string(axis) + " with size " + std::to_string(size));
}

// Strides (in elements) that read an array of `shape` broadcast to b.
Dims broadcast_strides(const Dims& shape, const Dims& b) {
  Dims st(b.size(), 0);
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1) st[b.size() - shape.size() + d] = s;
    s *= shape[d];
  }
  return st;
}

// The flat index over the index axes of every position of b (C order), all arrays on the host:
// sum over arrays of (index normalized to [0, size)) * (product of the later arrays' sizes).
std::vector<int64_t> host_flat(const IndexEntry* key, const KeyLayout& k, const Dims& sizes, const Dims& b,
                               const char* where) {
  const int64_t n = shape_numel(b);
  std::vector<int64_t> flat(static_cast<size_t>(n), 0);
  for (size_t a = 0; a < k.arrays.size(); ++a) {
    const IndexEntry& e = key[k.arrays[a]];
    for (int64_t v : e.host)
      if (v < -sizes[a] || v >= sizes[a]) out_of_bounds(where, v, k.xaxis[a], sizes[a]);
  }
  if (n == 0) return flat;
  for (size_t a = 0; a < k.arrays.size(); ++a) {
    const IndexEntry& e = key[k.arrays[a]];
    const Dims st = broadcast_strides(e.shape, b);
    Dims at(b.size(), 0);
    int64_t src = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t v = e.host[static_cast<size_t>(src)];
      flat[static_cast<size_t>(j)] = flat[static_cast<size_t>(j)] * sizes[a] + (v < 0 ? v + sizes[a] : v);
      for (size_t d = b.size(); d-- > 0;) {  // the next position of b, C order
        src += st[d];
        if (++at[d] < b[d]) break;
        src -= st[d] * b[d];
        at[d] = 0;
      }
    }
  }
  return flat;
}

Tensor upload(const std::vector<int64_t>& v, const Dims& shape, const Stream& s) {
  Tensor t = Tensor::empty(shape, DType::kInt64, s);
  if (!v.empty()) copy_from_host(t, v.data(), v.size() * sizeof(int64_t), s, /*blocking=*/false);  // staged
  return t;
}

// A device index array normalized by index_check (one launch, one blocking status read); a mask's
// nonzero() row is in range by construction and taken as it is.
Tensor device_indices(const IndexEntry& e, int64_t size, int64_t axis, const Stream& s, const char* where) {
  if (e.mask_size >= 0) return e.device;
  if (!is_integral(e.device.dtype()) || e.device.dtype() == DType::kBool)
    throw_invalid_argument(where, "key", std::string("arrays used as indices must be of integer type, got ") +
                                             dtype_name(e.device.dtype()));
  if (e.device.numel() == 0) return Tensor::empty(e.shape, DType::kInt64, s);
  std::vector<Tensor> r = ops::call("index_check", {e.device}, {{"size", AttrValue(size)}}, s);
  int64_t status[2 * kStatusSlots];
  copy_to_host(status, r[1], sizeof(status), s, /*blocking=*/true);
  for (int i = 0; i < kStatusSlots; ++i)
    if (status[2 * i] != 0) out_of_bounds(where, status[2 * i + 1], axis, size);
  return r[0];
}

// The flat index when an array is on the device: every array normalized on the device, folded by
// `multiply` / `add_broadcast` (the elementwise family, int64 too) over broadcast (stride-0) views.
Tensor device_flat(const IndexEntry* key, const KeyLayout& k, const Dims& sizes, const Dims& b, const Stream& s,
                   const char* where) {
  Tensor flat;
  for (size_t a = 0; a < k.arrays.size(); ++a) {
    const IndexEntry& e = key[k.arrays[a]];
    Tensor t;
    if (e.device.defined()) {
      t = device_indices(e, sizes[a], k.xaxis[a], s, where);
    } else {
      KeyLayout one;  // e alone: host_flat checks and normalizes it
      one.arrays.push_back(0), one.vaxis.push_back(0), one.xaxis.push_back(k.xaxis[a]);
      const std::vector<int64_t> h = host_flat(&e, one, Dims{sizes[a]}, e.shape, where);
      t = upload(h, e.shape, s);
    }
    const Tensor tb = t.view(b, broadcast_strides(e.shape, b), t.byte_offset());
    if (!flat.defined()) {
      flat = tb;
      continue;
    }
    const Tensor size = ops::fill(Dims{1}, DType::kInt64, FillValue::integer(sizes[a]), s);
    const Tensor scaled = ops::call("multiply", {flat, size.view(b, Dims(b.size(), 0), size.byte_offset())}, {}, s)[0];
    flat = ops::call("add_broadcast", {scaled, tb}, {}, s)[0];
  }
  return ops::contiguous(flat, s);
}

// The key with every mask replaced by its nonzero() rows (int64 [count] device tensors, mask_size
// set), and, when a mask is the key's only array entry, its flat positions (C order over its axes):
// the plan's flat index as it is, no fold. The one synchronization: the total count's read.
struct MaskedKey {
  std::vector<IndexEntry> entries;
  Tensor flat;  // defined when the only array entry was a mask
};

// A host mask's nonzero() rows, on the host: no launch, no read.
void expand_host_mask(const IndexEntry& e, MaskedKey* out) {
  std::vector<std::vector<int64_t>> rows(e.shape.size());
  const int64_t n = static_cast<int64_t>(e.host.size());
  for (int64_t i = 0; i < n; ++i) {
    if (e.host[static_cast<size_t>(i)] == 0) continue;
    for (size_t j = e.shape.size(), rest = static_cast<size_t>(i); j-- > 0;) {  // unravel i, C order
      rows[j].push_back(static_cast<int64_t>(rest % static_cast<size_t>(e.shape[j])));
      rest /= static_cast<size_t>(e.shape[j]);
    }
  }
  for (size_t j = 0; j < rows.size(); ++j) {
    const int64_t count = static_cast<int64_t>(rows[j].size());
    IndexEntry r = IndexEntry::host_array(Dims{count}, std::move(rows[j]));
    r.mask_size = e.shape[j];
    out->entries.push_back(std::move(r));
  }
}

void expand_mask(const IndexEntry& e, bool only, const Stream& s, const char* where, MaskedKey* out) {
  if (!e.device.defined()) {
    if (e.shape.empty()) throw_invalid_argument(where, "key", "a mask must have rank >= 1");
    return expand_host_mask(e, out);
  }
  if (e.device.dtype() != DType::kBool || e.device.ndim() == 0)
    throw_invalid_argument(where, "key", "a mask must be a boolean tensor of rank >= 1");
  const Tensor m = ops::contiguous(e.device, s);
  int64_t count = 0;
  Tensor offsets;
  if (m.numel() > 0) {
    const Tensor counts = ops::call("mask_count", {m}, {}, s)[0];
    offsets = ops::call("cumsum", {counts}, {{"include_initial", AttrValue(true)}}, s)[0];
    const Tensor total = offsets.view(Dims{1}, Dims{1}, offsets.byte_offset() + kStatusSlots * sizeof(int64_t));
    copy_to_host(&count, total, sizeof(count), s, /*blocking=*/true);  // sizes the result: the host must know it
  }
  Tensor pos = Tensor::empty(Dims{only ? 1 : static_cast<int64_t>(m.ndim()), count}, DType::kInt64, s);
  if (count > 0)
    pos = ops::call("mask_positions", {m, offsets}, {{"count", AttrValue(count)}, {"unravel", AttrValue(!only)}},
                    s)[0];
  const auto row = [&](size_t j) {
    return pos.view(Dims{count}, Dims{1}, pos.byte_offset() + static_cast<int64_t>(j) * count * 8);
  };
  if (only) out->flat = row(0);
  for (size_t j = 0; j < m.ndim(); ++j) {
    IndexEntry r = IndexEntry::device_array(row(only ? 0 : j));  // with `only`, a stand-in: flat is the index
    r.mask_size = m.shape()[j];
    out->entries.push_back(std::move(r));
  }
}

// False (out untouched) when the key holds no mask.
bool expand_masks(const IndexEntry* key, size_t n, const Stream& s, const char* where, MaskedKey* out) {
  size_t masks = 0, arrays = 0;
  for (size_t i = 0; i < n; ++i) masks += key[i].is_mask, arrays += key[i].is_array;
  if (masks == 0) return false;
  for (size_t i = 0; i < n; ++i) {
    if (key[i].is_mask)
      expand_mask(key[i], arrays == 1, s, where, out);
    else
      out->entries.push_back(key[i]);
  }
  return true;
}

// numpy's error for a mask whose shape does not match the axes it covers.
void check_mask_sizes(const IndexEntry* key, const KeyLayout& k, const Dims& sizes, const char* where) {
  for (size_t a = 0; a < k.arrays.size(); ++a) {
    const int64_t m = key[k.arrays[a]].mask_size;
    if (m >= 0 && m != sizes[a])
      throw InvalidArgument(std::string(where) + ": boolean index did not match indexed array along axis " +
                            std::to_string(k.xaxis[a]) + "; size of axis is " + std::to_string(sizes[a]) +
                            " but size of corresponding boolean axis is " + std::to_string(m));
  }
}

}  // namespace

AdvancedIndex::AdvancedIndex(const Tensor& x, const IndexEntry* key, size_t n, const char* where) : where_(where) {
  if (!x.defined()) throw_invalid_argument(where, "x", "undefined tensor");
  x_ = x;
  MaskedKey masked;
  if (expand_masks(key, n, x.stream(), where, &masked)) key = masked.entries.data(), n = masked.entries.size();
  const KeyLayout k = layout(x, key, n);
  if (k.arrays.empty()) throw_invalid_argument(where, "key", "holds no index array (use basic_index)");
  const Tensor view = basic_index(x, k.basic.data(), k.basic.size(), where);
  const Dims b = broadcast_arrays(key, k, where);
  index_shape_ = b;
  count_ = k.arrays.size();
  first_ = k.adjacent ? k.vaxis[0] : 0;
  Dims sizes;
  for (int64_t a : k.vaxis) sizes.push_back(view.shape()[static_cast<size_t>(a)]);
  check_mask_sizes(key, k, sizes, where);
  // The view's axes: the other ones before first_, the index ones, the other ones after.
  Dims order;
  for (int64_t a = 0; a < static_cast<int64_t>(view.ndim()); ++a)
    if (std::find(k.vaxis.begin(), k.vaxis.end(), a) == k.vaxis.end()) order.push_back(a);
  for (size_t i = 0; i < count_; ++i) order.insert(static_cast<size_t>(first_) + i, k.vaxis[i]);
  Dims shape, strides;
  for (int64_t a : order) {
    shape.push_back(view.shape()[static_cast<size_t>(a)]);
    strides.push_back(view.strides()[static_cast<size_t>(a)]);
  }
  view_ = view.view(shape, strides, view.byte_offset());
  value_shape_.assign(shape.begin(), shape.begin() + first_);
  append(value_shape_, b.begin(), b.end());
  append(value_shape_, shape.begin() + first_ + static_cast<int64_t>(count_), shape.end());
  const bool on_host = std::all_of(k.arrays.begin(), k.arrays.end(), [&](size_t i) { return !key[i].device.defined(); });
  const Stream& s = x.stream();
  if (masked.flat.defined()) {
    flat_ = masked.flat;  // the mask's flat positions over its axes
  } else if (!masked.entries.empty() && shape_numel(b) == 0) {
    flat_ = Tensor::empty(Dims{0}, DType::kInt64, s);  // nothing selected: no fold over empty arrays
  } else if (on_host) {
    const std::vector<int64_t> flat = host_flat(key, k, sizes, b, where);
    flat_ = upload(flat, Dims{shape_numel(b)}, s);
  } else {
    const Tensor f = device_flat(key, k, sizes, b, s, where);
    flat_ = f.view(Dims{shape_numel(b)}, Dims{1}, f.byte_offset());
  }
}

bool AdvancedIndex::accepts(const Dims& from) const {
  const Dims& to = value_shape_;
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (from[d] != to[lead + d] && from[d] != 1) return false;
  return true;
}

void AdvancedIndex::put(const Tensor& values) const {
  if (x_.read_only()) throw_invalid_argument(where_, "x", "assignment destination is read-only");
  if (!values.defined() || values.dtype() != view_.dtype() || !(values.device() == view_.device()))
    throw_invalid_argument(where_, "values", "needs " + std::string(dtype_name(view_.dtype())) + " on the array's device");
  if (!accepts(values.shape()))
    throw_invalid_argument(where_, "values", "could not broadcast input array from shape " +
                                                 shape_text(values.shape()) + " into shape " + shape_text(value_shape_));
  if (shape_numel(value_shape_) == 0) return;
  const Stream& s = view_.stream();
  const size_t f = static_cast<size_t>(first_);
  // The view and the values with the index axes merged into one (scatter's layout).
  Dims merged(view_.shape().begin(), view_.shape().begin() + f);
  merged.push_back(flat_.numel());
  const Dims post(view_.shape().begin() + f + count_, view_.shape().end());
  Dims vmerged = merged;
  merged[f] = shape_numel(Dims(view_.shape().begin() + f, view_.shape().begin() + f + count_));
  append(merged, post.begin(), post.end());
  append(vmerged, post.begin(), post.end());
  Tensor src;
  if (values.numel() == 1) {
    src = values.view(Dims{1}, Dims{1}, values.byte_offset());  // the kernel repeats it
  } else if (values.shape() == value_shape_ && values.is_contiguous() && values.storage() != view_.storage()) {
    src = values.view(vmerged, contiguous_strides(vmerged), values.byte_offset());  // as it is
  } else {
    Dims st(value_shape_.size(), 0);
    const Dims vs = broadcast_strides(values.shape(), value_shape_);
    const size_t lead = value_shape_.size() - values.ndim();
    for (size_t d = 0; d < values.ndim(); ++d) st[lead + d] = vs[lead + d] ? values.strides()[d] : 0;
    src = values.view(value_shape_, st, values.byte_offset());
    src = src.storage() == view_.storage() ? ops::copy(src, s) : ops::contiguous(src, s);
    src = src.view(vmerged, contiguous_strides(vmerged), src.byte_offset());
  }
  static const OpHandle scatter = OpHandle::find("scatter");  // resolved once: no lookup by name per call
  const Tensor inputs[2] = {flat_, src};
  const AttrValue attrs[3] = {AttrValue(merged), AttrValue(first_), AttrValue(false)};  // shape, axis, unique
  const bool dense = view_.is_contiguous();
  const Tensor tmp = dense ? view_ : ops::copy(view_, s);  // a strided view: scattered densely, written back
  Tensor out[1] = {tmp.view(merged, contiguous_strides(merged), tmp.byte_offset())};
  dispatch(scatter, Span<const Tensor>(inputs, 2), Span<const AttrValue>(attrs, 3), s, Span<Tensor>(out, 1));
  if (!dense) ops::copy_into(view_, tmp, s);
}

Tensor AdvancedIndex::take() const {
  const Stream& s = view_.stream();
  if (shape_numel(value_shape_) == 0) return Tensor::empty(value_shape_, view_.dtype(), s);
  const size_t f = static_cast<size_t>(first_);
  Dims merged(view_.shape().begin(), view_.shape().begin() + f);  // the index axes merged into one
  merged.push_back(shape_numel(Dims(view_.shape().begin() + f, view_.shape().begin() + f + count_)));
  append(merged, view_.shape().begin() + f + count_, view_.shape().end());
  const Tensor src = view_.is_contiguous() ? view_ : ops::copy(view_, s);
  static const OpHandle gather = OpHandle::find("gather");
  const Tensor inputs[2] = {src.view(merged, contiguous_strides(merged), src.byte_offset()),
                            flat_.view(index_shape_, contiguous_strides(index_shape_), flat_.byte_offset())};
  const AttrValue attrs[1] = {AttrValue(first_)};  // axis (mode: take)
  Tensor out[1];
  dispatch(gather, Span<const Tensor>(inputs, 2), Span<const AttrValue>(attrs, 1), s, Span<Tensor>(out, 1));
  return out[0];
}

void index_put(const Tensor& x, const IndexEntry* key, size_t n, const Tensor& values, const char* where) {
  AdvancedIndex(x, key, n, where).put(values);
}

Tensor index_take(const Tensor& x, const IndexEntry* key, size_t n, const char* where) {
  return AdvancedIndex(x, key, n, where).take();
}

}  // namespace npurt
