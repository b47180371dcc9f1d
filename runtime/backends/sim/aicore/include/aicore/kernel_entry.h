// aicore/kernel_entry.h: turning an Ascend C kernel entry function into the
// SimKernelEntry the sim backend calls.
//
//   extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
//                                                    GM_ADDR workspace, GM_ADDR tiling);
//   npurt::SimKernelEntry e = &npurt_sim_thunk<&add_custom>;   // or NPURT_SIM_ENTRY(add_custom)
//
// The thunk receives KernelLaunch::args followed by workspace and tiling as
// void* slots. It checks that the slot count equals the entry's arity
// (ErrorArgs otherwise) and converts each slot to the parameter type: pointers
// directly, integer/float/enum scalars by bit-copying sizeof(T) bytes from the
// start of the 8-byte slot (the host packs them the same way).
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "aicore/fault.h"

namespace npurt::sim {

template <class T>
T from_slot(void* slot) {
  if constexpr (std::is_pointer<T>::value) {
    return static_cast<T>(slot);
  } else {
    static_assert(std::is_arithmetic<T>::value || std::is_enum<T>::value,
                  "kernel parameters must be pointers or arithmetic/enum scalars");
    static_assert(sizeof(T) <= sizeof(void*), "scalar kernel parameters must fit an 8-byte slot");
    T v;
    std::memcpy(&v, &slot, sizeof(T));
    return v;
  }
}

template <class Fn>
struct EntrySignature;

template <class... A>
struct EntrySignature<void (*)(A...)> {
  static constexpr size_t arity = sizeof...(A);
  template <auto F, size_t... I>
  static void call(void* const* args, std::index_sequence<I...>) {
    F(from_slot<A>(args[I])...);
  }
};

}  // namespace npurt::sim

template <auto F>
void npurt_sim_thunk(void* const* args, size_t num_args) {
  using Sig = npurt::sim::EntrySignature<decltype(F)>;
  if (num_args != Sig::arity)
    npurt::sim::raise_fault(npurt::sim::Diag::kArgs, "kernel entry",
                            "called with " + std::to_string(num_args) +
                                " argument slots (arguments + workspace + tiling) but the entry "
                                "function takes " + std::to_string(Sig::arity));
  Sig::template call<F>(args, std::make_index_sequence<Sig::arity>{});
}

#define NPURT_SIM_ENTRY(fn) (&::npurt_sim_thunk<&fn>)
