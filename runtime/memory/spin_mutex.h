// runtime/memory/spin_mutex.h: the pool's lock (internal).
//
// A test-and-test-and-set lock: lock is one atomic exchange, unlock one release
// store. A pthread mutex costs two atomic read-modify-writes per lock/unlock
// pair, which alone was ~40% of a cached allocate+free. Critical sections of
// the pool are short; under contention the waiter pauses, then yields its
// core, so an oversubscribed machine still makes progress.
#pragma once

#include <atomic>
#include <thread>

namespace npurt {

class SpinMutex {
 public:
  void lock() {
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (!locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire)) return;
      }
      std::this_thread::yield();
    }
  }
  bool try_lock() { return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace npurt
