// kernel_operator.h: what an Ascend C kernel includes, compiled by the host
// compiler for npurt's simulated AI core (the sim backend).
//
// Order matters: element types (half, bfloat16_t) first, then the core model
// (qualifiers, tensors, TPipe/TQue/TBuf, data movement, sync, system queries,
// tiling, entry thunk), then the vector compute APIs, which build on
// aicore/check.h. `using namespace AscendC;` is the kernel author's choice, as
// with CANN. See docs/aicore.md for the supported API and its deviations.
#pragma once

#include "aicore/types.h"

#include "aicore/macros.h"
#include "aicore/position.h"
#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/buffer_record.h"
#include "aicore/local_access.h"
#include "aicore/local_tensor.h"
#include "aicore/global_tensor.h"
#include "aicore/check.h"
#include "aicore/sync.h"
#include "aicore/tque.h"
#include "aicore/tbuf.h"
#include "aicore/tpipe.h"
#include "aicore/data_copy.h"
#include "aicore/cube.h"
#include "aicore/system.h"
#include "aicore/tiling.h"
#include "aicore/kernel_entry.h"
#include "aicore/constants.h"

#include "aicore/vector_api.h"
