// aicore/tbuf.h: AscendC::TBuf<pos>, a plain local buffer without queue
// semantics (scratch space for intermediate results, work buffers).
//
// TPipe::InitBuffer(tbuf, len) gives it one contiguous block of len bytes
// (rounded up to 32 B). Get<T>() views the whole block, Get<T>(n) the first n
// elements, GetWithOffset<T>(n, byteOffset) n elements from a byte offset; all
// must stay inside the block (ErrorBuffer3) and the TBuf must have been
// initialised (ErrorBuffer0). Its buffer is never "free", so it cannot leak.
#pragma once

#include <cstdint>
#include <string>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/local_tensor.h"
#include "aicore/position.h"

namespace AscendC {

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  TBuf() = default;
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  template <class T>
  LocalTensor<T> Get() {
    return view<T>("TBuf::Get", 0, rec_ ? rec_->bytes / sizeof(T) : 0);
  }
  template <class T>
  LocalTensor<T> Get(uint32_t len) {
    return view<T>("TBuf::Get", 0, len);
  }
  template <class T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    return view<T>("TBuf::GetWithOffset", bufOffset, size);
  }

  // npurt extension: bound by TPipe::InitBuffer.
  void npurt_bind(npurt::sim::BufferRecord* r) { rec_ = r; }

 private:
  template <class T>
  LocalTensor<T> view(const char* api, uint64_t byte_offset, uint64_t count) {
    if (rec_ == nullptr)
      npurt::sim::raise_fault(npurt::sim::Diag::kBuffer0, api,
                              "TBuf was not initialised with TPipe::InitBuffer");
    uint64_t bytes = npurt::sim::bytes_of<T>(count);
    if (byte_offset > rec_->bytes || bytes > rec_->bytes - byte_offset)
      npurt::sim::raise_fault(
          npurt::sim::Diag::kBuffer3, api,
          "view of " + std::to_string(count) + " elements x " + std::to_string(sizeof(T)) +
              " B at byte offset " + std::to_string(byte_offset) + " exceeds the TBuf's " +
              std::to_string(rec_->bytes) + " bytes");
    npurt::sim::LocalRef r = npurt::sim::whole_buffer(rec_);
    r.ptr += byte_offset;
    r.bytes = static_cast<uint32_t>(bytes);
    return LocalTensor<T>(r);
  }

  npurt::sim::BufferRecord* rec_ = nullptr;
};

}  // namespace AscendC
