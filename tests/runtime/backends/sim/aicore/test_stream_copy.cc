// tests/runtime/backends/sim/aicore/test_stream_copy.cc: the streaming-store
// path of local -> GM copies (stream_copy.h). It must be byte-identical to
// memcpy for every size and alignment and never write outside [dst, dst + n).
// (DataCopy / DataCopyPad into large outputs through this path, at every check
// level: test_data_copy.cc, AicoreStreamCopy.*; the copy kernels can only be
// defined in one test file.)
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/sim/aicore/stream_copy.h"

namespace {

TEST(AicoreStreamCopy, MatchesMemcpyForEverySizeAndAlignment) {
  const uint64_t sizes[] = {0, 1, 15, 33, 63, 64, 65, 127, 128, 1023, 4095, 4096, 4097, 65536 + 13};
  std::vector<uint8_t> src(70000 + 128), dst(70000 + 256), want(dst.size());
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  for (uint64_t n : sizes)
    for (uint32_t d_off : {0u, 1u, 31u, 32u, 63u})
      for (uint32_t s_off : {0u, 5u, 64u}) {
        std::memset(dst.data(), 0xCD, dst.size());
        std::memset(want.data(), 0xCD, want.size());
        std::memcpy(want.data() + 64 + d_off, src.data() + s_off, n);
        npurt::sim::stream_copy(dst.data() + 64 + d_off, src.data() + s_off, n);
        ASSERT_EQ(0, std::memcmp(dst.data(), want.data(), dst.size()))
            << "n=" << n << " dst offset " << d_off << " src offset " << s_off;
      }
}

}  // namespace
