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
#include "host_copy_check.h"

namespace {

TEST(AicoreStreamCopy, MatchesMemcpyForEverySizeAndAlignment) {
  aicore_test::ExpectMatchesMemcpy(npurt::sim::stream_copy, {0, 1, 15, 33, 63, 64, 65, 127, 128, 1023, 4095, 4096, 4097, 65536 + 13});
}

// The unfenced variant (strided runs, one stream_fence per copy) lands the same bytes.
TEST(AicoreStreamCopy, UnfencedMatchesMemcpyForEverySizeAndAlignment) {
  aicore_test::ExpectMatchesMemcpy(
      [](uint8_t* d, const uint8_t* s, uint64_t n) {
        npurt::sim::stream_copy_unfenced(d, s, n);
        npurt::sim::stream_fence();
      },
      {0, 1, 15, 33, 63, 64, 65, 127, 128, 255, 256, 260, 1023, 4095, 4096, 4097, 65536 + 13});
}

}  // namespace
