// aicore/tiling.h: reading the host-computed tiling struct inside a kernel.
//
// The tiling argument is a GM pointer to the POD struct the host tiling
// function produced. GET_TILING_DATA_WITH_STRUCT(Type, var, tiling) declares
// `Type var` and copies sizeof(Type) bytes from `tiling`, checked against the
// launch's tiling region (a struct larger than the tiling bytes is ErrorGmRead).
// GET_TILING_DATA(var, tiling) uses the type registered with
// REGISTER_TILING_DEFAULT(Type) earlier in the same scope (or at namespace
// scope), as CANN op projects do.
#pragma once

#include <cstring>
#include <type_traits>

#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/global_tensor.h"

namespace npurt::sim {

template <class T>
T read_tiling(const void* tiling) {
  static_assert(std::is_trivially_copyable<T>::value, "tiling structs must be trivially copyable");
  GmRef g;
  g.ptr = static_cast<uint8_t*>(const_cast<void*>(tiling));
  CoreContext* c = core();
  if (tiling == nullptr)  // checked at every level: reading it would crash the process
    raise_fault(Diag::kGmRead, "GET_TILING_DATA",
                "the launch has no tiling data (tiling pointer is null)");
  if (checks_on(c)) {
    bind_gm_region(c, g);
    check_gm(c, g, g.ptr, sizeof(T), 1, "GET_TILING_DATA", Access::kRead);
  }
  T v;
  std::memcpy(&v, tiling, sizeof(T));
  return v;
}

}  // namespace npurt::sim

#define REGISTER_TILING_DEFAULT(Type) using NpurtDefaultTilingType = Type
#define GET_TILING_DATA_WITH_STRUCT(Type, var, tiling) \
  const Type var = ::npurt::sim::read_tiling<Type>(tiling)
#define GET_TILING_DATA(var, tiling) \
  GET_TILING_DATA_WITH_STRUCT(NpurtDefaultTilingType, var, tiling)
