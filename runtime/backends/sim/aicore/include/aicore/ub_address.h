// aicore/ub_address.h: from a raw local-memory address (what
// LocalTensor::GetPhyAddr() returns, used by APIs that take address lists such
// as TransDataTo5HD's uint64_t form) back to the checked view of the buffer
// that contains it, so those APIs are checked like tensor-based ones.
// Invariant: the returned LocalRef starts at `addr` and ends where its
// InitBuffer buffer ends; an address in no live buffer is a fault.
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "npurt/export.h"

namespace npurt::sim {

NPURT_PUBLIC_BEGIN
// Raises ErrorBuffer3 (api, `what`) when addr lies in no buffer of the core's TPipe.
LocalRef local_ref_at(CoreContext* c, uint64_t addr, const char* api, const char* what);
NPURT_PUBLIC_END

}  // namespace npurt::sim
