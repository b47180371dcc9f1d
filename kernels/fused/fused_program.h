// kernels/fused/fused_program.h: the expression program of the fused
// elementwise kernel (op `fused_elementwise`), shared by the host (decoding the
// `program` attribute, tiling) and the device (interpreting it per UB tile).
//
// A program is a straight-line list of instructions over float32 UB "slots":
// slots [0, num_inputs) are the inputs (float32 views of each input tile,
// widened from float16/bfloat16 by Cast), slots [num_inputs, num_inputs +
// num_regs) are temporaries. Every instruction reads slots and writes one
// temporary; `result` names the temporary holding the output (Cast to the
// output dtype on the way out). Booleans (comparison results, where's
// condition) live in slots as float 1.0 / 0.0.
//
// Attribute encoding (int list, what C++ and Python callers pass):
//   [kFusedVersion, num_inputs, num_regs, result, num_instr,
//    then num_instr x (opcode, dst, a, b, c)]
// a/b/c are slots, except: scalar forms (kAdds, kMuls, kMaxs, kMins, kDup,
// kCmps) carry a float32 constant as its IEEE bit pattern in b; kCmp/kCmps
// carry a FusedCmp in c. Invariants checked on the host (fused_op.cc) before
// any launch: sources are defined slots, dst is a temporary, counts in range.
#pragma once

#include <cstdint>

namespace npurt::kernels::fused {

constexpr int64_t kFusedVersion = 1;
constexpr int kFusedMaxInputs = 4;
constexpr int kFusedMaxRegs = 12;
constexpr int kFusedMaxSlots = kFusedMaxInputs + kFusedMaxRegs;
constexpr int kFusedMaxInstr = 96;
constexpr int kFusedMaxDims = 6;
constexpr int kFusedHeader = 5;
constexpr int kFusedInstrWords = 5;
// Float scratch tiles for the multi-step ops (tanh, sin, cos) and the bytes of
// the compare mask (1 bit per element, rounded up to 32 B by the host).
constexpr int kFusedScratchTiles = 3;

enum FusedOpcode : int32_t {
  kAdd = 1, kSub, kMul, kDiv, kMax, kMin,   // dst = a op b
  kAdds, kMuls, kMaxs, kMins,               // dst = a op const(b)
  kDup,                                     // dst = const(b)
  kExp, kLn, kSqrt, kAbs, kNeg, kCopy,      // dst = f(a)
  kTanh, kSin, kCos,                        // dst = f(a), vector compositions (fused_math.h)
  kCmp, kCmps,                              // dst = (a cmp(c) b) ? 1 : 0 ; b = const for kCmps
  kSelect,                                  // dst = a != 0 ? b : c
  kRoundF16, kRoundBF16,                    // dst = float(float16(a)) / float(bfloat16(a)) (astype)
  kFusedOpcodeEnd
};

// Comparison modes, in the order of AscendC::CMPMODE (LT GT EQ LE GE NE).
enum FusedCmp : int32_t { kLT = 0, kGT, kEQ, kLE, kGE, kNE, kFusedCmpEnd };

struct FusedInstr {
  int32_t op = 0;
  int32_t dst = 0;
  int32_t a = 0;
  int32_t b = 0;   // slot, or float32 bits of a constant
  int32_t c = 0;   // slot (kSelect) or FusedCmp
};

// Tiling data. The output is the contiguous iteration space shape[0..ndim);
// input i's element for output multi-index k is at GM element offset
// sum_d k[d] * strides[i][d] - base[i] (base[i] <= 0 points at the view's
// lowest element; strides 0 on broadcast dims). Bit i of `contiguous`: input i
// is laid out exactly like the output (one DataCopy per tile). Core b owns
// output elements [b * per_core, ...); per_core and tile are multiples of 64
// elements (Compare's 256-byte granule for float32).
struct FusedTiling {
  uint64_t total = 0;
  uint64_t per_core = 0;
  uint32_t tile = 0;
  uint32_t ndim = 0;
  uint32_t num_inputs = 0;
  uint32_t num_regs = 0;
  uint32_t num_instr = 0;
  uint32_t result = 0;
  uint32_t out_dtype = 0;                   // npurt::DType
  uint32_t contiguous = 0;
  uint32_t needs_scratch = 0;               // the program has tanh / sin / cos
  uint32_t needs_mask = 0;                  // the program has compares / select / tanh / sin / cos
  uint32_t in_dtype[kFusedMaxInputs] = {};  // npurt::DType
  int64_t shape[kFusedMaxDims] = {};
  int64_t strides[kFusedMaxInputs][kFusedMaxDims] = {};
  int64_t base[kFusedMaxInputs] = {};
  FusedInstr code[kFusedMaxInstr] = {};
};

}  // namespace npurt::kernels::fused
