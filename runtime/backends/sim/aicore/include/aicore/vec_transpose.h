// aicore/vec_transpose.h: the data-layout vector APIs of A2/A3:
//   TransDataTo5HD(dstList[16], srcList[16], TransDataTo5HDParams)  (LocalTensor
//     lists, and the uint64_t address-list form real kernels use for speed),
//   Transpose(dst, src)  (one 16 x 16 matrix of 2-byte elements).
// Semantics of one repeat (512 B, 16 blocks of 32 B), per element width:
// aicore/vec_transpose_raw.h. Dtypes: int8/uint8 (with srcHighHalf /
// dstHighHalf choosing the 16-byte half of each block), int16/uint16/half,
// int32/uint32/float.
// Invariants / checks (basic level): every list entry 32-B aligned, in UB,
// and its `repeatTimes` blocks (start-to-start stride RepStride * 32 B) inside
// its buffer; the high-half flags only with 8-bit types. repeatTimes == 0 is
// a NOP; with repeatTimes == 1 the strides are ignored, as on hardware. At
// full level every block is checked (read blocks must have been written),
// so gaps between repeats are neither read nor marked written.
#pragma once

#include <string>

#include "aicore/ub_address.h"
#include "aicore/vec_common.h"
#include "aicore/vec_transpose_raw.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                                 const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;  // 32-B blocks between repeats, per destination entry
  uint16_t srcRepStride = 0;  // 32-B blocks between repeats, per source entry
};

}  // namespace AscendC

namespace npurt::sim::vecapi {

template <class T> inline constexpr bool kTransElem =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

// Checks the `repeat` blocks one list entry touches (see the header comment).
inline void trans_entry_check(CoreContext* c, const LocalRef& r, uint32_t repeat, uint32_t stride, Access a,
                              const char* api) {
  const AccessSpec spec{api, a, Pipe::V, 32, kUbOnly};
  if (full_checks(c) && stride != 1) {
    for (uint32_t k = 0; k < repeat; ++k) check_local(c, r, uint64_t{k} * stride * 32, 32, spec);
    return;
  }
  check_local(c, r, 0, (uint64_t{repeat - 1} * stride + 1) * 32, spec);
}

inline void trans_5hd_run(CoreContext* c, uint32_t elem, const LocalRef (&dst)[16], const LocalRef (&src)[16],
                          const AscendC::TransDataTo5HDParams& p) {
  const char* api = "TransDataTo5HD";
  const uint32_t repeat = p.repeatTimes;
  const uint32_t ds = repeat == 1 ? 0 : p.dstRepStride, ss = repeat == 1 ? 0 : p.srcRepStride;
  if (checks_on(c)) {
    if (elem != 1 && (p.dstHighHalf || p.srcHighHalf))
      vec_fault(api, "dstHighHalf/srcHighHalf apply to int8_t/uint8_t only (element size " + std::to_string(elem) +
                         " B)");
    for (const LocalRef& r : src) trans_entry_check(c, r, repeat, ss, Access::kRead, api);
    for (const LocalRef& r : dst) trans_entry_check(c, r, repeat, ds, Access::kWrite, api);
  }
  uint8_t* d[16];
  const uint8_t* s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = dst[i].ptr;
    s[i] = src[i].ptr;
  }
  npurt::aicore::vec::trans_5hd(elem, d, s, repeat, ds, ss, p.dstHighHalf, p.srcHighHalf);
}

// Resolves one address-list entry into `out` (field by field: a LocalRef
// returned by value was assembled on the stack and reloaded as 16 bytes, a
// store-forwarding stall per entry). Entries of one list nearly always lie in
// one buffer, so the previous entry's buffer (`near`) is tried before the
// search through the TPipe's records. Together these took about a sixth of
// the simulated core's time in a 4096 x 4096 float32 transpose copy (32
// entries per instruction). Same result as local_ref_at.
inline void raw_local_ref(CoreContext* c, uint64_t addr, const char* what, const LocalRef* near, LocalRef& out) {
  if (!checks_on(c)) {
    out.ptr = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(addr));
    return;  // the rest stays default (no buffer: nothing is checked)
  }
  if (near != nullptr && near->buf != nullptr) {
    BufferRecord* r = near->buf;
    const auto begin = reinterpret_cast<uintptr_t>(r->addr);
    if (addr >= begin && addr < begin + r->bytes) {
      out.ptr = r->addr + (addr - begin);
      out.bytes = static_cast<uint32_t>(begin + r->bytes - addr);
      out.pos = r->pos;
      out.buf = r;
      return;
    }
  }
  out = local_ref_at(c, addr, "TransDataTo5HD", what);
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  static_assert(npurt::sim::vecapi::kTransElem<T>,
                "TransDataTo5HD supports int8_t/uint8_t/int16_t/uint16_t/half/int32_t/uint32_t/float");
  if (nchwconvParams.repeatTimes == 0) return;
  npurt::sim::LocalRef d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = dstList[i].npurt_ref();
    s[i] = srcList[i].npurt_ref();
  }
  npurt::sim::vecapi::trans_5hd_run(npurt::sim::core(), sizeof(T), d, s, nchwconvParams);
}

// Address-list form: entries are LocalTensor::GetPhyAddr() values.
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  static_assert(npurt::sim::vecapi::kTransElem<T>,
                "TransDataTo5HD supports int8_t/uint8_t/int16_t/uint16_t/half/int32_t/uint32_t/float");
  if (nchwconvParams.repeatTimes == 0) return;
  npurt::sim::CoreContext* c = npurt::sim::core();
  npurt::sim::materialize_all_mirrors(c);  // raw addresses bypass the records' mirrors
  npurt::sim::LocalRef d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    npurt::sim::vecapi::raw_local_ref(c, srcList[i], "srcList entry", i > 0 ? &s[i - 1] : nullptr, s[i]);
    npurt::sim::vecapi::raw_local_ref(c, dstList[i], "dstList entry", i > 0 ? &d[i - 1] : nullptr, d[i]);
  }
  npurt::sim::vecapi::trans_5hd_run(c, sizeof(T), d, s, nchwconvParams);
}

// dst = src^T for one 16 x 16 matrix of 2-byte elements (512 B, row-major).
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal) {
  static_assert(sizeof(T) == 2 && npurt::sim::vecapi::kTransElem<T>,
                "Transpose (16 x 16) supports int16_t/uint16_t/half");
  namespace va = npurt::sim::vecapi;
  const T* ps = va::src_operand("Transpose", srcLocal, 256);
  T* pd = va::dst_operand("Transpose", dstLocal, 256);
  va::check_overlap("Transpose", pd, 512, ps, 512, true);
  uint8_t* d[16];
  const uint8_t* s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = reinterpret_cast<uint8_t*>(pd) + 32 * i;
    s[i] = reinterpret_cast<const uint8_t*>(ps) + 32 * i;
  }
  npurt::aicore::vec::trans_5hd(2, d, s, 1, 0, 0, false, false);
}

}  // namespace AscendC
