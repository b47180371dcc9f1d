// tests/runtime/memory/pool_test.h: the fixture of the pool unit tests (test
// helper): a fresh sim pool and two streams per test, and stat lookup by key.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"

namespace npurt::test {

constexpr size_t KiB = 1024, MiB = 1024 * 1024;

class PoolTest : public ::testing::Test {
 protected:
  Device dev{DeviceType::kSim, 0};
  Stream s1 = Stream::create(dev);
  Stream s2 = Stream::create(dev);
  MemoryPool pool{backend_for(DeviceType::kSim), 0, dev};
  int64_t st(const char* key) { return pool.stat(key); }
};

}  // namespace npurt::test
