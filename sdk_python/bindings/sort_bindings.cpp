// sdk_python/bindings/sort_bindings.cpp: npurt::array::sort_plan / sort_last
// (npurt/sort_ops.h) for the array-API layer: searching.py and sets.py call
// `_sort_last` for every sort, so the chunk rule and the launch chain exist
// only in C++. Errors are the C++ ones (InvalidArgument -> ValueError).
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "npurt/sort_ops.h"

namespace npurt::python {
namespace {

array::SortArgs sort_args(bool descending, uint64_t chunk, uint64_t vchunk, bool scalar) {
  array::SortArgs a;
  a.descending = descending;
  a.chunk = chunk;
  a.vchunk = vchunk;
  a.scalar = scalar;
  return a;
}

nb::tuple sort_last(const Tensor& x, bool descending, uint64_t chunk, uint64_t vchunk, bool scalar) {
  array::Sorted s = array::sort_last(x, sort_args(descending, chunk, vchunk, scalar));
  return nb::make_tuple(s.values, s.indices);
}

// (unit "vector"/"scalar", score dtype, rows, n, chunk, [merge widths]).
nb::tuple sort_plan(const Tensor& x, bool descending, uint64_t chunk, uint64_t vchunk, bool scalar) {
  const array::SortPlan p = array::sort_plan(x, sort_args(descending, chunk, vchunk, scalar));
  return nb::make_tuple(p.unit == array::SortUnit::kVector ? "vector" : "scalar", dtype_object(p.score), p.rows,
                        p.n, p.chunk, p.widths);
}

}  // namespace

void bind_sort(nb::module_& m) {
  m.def("_sort_last", &sort_last, nb::arg("x"), nb::arg("descending") = false, nb::arg("chunk") = 0,
        nb::arg("vchunk") = 0, nb::arg("scalar") = false,
        "npurt::array::sort_last: (values, int64 indices) of x sorted stably along its last axis; chunk > 0 "
        "(or scalar=True) forces the scalar unit, vchunk > 0 the vector unit, with that UB chunk.");
  m.def("_sort_plan", &sort_plan, nb::arg("x"), nb::arg("descending") = false, nb::arg("chunk") = 0,
        nb::arg("vchunk") = 0, nb::arg("scalar") = false,
        "npurt::array::sort_plan: (unit, score dtype, rows, n, chunk, merge widths) of _sort_last(x, ...).");
}

}  // namespace npurt::python
