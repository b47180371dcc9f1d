// aicore/constants.h: the hardware constants kernels use by name
// (kernel_utils_constants in CANN), ascend-facts §1.2.
//
// Values are those of the A2/A3 (2201) vector core, which the simulated core
// models; the profile-dependent sizes (UB, core count) come from the running
// core instead: GetUBSizeInBytes(), GetBlockNum().
#pragma once

#include <cstdint>

namespace AscendC {

constexpr int32_t ONE_BLK_SIZE = 32;            // bytes in a DataBlock
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;   // bytes one vector repeat processes
constexpr int32_t DEFAULT_BLK_NUM = 8;          // DataBlocks per repeat
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t BLOCK_CUBE = 16;              // cube fractal edge
constexpr int32_t QBUF_MAX_LEN = 64;            // buffers per TPipe
constexpr int32_t MAX_EVENT_ID = 8;             // intra-core event IDs 0..7

}  // namespace AscendC
