// aicore/vec_reduce.h: ReduceMax / ReduceMin / ReduceSum (level 2 and
// mask/repeat forms), WholeReduceSum/Max/Min and BlockReduceSum/Max/Min
// (CANN 8.x names; half and float).
// Invariants (ascend-facts.md 2.8, semantics in aicore/vec_raw.h):
//   - ReduceMax/Min with calIndex: dst[0] = value, dst[1] = index of the first
//     occurrence bit-cast into T (uint16 for half, uint32 for float); a NaN wins.
//   - sharedTmpBuffer must hold the documented work size (vecapi::work_elems);
//     the simulator checks it and marks it written (the hardware scribbles there).
//   - Reduce dst needs 2*sizeof(T) alignment (4 B half, 8 B float); sources 32 B.
//   - Mask: continuous count in [1, 256/sizeof(T)] or bit form (2 x uint64 for
//     half, mask[1] == 0 for float), never empty; repeatTime <= 255 for
//     Whole/BlockReduce; strides >= 0. Violations are parameter diagnostics.
#pragma once

#include "aicore/vec_common.h"

namespace npurt::sim::vecapi {

template <class T> constexpr uint64_t kRepeatElems = 256 / sizeof(T);
template <class T> constexpr uint64_t kBlockElems = 32 / sizeof(T);

inline uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

// Work buffer elements the level-2 ReduceX needs: one (value[, index]) pair per
// repeat of the first round, and with calIndex two further rounds, each rounded
// up to whole 32-byte blocks (ReduceMax.md sizing rule).
template <class T> uint64_t work_elems(uint64_t count, bool pairs, bool with_index) {
  const uint64_t per = pairs ? 2 : 1;
  uint64_t r1 = (count + kRepeatElems<T> - 1) / kRepeatElems<T>;
  uint64_t total = round_up(per * r1, kBlockElems<T>);
  if (!with_index) return total;
  uint64_t r2 = (per * r1 + kRepeatElems<T> - 1) / kRepeatElems<T>;
  uint64_t r3 = (per * r2 + kRepeatElems<T> - 1) / kRepeatElems<T>;
  return total + round_up(per * r2, kBlockElems<T>) + round_up(per * r3, kBlockElems<T>);
}

template <class T> void check_reduce_type() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "reductions support half and float on A2/A3");
}

// Forced inline like the other operand checks (GCC kept it out of line: ~45
// instructions of call, TLS lookup and settle per reduction, wave 13).
template <class T>
NPURT_SIM_HOT_INLINE T* reduce_dst(CoreContext* c, const char* api, const AscendC::LocalTensor<T>& dst, uint64_t n) {
  return local_operand(c, dst, n, AccessSpec{api, Access::kWrite, Pipe::V, 2 * sizeof(T), kUbOnly});
}

template <class T>
void reduce_level2(const char* api, vec::ReduceOp op, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work, int32_t count,
                   bool with_index) {
  check_reduce_type<T>();
  const uint64_t n = count_arg(api, count);
  if (n == 0) return;
  if (with_index && sizeof(T) == 2 && n > 65536) {
    vec_fault(api, "calIndex with half data needs calCount <= 65536 (the index is stored in 16 bits)");
  }
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, n);
  dst_operand(c, api, work, work_elems<T>(n, op != vec::ReduceOp::kSum, with_index));
  T* pd = reduce_dst(c, api, dst, with_index ? 2 : 1);
  raw_ok(api, vec::reduce(op, vec::vtype_of<T>, pd, read_source(src, ps, n), n, with_index));
}

// Validates a mask/repeat description and converts a continuous mask to bit form.
template <class T>
vec::RepeatShape repeat_shape(const char* api, const uint64_t* bits, int64_t count_mask, int64_t repeat,
                              int64_t blk_stride, int64_t rep_stride, int64_t max_repeat) {
  if (repeat < 0 || repeat > max_repeat)
    vec_fault(api, "repeatTime " + std::to_string(repeat) + " outside [0, " + std::to_string(max_repeat) + "]");
  if (blk_stride < 0 || rep_stride < 0) vec_fault(api, "strides must be >= 0");
  vec::RepeatShape sh;
  if (bits == nullptr) {
    if (count_mask < 1 || count_mask > static_cast<int64_t>(kRepeatElems<T>))
      vec_fault(api, "mask " + std::to_string(count_mask) + " outside [1, " + std::to_string(kRepeatElems<T>) + "]");
    sh = vec::continuous_mask(vec::vtype_of<T>, static_cast<uint32_t>(count_mask));
  } else {
    sh.mask[0] = bits[0];
    sh.mask[1] = sizeof(T) == 2 ? bits[1] : 0;
    if (sizeof(T) == 4 && bits[1] != 0) vec_fault(api, "mask[1] must be 0 for 32-bit data");
    if ((sh.mask[0] | sh.mask[1]) == 0) vec_fault(api, "mask is empty");
  }
  sh.repeat = static_cast<uint32_t>(repeat);
  sh.src_blk_stride = static_cast<uint32_t>(blk_stride);
  sh.src_rep_stride = static_cast<uint32_t>(rep_stride);
  return sh;
}

