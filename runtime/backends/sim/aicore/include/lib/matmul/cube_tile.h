// lib/matmul/cube_tile.h: one output tile of a matmul on the cube unit,
// C[m, n] = bias + sum over contributions of op(A)[m, K] x op(B)[K, n], as
// kernel-side code. op(X) is X or X^T (the operand's `trans` flag).
//
// Use: Begin(); [LoadBias(...)]; Accumulate(a, b, m, n, K) once per
// contribution (a batch reduction calls it several times); Finish(c, ...).
// Accumulate walks K in steps of kStep: GM (ND) -> L1 (Nz) with Nd2Nz copies,
// L1 -> L0A / L0B with LoadData, Mmad into L0C (the first Mmad of the tile
// initialises C: from the bias table when a bias was loaded, else zero; later
// ones accumulate), and Finish does one Fixpipe L0C -> GM with the cast to Tout.
// GM -> L1 copies move kL1A (A) / kL1B (B) elements of K at a time, each
// such chunk feeding kL1 / kStep steps. The L1 queues hold two chunks each and
// Accumulate issues the next chunk's copy on the first step of the current
// one, so the loads overlap the cube work on hardware (queue hand-offs are
// the syncs).
// Layouts: aicore/cube.h. Invariants (the host tiling guarantees them):
// m, n <= the buffers' capacity (maxM / maxN rounded to 16), kStep a multiple
// of 16, kL1A / kL1B multiples of kStep (0: kStep) whose two L1 buffers each
// fit L1, every L0 operand within L0A/L0B/L0C of the profile, n <= 256 with a
// bias (BiasTable is 1 KiB). Operands that are not already in the fractal's
// orientation (A^T, B) go through a transposing load: LoadData(ifTranspose)
// for 2-byte types, 16-column slabs + LoadDataWithTranspose for float.
// It is kernel-side code over the basic cube API only: the engine of the
// high-level Matmul API (lib/matmul_intf.h) and of the `matmul` op's kernel
// (kernels/matmul/), and usable by other cube kernels (attention).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"

namespace AscendC::matmul_impl {

struct CubeTileShape {
  uint32_t maxM, maxN, kStep;  // buffer capacity of one tile
  bool withBias = false;       // reserve the L1 staging buffer and the bias table
  // K elements of A / B per GM -> L1 copy: a multiple of kStep (0: kStep).
  // One L1 chunk feeds kL1 / kStep Mmads; a longer chunk copies longer runs
  // of each GM row when the operand's rows run along K (A [m, K], B^T [n, K]).
  uint32_t kL1A = 0, kL1B = 0;
};

// An operand in GM: logical rows x cols of op(X) start at g; X's row stride is
// ld; trans: X is stored transposed (A^T stored [K, M], B^T stored [N, K]).
template <class T>
struct CubeOperand {
  AscendC::GlobalTensor<T> g;
  uint32_t ld;
  bool trans;
};

template <class T, class Tout>
class CubeTile {
 public:
  static constexpr uint32_t C0 = 32 / sizeof(T);

  __aicore__ void Init(AscendC::TPipe& pipe, const CubeTileShape& s) {
    s_ = s;
    if (s_.kL1A == 0) s_.kL1A = s.kStep;
    if (s_.kL1B == 0) s_.kL1B = s.kStep;
    const uint32_t m16 = Round16(s.maxM), n16 = Round16(s.maxN), k16 = Round16(s.kStep);
    pipe.InitBuffer(qA1_, 2, m16 * Round16(s_.kL1A) * sizeof(T));
    pipe.InitBuffer(qB1_, 2, n16 * Round16(s_.kL1B) * sizeof(T));
    pipe.InitBuffer(qA2_, 1, m16 * k16 * sizeof(T));
    pipe.InitBuffer(qB2_, 1, n16 * k16 * sizeof(T));
    pipe.InitBuffer(qC_, 1, m16 * n16 * sizeof(float));
    if (s.withBias) {
      pipe.InitBuffer(bias1_, n16 * sizeof(float));
      pipe.InitBuffer(biasBT_, n16 * sizeof(float));
    }
  }

