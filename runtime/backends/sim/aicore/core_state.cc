// runtime/backends/sim/aicore/core_state.cc: per-thread core state, fault
// recording and the small name tables of the kernel-side API.
#include "backends/sim/aicore/core_state.h"
#include "backends/sim/aicore/copy_elision.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "npurt/status.h"

namespace npurt::sim {

__thread CoreContext* tls_core = nullptr;  // core_context.h says why __thread

void no_core_bound() {
  throw Error(StatusCode::kFailedPrecondition,
              "AscendC kernel API called outside a simulated core: kernel code runs only "
              "inside a launch (run_aicore_kernel / the sim backend)");
}

const char* diag_name(Diag d) {
  static const char* const names[] = {
      "ErrorRead1",  "ErrorRead2",    "ErrorRead3",       "ErrorRead4",    "ErrorWrite1",
      "ErrorWrite2", "ErrorWrite3",   "ErrorWrite4",      "ErrorSync1",    "ErrorSync2",
      "ErrorSync3",  "ErrorSync4",    "ErrorLeak",        "ErrorFree",     "ErrorBuffer0",
      "ErrorBuffer1", "ErrorBuffer2", "ErrorBuffer3",     "ErrorBuffer4",  "ErrorInitBuffer",
      "ErrorBufferCount", "ErrorQueue", "ErrorGmRead",    "ErrorGmWrite",  "ErrorDataCopyCount",
      "ErrorMultiCoreWrite", "ErrorDCacheClean", "ErrorDCacheShare", "ErrorParam", "ErrorArgs",   "ErrorException"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Diag::kException) + 1,
                "diag name table out of sync with enum Diag");
  return names[static_cast<int>(d)];
}

const char* pool_name(Pool p) {
  static const char* const names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "none"};
  return names[static_cast<int>(p)];
}

const char* position_name(AscendC::TPosition p) {
  static const char* const names[] = {"GM",  "A1",  "A2",     "B1",     "B2",      "C1",
                                      "C2",  "CO1", "CO2",    "VECIN",  "VECOUT",  "VECCALC",
                                      "SPM", "TSCM", "C2PIPE2GM", "MAX"};
  return names[static_cast<int>(p)];
}

CoreState& state_of(CoreContext* c) { return *c->state; }

void record_fault(CoreState& s, Diag code, const char* api, std::string detail) {
  if (s.fault.set) return;
  s.fault.set = true;
  s.fault.code = code;
  s.fault.api = api ? api : "";
  s.fault.detail = std::move(detail);
}

void raise_fault(Diag code, const char* api, const std::string& detail) {
  CoreContext* c = tls_core;
  if (c == nullptr)  // a kernel-side helper used outside a launch (e.g. in a host test)
    throw KernelFault(std::string(api) + ": " + diag_name(code) + ": " + detail);
  record_fault(*c->state, code, api, detail);
  throw CoreFault{};
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string local_addr(const CoreContext* c, const uint8_t* p) {
  for (int i = 0; i < kNumPools; ++i) {
    const uint8_t* b = c->pool_base[i];
    if (b && p >= b && p < b + c->state->arena_bytes[i])
      return std::string(pool_name(static_cast<Pool>(i))) + "+" + hex(uint64_t(p - b));
  }
  return hex(reinterpret_cast<uintptr_t>(p));
}

const GmRegion* find_region(const LaunchView& v, uintptr_t p) {
  auto it = std::upper_bound(v.regions.begin(), v.regions.end(), p,
                             [](uintptr_t x, const GmRegion& r) { return x < r.begin; });
  if (it == v.regions.begin()) return nullptr;
  --it;
  return p < it->end ? &*it : nullptr;
}

namespace {

uint64_t arena_size(const ChipProfile& prof, Pool p) {
  switch (p) {
    case Pool::kUB: return prof.ub_bytes;
    case Pool::kL1: return prof.l1_bytes;
    case Pool::kL0A: return prof.l0a_bytes;
    case Pool::kL0B: return prof.l0b_bytes;
    case Pool::kL0C: return prof.l0c_bytes;
    case Pool::kBT: return 1024;
    default: return 0;
  }
}

uint64_t pool_capacity(const ChipProfile& prof, Pool p) {
  return p == Pool::kUB ? std::min(prof.ub_usable_bytes, prof.ub_bytes) : arena_size(prof, p);
}

}  // namespace

CoreState::~CoreState() {
  for (auto* b : ctx.pool_base) std::free(b);
}

uint8_t* CoreState::ensure_pool(Pool p) {
  const int i = static_cast<int>(p);
  uint64_t want = arena_size(*view->profile, p);
  if (ctx.pool_base[i] && arena_bytes[i] == want) return ctx.pool_base[i];
  std::free(ctx.pool_base[i]);
  ctx.pool_base[i] = nullptr;
  arena_bytes[i] = 0;
  uint64_t rounded = (std::max<uint64_t>(want, 4096) + 4095) / 4096 * 4096;
  auto* mem = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded));
  if (mem == nullptr) throw std::bad_alloc();
  ctx.pool_base[i] = mem;
  arena_bytes[i] = want;
  return mem;
}

