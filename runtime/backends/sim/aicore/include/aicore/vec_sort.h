// aicore/vec_sort.h: the A2/A3 sort primitives of the vector unit as Ascend C
// declares them: Sort32, MrgSort (MrgSortSrcList + MrgSort4Info form) with
// GetMrgSortResult, Extract, and GatherMask (user pattern and built-in
// pattern forms). Semantics and the 8-byte (score, uint32 index) layout:
// aicore/vec_sort_raw.h.
// Checks (parameter diagnostics, like the other vector APIs):
//   - T is half or float (Sort32/MrgSort/Extract); GatherMask takes the 16-
//     and 32-bit types with a uint16 / uint32 pattern respectively.
//   - Sort32/Extract: repeatTime in [0, 255] (0 is a NOP), 32 elements each.
//   - MrgSort: validBit 0b11, 0b111 or 0b1111; elementLengths <= 4095;
//     sources 8-byte aligned, dst 32-byte aligned; repeatTimes in [1, 255],
//     > 1 only with 4 valid contiguous lists of one length and no suspension.
//   - dst may not overlap any source (the unit streams sources while writing).
//   - GatherMask: src0BlockStride 1; counter mode (reduceMode true) with
//     repeatTimes 1 only (mask = element count); normal mode takes 256 bytes
//     per repeat with the pattern's 256/sizeof(T) bits per repeat.
// Part of the vector_api.h umbrella (kernel_operator.h), like the other
// vector APIs: kernels use Sort32 & co. after including kernel_operator.h.
#pragma once

#include <vector>

#include "aicore/vec_common.h"
#include "aicore/vec_sort_raw.h"