// Elements from the source start up to the last enabled lane of the last repeat.
template <class T> uint64_t repeat_extent(const vec::RepeatShape& sh) {
  if (sh.repeat == 0) return 0;
  int hi = sh.mask[1] ? 127 - __builtin_clzll(sh.mask[1]) : 63 - __builtin_clzll(sh.mask[0]);
  const uint64_t blk = hi / kBlockElems<T>, lane = hi % kBlockElems<T>;
  return (sh.repeat - 1) * uint64_t{sh.src_rep_stride} * kBlockElems<T> + blk * sh.src_blk_stride * kBlockElems<T> +
         lane + 1;
}

template <class T>
void reduce_masked(const char* api, vec::ReduceOp op, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
                   const vec::RepeatShape& sh, bool with_index) {
  check_reduce_type<T>();
  if (sh.repeat == 0) return;
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, repeat_extent<T>(sh));
  dst_operand(c, api, work, work_elems<T>(uint64_t{sh.repeat} * kRepeatElems<T>, op != vec::ReduceOp::kSum, with_index));
  T* pd = reduce_dst(c, api, dst, with_index ? 2 : 1);
  raw_ok(api, vec::reduce_repeat(op, vec::vtype_of<T>, pd, read_source(src, ps, repeat_extent<T>(sh)), sh, with_index));
}

template <class T>
void whole_reduce(const char* api, vec::ReduceOp op, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const vec::RepeatShape& sh, int32_t dst_rep_stride,
                  AscendC::ReduceOrder order) {
  check_reduce_type<T>();
  if (dst_rep_stride < 0) vec_fault(api, "dstRepStride must be >= 0");
  if (sh.repeat == 0) return;
  const bool pair = op != vec::ReduceOp::kSum && (order == AscendC::ReduceOrder::ORDER_VALUE_INDEX ||
                                                 order == AscendC::ReduceOrder::ORDER_INDEX_VALUE);
  const uint64_t unit = pair ? 2 : 1;
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, repeat_extent<T>(sh));
  T* pd = reduce_dst(c, api, dst, (sh.repeat - 1) * uint64_t(dst_rep_stride) * unit + unit);
  raw_ok(api, vec::whole_reduce(op, vec::vtype_of<T>, pd, read_source(src, ps, repeat_extent<T>(sh)), sh, static_cast<uint32_t>(dst_rep_stride),
                                op == vec::ReduceOp::kSum ? AscendC::ReduceOrder::ORDER_ONLY_VALUE : order));
}

template <class T>
void block_reduce(const char* api, vec::ReduceOp op, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const vec::RepeatShape& sh, int32_t dst_rep_stride) {
  check_reduce_type<T>();
  if (dst_rep_stride < 0) vec_fault(api, "dstRepStride must be >= 0");
  if (sh.repeat == 0) return;
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, repeat_extent<T>(sh));
  T* pd = reduce_dst(c, api, dst, (sh.repeat - 1) * uint64_t(dst_rep_stride) * 8 + 8);
  raw_ok(api, vec::block_reduce(op, vec::vtype_of<T>, pd, read_source(src, ps, repeat_extent<T>(sh)), sh, static_cast<uint32_t>(dst_rep_stride)));
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

using npurt::aicore::vec::ReduceOp;

// ---- ReduceMax / ReduceMin / ReduceSum: level 2 (count) ------------------------
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = false) {
  npurt::sim::vecapi::reduce_level2("ReduceMax", ReduceOp::kMax, dst, src, sharedTmpBuffer, count, calIndex);
}
template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = false) {
  npurt::sim::vecapi::reduce_level2("ReduceMin", ReduceOp::kMin, dst, src, sharedTmpBuffer, count, calIndex);
}
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count) {
  npurt::sim::vecapi::reduce_level2("ReduceSum", ReduceOp::kSum, dst, src, sharedTmpBuffer, count, false);
}