uint8_t* ensure_pool(CoreContext* c, Pool p) { return c->state->ensure_pool(p); }

void CoreState::begin_block(const LaunchView& v, uint32_t block) {
  fault = RecordedFault{};
  gm_writes.clear();
  gm_order.clear();
  dcache.clear();
  drop_mirrors(*this);  // a mirror of an earlier launch points at GM that may be gone
  records_used = 0;
  view = &v;
  const KernelLaunch& L = *v.launch;
  uint8_t* bases[kNumPools];
  std::memcpy(bases, ctx.pool_base, sizeof bases);
  ctx = CoreContext{};
  std::memcpy(ctx.pool_base, bases, sizeof bases);
  ctx.level = L.check_level;
  ctx.truncate_datacopy = L.truncate_datacopy;
  ctx.block_idx = block;
  ctx.block_num = L.num_blocks;
  ctx.kernel_name = L.kernel_name ? L.kernel_name : "";
  ctx.profile = v.profile;
  ctx.workspace = static_cast<uint8_t*>(L.workspace);
  ctx.state = this;
  for (int i = 0; i < kNumPools; ++i) ctx.pool_capacity[i] = pool_capacity(*v.profile, Pool(i));
  // Arenas of another profile's size are replaced on first use; UB always exists.
  for (int i = 1; i < kNumPools; ++i)
    if (ctx.pool_base[i] && arena_bytes[i] != arena_size(*v.profile, Pool(i))) {
      std::free(ctx.pool_base[i]);
      ctx.pool_base[i] = nullptr;
    }
  ensure_pool(Pool::kUB);
  if (ctx.level == SimCheckLevel::kFull) {
    ub_written.assign(arena_bytes[0], 0);
    pipes.reset(arena_bytes[0]);
  }
}

void CoreState::end_of_kernel_checks() {
  uint32_t leaked = 0;
  const BufferRecord* first = nullptr;
  for (uint32_t i = 0; i < records_used; ++i) {
    BufState st = records[i].state;
    if (st == BufState::kOccupied || st == BufState::kEnque || st == BufState::kDeque) {
      if (!first) first = &records[i];
      ++leaked;
    }
  }
  if (first && ctx.level != SimCheckLevel::kOff) {
    static const char* const states[] = {"FREE", "OCCUPIED (allocated)", "ENQUE (enqueued)",
                                         "DEQUE (dequeued)", "TBUF"};
    record_fault(*this, Diag::kLeak, "kernel end",
                 "buffer #" + std::to_string(first->index) + " of a " +
                     position_name(first->pos) + " queue at " + local_addr(&ctx, first->addr) +
                     " (" + std::to_string(first->bytes) + " B) is still " +
                     states[static_cast<int>(first->state)] +
                     ": every AllocTensor needs a FreeTensor" +
                     (leaked > 1 ? " (" + std::to_string(leaked) + " buffers leaked)" : ""));
    return;
  }
  if (ctx.level != SimCheckLevel::kFull) return;
  for (int e = 0; e < kNumHardEvents; ++e)
    for (int id = 0; id < kNumEventIds; ++id)
      if (pipes.flags[e][id].set) {
        record_fault(*this, Diag::kSync3, "kernel end",
                     std::string("SetFlag<HardEvent::") +
                         hard_event_name(static_cast<AscendC::HardEvent>(e)) + ">(" +
                         std::to_string(id) + ") has no matching WaitFlag");
        return;
      }
}

}  // namespace npurt::sim
