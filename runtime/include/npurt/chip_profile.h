// npurt/chip_profile.h: the hardware constants of one Ascend chip model.
//
// Kernels (GetBlockNum, GetUBSizeInBytes, UB arena sizes) and host tiling read
// these. Values come from shared/reference/ascend-facts.md §1; numbers marked
// `estimate` in that table (peak FLOPS, bandwidth) are flagged here too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct ChipProfile {
  std::string name;          // "Ascend910B3"
  uint32_t npu_arch;         // __NPU_ARCH__: 2201 (910B/910_93), 2002 (310P)
  bool separated;            // AIC and AIV are separate cores (2201) vs coupled (2002)
  uint32_t cube_cores;       // AIC count (coupled: AI Core count)
  uint32_t vector_cores;     // AIV count (coupled: AI Core count)
  uint64_t ub_bytes;         // physical Unified Buffer per vector core
  uint64_t ub_usable_bytes;  // GetCoreMemSize(UB): physical minus reserved (256 B on 910B)
  uint64_t l1_bytes;
  uint64_t l0a_bytes;
  uint64_t l0b_bytes;
  uint64_t l0c_bytes;
  uint64_t l2_bytes;
  uint64_t hbm_bytes;
  uint64_t sys_workspace_bytes;  // GetLibApiWorkSpaceSize: 16 MiB on 2201, 2 MiB otherwise
  uint32_t ub_align;         // 32
  uint32_t l1_align;         // 32
  uint32_t l0ab_align;       // 512
  uint32_t l0c_align;        // 64
  bool has_datacopy_pad;     // DataCopyPad exists (not on 310P)
  bool has_bf16;             // bfloat16 vector/cube support (not on 310P)
  double est_fp16_tflops;    // derived estimate, not a datasheet value
  double est_hbm_gbps;       // third-party estimate
};

// All built-in profiles: Ascend910B1, B2, B3, B4, Ascend910_93, Ascend310P3.
const std::vector<ChipProfile>& chip_profiles();

// Profile by name (case-insensitive, "910B3" or "Ascend910B3"); throws NotFound
// listing the known names.
const ChipProfile& chip_profile(const std::string& name);

// The default for sim devices: $NPURT_SIM_PROFILE or Ascend910B3.
const ChipProfile& default_chip_profile();

}  // namespace npurt
NPURT_PUBLIC_END
