// sdk_python/bindings/module.cpp: the _npurt extension module.
//
// Binds, in dependency order, the concepts each defined in its own file (see
// bindings.h). The Python package npurt (sdk_python/npurt) re-exports them.
#include "bindings.h"

#include "npurt/runtime.h"

NB_MODULE(_npurt, m) {
  using namespace npurt::python;
  m.doc() = "npurt runtime bindings (use the `npurt` package, not this module)";
  bind_errors(m);
  bind_dtypes(m);
  bind_devices(m);
  bind_streams(m);
  bind_memory(m);
  bind_ndarray(m);
  bind_creation(m);
  bind_profiler(m);
  bind_ops(m);
  bind_graphs(m);
  bind_views(m);
  bind_operators(m);
  bind_sort(m);
  bind_linalg(m);
  bind_indexing(m);
  bind_scalar_conversion(m);
  bind_scalar_constants(m);
  bind_fill_values(m);
  bind_host_index(m);
  bind_index_put(m);
  m.attr("__runtime_version__") = npurt::version();
}
