// aicore/core_context.h: the state of the simulated core the current thread is
// running, as the inline kernel API needs it.
//
// The launch runner (aicore_launch.cc) binds one CoreContext to the worker
// thread for the duration of one block and unbinds it afterwards. Kernel API
// calls reach it through core(); calling the kernel API outside a launch is a
// usage error (npurt::Error, kFailedPrecondition), not a crash.
// Invariants: `level` never changes while a block runs, so hot paths branch on
// it once; pool_base[p] is null until the pool is first used (L1/L0 arenas are
// created lazily), pool_capacity[p] is what InitBuffer may hand out.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aicore/position.h"
#include "npurt/backend.h"
#include "npurt/chip_profile.h"
#include "npurt/export.h"

namespace npurt::sim {

// Hardware pipes of one core (ascend-facts §2.6). Each kernel API is issued on one.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX };
constexpr int kNumPipes = 7;

enum class Access : uint8_t { kRead, kWrite };

enum class AtomicMode : uint8_t { kNone, kAdd };

struct CoreState;  // checker state (pipe model, shadow, records); aicore/*.cc only

struct CoreContext {
  SimCheckLevel level = SimCheckLevel::kBasic;
  bool truncate_datacopy = false;
  AtomicMode atomic = AtomicMode::kNone;
  bool pipe_alive = false;         // a TPipe exists (only one per kernel)
  uint32_t block_idx = 0;
  uint32_t block_num = 1;
  const char* kernel_name = "";
  const ChipProfile* profile = nullptr;
  uint8_t* pool_base[kNumPools] = {};
  uint64_t pool_capacity[kNumPools] = {};
  uint8_t* workspace = nullptr;
  void* tpipe = nullptr;           // the live AscendC::TPipe, for GetTPipePtr()
  CoreState* state = nullptr;
  uintptr_t dirty_line = 0;        // last GM line scalar-written and not cleaned (aicore/dcache.h)
};

NPURT_PUBLIC_BEGIN
// The core bound to this thread. Read by every kernel API call (~20 per row of
// a layer_norm), so the access must be a single %fs-relative load:
//  - `__thread`, not `thread_local`: a C++ thread_local declared extern is
//    reached through a TLS wrapper call (_ZTW/_ZTH, for a possible dynamic
//    initialiser) on every read; a constant-initialised __thread is not;
//  - initial-exec model: the default (general-dynamic) model of -fPIC code
//    calls __tls_get_addr per read (~2 % of a layer_norm profile). It makes
//    libnpurt's TLS block (~0.4 KiB) live in the static TLS surplus glibc
//    reserves for dlopen()ed libraries; measured to load after torch, numpy
//    and scipy (see docs/performance.md, "Sim fixed costs (wave 4)").
extern __thread CoreContext* tls_core __attribute__((tls_model("initial-exec")));
[[noreturn]] void no_core_bound();  // throws npurt::Error(kFailedPrecondition)
// Maps the lazily created pool arena of the current core (L1/L0) on first use.
uint8_t* ensure_pool(CoreContext* c, Pool p);
NPURT_PUBLIC_END

inline CoreContext* core() {
  CoreContext* c = tls_core;
  if (__builtin_expect(c == nullptr, 0)) no_core_bound();
  return c;
}

inline bool checks_on(const CoreContext* c) { return c->level != SimCheckLevel::kOff; }
inline bool full_checks(const CoreContext* c) { return c->level == SimCheckLevel::kFull; }

}  // namespace npurt::sim
