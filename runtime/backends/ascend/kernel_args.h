// runtime/backends/ascend/kernel_args.h: packing a KernelLaunch into AscendCL host arguments.
//
// An Ascend C kernel entry is `k(GM_ADDR a0, ..., GM_ADDR workspace, GM_ADDR tiling)`.
// npurt launches with host-side arguments (aclrtLaunchKernelWithHostArgs, or the
// aclrtKernelArgs* builder + aclrtLaunchKernelWithConfig), never with
// aclrtLaunchKernel, whose argument block would have to be in device memory.
//
// Layout of the host argument block built here:
//   [slot 0] ... [slot n-1] [workspace] [tiling pointer] [tiling bytes, padded to 8]
// Every slot is 8 bytes: GM pointers as 64-bit addresses, scalar slots as the
// 8 bytes KernelLaunch::args holds (the value bit-cast into the slot, low bytes
// first). The tiling pointer slot is a placeholder: AscendCL copies the whole
// block to device memory and patches that slot with the device address of the
// tiling bytes (aclrtPlaceHolderInfo{addrOffset, dataOffset}), so the kernel
// reads its tiling struct from GM as GET_TILING_DATA expects.
//
// Invariants:
//   - host_args.size() is a multiple of 8; every slot offset is 8-byte aligned.
//   - With empty tiling the tiling slot is a null pointer and there is no placeholder.
//   - Consecutive 4-byte scalars are NOT packed together: a kernel taking scalar
//     parameters narrower than 8 bytes must declare them 64-bit (documented in
//     docs/backends.md); pointers and 64-bit scalars match the C ABI exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "npurt/backend.h"

namespace npurt::ascend {

struct PackedKernelArgs {
  struct PlaceHolder {
    uint32_t addr_offset;  // offset of the pointer slot to patch
    uint32_t data_offset;  // offset of the data it must point at
  };
  std::vector<uint8_t> host_args;
  std::vector<PlaceHolder> placeholders;
  size_t num_slots = 0;       // 8-byte slots before the tiling data (args + workspace + tiling)
  size_t tiling_slot = 0;     // index of the tiling pointer slot
  size_t tiling_bytes = 0;    // unpadded size of the tiling data
};

// Validates and packs; throws InvalidArgument naming the launch and the argument.
PackedKernelArgs pack_kernel_args(const KernelLaunch& launch);

// The 8 bytes of slot `index` as a 64-bit value (tests and the builder path).
uint64_t packed_slot(const PackedKernelArgs& packed, size_t index);

}  // namespace npurt::ascend
