// npurt/sim_check.h: the check level of simulated-core launches
// (NPURT_SIM_CHECK=off|basic|full, SimCheckLevel in npurt/backend.h).
//
// Launches read the level through sim_check_level(): NPURT_SIM_CHECK is read
// once, at the first launch (a getenv per launch was ~300 instructions of a
// ~5,000-instruction tiny-op dispatch). A program or test that changes the
// variable later calls reload_sim_check_level(), or sets the level directly.
#pragma once

#include "npurt/backend.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

SimCheckLevel sim_check_level();
void set_sim_check_level(SimCheckLevel level);
SimCheckLevel reload_sim_check_level();  // re-reads NPURT_SIM_CHECK; returns the new level

}  // namespace npurt
NPURT_PUBLIC_END
