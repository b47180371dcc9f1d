// aicore/vector_api.h: umbrella for the vector compute and data-layout APIs of the simulated AI
// core. kernel_operator.h includes it last, after LocalTensor and the checks
// (aicore/check.h) exist. Every API is count-based ("level 2") unless stated;
// count == 0 is a NOP; the math runs in the vectorised raw layer (vec_raw.h).
// The supported API, dtypes and deviations from hardware: docs/aicore-vector.md.
#pragma once

#include "aicore/types.h"
#include "aicore/vec_raw.h"
#include "aicore/vec_common.h"
#include "aicore/vec_elementwise.h"
#include "aicore/vec_cast.h"
#include "aicore/vec_compare.h"
#include "aicore/vec_reduce.h"
#include "aicore/vec_repeat.h"
#include "aicore/vec_brcb.h"
#include "aicore/vec_transpose.h"
#include "aicore/vec_sort.h"
