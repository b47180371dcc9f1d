// aicore/fault.h: diagnostic codes of the simulated core and how kernel-side
// code raises them.
//
// Codes mirror CANN's npu-check taxonomy (ascend-facts §3.3) where one exists
// (ErrorRead1..4, ErrorWrite1..4, ErrorSync1..4, ErrorLeak, ErrorFree,
// ErrorBuffer0..4); the rest are npurt's own for checks npu-check performs as
// asserts. raise_fault() records the diagnostic on the current core and throws
// a private exception that unwinds the kernel (destructors run) up to the block
// boundary in the launch runner; kernels must not swallow it with catch (...).
#pragma once

#include <cstdint>
#include <string>

#include "npurt/export.h"

namespace npurt::sim {

enum class Diag : uint8_t {
  kRead1,          // read of memory not from AllocTensor/InitBuffer, or already freed
  kRead2,          // read of never-written data (full)
  kRead3,          // read past the end of the tensor
  kRead4,          // read address not aligned
  kWrite1,         // write to memory not from AllocTensor/InitBuffer, or already freed
  kWrite2,         // write past the end of the tensor
  kWrite3,         // overwrite of enqueued, not yet dequeued data (full)
  kWrite4,         // write address not aligned
  kSync1,          // missing PipeBarrier between dependent ops of one pipe
  kSync2,          // missing SetFlag/WaitFlag (or barrier) between dependent pipes (full)
  kSync3,          // unpaired SetFlag/WaitFlag (full)
  kSync4,          // SetFlag on an event ID that is already set (full)
  kLeak,           // tensor allocated and never freed at kernel end
  kFree,           // FreeTensor of a free buffer (double free)
  kBuffer0,        // tensor not from InitBuffer (default-constructed LocalTensor)
  kBuffer1,        // tensor of another queue / queue type mismatch
  kBuffer2,        // position not allowed for this API (e.g. vector op on L1)
  kBuffer3,        // invalid tensor memory
  kBuffer4,        // TPipe misuse (second TPipe, Reset while tensors are in use)
  kInitBuffer,     // InitBuffer over pool capacity or with bad num/len
  kBufferCount,    // more than 64 buffers in one TPipe
  kQueue,          // queue state machine violation (alloc when none free, DeQue of empty, full)
  kGmRead,         // GM read outside its allocation or SetGlobalBuffer size
  kGmWrite,        // GM write outside its allocation or SetGlobalBuffer size
  kDataCopyCount,  // DataCopy byte count not a multiple of 32 (strict mode)
  kMultiCoreWrite, // GM bytes written by two blocks of one launch (full; atomics excepted)
  kDCacheClean,    // GM line scalar-written and not cleaned by block end (aicore/dcache.h)
  kDCacheShare,    // GM line scalar-written by two blocks of one launch (aicore/dcache.h)
  kParam,          // invalid API parameter (dtype, mask, event id, stride ...)
  kArgs,           // kernel entry called with the wrong number of arguments
  kException,      // the kernel threw a C++ exception of its own
};

NPURT_PUBLIC_BEGIN
const char* diag_name(Diag d);
[[noreturn]] void raise_fault(Diag code, const char* api, const std::string& detail);
NPURT_PUBLIC_END

// For code that only knows an API name and a rule (vector parameter checks).
[[noreturn]] inline void vec_fault(const char* api, const std::string& rule) {
  raise_fault(Diag::kParam, api, rule);
}

}  // namespace npurt::sim