namespace AscendC {

template <typename T> struct MrgSortSrcList {
  __aicore__ MrgSortSrcList() {}
  __aicore__ MrgSortSrcList(const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c,
                            const LocalTensor<T>& d)
      : src1(a), src2(b), src3(c), src4(d) {}
  LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
  __aicore__ MrgSort4Info() {}
  __aicore__ MrgSort4Info(const uint16_t lengths[4], bool suspend, uint16_t valid, uint16_t repeats)
      : ifExhaustedSuspension(suspend), validBit(valid), repeatTimes(repeats) {
    for (int k = 0; k < 4; ++k) elementLengths[k] = lengths[k];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};

struct GatherMaskParams {
  __aicore__ GatherMaskParams() {}
  __aicore__ GatherMaskParams(uint8_t blk, uint16_t rep, uint16_t src0_rep, uint8_t src1_rep)
      : src0BlockStride(blk), repeatTimes(rep), src0RepeatStride(src0_rep), src1RepeatStride(src1_rep) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = 0;  // 32-byte blocks between repeats
  uint8_t src1RepeatStride = 0;   // 32-byte blocks between the pattern of two repeats
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

}  // namespace AscendC

namespace npurt::sim::vecapi {

template <class T> void check_sort_type() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "the sort APIs support half and float");
}
template <class T> constexpr uint64_t kPerSlot = 8 / sizeof(T);  // T elements per 8-byte structure

inline uint32_t repeat_arg(const char* api, int32_t r, int32_t lo) {
  if (r < lo || r > 255) vec_fault(api, "repeatTime " + std::to_string(r) + " is outside [" + std::to_string(lo) +
                                            ", 255]");
  return static_cast<uint32_t>(r);
}

template <class T>
void sort32(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& score,
            const AscendC::LocalTensor<uint32_t>& index, int32_t repeat) {
  check_sort_type<T>();
  constexpr const char* api = "Sort32";
  const uint64_t g = repeat_arg(api, repeat, 0), n = 32 * g;
  if (g == 0) return;
  const T* ps = src_operand(api, score, n);
  const uint32_t* pi = src_operand(api, index, n);
  T* pd = dst_operand(api, dst, n * kPerSlot<T>);
  check_overlap(api, pd, 8 * n, ps, n * sizeof(T), false);
  check_overlap(api, pd, 8 * n, pi, n * 4, false);
  if constexpr (std::is_same_v<T, float>) vec::sort32_f32(pd, ps, pi, g);
  else vec::sort32_f16(pd, ps, pi, g);
}

template <class T>
void mrgsort(const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& list,
             const AscendC::MrgSort4Info& p) {
  check_sort_type<T>();
  constexpr const char* api = "MrgSort";
  const uint32_t valid = p.validBit;
  if (valid != 0x3 && valid != 0x7 && valid != 0xF)
    vec_fault(api, "validBit " + std::to_string(valid) + " must be 0b11, 0b111 or 0b1111 (2 to 4 lists)");
  const uint32_t reps = repeat_arg(api, p.repeatTimes, 1);
  const AscendC::LocalTensor<T>* src[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
  uint64_t total = 0;
  for (int k = 0; k < 4; ++k) {
    if (!((valid >> k) & 1u)) continue;
    if (p.elementLengths[k] > 4095)
      vec_fault(api, "elementLengths[" + std::to_string(k) + "] = " + std::to_string(p.elementLengths[k]) +
                         " exceeds 4095");
    total += p.elementLengths[k];
  }
  if (reps > 1) {
    const uint16_t L = p.elementLengths[0];
    bool ok = valid == 0xF && !p.ifExhaustedSuspension;
    for (int k = 1; k < 4 && ok; ++k)
      ok = p.elementLengths[k] == L && src[k]->npurt_host() == src[0]->npurt_host() + k * L * kPerSlot<T>;
    if (!ok)
      vec_fault(api, "repeatTimes > 1 needs 4 valid contiguous lists of equal length and no exhausted suspension");
  }
  const void* ptr[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int k = 0; k < 4; ++k) {
    if (!((valid >> k) & 1u)) continue;
    const uint64_t elems = p.elementLengths[k] * kPerSlot<T> * (k == 0 ? reps : 1);
    ptr[k] = local_operand(*src[k], elems, AccessSpec{api, Access::kRead, Pipe::V, 8, kUbOnly});
  }
  T* pd = dst_operand(api, dst, total * reps * kPerSlot<T>);
  for (int k = 0; k < 4; ++k)
    if (ptr[k] != nullptr) check_overlap(api, pd, 8 * total * reps, ptr[k], 8 * p.elementLengths[k] * reps, false);
  uint16_t consumed[4] = {0, 0, 0, 0};
  for (uint32_t r = 0; r < reps; ++r) {
    const void* at[4];
    for (int k = 0; k < 4; ++k) at[k] = ptr[k] ? static_cast<const uint8_t*>(ptr[k]) + 8 * total * r : nullptr;
    uint8_t* out = reinterpret_cast<uint8_t*>(pd) + 8 * total * r;
    if constexpr (std::is_same_v<T, float>)
      vec::mrgsort_f32(out, at, p.elementLengths, valid, p.ifExhaustedSuspension, consumed);
    else
      vec::mrgsort_f16(out, at, p.elementLengths, valid, p.ifExhaustedSuspension, consumed);
  }
  if (p.ifExhaustedSuspension) vec::set_mrgsort_result(core(), consumed);
}

template <class T>
void extract(const AscendC::LocalTensor<T>& value, const AscendC::LocalTensor<uint32_t>& index,
             const AscendC::LocalTensor<T>& sorted, int32_t repeat) {
  check_sort_type<T>();
  constexpr const char* api = "Extract";
  const uint64_t n = 32 * uint64_t{repeat_arg(api, repeat, 0)};
  if (n == 0) return;
  const T* ps = src_operand(api, sorted, n * kPerSlot<T>);
  T* pv = dst_operand(api, value, n);
  uint32_t* pi = dst_operand(api, index, n);
  check_overlap(api, pv, n * sizeof(T), ps, 8 * n, false);
  check_overlap(api, pi, n * 4, ps, 8 * n, false);
  check_overlap(api, pi, n * 4, pv, n * sizeof(T), false);
  if constexpr (std::is_same_v<T, float>) vec::extract_f32(pv, pi, ps, n);
  else vec::extract_f16(pv, pi, ps, n);
}

// Pattern bits of GatherMask's built-in patterns 1..7 for element i.
inline bool builtin_bit(uint8_t pattern, uint64_t i) {
  switch (pattern) {
    case 1: return i % 2 == 0;
    case 2: return i % 2 == 1;
    case 3: case 4: case 5: case 6: return i % 4 == static_cast<uint64_t>(pattern - 3);
    default: return true;  // 7
  }
}

template <class T, class U>
uint64_t gather_mask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                     const AscendC::LocalTensor<U>* pattern, uint8_t builtin, bool counter, uint32_t mask,
                     const AscendC::GatherMaskParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask supports 16- and 32-bit types");
  static_assert(std::is_same_v<U, uint8_t> || sizeof(U) == sizeof(T),
                "GatherMask: the pattern is uint16 for 16-bit data and uint32 for 32-bit data");
  constexpr const char* api = "GatherMask";
  if (pattern == nullptr && (builtin < 1 || builtin > 7))
    vec_fault(api, "built-in src1Pattern " + std::to_string(builtin) + " is outside [1, 7]");
  if (p.src0BlockStride != 1) vec_fault(api, "the simulator supports src0BlockStride 1 only");
  if (counter && p.repeatTimes != 1) vec_fault(api, "the simulator supports counter mode with repeatTimes 1 only");
  const uint64_t per = counter ? mask : 256 / sizeof(T), reps = counter ? 1 : p.repeatTimes;
  if (per == 0 || reps == 0) return 0;
  const uint64_t src_stride = counter ? 0 : uint64_t{p.src0RepeatStride} * 32 / sizeof(T);
  const uint64_t pat_stride = counter ? 0 : uint64_t{p.src1RepeatStride} * 32 / sizeof(U);
  const uint64_t src_span = (reps - 1) * src_stride + per;
  const T* ps = src_operand(api, src0, src_span);
  std::vector<uint8_t> bits((per + 7) / 8);
  const U* pp = pattern ? src_operand(api, *pattern, (reps - 1) * pat_stride + (per * 1 + 8 * sizeof(U) - 1) /
                                                                              (8 * sizeof(U))) : nullptr;
  std::vector<T> out;
  out.reserve(per * reps);
  for (uint64_t r = 0; r < reps; ++r) {
    for (uint64_t i = 0; i < per; ++i) {
      const bool on = pp ? (reinterpret_cast<const uint8_t*>(pp + r * pat_stride)[i / 8] >> (i % 8)) & 1u
                         : builtin_bit(builtin, i);
      bits[i / 8] = static_cast<uint8_t>(on ? bits[i / 8] | (1u << (i % 8)) : bits[i / 8] & ~(1u << (i % 8)));
    }
    const size_t at = out.size();
    out.resize(at + per);
    out.resize(at + vec::gather_mask(out.data() + at, ps + r * src_stride, sizeof(T), bits.data(), per));
  }
  if (out.empty()) return 0;
  T* pd = dst_operand(api, dst, out.size());
  check_overlap(api, pd, out.size() * sizeof(T), ps, src_span * sizeof(T), true);
  std::copy(out.begin(), out.end(), pd);
  return out.size();
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime) {
  npurt::sim::vecapi::sort32(dst, src0, src1, repeatTime);
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  npurt::sim::vecapi::mrgsort(dst, src, params);
}

// Structures taken from each list by the last MrgSort with ifExhaustedSuspension.
__aicore__ inline void GetMrgSortResult(uint16_t& list1, uint16_t& list2, uint16_t& list3, uint16_t& list4) {
  uint16_t c[4];
  npurt::aicore::vec::get_mrgsort_result(npurt::sim::core(), c);
  list1 = c[0], list2 = c[1], list3 = c[2], list4 = c[3];
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime) {
  npurt::sim::vecapi::extract(dstValue, dstIndex, sorted, repeatTime);
}

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  rsvdCnt = npurt::sim::vecapi::gather_mask(dst, src0, &src1Pattern, 0, reduceMode, mask, gatherMaskParams);
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
  rsvdCnt = npurt::sim::vecapi::gather_mask<T, uint8_t>(dst, src0, nullptr, src1Pattern, reduceMode, mask,
                                                        gatherMaskParams);
}

}  // namespace AscendC
