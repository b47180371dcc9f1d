// runtime/core/chip_profile.cc: the built-in chip profiles (ascend-facts.md §1).
//
// One table row per SoC; the derived numbers (TFLOPS, bandwidth) are estimates
// as flagged in the header. UB usable = physical - 256 B (LOCAL_RESERV_SIZE) on
// 910B-class (2201) chips only; 310P keeps its full UB.
#include "npurt/chip_profile.h"

#include <cctype>
#include <cstdlib>

#include "npurt/status.h"

namespace npurt {

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// Fields shared by every 2201 (Atlas A2/A3) chip; only counts and L2/HBM differ.
ChipProfile arch2201(const char* name, uint32_t aic, uint64_t l2, uint64_t hbm, double tflops) {
  ChipProfile p;
  p.name = name;
  p.npu_arch = 2201;
  p.separated = true;
  p.cube_cores = aic;
  p.vector_cores = 2 * aic;
  p.ub_bytes = 192 * KiB;
  p.ub_usable_bytes = 192 * KiB - 256;  // 196352
  p.l1_bytes = 512 * KiB;
  p.l0a_bytes = 64 * KiB;
  p.l0b_bytes = 64 * KiB;
  p.l0c_bytes = 128 * KiB;
  p.l2_bytes = l2;
  p.hbm_bytes = hbm;
  p.sys_workspace_bytes = 16 * MiB;
  p.ub_align = 32;
  p.l1_align = 32;
  p.l0ab_align = 512;
  p.l0c_align = 64;
  p.has_datacopy_pad = true;
  p.has_bf16 = true;
  p.est_fp16_tflops = tflops;
  p.est_hbm_gbps = 1600;
  return p;
}

ChipProfile ascend310p3() {
  ChipProfile p;
  p.name = "Ascend310P3";
  p.npu_arch = 2002;
  p.separated = false;
  p.cube_cores = 8;  // coupled AI Cores report the same count for cube and vector
  p.vector_cores = 8;
  p.ub_bytes = 256 * KiB;
  p.ub_usable_bytes = 256 * KiB;
  p.l1_bytes = 1 * MiB;
  p.l0a_bytes = 64 * KiB;
  p.l0b_bytes = 64 * KiB;
  p.l0c_bytes = 256 * KiB;
  p.l2_bytes = 16 * MiB;
  p.hbm_bytes = 24 * GiB;
  p.sys_workspace_bytes = 2 * MiB;
  p.ub_align = 32;
  p.l1_align = 32;
  p.l0ab_align = 512;
  p.l0c_align = 64;
  p.has_datacopy_pad = false;
  p.has_bf16 = false;
  p.est_fp16_tflops = 70;
  p.est_hbm_gbps = 204;
  return p;
}

std::vector<ChipProfile> build_profiles() {
  return {
      arch2201("Ascend910B1", 24, 192 * MiB, 64 * GiB, 364),
      arch2201("Ascend910B2", 24, 192 * MiB, 64 * GiB, 354),
      arch2201("Ascend910B3", 20, 192 * MiB, 64 * GiB, 295),
      arch2201("Ascend910B4", 20, 96 * MiB, 32 * GiB, 295),
      arch2201("Ascend910_93", 24, 192 * MiB, 64 * GiB, 364),
      ascend310p3(),
  };
}

std::string lower(const std::string& s) {
  std::string r;
  for (char c : s) r.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return r;
}

}  // namespace

const std::vector<ChipProfile>& chip_profiles() {
  static const std::vector<ChipProfile> profiles = build_profiles();
  return profiles;
}

const ChipProfile& chip_profile(const std::string& name) {
  std::string key = lower(name);
  if (key.rfind("ascend", 0) != 0) key = "ascend" + key;
  std::string known;
  for (const ChipProfile& p : chip_profiles()) {
    if (lower(p.name) == key) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw NotFound("npurt.chip_profile: argument 'name': unknown chip '" + name + "' (known: " + known + ")");
}

const ChipProfile& default_chip_profile() {
  const char* env = std::getenv("NPURT_SIM_PROFILE");
  if (env && *env) return chip_profile(env);
  return chip_profile("Ascend910B3");
}

}  // namespace npurt
