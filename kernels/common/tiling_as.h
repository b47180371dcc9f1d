// kernels/common/tiling_as.h: a kernel's POD tiling struct read back from a TilingResult, the
// inverse of TilingResult::set_tiling (what describe_tiling functions and host plans read).
//
// Invariant: the bytes are copied out (never reinterpreted in place: SmallVector storage has no
// alignment guarantee for T), and only when the result holds at least sizeof(T) bytes; fewer
// means a describe/plan paired with another op's tiling, npurt's bug, reported as
// Error(kInternal) naming the reader instead of a read past the buffer.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>

#include "npurt/op_def.h"
#include "npurt/status.h"

namespace npurt::kernels {

template <class T>
T tiling_as(const TilingResult& r, const char* where) {
  static_assert(std::is_trivially_copyable<T>::value, "tiling data must be a POD struct");
  if (r.tiling.size() < sizeof(T))
    throw Error(StatusCode::kInternal, std::string(where) + ": argument 'tiling': holds " +
                                           std::to_string(r.tiling.size()) + " bytes, the tiling struct needs " +
                                           std::to_string(sizeof(T)));
  T t;
  std::memcpy(&t, r.tiling.data(), sizeof(T));
  return t;
}

}  // namespace npurt::kernels