  // The classic single-contribution form: a [m, K] row stride lda; b [K, n]
  // row stride ldb, or [n, K] when transB; c row r at c[r * ldc].
  __aicore__ void Compute(const AscendC::GlobalTensor<T>& a, uint32_t lda,
                          const AscendC::GlobalTensor<T>& b, uint32_t ldb, bool transB,
                          const AscendC::GlobalTensor<Tout>& c, uint32_t ldc, uint32_t m,
                          uint32_t n, uint32_t K) {
    Begin();
    Accumulate({a, lda, false}, {b, ldb, transB}, m, n, K);
    Finish(c, ldc, m, n);
  }

  __aicore__ void Begin() {
    cl_ = qC_.template AllocTensor<float>();
    started_ = false;
    hasBias_ = false;
  }

  // Bias [n] (float, or T cast to float on the way into the bias table); the
  // next Accumulate's first Mmad starts C from it.
  template <class Tb>
  __aicore__ void LoadBias(const AscendC::GlobalTensor<Tb>& bias, uint32_t n) {
    static_assert(std::is_same_v<Tb, float> || std::is_same_v<Tb, T>, "bias is float or the input type");
    AscendC::LocalTensor<Tb> l1 = bias1_.template Get<Tb>();
    AscendC::Nd2NzParams p(1, 1, static_cast<uint16_t>(n), 0, static_cast<uint16_t>(n), 1, 1, 0);
    AscendC::DataCopy(l1, bias, p);  // one row, zero-padded to whole 32-B blocks
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<float> bt = biasBT_.template Get<float>();
    const uint32_t blocks = CeilDiv(n * sizeof(Tb), 32);
    AscendC::DataCopy(bt, l1, AscendC::DataCopyParams(1, static_cast<uint16_t>(blocks), 0, 0));
    AscendC::PipeBarrier<PIPE_ALL>();
    hasBias_ = true;
  }

