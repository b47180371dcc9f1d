// aicore/vec_cast_pairs.h: the one list of Cast (dst, src) pairs the simulated A2/A3
// vector unit supports, with the RoundModes each accepts (Cast.md support
// table, ascend-facts.md 2.7). AscendC::Cast checks pairs against it at compile
// time, the raw dispatcher checks modes at run time, and
// every ISA instantiates its kernels from it, so they cannot drift apart.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "aicore/vec_raw.h"

namespace npurt::aicore::vec {

constexpr uint8_t mode_bit(AscendC::RoundMode m) { return static_cast<uint8_t>(1u << static_cast<uint8_t>(m)); }
constexpr uint8_t kNone = mode_bit(AscendC::RoundMode::CAST_NONE);
constexpr uint8_t kRounding = mode_bit(AscendC::RoundMode::CAST_RINT) | mode_bit(AscendC::RoundMode::CAST_FLOOR) |
                              mode_bit(AscendC::RoundMode::CAST_CEIL) | mode_bit(AscendC::RoundMode::CAST_ROUND) |
                              mode_bit(AscendC::RoundMode::CAST_TRUNC);
constexpr uint8_t kOdd = mode_bit(AscendC::RoundMode::CAST_ODD);

template <class D, class S, uint8_t Modes> struct CastPair {
  using Dst = D;
  using Src = S;
  static constexpr uint8_t kModes = Modes;
  static_assert(Modes != 0, "a cast pair accepts at least one RoundMode (cast_pair_exists relies on it)");
};

using CastPairs = std::tuple<
    CastPair<float, half, kNone>,                          // exact widening
    CastPair<half, float, kNone | kRounding | kOdd>,
    CastPair<float, bfloat16_t, kNone>,
    CastPair<bfloat16_t, float, kRounding>,
    CastPair<float, float, kRounding>,                     // round to an integral value
    CastPair<int32_t, float, kRounding>,
    CastPair<int16_t, float, kRounding>,
    CastPair<int64_t, float, kRounding>,
    CastPair<float, int32_t, kNone | kRounding>,
    CastPair<float, int16_t, kNone>,
    CastPair<int32_t, half, kRounding>,
    CastPair<int16_t, half, kRounding>,
    CastPair<int8_t, half, kNone | kRounding>,
    CastPair<uint8_t, half, kNone | kRounding>,
    CastPair<half, int16_t, kNone | kRounding>,
    CastPair<half, int8_t, kNone>,
    CastPair<half, uint8_t, kNone>,
    CastPair<int32_t, bfloat16_t, kRounding>,
    CastPair<int64_t, int32_t, kNone>>;

// The RoundMode bits the (D, S) pair accepts (0 when the pair does not exist).
template <class D, class S, size_t I = 0> constexpr uint8_t cast_pair_modes() {
  if constexpr (I == std::tuple_size_v<CastPairs>) {
    return 0;
  } else {
    using P = std::tuple_element_t<I, CastPairs>;
    if constexpr (std::is_same_v<typename P::Dst, D> && std::is_same_v<typename P::Src, S>) return P::kModes;
    else return cast_pair_modes<D, S, I + 1>();
  }
}

// Every listed pair accepts at least one mode, so "has modes" is "exists".
template <class D, class S> constexpr bool cast_pair_exists() { return cast_pair_modes<D, S>() != 0; }

// Calls f(CastPair<...>{}) for the pair matching (dst, src); returns false if none.
template <class F, size_t I = 0> bool visit_cast_pair(VType dst, VType src, F&& f) {
  if constexpr (I == std::tuple_size_v<CastPairs>) {
    return false;
  } else {
    using P = std::tuple_element_t<I, CastPairs>;
    if (vtype_of<typename P::Dst> == dst && vtype_of<typename P::Src> == src) {
      f(P{});
      return true;
    }
    return visit_cast_pair<F, I + 1>(dst, src, static_cast<F&&>(f));
  }
}

}  // namespace npurt::aicore::vec
