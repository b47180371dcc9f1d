// tests/runtime/exec/gate.h: a one-shot flag that stream work can wait on, so
// tests can hold a stream "busy" for as long as they need (test helper).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "npurt/stream.h"

namespace npurt::test {

class Gate {
 public:
  void open() {
    std::lock_guard<std::mutex> lk(mu_);
    open_ = true;
    cv_.notify_all();
  }
  // Returns false on timeout (a test bug: never wait forever).
  bool wait(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    std::unique_lock<std::mutex> lk(mu_);
    return cv_.wait_for(lk, timeout, [&] { return open_; });
  }
  // Blocks `s` until open() is called.
  void block(const Stream& s) {
    s.host_func([this] { wait(); });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

}  // namespace npurt::test