  // Software-pipelined over the L1 chunks: on the first step of a chunk, the
  // GM -> L1 copy of the operand's next chunk goes into the second buffer of
  // its queue before this step's LoadData / Mmad, so on hardware MTE2 runs
  // ahead of MTE1 / M (the queue hand-offs are the syncs). A chunk stays
  // dequeued while its steps load from it and is freed after its last one.
  // Each step's Mmad runs in K order: the result does not depend on kL1.
  __aicore__ void Accumulate(const CubeOperand<T>& a, const CubeOperand<T>& b, uint32_t m, uint32_t n,
                             uint32_t K) {
    const uint32_t steps = CeilDiv(K, s_.kStep);
    const uint32_t perA = s_.kL1A / s_.kStep, perB = s_.kL1B / s_.kStep;  // steps per chunk
    if (steps > 0) {
      CopyA(a, m, K, 0);
      CopyB(b, n, K, 0);
    }
    for (uint32_t st = 0; st < steps; ++st) {
      const uint32_t ca = st / perA, cb = st / perB;
      if (st % perA == 0) {
        if (st + perA < steps) CopyA(a, m, K, ca + 1);
        a1_ = qA1_.template DeQue<T>();
      }
      if (st % perB == 0) {
        if (st + perB < steps) CopyB(b, n, K, cb + 1);
        b1_ = qB1_.template DeQue<T>();
      }
      const uint32_t kc = K - st * s_.kStep < s_.kStep ? K - st * s_.kStep : s_.kStep;
      SplitA(a.trans, m, kc, Chunk(K, s_.kL1A, ca), (st % perA) * s_.kStep);
      SplitB(b.trans, n, kc, Chunk(K, s_.kL1B, cb), (st % perB) * s_.kStep);
      if (st % perA == perA - 1 || st + 1 == steps) qA1_.FreeTensor(a1_);
      if (st % perB == perB - 1 || st + 1 == steps) qB1_.FreeTensor(b1_);
      AscendC::LocalTensor<T> a2 = qA2_.template DeQue<T>();
      AscendC::LocalTensor<T> b2 = qB2_.template DeQue<T>();
      AscendC::MmadParams mp(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(kc));
      mp.cmatrixInitVal = !started_;
      if (!started_ && hasBias_) {
        mp.cmatrixSource = true;
        AscendC::Mmad(cl_, a2, b2, biasBT_.template Get<float>(), mp);
      } else {
        AscendC::Mmad(cl_, a2, b2, mp);
      }
      started_ = true;
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
  }

  // Writes the tile (m x n, row r at c[r * ldc]) and releases L0C.
  __aicore__ void Finish(const AscendC::GlobalTensor<Tout>& c, uint32_t ldc, uint32_t m, uint32_t n) {
    qC_.EnQue(cl_);
    cl_ = qC_.template DeQue<float>();
    AscendC::FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(m);
    fp.nSize = static_cast<uint16_t>(n);
    fp.srcStride = static_cast<uint16_t>(Round16(m));
    fp.dstStride = ldc;
    fp.quantPre = QuantFor();
    AscendC::Fixpipe(c, cl_, fp);
    qC_.FreeTensor(cl_);
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

  // K elements of L1 chunk `c` (chunks of kL1 elements; the last may be shorter).
  static __aicore__ uint32_t Chunk(uint32_t K, uint32_t kL1, uint32_t c) {
    return K - c * kL1 < kL1 ? K - c * kL1 : kL1;
  }

  // GM -> L1 of A's chunk `c` (K elements [c * kL1A, + kc)) in Nz (or 16-column slabs), enqueued.
  __aicore__ void CopyA(const CubeOperand<T>& a, uint32_t m, uint32_t K, uint32_t c) {
    const uint32_t k0 = c * s_.kL1A, kc = Chunk(K, s_.kL1A, c);
    AscendC::LocalTensor<T> a1 = qA1_.template AllocTensor<T>();
    const AscendC::GlobalTensor<T> ga = a.trans ? a.g[uint64_t{k0} * a.ld] : a.g[k0];
    if (!a.trans) Nd2Nz(a1, ga, a.ld, m, kc);                  // column blocks of m16 rows
    else if (sizeof(T) == 4) Nd2NzSlabs(a1, ga, a.ld, m, kc);  // [kc, m]: 16-column slabs
    else Nd2Nz(a1, ga, a.ld, kc, m);                           // [kc, m]: column blocks of 16 m
    qA1_.EnQue(a1);
  }

  // GM -> L1 of B's chunk `c`, enqueued.
  __aicore__ void CopyB(const CubeOperand<T>& b, uint32_t n, uint32_t K, uint32_t c) {
    const uint32_t k0 = c * s_.kL1B, kc = Chunk(K, s_.kL1B, c);
    AscendC::LocalTensor<T> b1 = qB1_.template AllocTensor<T>();
    const AscendC::GlobalTensor<T> gb = b.trans ? b.g[k0] : b.g[uint64_t{k0} * b.ld];
    if (b.trans) Nd2Nz(b1, gb, b.ld, n, kc);  // [n, kc]: already n-major fractals
    else if (sizeof(T) == 4) Nd2NzSlabs(b1, gb, b.ld, n, kc);
    else Nd2Nz(b1, gb, b.ld, kc, n);          // [kc, n]: column blocks of 16 n, k16 rows
    qB1_.EnQue(b1);
  }

  // L1 -> L0A, which wants Zz: fractal (mb, kb) at mb * kb_total + kb, rows m, columns k.
  // The step's kc columns start at column `off` (a multiple of kStep) of the
  // current L1 chunk a1_, which holds `chunk` columns.
  __aicore__ void SplitA(bool trans, uint32_t m, uint32_t kc, uint32_t chunk, uint32_t off) {
    const uint32_t m16 = Round16(m), k16 = Round16(kc), kb = CeilDiv(kc, C0);
    const uint32_t c16 = Round16(chunk);  // rows of one slab / column block of the transposed layouts
    const AscendC::LocalTensor<T>& a1 = a1_;
    AscendC::LocalTensor<T> a2 = qA2_.template AllocTensor<T>();
    for (uint32_t mb = 0; mb < m16 / 16; ++mb) {
      if (trans && sizeof(T) == 4) {
        // Square (kb2, mb) transposed = fractals (mb, 2 kb2) and (mb, 2 kb2 + 1).
        // A row of squares may spill one fractal into the next row's start;
        // rows are written in order, so the next row overwrites it.
        AscendC::LoadData2dTransposeParams tp;
        tp.startIndex = static_cast<uint16_t>((mb * c16 + off) / 8);
        tp.repeatTimes = static_cast<uint8_t>(k16 / 16);
        tp.srcStride = 2;
        tp.dstGap = 1;
        AscendC::LoadDataWithTranspose(a2[mb * kb * 16 * C0], a1, tp);
        continue;
      }
      AscendC::LoadData2dParams lp;
      lp.repeatTimes = static_cast<uint8_t>(kb);
      if (!trans) {  // L1 fractal (kb, mb) at kb * m16/16 + mb
        lp.startIndex = static_cast<uint16_t>(mb + off / C0 * (m16 / 16));
        lp.srcStride = static_cast<uint16_t>(m16 / 16);
      } else {  // L1 fractal (kb, mb) at mb * c16/16 + kb holds k rows: transpose it
        lp.startIndex = static_cast<uint16_t>((mb * c16 + off) / 16);
        lp.srcStride = 1;
        lp.ifTranspose = true;
      }
      AscendC::LoadData(a2[mb * kb * 16 * C0], a1, lp);
    }
    qA2_.EnQue(a2);
  }

  // L1 -> L0B, which wants Zn: fractal (kb, nb) at kb * nb_total + nb, each n-major.
  // The step's kc rows of op(B) start at row `off` of the chunk b1_ (`chunk` rows).
  __aicore__ void SplitB(bool transB, uint32_t n, uint32_t kc, uint32_t chunk, uint32_t off) {
    const AscendC::LocalTensor<T>& b1 = b1_;
    const uint32_t c16 = Round16(chunk);
    const bool slabs = !transB && sizeof(T) == 4;
    AscendC::LocalTensor<T> b2 = qB2_.template AllocTensor<T>();
    const uint32_t nb = Round16(n) / 16, kb = CeilDiv(kc, C0);
    if (slabs) {
      for (uint32_t i = 0; i < CeilDiv(kc, 16); ++i) {  // 16 x 16 squares -> two 16 x 8 fractals
        AscendC::LoadData2dTransposeParams tp;
        tp.startIndex = static_cast<uint16_t>(off / 8 + 2 * i);
        tp.repeatTimes = static_cast<uint8_t>(nb);
        tp.srcStride = static_cast<uint16_t>(c16 / 8);
        tp.dstFracGap = static_cast<uint16_t>(nb - 1);
        AscendC::LoadDataWithTranspose(b2[2 * i * nb * 16 * C0], b1, tp);
      }
    }
    for (uint32_t i = 0; !slabs && i < kb; ++i) {
      AscendC::LoadData2dParams lp;
      lp.repeatTimes = static_cast<uint8_t>(nb);
      if (transB) {  // fractal (kb, nb) at kb * nb16 + nb in both layouts
        lp.startIndex = static_cast<uint16_t>((off / C0 + i) * nb);
        lp.srcStride = 1;
      } else {       // fractal (kb, nb) at nb * c16/16 + kb, transposed
        lp.startIndex = static_cast<uint16_t>(off / 16 + i);
        lp.srcStride = static_cast<uint16_t>(c16 / 16);
        lp.ifTranspose = true;
      }
      AscendC::LoadData(b2[i * nb * 16 * C0], b1, lp);
    }
    qB2_.EnQue(b2);
  }

  // 4-byte [kc, cols] -> 16-column slabs, each a row-major [k16][16] block
  // (the form LoadDataWithTranspose takes); the last slab may be narrower.
  static __aicore__ void Nd2NzSlabs(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                    uint32_t ld, uint32_t cols, uint32_t kc) {
    const uint32_t full = cols / 16, tail = cols % 16, slab = Round16(kc) * 16;
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
  AscendC::TBuf<AscendC::TPosition::C1> bias1_;
  AscendC::TBuf<AscendC::TPosition::C2> biasBT_;
  AscendC::LocalTensor<float> cl_;
  AscendC::LocalTensor<T> a1_, b1_;  // the L1 chunks the current K steps load from
  bool started_ = false, hasBias_ = false;
};

}  // namespace AscendC::matmul_impl
