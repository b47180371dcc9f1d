// aicore/cube.h: the cube unit of the simulated AI core: ND -> Nz loads into
// L1, LoadData L1 -> L0A/L0B, Mmad into L0C and Fixpipe L0C -> GM.
//
// Data layouts (C0 = 32 / sizeof(T) elements: 16 for half/bfloat16_t, 8 for
// float; every fractal is 16 rows x C0 columns = 512 B):
//   L1 "Nz"    (after DataCopy with Nd2NzParams): a [rows, cols] matrix is
//              stored as column blocks of C0 columns; element (r, c) lives at
//              (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0.
//              With dstNzC0Stride = rows rounded up to 16, fractal i of column
//              block j is at fractal index j * rows16 / 16 + i.
//   L0A "Zz"   A [m, k]: fractal (mb, kb) at index mb * ceil(k / C0) + kb,
//              element (r, c) of a fractal at r * C0 + c.
//   L0B "Zn"   B [k, n]: fractal (kb, nb) at index kb * ceil(n / 16) + nb,
//              each fractal stored n-major: element (k, n) at (n % 16) * C0 + k % C0.
//              An [n, k] row-major (transposed) B loaded ND -> Nz into L1 is
//              already in this fractal form; a [k, n] B of 2-byte type is
//              brought there by LoadData with ifTranspose.
//   L0C "Nz"   C [m, n] float: element (m, n) at ((n / 16) * m16 + m) * 16 + n % 16,
//              m16 = m rounded up to 16.
// Invariants and checks (basic level and up; at off nothing is checked):
//   positions: Nd2Nz dst in L1 (A1/B1); LoadData src in L1, dst in L0A (A2) or
//   L0B (B2); Mmad a in L0A, b in L0B, c in L0C (CO1); Fixpipe src in L0C
//   (ErrorBuffer2). Alignment: L0A/L0B operands 512 B, L0C 64 B, L1 32 B
//   (ErrorRead4/ErrorWrite4). Every byte the instruction touches lies inside
//   its tensor (ErrorRead3/ErrorWrite2); GM ranges are checked like DataCopy's.
//   Parameters out of the hardware's range (m/n/k 0 or > 4095, transposing a
//   4-byte fractal, Fixpipe quantPre not matching the output type) are
//   ErrorParam. Pipes: Nd2Nz MTE2, LoadData MTE1, Mmad M, Fixpipe FIX.
//   Bias: Mmad's bias operand lies in C2 (the 1 KiB bias table) and holds n
//   floats; isBias/cmatrixSource without a bias operand is ErrorParam.
// Mmad computes over exactly k (padding columns of A / rows of B are never
// read as data), m and n are rounded up to whole fractals: the padded rows of
// A and columns of B count as zeros, so padded cells of C get C + 0.
// fp16/bf16 products are exact in fp32 and accumulate in fp32; the order of
// the k sum is unspecified (the host kernel blocks it), so results match a
// scalar reference to fp32 rounding, not bit for bit.
#pragma once

#include <cstdint>
#include <type_traits>

#include "aicore/check.h"
#include "aicore/data_copy.h"
#include "aicore/global_tensor.h"
#include "aicore/local_tensor.h"
#include "aicore/types.h"
#include "npurt/export.h"

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 1;               // matrices
  uint16_t nValue = 0;              // rows per matrix
  uint16_t dValue = 0;              // columns per matrix (elements)
  uint16_t srcNdMatrixStride = 0;   // GM start-to-start between matrices (elements)
  uint16_t srcDValue = 0;           // GM row stride (elements)
  uint16_t dstNzC0Stride = 0;       // L1 distance between column blocks (units of C0 elements)
  uint16_t dstNzNStride = 1;        // L1 distance between rows (units of C0 elements)
  uint16_t dstNzMatrixStride = 0;   // L1 start-to-start between matrices (elements)
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD, uint16_t c0Stride,
              uint16_t nStride, uint16_t dstMat)
      : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcDValue(srcD),
        dstNzC0Stride(c0Stride), dstNzNStride(nStride), dstNzMatrixStride(dstMat) {}
};

struct LoadData2dParams {
  uint16_t startIndex = 0;   // first source fractal (512-B units)
  uint8_t repeatTimes = 1;   // fractals to move
  uint16_t srcStride = 1;    // start-to-start between source fractals (fractals)
  uint8_t sid = 0;
  uint16_t dstGap = 0;       // gap between destination fractals (fractals)
  bool ifTranspose = false;  // transpose each 16x16 fractal (2-byte types only)
  uint8_t addrMode = 0;
};

// LoadDataWithTranspose for 4-byte types: repeat i reads the 16 x 16 square
// stored row-major as two consecutive fractals (1024 B) at source fractal
// startIndex + i * srcStride, and writes its transpose as two 16 x 8 fractals:
// columns 0..7 of the transpose at destination fractal i * (1 + dstGap),
// columns 8..15 at that + 1 + dstFracGap. (An L1 square in this form comes
// from Nd2Nz with dstNzC0Stride = 1, dstNzNStride = 2 and 16-column slabs.)
struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 1;
  uint16_t srcStride = 2;   // fractals
  uint16_t dstGap = 0;      // fractals
  uint16_t dstFracGap = 0;  // fractals between the two halves of one repeat
  uint8_t addrMode = 0;
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;  // true: C = A*B; false: C += A*B
  MmadParams() = default;
  MmadParams(uint16_t m_, uint16_t n_, uint16_t k_) : m(m_), n(n_), k(k_) {}
};

enum class QuantMode_t : uint8_t { NoQuant, F322F16, F322BF16 };

