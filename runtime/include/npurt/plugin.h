// npurt/plugin.h: loading users' op libraries at run time.
//
// A plugin is a shared library built with npurt_add_op_library (CMake) or
// nr.ops.build (Python) whose static initializers register ops with
// NPURT_REGISTER_OP. load_library dlopens it (RTLD_NOW | RTLD_LOCAL) and
// commits its registrations all-or-nothing.
//
// Invariants:
//   - Loading the same library again (same file) is harmless and returns the
//     same op names.
//   - Any problem (file missing, undefined symbol, duplicate op name across
//     libraries, invalid OpDef) throws with every problem listed; none of that
//     library's ops are registered and the process continues.
#pragma once

#include <string>
#include <vector>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct LoadedLibrary {
  std::string path;                 // as given
  std::vector<std::string> ops;     // names of the ops it registered
};

LoadedLibrary load_library(const std::string& path);
std::vector<LoadedLibrary> loaded_libraries();

}  // namespace npurt
NPURT_PUBLIC_END
