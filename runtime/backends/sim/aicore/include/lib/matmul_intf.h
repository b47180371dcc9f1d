// lib/matmul_intf.h: the high-level Matmul API of the simulated kernel API,
// at the level the Ascend C samples use it:
//
//   #include "lib/matmul_intf.h"
//   using namespace matmul;
//   Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<..., half>,
//          MatmulType<..., float>, MatmulType<..., float>> mm;
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);  // TCubeTiling*
//   mm.SetTensorA(gmA[offA], transA); mm.SetTensorB(gmB[offB], transB);
//   if (tiling.isBias) mm.SetBias(gmBias[offBias]);
//   mm.SetSingleShape(m, n, k);      // optional: this core's block (tails)
//   mm.IterateAll(gmC[offC]);        // or: while (mm.Iterate()) mm.GetTensorC(gmC[offC]);
//   mm.End();
//
// C (singleCoreM x singleCoreN of the M x N row-major output) is computed in
// baseM x baseN tiles, N inner, each summing singleCoreK in baseK steps with
// fp32 accumulation in L0C (the engine is lib/matmul/cube_tile.h over the
// basic cube API, so every step is checked like hand-written cube code).
// Supported: A, B, C and bias in GM, ND format; A/B float, half or bfloat16_t
// (the same), C float/half/bfloat16_t, bias float or A's type.
// Misuse faults the simulated core with ErrorParam naming the API: no system
// workspace at REGIST_MATMUL_OBJ, a tiling breaking lib/matmul/tiling.h's
// invariants, Iterate/IterateAll before SetTensorA/B, SetBias with
// tiling.isBias = 0, GetTensorC without a computed tile, enAtomic != 0 (not
// simulated), a single shape larger than the original one. Buffer overflows
// surface as the basic API's own codes (ErrorInitBuffer, ErrorGmRead, ...).
// The system workspace is only checked for presence: the simulated cube needs
// no scratch space in GM.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "lib/matmul/cube_tile.h"
#include "lib/matmul/tiling.h"

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

namespace matmul {

template <AscendC::TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false>
struct MatmulType {
  static constexpr AscendC::TPosition pos = POSITION;
  static constexpr CubeFormat format = FORMAT;
  using T = TYPE;
  static constexpr bool isTrans = ISTRANS;
};

template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
class Matmul {
  using TA = typename A_TYPE::T;
  using TC = typename C_TYPE::T;
  using TBias = typename BIAS_TYPE::T;
  static_assert(std::is_same_v<TA, typename B_TYPE::T>, "Matmul: A and B must have the same element type");
  static_assert(std::is_same_v<TBias, float> || std::is_same_v<TBias, TA>, "Matmul: bias is float or A's type");
  static_assert(A_TYPE::pos == AscendC::TPosition::GM && B_TYPE::pos == AscendC::TPosition::GM &&
                    C_TYPE::pos == AscendC::TPosition::GM && BIAS_TYPE::pos == AscendC::TPosition::GM,
                "the simulated Matmul API takes A, B, C and bias in GM");
  static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                    C_TYPE::format == CubeFormat::ND,
                "the simulated Matmul API takes ND (row-major) matrices");

 public:
  __aicore__ void SetSysWorkspace(GM_ADDR workspace) {
    if (workspace == nullptr)
      Fault("REGIST_MATMUL_OBJ", "the Matmul API needs the system workspace (pass GetSysWorkSpacePtr())");
    workspace_ = workspace;
  }

  __aicore__ void Init(const TCubeTiling* tiling, AscendC::TPipe* pipe = nullptr) {
    if (workspace_ == nullptr) Fault("Matmul::Init", "call REGIST_MATMUL_OBJ (or SetSysWorkspace) first");
    CheckTiling(*tiling);
    t_ = *tiling;
    SetOrgShape(t_.M, t_.N, t_.Ka, t_.Kb);
    SetSingleShape(t_.singleCoreM, t_.singleCoreN, t_.singleCoreK);
    tile_.Init(pipe ? *pipe : *AscendC::GetTPipePtr(),
               {uint32_t(t_.baseM), uint32_t(t_.baseN), uint32_t(t_.baseK), t_.isBias != 0});
    inited_ = true;
  }

