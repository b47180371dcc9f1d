// tests/runtime/kernels/expect_error.h: the bad-input check shared by the kernel-family tests: a
// call must throw InvalidArgument whose message names the op and the argument (or reason) given.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "npurt/status.h"

namespace npurt_test {

inline void expect_invalid_argument(const std::function<void()>& call, const std::string& op,
                                    const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << op << ": no error, expected one naming " << needle;
  } catch (const npurt::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(op), std::string::npos) << e.what();
  }
}

}  // namespace npurt_test
