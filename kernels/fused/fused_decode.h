// kernels/fused/fused_decode.h: host-side decoding and validation of the
// `program` attribute of `fused_elementwise` (format: fused_program.h).
//
// A decoded program is safe to run: every opcode and comparison mode is known,
// every source slot is an input or a temporary written by an earlier
// instruction, every destination is a temporary, the result is a written
// temporary, and the counts fit the kernel's fixed limits.
#pragma once

#include <cstdint>
#include <string>

#include "fused/fused_program.h"
#include "npurt/op_def.h"

namespace npurt::kernels::fused {

struct DecodedProgram {
  int num_inputs = 0;
  int num_regs = 0;
  int result = 0;
  int num_instr = 0;
  bool needs_scratch = false;  // tanh / sin / cos / astype rounding
  bool needs_mask = false;     // compares, select, tanh
  FusedInstr code[kFusedMaxInstr];
};

// Decodes `words`; on failure returns false with a reason naming the word.
bool decode_program(const Dims& words, DecodedProgram& p, std::string& reason);

}  // namespace npurt::kernels::fused
