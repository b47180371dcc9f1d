// aicore/vec_compare.h: Compare / CompareScalar (alias Compares) writing a
// bit mask, and Select choosing by a bit mask (A2/A3, level-2 forms).
// Mask layout: bit i = byte i/8, bit i%8 (LSB first); dst/selMask are
// LocalTensors of U in {int8, uint8} (Compare) or {uint8, uint16, uint32,
// uint64} (Select), seen as bytes.
// Rules kept: Compare needs count * sizeof(T) to be a multiple of 256 bytes
// (the hardware silently skips the unaligned tail; the simulator raises a
// parameter diagnostic instead); dtypes half/float, int32 with EQ only.
// SELMODE: VSEL_CMPMASK_SPR reuses the first 256/sizeof(T) mask bits for every
// repeat; VSEL_TENSOR_TENSOR_MODE consumes the mask continuously;
// VSEL_TENSOR_SCALAR_MODE (scalar overload) chooses src0[i] or the scalar.
#pragma once

#include "aicore/vec_common.h"

namespace npurt::sim::vecapi {

template <class T> inline const AscendC::LocalTensor<T>* const kNoTensor = nullptr;  // "src1 is a scalar"

template <class U> uint64_t mask_elems(uint64_t bits) { return (bits + 8 * sizeof(U) - 1) / (8 * sizeof(U)); }

template <class T, class U>
void compare(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a, const void* b,
             const AscendC::LocalTensor<T>* b_tensor, AscendC::CMPMODE mode, uint32_t count) {
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, int8_t>, "Compare: dst must be int8 or uint8");
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                "Compare supports half, float and (EQ only) int32 on A2/A3");
  if (std::is_same_v<T, int32_t> && mode != AscendC::CMPMODE::EQ) vec_fault(api, "int32 supports only CMPMODE::EQ");
  const uint64_t n = count;
  if (n == 0) return;
  if (b_tensor != nullptr && (n * sizeof(T)) % 256 != 0) {
    vec_fault(api, "calCount " + std::to_string(n) + " x " + std::to_string(sizeof(T)) +
                       " bytes is not a multiple of 256 bytes (the NPU would skip the tail)");
  }
  const T* pa = src_operand(api, a, n);
  if (b_tensor != nullptr) b = src_operand(api, *b_tensor, n);
  U* pd = dst_operand(api, dst, mask_elems<U>(n));
  raw_ok(api, vec::compare(mode, vec::vtype_of<T>, reinterpret_cast<uint8_t*>(pd), pa, b, b_tensor == nullptr, n));
}

template <class T, class U>
void select(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& mask, const AscendC::LocalTensor<T>& a,
            const void* b, const AscendC::LocalTensor<T>* b_tensor, AscendC::SELMODE mode, uint32_t count) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Select supports half and float on A2/A3");
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> || std::is_same_v<U, uint32_t> ||
                    std::is_same_v<U, uint64_t>, "Select: selMask must be uint8/16/32/64");
  constexpr const char* api = "Select";
  const bool scalar = b_tensor == nullptr;
  if (scalar != (mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)) {
    vec_fault(api, scalar ? "the scalar overload needs SELMODE::VSEL_TENSOR_SCALAR_MODE"
                          : "SELMODE::VSEL_TENSOR_SCALAR_MODE needs the scalar overload (src1 is a scalar)");
  }
  const uint64_t n = count;
  if (n == 0) return;
  const uint64_t period = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? 256 / sizeof(T) : 0;
  const U* pm = src_operand(api, mask, mask_elems<U>(period ? std::min<uint64_t>(period, n) : n));
  const T* pa = src_operand(api, a, n);
  if (!scalar) b = src_operand(api, *b_tensor, n);
  T* pd = dst_operand(api, dst, n);
  check_overlap(api, pd, n * sizeof(T), pa, n * sizeof(T), true);
  if (!scalar) check_overlap(api, pd, n * sizeof(T), b, n * sizeof(T), true);
  raw_ok(api, vec::select(vec::vtype_of<T>, pd, reinterpret_cast<const uint8_t*>(pm), period, pa, b, scalar, n));
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t calCount) {
  npurt::sim::vecapi::compare("Compare", dst, src0, nullptr, &src1, cmpMode, calCount);
}

template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                     CMPMODE cmpMode, uint32_t calCount) {
  npurt::sim::vecapi::compare("CompareScalar", dst, src0, &src1Scalar, npurt::sim::vecapi::kNoTensor<T>, cmpMode, calCount);
}

// CANN 9.1 name of CompareScalar.
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                CMPMODE cmpMode, uint32_t calCount) {
  npurt::sim::vecapi::compare("Compares", dst, src0, &src1Scalar, npurt::sim::vecapi::kNoTensor<T>, cmpMode, calCount);
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t calCount) {
  npurt::sim::vecapi::select(dst, selMask, src0, nullptr, &src1, selMode, calCount);
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t calCount) {
  npurt::sim::vecapi::select(dst, selMask, src0, &src1, npurt::sim::vecapi::kNoTensor<T>, selMode, calCount);
}

}  // namespace AscendC
