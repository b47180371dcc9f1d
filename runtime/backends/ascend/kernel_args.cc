// runtime/backends/ascend/kernel_args.cc: host argument block for AscendCL launches.
#include "backends/ascend/kernel_args.h"

#include <cstring>
#include <limits>
#include <string>

namespace npurt::ascend {

namespace {

constexpr size_t kSlotBytes = 8;
constexpr uint32_t kMaxBlocks = 65535;

size_t align8(size_t n) { return (n + 7) & ~size_t(7); }

void put_slot(std::vector<uint8_t>* out, size_t index, uint64_t value) {
  std::memcpy(out->data() + index * kSlotBytes, &value, kSlotBytes);
}

}  // namespace

PackedKernelArgs pack_kernel_args(const KernelLaunch& launch) {
  const std::string where = std::string("ascend launch '") + launch.kernel_name + "'";
  if (launch.num_blocks < 1 || launch.num_blocks > kMaxBlocks) {
    throw_invalid_argument(where, "num_blocks",
                           "must be in [1, 65535], got " + std::to_string(launch.num_blocks));
  }
  const size_t n = launch.args.size();
  if (n < 64 && (launch.scalar_arg_mask >> n) != 0) {
    throw_invalid_argument(where, "scalar_arg_mask",
                           "marks slots beyond the " + std::to_string(n) + " arguments");
  }
  if (launch.workspace == nullptr && launch.workspace_bytes != 0) {
    throw_invalid_argument(where, "workspace",
                           "is null but workspace_bytes is " + std::to_string(launch.workspace_bytes));
  }
  PackedKernelArgs packed;
  packed.num_slots = n + 2;
  packed.tiling_slot = n + 1;
  packed.tiling_bytes = launch.tiling.size();
  const size_t data_offset = packed.num_slots * kSlotBytes;
  const size_t total = data_offset + align8(packed.tiling_bytes);
  if (total > std::numeric_limits<uint32_t>::max()) {
    throw_invalid_argument(where, "tiling", "argument block of " + std::to_string(total) +
                                                " bytes does not fit AscendCL's 32-bit offsets");
  }
  packed.host_args.assign(total, 0);
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, &launch.args[i], sizeof(void*));
    put_slot(&packed.host_args, i, v);
  }
  put_slot(&packed.host_args, n, reinterpret_cast<uintptr_t>(launch.workspace));
  put_slot(&packed.host_args, n + 1, 0);  // patched by AscendCL when tiling is present
  if (packed.tiling_bytes > 0) {
    std::memcpy(packed.host_args.data() + data_offset, launch.tiling.data(), packed.tiling_bytes);
    packed.placeholders.push_back({static_cast<uint32_t>(packed.tiling_slot * kSlotBytes),
                                   static_cast<uint32_t>(data_offset)});
  }
  return packed;
}

uint64_t packed_slot(const PackedKernelArgs& packed, size_t index) {
  uint64_t v = 0;
  if ((index + 1) * kSlotBytes <= packed.host_args.size()) {
    std::memcpy(&v, packed.host_args.data() + index * kSlotBytes, kSlotBytes);
  }
  return v;
}

}  // namespace npurt::ascend
