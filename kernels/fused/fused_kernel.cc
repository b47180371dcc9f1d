// kernels/fused/fused_kernel.cc: device code of `fused_elementwise`: one
// Ascend C kernel that runs an expression program (fused_program.h) over UB
// tiles, so `a * x + y` reads each input once and writes the output once.
//
// Pipeline per core, per tile of `tile` output elements: CopyIn of every input
// (VECIN queue, double-buffered; contiguous inputs with one DataCopy, broadcast
// or strided views gathered from the strides in the tiling, as in the
// elementwise family) -> Compute: 16-bit inputs widened to float32 by Cast,
// then the program's instructions on float32 slots -> the result Cast (or
// written directly, for float32) into the VECOUT queue -> CopyOut.
// Input dtypes are dispatched at run time per input (any mix of float16,
// bfloat16, float32); the output dtype picks the template instance.
#include <type_traits>

#include "common/kernel_util.h"
#include "common/strided_load.h"
#include "fused/fused_math.h"
#include "fused/fused_program.h"
#include "kernel_operator.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::fused {
namespace {

constexpr uint32_t kF32 = static_cast<uint32_t>(DType::kFloat32);
constexpr uint32_t kF16 = static_cast<uint32_t>(DType::kFloat16);
constexpr uint32_t kBF16 = static_cast<uint32_t>(DType::kBFloat16);

__aicore__ inline float const_of(int32_t bits) {
  union {
    int32_t i;
    float f;
  } u{bits};
  return u.f;
}

template <class TO>
class FusedKernel {
 public:
  __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR out, const FusedTiling& t) {
    t_ = &t;
    begin_ = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
    count_ = begin_ >= t.total ? 0 : (t.total - begin_ < t.per_core ? t.total - begin_ : t.per_core);
    uint32_t wide = 0;
    in_calc_ = t.needs_mask != 0;
    for (uint32_t i = 0; i < t.num_inputs; ++i) {
      in_[i] = in[i];
      const uint32_t item = t.in_dtype[i] == kF32 ? 4 : 2;
      if (item == 2 || in_calc_) wide_slot_[i] = wide++;
      pipe_.InitBuffer(q_[i], 2, t.tile * item);
    }
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ TO*>(out) + begin_, count_);
    pipe_.InitBuffer(qz_, 2, t.tile * static_cast<uint32_t>(sizeof(TO)));
    num_wide_ = wide;
    const uint32_t tiles = t.num_regs + wide + (t.needs_scratch ? kFusedScratchTiles : 0);
    pipe_.InitBuffer(calc_, tiles * t.tile * static_cast<uint32_t>(sizeof(float)));
    if (t.needs_mask) {
      pipe_.InitBuffer(mask_, (t.tile / 8 + 31) / 32 * 32);
      ZeroFill(tiles);
    }
  }

  __aicore__ inline void Process() {
    const uint32_t tile = t_->tile;
    for (uint64_t off = 0; off < count_; off += tile) {
      const uint32_t n = static_cast<uint32_t>(count_ - off < tile ? count_ - off : tile);
      for (uint32_t i = 0; i < t_->num_inputs; ++i) Load(i, off, n);
      Compute(n);
      AscendC::LocalTensor<TO> z = qz_.template DeQue<TO>();
      CopyOut(z_[off], z, n);
      qz_.FreeTensor(z);
    }
  }

 private:
  // Compare/CompareScalar work on whole 256-byte granules (n rounded up to 64
  // floats): on the last tile they read lanes past n, whose results are never
  // used. Programs with compares therefore run on calc tiles only (inputs
  // copied in, the result copied out), zeroed once here, so those lanes always
  // hold defined, finite data; queue buffers are fresh at every AllocTensor.
  __aicore__ inline void ZeroFill(uint32_t calc_tiles) {
    AscendC::Duplicate(calc_.template Get<float>(), 0.0f, static_cast<int32_t>(calc_tiles * t_->tile));
  }

  __aicore__ inline void Load(uint32_t i, uint64_t off, uint32_t n) {
    const uint32_t d = t_->in_dtype[i];
    if (d == kF32) LoadAs<float>(i, off, n);
    else if (d == kF16) LoadAs<half>(i, off, n);
    else LoadAs<bfloat16_t>(i, off, n);
  }

  template <class U>
  __aicore__ inline void LoadAs(uint32_t i, uint64_t off, uint32_t n) {
    const FusedTiling& t = *t_;
    AscendC::LocalTensor<U> x = q_[i].template AllocTensor<U>();
    AscendC::GlobalTensor<U> g;
    if (t.contiguous & (1u << i)) {
      g.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(in_[i]) + begin_, count_);
      CopyIn(x, g[off], n);
    } else {
      g.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(in_[i]) + t.base[i], StridedExtent(t.shape, t.strides[i], t.ndim));
      GatherStrided<kFusedMaxDims>(x, g, t.shape, t.strides[i], t.base[i], static_cast<int>(t.ndim), begin_ + off, n);
    }
    q_[i].EnQue(x);
  }

  // Input i's tile as float32: the dequeued tile itself, or its copy in a
  // calc tile (widened by Cast; float32 copied by Muls 1, which keeps -0 and NaN).
  template <class U>
  __aicore__ inline void Widen(uint32_t i, uint32_t n) {
    AscendC::LocalTensor<U> x = q_[i].template DeQue<U>();
    AscendC::LocalTensor<float> w = calc_.template Get<float>()[(t_->num_regs + wide_slot_[i]) * t_->tile];
    if constexpr (std::is_same<U, float>::value) AscendC::Muls(w, x, 1.0f, static_cast<int32_t>(n));
    else AscendC::Cast(w, x, AscendC::RoundMode::CAST_NONE, n);
    q_[i].FreeTensor(x);
    slot_[i] = w;
  }

  __aicore__ inline void Compute(uint32_t n) {
    const FusedTiling& t = *t_;
    AscendC::LocalTensor<float> all = calc_.template Get<float>();
    for (uint32_t i = 0; i < t.num_inputs; ++i) {
      if (t.in_dtype[i] == kF32 && !in_calc_) slot_[i] = q_[i].template DeQue<float>();
      else if (t.in_dtype[i] == kF32) Widen<float>(i, n);
      else if (t.in_dtype[i] == kF16) Widen<half>(i, n);
      else Widen<bfloat16_t>(i, n);
    }
    for (uint32_t r = 0; r < t.num_regs; ++r) slot_[t.num_inputs + r] = all[r * t.tile];
    if (t.needs_scratch) {
      const uint32_t s = (t.num_regs + num_wide_) * t.tile;
      w_.s0 = all[s];
      w_.s1 = all[s + t.tile];
      w_.s2 = all[s + 2 * t.tile];
    }
    if (t.needs_mask) w_.mask = mask_.template Get<uint8_t>();
    AscendC::LocalTensor<TO> z = qz_.template AllocTensor<TO>();
    // float32 output: compute straight into the output tile (unless compares need calc tiles)
    if constexpr (std::is_same<TO, float>::value)
      if (!in_calc_) slot_[t.result] = z;
    const int32_t cnt = static_cast<int32_t>(n);
    const int32_t n64 = static_cast<int32_t>((n + 63) / 64 * 64);
    for (uint32_t k = 0; k < t.num_instr; ++k) Run(t.code[k], cnt, n64);
    if constexpr (!std::is_same<TO, float>::value) AscendC::Cast(z, slot_[t.result], AscendC::RoundMode::CAST_RINT, n);
    else if (in_calc_) AscendC::Muls(z, slot_[t.result], 1.0f, cnt);
    qz_.EnQue(z);
    for (uint32_t i = 0; i < t.num_inputs; ++i)
      if (t.in_dtype[i] == kF32 && !in_calc_) q_[i].FreeTensor(slot_[i]);
  }

  __aicore__ inline void Run(const FusedInstr& in, int32_t n, int32_t n64) {
    const AscendC::LocalTensor<float>& d = slot_[in.dst];
    const AscendC::LocalTensor<float>& a = slot_[in.a];
    const float cb = const_of(in.b);
    switch (in.op) {
      case kAdd: AscendC::Add(d, a, slot_[in.b], n); break;
      case kSub: AscendC::Sub(d, a, slot_[in.b], n); break;
      case kMul: AscendC::Mul(d, a, slot_[in.b], n); break;
      case kDiv: AscendC::Div(d, a, slot_[in.b], n); break;
      case kMax: AscendC::Max(d, a, slot_[in.b], n); break;
      case kMin: AscendC::Min(d, a, slot_[in.b], n); break;
      case kAdds: AscendC::Adds(d, a, cb, n); break;
      case kMuls: AscendC::Muls(d, a, cb, n); break;
      case kMaxs: AscendC::Maxs(d, a, cb, n); break;
      case kMins: AscendC::Mins(d, a, cb, n); break;
      case kDup: AscendC::Duplicate(d, cb, n); break;
      case kExp: AscendC::Exp(d, a, n); break;
      case kLn: AscendC::Ln(d, a, n); break;
      case kSqrt: AscendC::Sqrt(d, a, n); break;
      case kAbs: AscendC::Abs(d, a, n); break;
      case kNeg: AscendC::Muls(d, a, -1.0f, n); break;
      case kCopy: AscendC::Muls(d, a, 1.0f, n); break;
      case kTanh: VecTanh(d, a, w_, n, n64); break;
      case kSin: VecSinCos(d, a, w_, n, false); break;
      case kCos: VecSinCos(d, a, w_, n, true); break;
      case kCmp:
      case kCmps: {
        const auto mode = static_cast<AscendC::CMPMODE>(in.c);
        if (in.op == kCmp) AscendC::Compare(w_.mask, a, slot_[in.b], mode, static_cast<uint32_t>(n64));
        else AscendC::CompareScalar(w_.mask, a, cb, mode, static_cast<uint32_t>(n64));
        AscendC::Duplicate(d, 1.0f, n);
        AscendC::Select(d, w_.mask, d, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, static_cast<uint32_t>(n));
        break;
      }
      case kSelect:
        AscendC::CompareScalar(w_.mask, a, 0.0f, AscendC::CMPMODE::NE, static_cast<uint32_t>(n64));
        AscendC::Select(d, w_.mask, slot_[in.b], slot_[in.c], AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE,
                        static_cast<uint32_t>(n));
        break;
      case kRoundF16: {
        AscendC::LocalTensor<half> h = w_.s0.template ReinterpretCast<half>();
        AscendC::Cast(h, a, AscendC::RoundMode::CAST_RINT, n);
        AscendC::Cast(d, h, AscendC::RoundMode::CAST_NONE, n);
        break;
      }
      case kRoundBF16: {
        AscendC::LocalTensor<bfloat16_t> h = w_.s0.template ReinterpretCast<bfloat16_t>();
        AscendC::Cast(h, a, AscendC::RoundMode::CAST_RINT, n);
        AscendC::Cast(d, h, AscendC::RoundMode::CAST_NONE, n);
        break;
      }
      default: break;  // the host validated every opcode
    }
  }

  const FusedTiling* t_ = nullptr;
  uint64_t begin_ = 0, count_ = 0;
  uint32_t num_wide_ = 0;
  bool in_calc_ = false;  // the program compares: every operand lives in calc tiles
  GM_ADDR in_[kFusedMaxInputs] = {};
  uint32_t wide_slot_[kFusedMaxInputs] = {};
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q_[kFusedMaxInputs];
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qz_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> calc_;  // registers, widened inputs, scratch
  AscendC::TBuf<AscendC::TPosition::VECCALC> mask_;  // compare bit mask
  AscendC::LocalTensor<float> slot_[kFusedMaxSlots];
  MathScratch w_;
  AscendC::GlobalTensor<TO> z_;
};

template <class TO>
__aicore__ inline void RunFused(GM_ADDR const* in, GM_ADDR out, const FusedTiling& t) {
  FusedKernel<TO> k;
  k.Init(in, out, t);
  k.Process();
}

}  // namespace
}  // namespace npurt::kernels::fused

extern "C" __global__ __aicore__ void npurt_fused_elementwise_kernel(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR x3,
                                                                     GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  (void)ws;
  namespace f = npurt::kernels::fused;
  GET_TILING_DATA_WITH_STRUCT(f::FusedTiling, t, tiling);
  GM_ADDR in[f::kFusedMaxInputs] = {x0, x1, x2, x3};
  if (t.out_dtype == f::kF16) f::RunFused<half>(in, y, t);
  else if (t.out_dtype == f::kBF16) f::RunFused<bfloat16_t>(in, y, t);
  else f::RunFused<float>(in, y, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::fused {
extern const SimKernelEntry kFusedEntry;  // external linkage: fused_op.cc registers it
const SimKernelEntry kFusedEntry = NPURT_SIM_ENTRY(npurt_fused_elementwise_kernel);
}  // namespace npurt::kernels::fused
#endif  // NPURT_ASCEND_DEVICE_BUILD
