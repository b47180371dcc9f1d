// tests/runtime/backends/sim/aicore/test_load_copy.cc: the prefetching path of
// GM -> local copies (load_copy.h). It must be byte-identical to memcpy for
// every size and alignment and never write outside [dst, dst + n), also when
// its prefetches run past the end of the source allocation. (DataCopy GM -> UB
// through this path with its checks: test_data_copy.cc.)
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "backends/sim/aicore/load_copy.h"
#include "host_copy_check.h"

namespace {

TEST(AicoreLoadCopy, MatchesMemcpyForEverySizeAndAlignment) {
  aicore_test::ExpectMatchesMemcpy(npurt::sim::load_copy, {0, 1, 15, 33, 255, 256, 257, 1023, 1024, 1025, 4095, 4096, 8192 + 7, 65536 + 13});
}

// The source ends right before an unmapped page: the prefetches ahead of the
// read touch that page and must not fault.
TEST(AicoreLoadCopy, PrefetchPastTheSourceEndDoesNotFault) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t mapped = 4 * page;
  void* m = mmap(nullptr, mapped + 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<uint8_t*>(m);
  ASSERT_EQ(0, munmap(base + mapped, 4 * page));  // everything after `mapped` is unmapped
  for (size_t i = 0; i < mapped; ++i) base[i] = static_cast<uint8_t>(i * 7 + 3);
  std::vector<uint8_t> dst(mapped);
  npurt::sim::load_copy(dst.data(), base, mapped);
  EXPECT_EQ(0, std::memcmp(dst.data(), base, mapped));
  munmap(base, mapped);
}

}  // namespace
