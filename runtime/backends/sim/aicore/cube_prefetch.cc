// cube_prefetch.cc: stride prediction of Nd2Nz sources, feeding the queue of
// rows the float Mmad kernel prefetches (see cube_prefetch.h).
#include "backends/sim/aicore/cube_prefetch.h"


namespace npurt::sim::cube {
namespace {

// Rows of one queued region at most, and the longest row span predicted: a
// larger copy is not one chunk of a K walk that the host's L2 could hold ahead.
constexpr uint32_t kMaxRows = 1024;
constexpr uint64_t kMaxSpan = 2048;

struct Stream {
  uint64_t pitch = 0, span = 0;
  uint32_t rows = 0;
  const uint8_t* last = nullptr;
  int64_t step = 0;    // address step between the last two copies
  int64_t stride = 0;  // the last step seen twice in a row (0: none yet)
  uint64_t used = 0;
  bool valid = false;
};

struct State {
  PrefetchQueue queue;
  Stream streams[kPrefetchStreams];  // stream i queues into queue.regions[i]
  uint64_t clock = 0;
};

// Static TLS is scarce when libnpurt is dlopen'ed (Python) and the library
// already has an initial-exec variable (core_context.h): its whole TLS block
// must fit glibc's surplus, and a thread_local State there made the import
// fail ("cannot allocate memory in static TLS block"). So the State lives on
// the heap, owned by a thread_local StateOwner, and is reached through an
// 8-byte initial-exec pointer (no __tls_get_addr call per Mmad).
__thread State* tls_state __attribute__((tls_model("initial-exec"))) = nullptr;

// Frees the thread's State at thread exit and clears tls_state with it, so a
// thread_local destructor that runs later on the exiting thread and reaches
// the cube (a Mmad, an Nd2Nz copy) gets a fresh State, never the freed one
// (like copy_elision.cc's ShardOwner). That late State is not freed (the
// owner is gone): one State, only on such a thread, only at its exit.
struct StateOwner {
  State* state = nullptr;
  ~StateOwner() {
    delete state;
    state = nullptr;
    tls_state = nullptr;
  }
};

State& state() {
  if (tls_state == nullptr) {
    thread_local StateOwner owner;
    owner.state = new State;
    tls_state = owner.state;
  }
  return *tls_state;
}

}  // namespace

PrefetchQueue& prefetch_queue() { return state().queue; }

void note_nd2nz_source(const uint8_t* src, uint64_t pitch, uint32_t rows, uint64_t span) {
  State& s = state();
  ++s.clock;
  Stream* hit = nullptr;
  Stream* victim = &s.streams[0];
  for (Stream& st : s.streams) {
    if (st.valid && st.pitch == pitch && st.rows == rows && st.span == span) hit = &st;
    if (!st.valid || st.used < victim->used) victim = &st;
  }
  if (hit == nullptr) {
    *victim = Stream{pitch, span, rows, src, 0, 0, s.clock, true};
    s.queue.active &= ~(1u << (victim - s.streams));  // the slot's old prediction is void
    return;
  }
  hit->used = s.clock;
  const int64_t step = static_cast<int64_t>(reinterpret_cast<uintptr_t>(src) - reinterpret_cast<uintptr_t>(hit->last));
  // The stride is a step seen twice in a row. A different step after that is
  // taken as a jump to the next walk of the same kind (a matmul tile's first
  // chunk after the previous tile's last): the stride still predicts the
  // walk's second chunk, so only the first chunk of each walk is missed.
  if (step != 0 && step == hit->step) hit->stride = step;
  hit->step = step;
  hit->last = src;
  const int i = static_cast<int>(hit - s.streams);
  s.queue.active &= ~(1u << i);  // a newer prediction replaces an unfinished one
  if (hit->stride == 0 || rows > kMaxRows || span > kMaxSpan) return;
  s.queue.regions[i] = PrefetchRegion{src + hit->stride, pitch, span, rows, 0};
  s.queue.active |= 1u << i;
}

}  // namespace npurt::sim::cube
