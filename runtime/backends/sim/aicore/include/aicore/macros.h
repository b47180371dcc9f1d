// aicore/macros.h: the Ascend C language extensions as seen by the host compiler.
//
// On the NPU, __aicore__/__global__/__gm__ are address-space and execution-space
// qualifiers understood by bisheng. On the simulated core every memory is host
// memory, so they expand to nothing (like CANN's CPU debug mode); as there,
// overloads that differ only in these qualifiers clash. GM_ADDR is the kernel
// parameter type for global-memory pointers. pipe_t and event_t are the
// intrinsic-level names that PipeBarrier<...>/SetFlag(...) take.
#pragma once

#include <cstdint>

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__
#endif

#define GM_ADDR __gm__ uint8_t*

// The simulated core presents itself as a vector core (AIV): code guarded by
// ASCEND_IS_AIC does not run. The cube APIs (aicore/cube.h) are simulated and
// callable from the same core: there is no AIC/AIV split and no MIX mode.
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)

// Compile-time architecture: the simulated kernels are compiled once for every
// profile, so this is the 910B/910_93 value; runtime profile data comes from
// GetUBSizeInBytes()/GetBlockNum().
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Hardware pipes as the intrinsics name them (PipeBarrier<PIPE_V>()).
enum pipe_t : uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_FIX,
};

// Intra-core event IDs for SetFlag/WaitFlag (0-7 on A2/A3/310P).
enum event_t : uint8_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};