struct FixpipeParamsV220 {
  uint16_t nSize = 0;       // columns of C to write
  uint16_t mSize = 0;       // rows of C to write
  uint16_t srcStride = 0;   // L0C: rows between column blocks (m rounded up to 16)
  uint32_t dstStride = 0;   // GM row stride (elements)
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  bool reluEn = false;
  uint16_t ndNum = 1;
};

enum class CO2Layout : uint8_t { ROW_MAJOR, NZ };
struct FixpipeConfig {
  CO2Layout format;
};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

}  // namespace AscendC

namespace npurt::sim {

// Element kinds the cube understands (the host kernels switch on these).
enum class CubeType : uint8_t { kF32, kF16, kBF16 };

template <class T>
constexpr CubeType cube_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half> ||
                    std::is_same_v<T, bfloat16_t>,
                "the simulated cube supports float, half and bfloat16_t operands");
  return std::is_same_v<T, float> ? CubeType::kF32
         : std::is_same_v<T, half> ? CubeType::kF16
                                   : CubeType::kBF16;
}

NPURT_PUBLIC_BEGIN
void cube_nd2nz(CoreContext* c, const LocalRef& dst, const GmRef& src, uint32_t elem,
                const AscendC::Nd2NzParams& p);
void cube_load_2d(CoreContext* c, const LocalRef& dst, const LocalRef& src, uint32_t elem,
                  const AscendC::LoadData2dParams& p);
void cube_load_transpose_b32(CoreContext* c, const LocalRef& dst, const LocalRef& src, uint32_t elem,
                             const AscendC::LoadData2dTransposeParams& p);
// bias: null, or a C2 (bias table) float row of n that initialises C (cmatrixSource).
void cube_mmad(CoreContext* c, const LocalRef& dst, const LocalRef& a, const LocalRef& b,
               CubeType type, const AscendC::MmadParams& p, const LocalRef* bias = nullptr);
// L1 (C1/A1/B1) -> bias table (C2): blockLen 32-B blocks of the source per
// block, each element converted from `src_type` to float.
void cube_load_bias(CoreContext* c, const LocalRef& dst, const LocalRef& src, CubeType src_type,
                    const AscendC::DataCopyParams& p);
void cube_fixpipe(CoreContext* c, const GmRef& dst, const LocalRef& src, CubeType out,
                  const AscendC::FixpipeParamsV220& p);
NPURT_PUBLIC_END

}  // namespace npurt::sim

namespace AscendC {

// GM (ND) -> L1 (Nz).
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  npurt::sim::cube_nd2nz(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(), sizeof(T), p);
}

// L1 -> L0A/L0B, whole fractals.
template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dParams& p) {
  npurt::sim::cube_load_2d(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(), sizeof(T), p);
}

// L1 -> L0A/L0B, 16 x 16 squares of 4-byte elements transposed.
template <class T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& p) {
  npurt::sim::cube_load_transpose_b32(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(), sizeof(T), p);
}

// L0C (float) = / += L0A x L0B.
template <class Tc, class Ta, class Tb>
void Mmad(const LocalTensor<Tc>& dst, const LocalTensor<Ta>& a, const LocalTensor<Tb>& b,
          const MmadParams& p) {
  static_assert(std::is_same_v<Ta, Tb>, "Mmad: A and B must have the same element type");
  static_assert(std::is_same_v<Tc, float>, "Mmad: the simulated cube accumulates in float");
  npurt::sim::cube_mmad(npurt::sim::core(), dst.npurt_ref(), a.npurt_ref(), b.npurt_ref(),
                        npurt::sim::cube_type<Ta>(), p);
}

// L0C (float) = bias (broadcast over rows, from the bias table C2) + L0A x L0B;
// needs cmatrixSource = true (the bias table is the initial C).
template <class Tc, class Ta, class Tb>
void Mmad(const LocalTensor<Tc>& dst, const LocalTensor<Ta>& a, const LocalTensor<Tb>& b,
          const LocalTensor<float>& bias, const MmadParams& p) {
  static_assert(std::is_same_v<Ta, Tb>, "Mmad: A and B must have the same element type");
  static_assert(std::is_same_v<Tc, float>, "Mmad: the simulated cube accumulates in float");
  npurt::sim::LocalRef br = bias.npurt_ref();
  npurt::sim::cube_mmad(npurt::sim::core(), dst.npurt_ref(), a.npurt_ref(), b.npurt_ref(),
                        npurt::sim::cube_type<Ta>(), p, &br);
}

// L1 half/bfloat16_t -> bias table float (the conversion the L1 -> BT path does).
// A float source uses the plain local DataCopy.
template <class Tsrc, std::enable_if_t<!std::is_same_v<Tsrc, float>, int> = 0>
void DataCopy(const LocalTensor<float>& dst, const LocalTensor<Tsrc>& src, const DataCopyParams& p) {
  npurt::sim::cube_load_bias(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(),
                             npurt::sim::cube_type<Tsrc>(), p);
}

// L0C (float, Nz) -> GM (row major), cast to T by quantPre.
template <class T, class Tsrc, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<Tsrc>& src, const FixpipeParamsV220& p) {
  static_assert(std::is_same_v<Tsrc, float>, "Fixpipe: the simulated L0C holds float");
  static_assert(config.format == CO2Layout::ROW_MAJOR, "Fixpipe: only the ROW_MAJOR (NZ2ND) output is simulated");
  npurt::sim::cube_fixpipe(npurt::sim::core(), dst.npurt_ref(), src.npurt_ref(),
                           npurt::sim::cube_type<T>(), p);
}

}  // namespace AscendC