  __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb = -1) {
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb < 0 ? orgKa : orgKb;
  }

  __aicore__ void SetSingleShape(int singleM, int singleN, int singleK) {
    if (singleM > orgM_ || singleN > orgN_ || singleK > orgKa_ || singleM < 0 || singleN < 0 || singleK < 1)
      Fault("Matmul::SetSingleShape", "single shape " + std::to_string(singleM) + "x" + std::to_string(singleN) +
                                          "x" + std::to_string(singleK) + " exceeds the original shape or is empty in K");
    singleM_ = singleM;
    singleN_ = singleN;
    singleK_ = singleK;
    ResetIteration();
  }
  __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    SetSingleShape(tailM < 0 ? singleM_ : tailM, tailN < 0 ? singleN_ : tailN, tailK < 0 ? singleK_ : tailK);
  }

  __aicore__ void SetTensorA(const AscendC::GlobalTensor<TA>& gm, bool isTransposeA = false) {
    a_ = gm;
    transA_ = isTransposeA;
    hasA_ = true;
    ResetIteration();
  }
  __aicore__ void SetTensorB(const AscendC::GlobalTensor<TA>& gm, bool isTransposeB = false) {
    b_ = gm;
    transB_ = isTransposeB;
    hasB_ = true;
    ResetIteration();
  }
  __aicore__ void SetBias(const AscendC::GlobalTensor<TBias>& gm) {
    if (t_.isBias == 0) Fault("Matmul::SetBias", "the tiling has isBias = 0: no bias table was reserved");
    bias_ = gm;
    hasBias_ = true;
  }
  __aicore__ void DisableBias() { hasBias_ = false; }
  __aicore__ void ClearBias() { hasBias_ = false; }

  // Computes the next base tile into L0C; false when the block is done.
  template <bool sync = true>
  __aicore__ bool Iterate(bool enPartialSum = false) {
    CheckReady("Matmul::Iterate");
    if (enPartialSum) Fault("Matmul::Iterate", "enPartialSum is not simulated");
    if (held_) Fault("Matmul::Iterate", "the previous tile was not taken with GetTensorC");
    const int tilesM = (singleM_ + t_.baseM - 1) / t_.baseM, tilesN = (singleN_ + t_.baseN - 1) / t_.baseN;
    if (next_ >= tilesM * tilesN) return false;
    curM_ = next_ / tilesN * t_.baseM;
    curN_ = next_ % tilesN * t_.baseN;
    ++next_;
    ComputeTile();
    return true;
  }

  // Writes the tile of the last Iterate at its place in C (gm = C's block start, row
  // stride N), or packed at gm (row stride baseN) with enSequentialWrite.
  template <bool sync = true>
  __aicore__ void GetTensorC(const AscendC::GlobalTensor<TC>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    if (!held_) Fault("Matmul::GetTensorC", "no computed tile: call Iterate() first");
    if (enAtomic != 0) Fault("Matmul::GetTensorC", "enAtomic (accumulating into GM) is not simulated");
    const uint32_t m = TileM(), n = TileN();
    if (enSequentialWrite) tile_.Finish(gm, uint32_t(t_.baseN), m, n);
    else tile_.Finish(gm[uint64_t(curM_) * orgN_ + curN_], uint32_t(orgN_), m, n);
    held_ = false;
  }

  template <bool sync = true>
  __aicore__ void IterateAll(const AscendC::GlobalTensor<TC>& gm, uint8_t enAtomic = 0) {
    if (enAtomic != 0) Fault("Matmul::IterateAll", "enAtomic (accumulating into GM) is not simulated");
    while (Iterate()) GetTensorC(gm);
  }

  __aicore__ void End() {
    if (held_) Fault("Matmul::End", "a computed tile was never taken with GetTensorC");
    hasA_ = hasB_ = hasBias_ = false;
    ResetIteration();
  }

 private:
  [[noreturn]] static void Fault(const char* api, const std::string& why) {
    npurt::sim::raise_fault(npurt::sim::Diag::kParam, api, why);
  }

  static __aicore__ void CheckTiling(const TCubeTiling& t) {
    auto bad = [](int v) { return v < 16 || v % 16 != 0; };
    if (bad(t.baseM) || bad(t.baseN) || bad(t.baseK))
      Fault("Matmul::Init", "baseM/baseN/baseK must be positive multiples of 16 (the 16x16 fractal), got " +
                                std::to_string(t.baseM) + "/" + std::to_string(t.baseN) + "/" + std::to_string(t.baseK));
    if (t.baseM > 128 || t.baseN > 128)
      Fault("Matmul::Init", "baseM and baseN must be <= 128 (L0C and the 1 KiB bias table)");
    if (t.Ka != t.Kb) Fault("Matmul::Init", "Ka " + std::to_string(t.Ka) + " != Kb " + std::to_string(t.Kb));
    if (t.M < 0 || t.N < 0 || t.Ka < 1 || t.singleCoreM > t.M || t.singleCoreN > t.N || t.singleCoreK > t.Ka)
      Fault("Matmul::Init", "singleCoreM/N/K must lie within M/N/Ka (and Ka >= 1)");
    const npurt::ChipProfile& p = *npurt::sim::core()->profile;
    const uint64_t es = sizeof(TA);
    if (uint64_t(t.baseM) * t.baseK * es > p.l0a_bytes || uint64_t(t.baseK) * t.baseN * es > p.l0b_bytes ||
        uint64_t(t.baseM) * t.baseN * 4 > p.l0c_bytes)
      Fault("Matmul::Init", "base tile " + std::to_string(t.baseM) + "x" + std::to_string(t.baseN) + "x" +
                                std::to_string(t.baseK) + " does not fit L0A/L0B/L0C of " + p.name);
  }

  __aicore__ void CheckReady(const char* api) const {
    if (!inited_) Fault(api, "Init (REGIST_MATMUL_OBJ) was not called");
    if (!hasA_ || !hasB_) Fault(api, hasA_ ? "SetTensorB was not called" : "SetTensorA was not called");
  }

  __aicore__ uint32_t TileM() const { return uint32_t(singleM_ - curM_ < t_.baseM ? singleM_ - curM_ : t_.baseM); }
  __aicore__ uint32_t TileN() const { return uint32_t(singleN_ - curN_ < t_.baseN ? singleN_ - curN_ : t_.baseN); }

  __aicore__ void ComputeTile() {
    const uint32_t m = TileM(), n = TileN();
    // A: [M, Ka] row-major, or stored [Ka, M] when transposed; B: [Kb, N], or stored [N, Kb].
    AscendC::matmul_impl::CubeOperand<TA> a{transA_ ? a_[curM_] : a_[uint64_t(curM_) * orgKa_],
                                   uint32_t(transA_ ? orgM_ : orgKa_), transA_};
    AscendC::matmul_impl::CubeOperand<TA> b{transB_ ? b_[uint64_t(curN_) * orgKb_] : b_[curN_],
                                   uint32_t(transB_ ? orgKb_ : orgN_), transB_};
    tile_.Begin();
    if (hasBias_) tile_.LoadBias(bias_[curN_], n);
    tile_.Accumulate(a, b, m, n, uint32_t(singleK_));
    held_ = true;
  }

  __aicore__ void ResetIteration() {
    next_ = 0;
    held_ = false;
  }

  TCubeTiling t_{};
  AscendC::matmul_impl::CubeTile<TA, TC> tile_;
  AscendC::GlobalTensor<TA> a_, b_;
  AscendC::GlobalTensor<TBias> bias_;
  GM_ADDR workspace_ = nullptr;
  int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, singleM_ = 0, singleN_ = 0, singleK_ = 0;
  int curM_ = 0, curN_ = 0, next_ = 0;
  bool transA_ = false, transB_ = false, hasA_ = false, hasB_ = false, hasBias_ = false;
  bool inited_ = false, held_ = false;
};

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, tiling1[, mm2, tiling2 ...]): binds each Matmul to
// the system workspace and initialises it with its TCubeTiling (at most 4 objects).
template <class Pipe>
__aicore__ void RegistMatmulObj(Pipe*, GM_ADDR) {}
template <class Pipe, class MM, class... Rest>
__aicore__ void RegistMatmulObj(Pipe* pipe, GM_ADDR workspace, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
  static_assert(sizeof...(Rest) <= 6, "REGIST_MATMUL_OBJ takes at most 4 Matmul objects");
  mm.SetSysWorkspace(workspace);
  mm.Init(tiling, pipe);
  RegistMatmulObj(pipe, workspace, rest...);
}

}  // namespace matmul

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) ::matmul::RegistMatmulObj(tpipe, workspace, __VA_ARGS__)
