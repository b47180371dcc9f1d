// ScopedDefaultFloatEnv: runs a scope under the floating-point environment
// kernels are defined against, and gives the thread its own back afterwards.
//
// Why: blocks of a launch normally run on runtime-owned threads (stream
// workers, pool helpers), which keep the process default environment: round
// to nearest even, subnormals kept (no flush-to-zero, FTZ; no
// denormals-are-zero, DAZ). Since wave 11 a user thread waiting in
// synchronize() also runs blocks (ThreadPool::help), and a user thread may
// have set FTZ/DAZ (torch.set_flush_denormal(True), -ffast-math start-up
// code) or another rounding mode. Results must not depend on which thread ran
// a block, so borrowed threads run blocks under the default environment.
//
// Invariant: inside the scope MXCSR (x86) / the fenv (elsewhere) is the
// default one; on exit the thread's previous environment is restored exactly.
// Cheap (two MXCSR accesses on x86): taken once per help() that joins a job.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#else
#include <cfenv>
#endif

namespace npurt {

class ScopedDefaultFloatEnv {
 public:
#if defined(__x86_64__) || defined(__i386__)
  // 0x1f80: every exception masked, round to nearest, FTZ (bit 15) and DAZ
  // (bit 6) clear: the power-on / process default MXCSR.
  static constexpr unsigned kDefaultMxcsr = 0x1f80;
  ScopedDefaultFloatEnv() : saved_(_mm_getcsr()) {
    if (saved_ != kDefaultMxcsr) _mm_setcsr(kDefaultMxcsr);
  }
  ~ScopedDefaultFloatEnv() {
    if (saved_ != kDefaultMxcsr) _mm_setcsr(saved_);
  }

 private:
  unsigned saved_;
#else
  ScopedDefaultFloatEnv() {
    fegetenv(&saved_);
    fesetenv(FE_DFL_ENV);
  }
  ~ScopedDefaultFloatEnv() { fesetenv(&saved_); }

 private:
  std::fenv_t saved_;
#endif

 public:
  ScopedDefaultFloatEnv(const ScopedDefaultFloatEnv&) = delete;
  ScopedDefaultFloatEnv& operator=(const ScopedDefaultFloatEnv&) = delete;
};

}  // namespace npurt
