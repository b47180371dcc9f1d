// kernels/matmul/matmul_tile.h: one output tile of a matmul on the cube unit,
// C[m, n] = A[m, K] x B[K, n] (+ C when accumulate), as kernel-side code.
//
// The tile walks K in steps of kStep: GM (ND) -> L1 (Nz) with Nd2Nz copies,
// L1 -> L0A / L0B with LoadData, Mmad into L0C (the first step initialises C,
// later steps accumulate), then one Fixpipe L0C -> GM with the cast to Tout.
// The L1 queues hold two buffers each, so the next step's loads can overlap
// the current step's LoadData/Mmad on hardware (queue hand-offs are the syncs).
// Layouts: aicore/cube.h. Invariants (the host tiling guarantees them):
// m, n <= the buffers' capacity (maxM / maxN rounded to 16), kStep a multiple
// of 16, every L0 operand within L0A/L0B/L0C of the profile. A non-transposed
// B goes through a transposing load: LoadData(ifTranspose) for 2-byte types,
// 16-column slabs + LoadDataWithTranspose for float.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt_kernels {

struct CubeTileShape {
  uint32_t maxM, maxN, kStep;  // buffer capacity of one tile
};

template <class T, class Tout>
class CubeTile {
 public:
  static constexpr uint32_t C0 = 32 / sizeof(T);

  __aicore__ void Init(AscendC::TPipe& pipe, const CubeTileShape& s) {
    s_ = s;
    const uint32_t m16 = Round16(s.maxM), n16 = Round16(s.maxN), k16 = Round16(s.kStep);
    pipe.InitBuffer(qA1_, 2, m16 * k16 * sizeof(T));
    pipe.InitBuffer(qB1_, 2, n16 * k16 * sizeof(T));
    pipe.InitBuffer(qA2_, 1, m16 * k16 * sizeof(T));
    pipe.InitBuffer(qB2_, 1, n16 * k16 * sizeof(T));
    pipe.InitBuffer(qC_, 1, m16 * n16 * sizeof(float));
  }

