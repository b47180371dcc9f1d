// tests/runtime/backends/sim/aicore/host_copy_check.h: the shared check of the
// sim's host copy routines (load_copy, stream_copy): byte-identical to memcpy
// for every given size at several source and destination alignments, and no
// byte outside [dst, dst + n) changes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace aicore_test {

template <class Copy>
void ExpectMatchesMemcpy(Copy copy, std::initializer_list<uint64_t> sizes) {
  std::vector<uint8_t> src(70000 + 128), dst(70000 + 256), want(dst.size());
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  for (uint64_t n : sizes)
    for (uint32_t d_off : {0u, 1u, 31u, 32u, 63u})
      for (uint32_t s_off : {0u, 5u, 64u}) {
        std::memset(dst.data(), 0xCD, dst.size());
        std::memset(want.data(), 0xCD, want.size());
        std::memcpy(want.data() + 64 + d_off, src.data() + s_off, n);
        copy(dst.data() + 64 + d_off, src.data() + s_off, n);
        ASSERT_EQ(0, std::memcmp(dst.data(), want.data(), dst.size()))
            << "n=" << n << " dst offset " << d_off << " src offset " << s_off;
      }
}

}  // namespace aicore_test
