// kernels/fused/fused_decode.cc: validation of fused programs (host).
#include "fused/fused_decode.h"

namespace npurt::kernels::fused {
namespace {

bool is_binary(int32_t op) { return (op >= kAdd && op <= kMin) || op == kCmp; }

bool fail(std::string& reason, int k, const std::string& what) {
  reason = "instruction " + std::to_string(k) + ": " + what;
  return false;
}

// Sources of instruction k must be inputs or temporaries already written.
bool check_source(const DecodedProgram& p, const bool* written, int k, int32_t s, std::string& reason) {
  if (s < 0 || s >= p.num_inputs + p.num_regs) return fail(reason, k, "slot " + std::to_string(s) + " out of range");
  if (s >= p.num_inputs && !written[s])
    return fail(reason, k, "reads temporary " + std::to_string(s) + " before any write");
  return true;
}

bool check_instr(DecodedProgram& p, bool* written, int k, std::string& reason) {
  const FusedInstr& in = p.code[k];
  if (in.op < kAdd || in.op >= kFusedOpcodeEnd) return fail(reason, k, "unknown opcode " + std::to_string(in.op));
  if (in.dst < p.num_inputs || in.dst >= p.num_inputs + p.num_regs)
    return fail(reason, k, "destination " + std::to_string(in.dst) + " is not a temporary slot");
  if (in.op != kDup && !check_source(p, written, k, in.a, reason)) return false;
  if (is_binary(in.op) && !check_source(p, written, k, in.b, reason)) return false;
  if (in.op == kSelect && !(check_source(p, written, k, in.b, reason) && check_source(p, written, k, in.c, reason)))
    return false;
  if ((in.op == kCmp || in.op == kCmps) && (in.c < 0 || in.c >= kFusedCmpEnd))
    return fail(reason, k, "unknown comparison " + std::to_string(in.c));
  p.needs_scratch = p.needs_scratch || in.op == kTanh || in.op == kSin || in.op == kCos || in.op == kRoundF16 ||
                    in.op == kRoundBF16;
  p.needs_mask = p.needs_mask || in.op == kCmp || in.op == kCmps || in.op == kSelect || in.op == kTanh;
  written[in.dst] = true;
  return true;
}

}  // namespace

bool decode_program(const Dims& w, DecodedProgram& p, std::string& reason) {
  if (w.size() < kFusedHeader || w[0] != kFusedVersion) {
    reason = "not a version-" + std::to_string(kFusedVersion) + " fused program (header: version, inputs, registers, "
             "result, instructions)";
    return false;
  }
  p = DecodedProgram();
  if (w[1] < 1 || w[1] > kFusedMaxInputs || w[2] < 1 || w[2] > kFusedMaxRegs || w[4] < 1 || w[4] > kFusedMaxInstr) {
    reason = "needs 1.." + std::to_string(kFusedMaxInputs) + " inputs, 1.." + std::to_string(kFusedMaxRegs) +
             " registers and 1.." + std::to_string(kFusedMaxInstr) + " instructions";
    return false;
  }
  p.num_inputs = static_cast<int>(w[1]);
  p.num_regs = static_cast<int>(w[2]);
  p.result = static_cast<int>(w[3]);
  p.num_instr = static_cast<int>(w[4]);
  if (w.size() != static_cast<size_t>(kFusedHeader + kFusedInstrWords * p.num_instr)) {
    reason = "has " + std::to_string(w.size()) + " words, expected " +
             std::to_string(kFusedHeader + kFusedInstrWords * p.num_instr);
    return false;
  }
  bool written[kFusedMaxSlots] = {};
  for (int k = 0; k < p.num_instr; ++k) {
    const int64_t* q = &w[kFusedHeader + kFusedInstrWords * k];
    for (int j = 0; j < kFusedInstrWords; ++j)
      if (q[j] < INT32_MIN || q[j] > INT32_MAX) return fail(reason, k, "word out of the int32 range");
    p.code[k] = FusedInstr{static_cast<int32_t>(q[0]), static_cast<int32_t>(q[1]), static_cast<int32_t>(q[2]),
                           static_cast<int32_t>(q[3]), static_cast<int32_t>(q[4])};
    if (!check_instr(p, written, k, reason)) return false;
  }
  if (p.result < p.num_inputs || p.result >= p.num_inputs + p.num_regs || !written[p.result]) {
    reason = "result slot " + std::to_string(p.result) + " is not a written temporary";
    return false;
  }
  return true;
}

}  // namespace npurt::kernels::fused
