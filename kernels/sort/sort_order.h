// kernels/sort/sort_order.h: the one total order every kernel of the sort
// family (sort_block, sort_merge, searchsorted, isin, unique) compares with,
// plus the small device helpers they share (vsort_* and vunique_* use the
// helpers only).
//
// Order (ascending): numpy's. Integers and bool by value; floats by value with
// -0.0 == +0.0 and every NaN after +inf, NaNs equal to each other (so a stable
// sort keeps NaNs in their input order). Descending is the mirrored order
// (NaN first), equal keys still in input order: this is what `flip(argsort(
// flip(x)))` gives and what the array API standard's `stable` asks for.
// 16-bit floats compare as float (exact), bool as 0/1.
#pragma once

#include <cstdint>
#include <type_traits>

#include "elementwise/ew_types.h"
#include "kernel_operator.h"
#include "npurt/dtype.h"

namespace npurt::kernels::sort {

using ew::Elem;
using ew::Wide;

// Every dtype the family sorts (complex has no order in the standard).
constexpr uint32_t kSortable = ew::kAll;

template <class W>
__aicore__ inline bool Less(W a, W b) {
  if constexpr (std::is_floating_point<W>::value) return a < b || (b != b && a == a);
  else return a < b;
}

template <class W>
__aicore__ inline bool IsNan(W v) {
  if constexpr (std::is_floating_point<W>::value) return v != v;
  else return false;
}

// "a goes strictly before b" in the requested direction.
template <class W>
__aicore__ inline bool Before(W a, W b, bool descending) {
  return descending ? Less(b, a) : Less(a, b);
}

template <class T>
__aicore__ inline Wide<T> KeyOf(T v) {
  return static_cast<Wide<T>>(v);
}

__aicore__ inline uint64_t Min(uint64_t a, uint64_t b) { return a < b ? a : b; }

// Units [begin, end) of this core (per_core units each, in block order).
__aicore__ inline bool CoreRange(uint64_t units, uint64_t per_core, uint64_t& begin, uint64_t& end) {
  begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_core;
  if (begin >= units) return false;
  end = Min(begin + per_core, units);
  return true;
}

// Calls f(u) for every unit u of this core's range of t.units (t.per_core
// each): the Run() loop of the multi-unit sort kernels.
template <class Tiling, class F>
__aicore__ inline void ForEachUnit(const Tiling& t, F&& f) {
  uint64_t begin, end;
  if (!CoreRange(t.units, t.per_core, begin, end)) return;
  for (uint64_t u = begin; u < end; ++u) f(u);
}

// The score dtypes of the vector-unit kernels (vsort_merge, vunique_*):
// f(half{}) for float16, f(float{}) for float32 (the only other one the ops admit).
template <class F>
__aicore__ inline void VisitScore(uint32_t dtype, F&& f) {
  if (dtype == static_cast<uint32_t>(npurt::DType::kFloat16)) f(half{});
  else f(float{});
}

// One pipe hand-off (set + wait on the same ID): the simulator's full check
// models it; on the NPU it orders scalar reads/writes against the MTE copies.
template <AscendC::HardEvent E>
__aicore__ inline void Handoff(int id = 0) {
  AscendC::SetFlag<E>(static_cast<event_t>(id));
  AscendC::WaitFlag<E>(static_cast<event_t>(id));
}

}  // namespace npurt::kernels::sort
