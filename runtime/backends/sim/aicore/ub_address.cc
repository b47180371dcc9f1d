// runtime/backends/sim/aicore/ub_address.cc: raw local address -> checked view
// (aicore/ub_address.h). A linear scan: a TPipe has at most kMaxPipeBuffers
// buffers and address-list APIs are called per block of work, not per element.
#include "aicore/ub_address.h"

#include <string>

#include "aicore/fault.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

LocalRef local_ref_at(CoreContext* c, uint64_t addr, const char* api, const char* what) {
  const CoreState& s = *c->state;
  for (uint32_t i = 0; i < s.records_used; ++i) {
    BufferRecord* r = const_cast<BufferRecord*>(&s.records[i]);
    auto begin = reinterpret_cast<uintptr_t>(r->addr);
    if (addr >= begin && addr < begin + r->bytes) {
      LocalRef ref = whole_buffer(r);
      ref.ptr = r->addr + (addr - begin);
      ref.bytes = static_cast<uint32_t>(begin + r->bytes - addr);
      return ref;
    }
  }
  raise_fault(Diag::kBuffer3, api,
              std::string(what) + " address " + std::to_string(addr) +
                  " is not inside any buffer of the TPipe (use LocalTensor::GetPhyAddr() of an allocated tensor)");
}

}  // namespace npurt::sim
