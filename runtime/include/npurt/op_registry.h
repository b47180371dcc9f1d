// npurt/op_registry.h: the process-wide table of ops and the registration macro.
//
// Built-in kernels (kernels/) and users' plugin libraries register the same way:
//
//   NPURT_REGISTER_OP("my_op")
//       .doc("...").input("x", {DType::kFloat32}).output("y")
//       .infer_same_as(0).tiling(my_tiling).sim_kernel("my_kernel", my_entry);
//
//   NPURT_REGISTER_OPS(make_family_defs());   // a std::vector<OpDefBuilder>
//
// Invariants:
//   - An op, once registered, is never removed or changed: OpDef pointers and
//     OpHandles stay valid for the life of the process (libraries are never
//     unloaded once one of their ops is registered).
//   - Names are unique. Registering a duplicate or an invalid OpDef through
//     OpRegistry::add throws (AlreadyExists / InvalidArgument).
//   - Registrations made by static initializers never throw (that would abort
//     the process): while npurt::load_library runs, they are staged and
//     committed all-or-nothing, and load_library throws the collected errors;
//     outside it (libraries linked at start-up) errors are kept and reported by
//     registration_errors() and on stderr.
//   - Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "npurt/op_def.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class OpRegistry {
 public:
  static OpRegistry& instance();

  // Validates and registers; returns the stored OpDef. Throws on any problem.
  const OpDef& add(OpDef def);
  // nullptr when unknown. Loads the built-in kernel library on first use.
  const OpDef* find(const std::string& name) const;
  std::vector<std::string> names() const;  // sorted
  // Bumped by every registration, so caches of the op list (nr.ops) can refresh.
  uint64_t generation() const;

 private:
  OpRegistry() = default;
};

// Problems found while registering ops from static initializers outside
// load_library (for example in libnpurt_kernels).
std::vector<std::string> registration_errors();

// Used by the macros: registers from a static initializer without throwing.
class OpRegistrar {
 public:
  OpRegistrar(const OpDefBuilder& builder) noexcept;
  OpRegistrar(const std::vector<OpDefBuilder>& builders) noexcept;
};

}  // namespace npurt
NPURT_PUBLIC_END

#define NPURT_OP_CONCAT_INNER(a, b) a##b
#define NPURT_OP_CONCAT(a, b) NPURT_OP_CONCAT_INNER(a, b)
#define NPURT_REGISTER_OP(name_literal)                                                  \
  static ::npurt::OpRegistrar NPURT_OP_CONCAT(npurt_op_registrar_, __COUNTER__) =        \
      ::npurt::OpDefBuilder(name_literal)
#define NPURT_REGISTER_OPS(...) /* an expression of type std::vector<OpDefBuilder> */     \
  static ::npurt::OpRegistrar NPURT_OP_CONCAT(npurt_op_registrar_, __COUNTER__)(__VA_ARGS__)