// ---- mask/repeat forms (continuous mask or bit mask; srcBlkStride 1) ---------------
#define NPURT_REDUCE_MASKED(Name, Op, IdxDecl, IdxArg)                                                          \
  template <typename T>                                                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                              const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                              const int32_t srcRepStride IdxDecl) {                                             \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, nullptr, mask, repeatTime, 1, srcRepStride, INT32_MAX); \
    npurt::sim::vecapi::reduce_masked(#Name, ReduceOp::Op, dst, src, sharedTmpBuffer, sh, IdxArg);              \
  }                                                                                                             \
  template <typename T>                                                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                              const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],                     \
                              const int32_t repeatTime, const int32_t srcRepStride IdxDecl) {                   \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, mask, 0, repeatTime, 1, srcRepStride, INT32_MAX);      \
    npurt::sim::vecapi::reduce_masked(#Name, ReduceOp::Op, dst, src, sharedTmpBuffer, sh, IdxArg);              \
  }
#define NPURT_COMMA ,
NPURT_REDUCE_MASKED(ReduceMax, kMax, NPURT_COMMA bool calIndex = false, calIndex)
NPURT_REDUCE_MASKED(ReduceMin, kMin, NPURT_COMMA bool calIndex = false, calIndex)
NPURT_REDUCE_MASKED(ReduceSum, kSum, , false)
#undef NPURT_COMMA
#undef NPURT_REDUCE_MASKED

// ---- WholeReduce*: one result per repeat --------------------------------------------
#define NPURT_WHOLE_REDUCE(Name, Op, OrderDecl, OrderArg)                                                        \
  template <typename T>                                                                                          \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,         \
                              const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,  \
                              const int32_t srcRepStride OrderDecl) {                                            \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, nullptr, mask, repeatTime, srcBlkStride, srcRepStride, 255); \
    npurt::sim::vecapi::whole_reduce(#Name, ReduceOp::Op, dst, src, sh, dstRepStride, OrderArg);                 \
  }                                                                                                              \
  template <typename T>                                                                                          \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],      \
                              const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,  \
                              const int32_t srcRepStride OrderDecl) {                                            \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, mask, 0, repeatTime, srcBlkStride, srcRepStride, 255);  \
    npurt::sim::vecapi::whole_reduce(#Name, ReduceOp::Op, dst, src, sh, dstRepStride, OrderArg);                 \
  }
#define NPURT_ORDER_DECL , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
NPURT_WHOLE_REDUCE(WholeReduceMax, kMax, NPURT_ORDER_DECL, order)
NPURT_WHOLE_REDUCE(WholeReduceMin, kMin, NPURT_ORDER_DECL, order)
NPURT_WHOLE_REDUCE(WholeReduceSum, kSum, , ReduceOrder::ORDER_ONLY_VALUE)
#undef NPURT_ORDER_DECL
#undef NPURT_WHOLE_REDUCE

// ---- BlockReduce*: one result per 32-byte block (8 per repeat) -----------------------
#define NPURT_BLOCK_REDUCE(Name, Op)                                                                              \
  template <typename T>                                                                                           \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,    \
                              const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,         \
                              const int32_t srcRepStride) {                                                       \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, nullptr, mask, repeatTime, srcBlkStride, srcRepStride, 255); \
    npurt::sim::vecapi::block_reduce(#Name, ReduceOp::Op, dst, src, sh, dstRepStride);                            \
  }                                                                                                               \
  template <typename T>                                                                                           \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,    \
                              const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,      \
                              const int32_t srcRepStride) {                                                       \
    auto sh = npurt::sim::vecapi::repeat_shape<T>(#Name, mask, 0, repeatTime, srcBlkStride, srcRepStride, 255);   \
    npurt::sim::vecapi::block_reduce(#Name, ReduceOp::Op, dst, src, sh, dstRepStride);                            \
  }
NPURT_BLOCK_REDUCE(BlockReduceMax, kMax)
NPURT_BLOCK_REDUCE(BlockReduceMin, kMin)
NPURT_BLOCK_REDUCE(BlockReduceSum, kSum)
#undef NPURT_BLOCK_REDUCE

}  // namespace AscendC
