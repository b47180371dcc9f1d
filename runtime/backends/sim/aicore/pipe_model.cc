// runtime/backends/sim/aicore/pipe_model.cc: vector clocks per pipe and the
// per-32-B-block use record of UB (see pipe_model.h).
#include "backends/sim/aicore/pipe_model.h"

#include "backends/sim/aicore/core_state.h"

#include <algorithm>
#include <cstring>

namespace npurt::sim {

const char* pipe_name(Pipe p) {
  static const char* const names[kNumPipes] = {"PIPE_S",    "PIPE_V",    "PIPE_M",  "PIPE_MTE1",
                                               "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX"};
  return names[static_cast<int>(p)];
}

void PipeModel::reset(uint64_t ub_bytes) {
  std::memset(vc, 0, sizeof vc);
  std::memset(done, 0, sizeof done);
  for (auto& per_event : flags)
    for (Flag& f : per_event) f = Flag{};
  ub.assign((ub_bytes + 31) / 32, BlockUse{});
}

void PipeModel::snapshot(Pipe p, uint32_t* out) const {
  const uint32_t* c = vc[static_cast<int>(p)];
  for (int q = 0; q < kNumPipes; ++q) out[q] = std::max(out[q], c[q]);
}

void PipeModel::merge(Pipe p, const uint32_t* in) {
  uint32_t* c = vc[static_cast<int>(p)];
  for (int q = 0; q < kNumPipes; ++q) c[q] = std::max(c[q], in[q]);
  // in[p] counts p's ops before a flag p set: complete when p waits on it.
  done[static_cast<int>(p)] = std::max(done[static_cast<int>(p)], in[static_cast<int>(p)]);
}

void PipeModel::barrier_all() {
  Clock joined = {};
  for (int p = 0; p < kNumPipes; ++p) snapshot(static_cast<Pipe>(p), joined);
  for (int p = 0; p < kNumPipes; ++p) std::memcpy(vc[p], joined, sizeof joined);
  std::memcpy(done, joined, sizeof joined);
}

namespace {

PipeModel::Hazard conflict(const char* kind, Pipe p, Pipe q, const char* other_api, uint64_t block) {
  std::string s = std::string(kind) + " hazard on UB+" + hex(block * 32) + ": " +
                  pipe_name(p) + " accesses data that " + pipe_name(q);
  if (other_api) s += std::string(" (") + other_api + ")";
  s += std::string(" touched earlier with no SetFlag/WaitFlag<") + (pipe_name(q) + 5) + "_" +
       (pipe_name(p) + 5) + ">, PipeBarrier<PIPE_ALL> or queue EnQue/DeQue in between";
  return {Diag::kSync2, s};
}

// Two writes of one pipe into the same 32-B UB block with nothing ordering
// their completion (see same_pipe_waw_checked).
PipeModel::Hazard same_pipe_conflict(Pipe p, const char* earlier_api, const char* api,
                                     uint64_t block) {
  const std::string pn = pipe_name(p);
  std::string s = "write-after-write hazard on UB+" + hex(block * 32) + ": " + pn + " (" +
                  (api ? api : "?") + ") writes a 32-B block that an earlier " + pn + " write (" +
                  (earlier_api ? earlier_api : "?") +
                  ") may still be filling (DMA copies of one pipe can complete out of order) "
                  "with no PipeBarrier<" + pn + ">, PipeBarrier<PIPE_ALL>, or flag / queue "
                  "round trip through another pipe in between";
  return {Diag::kSync1, s};
}

}  // namespace

PipeModel::Hazard PipeModel::access(Pipe p, Access a, uint64_t off, uint64_t bytes,
                                    const char* api) {
  if (bytes == 0) return {};
  const int pi = static_cast<int>(p);
  const uint32_t op = ++vc[pi][pi];
  // The latest op of each pipe this access is ordered after, so one compare
  // per earlier access finds a hazard: another pipe's from vc[p]; p's own
  // writes only for a checked write (done[p], same pipe), never p's own reads.
  // Index kNoPipe (a block never written) is never a hazard.
  uint32_t after_write[kNumPipes + 1], after_read[kNumPipes];
  for (int q = 0; q < kNumPipes; ++q) after_write[q] = after_read[q] = vc[pi][q];
  after_write[kNoPipe] = after_read[pi] = UINT32_MAX;
  after_write[pi] = a == Access::kWrite && same_pipe_waw_checked(p) ? done[pi] : UINT32_MAX;
  uint64_t first = off / 32, last = std::min<uint64_t>((off + bytes + 31) / 32, ub.size());
  for (uint64_t b = first; b < last; ++b) {
    BlockUse& u = ub[b];
    if (u.write_op > after_write[u.write_pipe]) {
      if (u.write_pipe == pi) return same_pipe_conflict(p, u.write_api, api, b);
      return conflict(a == Access::kRead ? "read-after-write" : "write-after-write", p,
                      static_cast<Pipe>(u.write_pipe), u.write_api, b);
    }
    if (a == Access::kWrite) {
      static_assert(static_cast<int>(Pipe::S) == 0, "the loop below skips PIPE_S");
      // Scalar loads complete before the scalar unit issues anything later,
      // so a read on PIPE_S never races a later write.
      for (int q = 1; q < kNumPipes; ++q)
        if (u.read_op[q] > after_read[q])
          return conflict("write-after-read", p, static_cast<Pipe>(q), nullptr, b);
      u.write_pipe = static_cast<uint8_t>(pi);
      u.write_op = op;
      u.write_api = api;
    } else {
      u.read_op[pi] = op;
    }
  }
  return {};
}

}  // namespace npurt::sim
