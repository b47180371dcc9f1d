// aicore/system.h: what a kernel can ask about the core it runs on
// (GetBlockIdx, GetBlockNum, GetUBSizeInBytes, workspace pointers).
//
// The simulated launch runs vector-only (AIV) kernels, so GetBlockIdx() is in
// [0, GetBlockNum()) and GetSubBlockNum() is 1. GetUBSizeInBytes() is the UB an
// InitBuffer layout may use (the profile's usable UB: 196352 B on 910B).
// GetSysWorkSpacePtr() is the start of the launch's workspace (the system part,
// GetLibApiWorkSpaceSize() bytes); GetUserWorkspace(workspace) skips it.
#pragma once

#include <cstdint>

#include "aicore/core_context.h"
#include "aicore/macros.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return npurt::sim::core()->block_idx; }
inline int64_t GetBlockNum() { return npurt::sim::core()->block_num; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
inline int64_t GetTaskRation() { return 1; }

inline uint32_t GetUBSizeInBytes() {
  return static_cast<uint32_t>(npurt::sim::core()->pool_capacity[0]);
}

inline __gm__ uint8_t* GetSysWorkSpacePtr() { return npurt::sim::core()->workspace; }

inline __gm__ uint8_t* GetUserWorkspace(__gm__ uint8_t* workspace) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  return workspace == nullptr ? nullptr : workspace + c->profile->sys_workspace_bytes;
}

}  // namespace AscendC

// Global-scope spellings of the same queries used by older samples.
inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
