// simd/kernel_table.h: the function table one ISA build of the vector kernels
// provides (isa_avx512.cc, isa_avx2.cc, isa_generic.cc). dispatch.cc picks one
// table at first use and validates arguments before calling into it.
// Invariant: entries are only called with dtype/op pairs the support tables
// in dispatch.cc accept; all tables compute bit-identical results.
#pragma once

#include <cstdint>

#include "aicore/vec_raw.h"

namespace npurt::aicore::vec::simd {

struct KernelTable {
  const char* name;
  void (*binary)(BinaryOp, VType, void*, const void*, const void*, uint64_t);
  void (*binary_scalar)(ScalarOp, VType, void*, const void*, const void*, uint64_t);
  void (*unary)(UnaryOp, VType, void*, const void*, uint64_t);
  void (*cast)(VType, VType, AscendC::RoundMode, void*, const void*, uint64_t);
  void (*compare)(AscendC::CMPMODE, VType, uint8_t*, const void*, const void*, bool, uint64_t);
  void (*select)(VType, void*, const uint8_t*, uint64_t, const void*, const void*, bool, uint64_t);
  void (*axpy)(VType, VType, void*, const void*, const void*, uint64_t);
  void (*reduce)(ReduceOp, VType, void*, const void*, uint64_t, bool);
  void (*whole_reduce)(ReduceOp, VType, void*, const void*, const RepeatShape&, uint32_t, AscendC::ReduceOrder);
  void (*block_reduce)(ReduceOp, VType, void*, const void*, const RepeatShape&, uint32_t);
  void (*reduce_repeat)(ReduceOp, VType, void*, const void*, const RepeatShape&, bool);
  void (*ternary)(TernaryOp, VType, void*, const void*, const void*, uint64_t);
  void (*ternary_blocks)(TernaryOp, VType, void*, const void*, const void*, uint64_t);  // a, b: one block each
};

// nullptr when the ISA is not compiled in (non-x86 hosts).
const KernelTable* avx512_table();
const KernelTable* avx2_table();
const KernelTable* generic_table();

}  // namespace npurt::aicore::vec::simd
