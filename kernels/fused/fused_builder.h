// kernels/fused/fused_builder.h: a tiny C++ producer of fused_elementwise
// programs (fused_program.h's int-list `program` attribute), what the array
// layer's deferred fusion (runtime/ops/deferred_fusion.cc) builds from two
// binary ops; nr.fuse (sdk_python/npurt/fuse.py) is the Python producer.
//
// Invariants: header-only, depends on fused_program.h alone (the runtime
// includes it without the kernels' include path); slots are numbered as the
// format says (inputs first, then temporaries); the host still validates every
// program (fused_decode.cc) before a launch, so a wrong program is an
// InvalidArgument, never a bad kernel.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "fused_program.h"

namespace npurt::kernels::fused {

class FusedProgramBuilder {
 public:
  explicit FusedProgramBuilder(int num_inputs) : num_inputs_(num_inputs) {}

  // Slot of input i.
  int input(int i) const { return i; }
  // dst = a op b for a two-operand opcode (kAdd, kSub, kMul, ...); returns dst.
  int binary(FusedOpcode op, int a, int b) {
    const int dst = num_inputs_ + num_regs_++;
    code_.insert(code_.end(), {op, dst, a, b, 0});
    return dst;
  }
  // dst = a op c for a constant form (kAdds, kMuls, kMaxs, kMins); returns dst.
  int scalar(FusedOpcode op, int a, float c) {
    int32_t bits;
    std::memcpy(&bits, &c, sizeof bits);
    const int dst = num_inputs_ + num_regs_++;
    code_.insert(code_.end(), {op, dst, a, bits, 0});
    return dst;
  }
  // The attribute words with `result` as the output slot.
  std::vector<int64_t> finish(int result) const {
    std::vector<int64_t> w = {kFusedVersion, num_inputs_, num_regs_, result,
                              static_cast<int64_t>(code_.size() / kFusedInstrWords)};
    w.insert(w.end(), code_.begin(), code_.end());
    return w;
  }

 private:
  int num_inputs_;
  int num_regs_ = 0;
  std::vector<int64_t> code_;
};

}  // namespace npurt::kernels::fused
