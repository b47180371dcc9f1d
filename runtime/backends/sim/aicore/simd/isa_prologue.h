// simd/isa_prologue.h: everything an isa_*.cc includes BEFORE its
// `#pragma GCC target`, so that library templates and inline functions are
// compiled for the baseline ISA and never emitted as AVX code shared (through
// COMDAT folding) with non-AVX callers. Invariant: isa_*.cc include nothing
// after their pragma except the simd/*.inc kernel sources, inside an
// anonymous namespace (internal linkage).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "aicore/types.h"
#include "aicore/vec_raw.h"
#include "aicore/vec_cast_pairs.h"
#include "backends/sim/aicore/simd/kernel_table.h"
#include "backends/sim/aicore/stream_window.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NPURT_SIMD_X86 1
#else
#define NPURT_SIMD_X86 0
#endif
