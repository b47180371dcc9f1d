// aicore/host_isa.h: the host instruction sets the simulated cube unit runs
// on (what `python -m npurt info` prints next to the vector unit's
// npurt::aicore::vec::active_isa() of aicore/vec_raw.h). Kernels do not
// include this; it is for tools and for C++ users reporting their setup.
#pragma once

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::sim {

// Host instruction sets of the simulated cube's Mmad kernels, e.g.
// "avx512+amx-bf16"; the data moves (LoadData, Fixpipe, Nd2Nz) are vectorised
// unless it is "generic". Static storage; never null.
const char* cube_isa();

}  // namespace npurt::sim
NPURT_PUBLIC_END
