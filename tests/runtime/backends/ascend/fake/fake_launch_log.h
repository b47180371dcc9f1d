// tests/runtime/backends/ascend/fake/fake_launch_log.h: what the FAKE AscendCL
// (not CANN) records of every kernel launch, read by the tests through
// fake_acl_launch_record(): the kernel name looked up with
// aclrtBinaryGetFunction, the block dim, the 8-byte argument slots as the host
// passed them (args..., workspace, tiling pointer placeholder) and the tiling
// bytes the tiling placeholder points at. This is what would reach an NPU.
#pragma once

#include <cstddef>
#include <cstdint>

struct FakeLaunchRecord {
  char kernel[128];
  uint32_t num_blocks;
  uint32_t num_slots;       // argument slots incl. workspace and tiling pointer
  uint64_t slots[32];       // the first min(num_slots, 32) slots
  uint32_t tiling_bytes;    // bytes after the slots (tiling data, padded to 8)
  uint8_t tiling[1024];     // the first min(tiling_bytes, 1024) of them
};

// Exported by the fake (tests find them with dlsym):
//   long fake_acl_launch_count();   launches recorded since the library was loaded
//   int fake_acl_launch_record(long i, FakeLaunchRecord* out);  0, or -1 when i is out of range
using FakeLaunchCountFn = long (*)();
using FakeLaunchRecordFn = int (*)(long, FakeLaunchRecord*);