  // a: row r at a[r * lda]; b: [K, n] with row stride ldb, or [n, K] when transB;
  // c: row r at c[r * ldc].
  __aicore__ void Compute(const AscendC::GlobalTensor<T>& a, uint32_t lda,
                          const AscendC::GlobalTensor<T>& b, uint32_t ldb, bool transB,
                          const AscendC::GlobalTensor<Tout>& c, uint32_t ldc, uint32_t m,
                          uint32_t n, uint32_t K) {
    const uint32_t m16 = Round16(m), n16 = Round16(n);
    AscendC::LocalTensor<float> cl = qC_.template AllocTensor<float>();
    for (uint32_t k0 = 0; k0 < K; k0 += s_.kStep) {
      const uint32_t kc = K - k0 < s_.kStep ? K - k0 : s_.kStep;
      LoadA(a[k0], lda, m, m16, kc);
      LoadB(transB ? b[k0] : b[uint64_t{k0} * ldb], ldb, transB, n, n16, kc);
      AscendC::LocalTensor<T> a2 = qA2_.template DeQue<T>();
      AscendC::LocalTensor<T> b2 = qB2_.template DeQue<T>();
      AscendC::MmadParams mp(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(kc));
      mp.cmatrixInitVal = k0 == 0;
      AscendC::Mmad(cl, a2, b2, mp);
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
    qC_.EnQue(cl);
    cl = qC_.template DeQue<float>();
    AscendC::FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(m);
    fp.nSize = static_cast<uint16_t>(n);
    fp.srcStride = static_cast<uint16_t>(m16);
    fp.dstStride = ldc;
    fp.quantPre = QuantFor();
    AscendC::Fixpipe(c, cl, fp);
    qC_.FreeTensor(cl);
  }

 private:
  static __aicore__ uint32_t Round16(uint32_t x) { return (x + 15) / 16 * 16; }
  static __aicore__ uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

  static __aicore__ AscendC::QuantMode_t QuantFor() {
    if constexpr (std::is_same_v<Tout, half>) return AscendC::QuantMode_t::F322F16;
    if constexpr (std::is_same_v<Tout, bfloat16_t>) return AscendC::QuantMode_t::F322BF16;
    return AscendC::QuantMode_t::NoQuant;
  }

  // ND rows x cols at src (row stride ld) -> L1 Nz with rows rounded to 16.
  static __aicore__ void Nd2Nz(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                               uint32_t ld, uint32_t rows, uint32_t cols) {
    AscendC::Nd2NzParams p(1, static_cast<uint16_t>(rows), static_cast<uint16_t>(cols), 0,
                           static_cast<uint16_t>(ld), static_cast<uint16_t>(Round16(rows)), 1, 0);
    AscendC::DataCopy(dst, src, p);
  }

  // Fractals of A: L1 holds column blocks of m16 rows; L0A wants rows of fractals.
  __aicore__ void LoadA(const AscendC::GlobalTensor<T>& a, uint32_t lda, uint32_t m, uint32_t m16,
                        uint32_t kc) {
    AscendC::LocalTensor<T> a1 = qA1_.template AllocTensor<T>();
    Nd2Nz(a1, a, lda, m, kc);
    qA1_.EnQue(a1);
    a1 = qA1_.template DeQue<T>();
    AscendC::LocalTensor<T> a2 = qA2_.template AllocTensor<T>();
    const uint32_t kb = CeilDiv(kc, C0);
    for (uint32_t mb = 0; mb < m16 / 16; ++mb) {
      AscendC::LoadData2dParams lp;
      lp.startIndex = static_cast<uint16_t>(mb);
      lp.repeatTimes = static_cast<uint8_t>(kb);
      lp.srcStride = static_cast<uint16_t>(m16 / 16);
      AscendC::LoadData(a2[mb * kb * 16 * C0], a1, lp);
    }
    qA1_.FreeTensor(a1);
    qA2_.EnQue(a2);
  }

  __aicore__ void LoadB(const AscendC::GlobalTensor<T>& b, uint32_t ldb, bool transB, uint32_t n,
                        uint32_t n16, uint32_t kc) {
    AscendC::LocalTensor<T> b1 = qB1_.template AllocTensor<T>();
    const bool slabs = !transB && sizeof(T) == 4;
    if (transB) Nd2Nz(b1, b, ldb, n, kc);  // [n, kc]: already n-major fractals
    else if (slabs) Nd2NzSlabs(b1, b, ldb, n, kc);
    else Nd2Nz(b1, b, ldb, kc, n);         // [kc, n]: column blocks of 16 n, k16 rows
    qB1_.EnQue(b1);
    b1 = qB1_.template DeQue<T>();
    AscendC::LocalTensor<T> b2 = qB2_.template AllocTensor<T>();
    const uint32_t nb = n16 / 16, kb = CeilDiv(kc, C0);
    if (slabs) {
      for (uint32_t i = 0; i < CeilDiv(kc, 16); ++i) {  // 16 x 16 squares -> two 16 x 8 fractals
        AscendC::LoadData2dTransposeParams tp;
        tp.startIndex = static_cast<uint16_t>(2 * i);
        tp.repeatTimes = static_cast<uint8_t>(nb);
        tp.srcStride = static_cast<uint16_t>(Round16(kc) / 8);
        tp.dstFracGap = static_cast<uint16_t>(nb - 1);
        AscendC::LoadDataWithTranspose(b2[2 * i * nb * 16 * C0], b1, tp);
      }
    }
    for (uint32_t i = 0; !slabs && i < kb; ++i) {
      AscendC::LoadData2dParams lp;
      lp.repeatTimes = static_cast<uint8_t>(nb);
      if (transB) {  // fractal (kb, nb) at kb * nb16 + nb in both layouts
        lp.startIndex = static_cast<uint16_t>(i * nb);
        lp.srcStride = 1;
      } else {       // fractal (kb, nb) at nb * k16/16 + kb, transposed
        lp.startIndex = static_cast<uint16_t>(i);
        lp.srcStride = static_cast<uint16_t>(Round16(kc) / 16);
        lp.ifTranspose = true;
      }
      AscendC::LoadData(b2[i * nb * 16 * C0], b1, lp);
    }
    qB1_.FreeTensor(b1);
    qB2_.EnQue(b2);
  }

  // 4-byte [kc, n] -> 16-column slabs, each a row-major [k16][16] block
  // (the form LoadDataWithTranspose takes); the last slab may be narrower.
  static __aicore__ void Nd2NzSlabs(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                    uint32_t ld, uint32_t n, uint32_t kc) {
    const uint32_t full = n / 16, tail = n % 16, slab = Round16(kc) * 16;
    AscendC::Nd2NzParams p(static_cast<uint16_t>(full), static_cast<uint16_t>(kc), 16, 16,
                           static_cast<uint16_t>(ld), 1, 2, static_cast<uint16_t>(slab));
    if (full > 0) AscendC::DataCopy(dst, src, p);
    if (tail == 0) return;
    p.ndNum = 1;
    p.dValue = static_cast<uint16_t>(tail);
    AscendC::DataCopy(dst[full * slab], src[full * 16], p);
  }

  CubeTileShape s_{};
  AscendC::TQue<AscendC::TPosition::A1, 2> qA1_;
  AscendC::TQue<AscendC::TPosition::B1, 2> qB1_;
  AscendC::TQue<AscendC::TPosition::A2, 1> qA2_;
  AscendC::TQue<AscendC::TPosition::B2, 1> qB2_;
  AscendC::TQue<AscendC::TPosition::CO1, 1> qC_;
};

}  // namespace npurt_kernels
