// cube_packed_cache.h: the packed-operand cache of the simulated Mmad
// (internal to libnpurt).
//
// Mmad converts its L0A (Zz) and L0B (Zn) operands into the layouts of the
// host micro-kernels (cube_gemm.h) on every call. A kernel that multiplies the
// same L0 operand several times (attention keeps the Q tile in L0A for every
// kv tile) would repack identical bytes each time; this cache keeps, per host
// thread (= per simulated core: one CoreState per worker thread), the last
// kPackedSlots packed copies of A operands and of B operands (least recently
// used replaced first), and Mmad reuses one when the key matches and nothing
// has written into the L0 bytes it was packed from. Several slots per operand
// because kernels alternate operands: the attention forward's resident Q
// (score Mmad) and each P tile (P V Mmad) sit in two L0A buffers, and one slot
// would repack Q at every kv step.
//
// Invariants (why a hit is always the packing of the current bytes):
//  - L0A / L0B are written only by LoadData and LoadDataWithTranspose
//    (cube_move.cc), as on the NPU (MTE1 is the only writer of L0A/L0B; the
//    checker rejects scalar, vector and DataCopy writes into them). Both call
//    note_l0_write() with the byte range they write, which drops every entry
//    whose source range overlaps it: the "generation" of that buffer changed.
//  - Only operands inside the core's L0A / L0B arena are cached (Mmad checks
//    the address; with checks off a kernel could pass another buffer, which
//    is then packed on every call).
//  - A core's L0 arenas are touched only by the thread running it, and the
//    cache is thread_local, so a write is always seen by the cache it affects.
//  - The key holds everything the packed form depends on besides the bytes:
//    source address and byte length, layout form, element type, rows
//    (m or n), k and padded k. An entry whose source arena was freed and
//    reallocated at the same address is only reachable by a kernel that reads
//    L0 it never loaded (undefined content on the NPU as well).
#pragma once

#include <cstdint>
#include <vector>

#include "aicore/cube.h"

namespace npurt::sim::cube {

enum class PackForm : uint8_t {
  kFloatRows,    // A -> float [m16][k]
  kFloatPanels,  // B -> float panels [n16 / 16][k][16]
  kBf16Rows,     // A -> bf16 [m16][k32] (AMX)
  kBf16Vnni,     // B -> bf16 VNNI panels (AMX)
};

struct PackKey {
  const uint8_t* src = nullptr;  // first L0 byte of the operand; nullptr: not in L0A/L0B, never cached
  uint64_t bytes = 0;            // L0 bytes the packing reads
  PackForm form = PackForm::kFloatRows;
  CubeType type = CubeType::kF32;
  uint32_t rows = 0, k = 0, kpad = 0;

  bool operator==(const PackKey& o) const {
    return src == o.src && bytes == o.bytes && form == o.form && type == o.type && rows == o.rows && k == o.k &&
           kpad == o.kpad;
  }
};

enum class Operand : uint8_t { kA = 0, kB = 1 };

// Packed copies kept per operand (A / B) and thread.
constexpr int kPackedSlots = 4;

// The packed buffer for `key` (`elems` elements of E): *hit is true when it
// already holds the packing of the current L0 bytes, else the caller packs
// into it (the entry becomes valid for `key` at once: nothing else runs
// between the packing and its use on this thread).
template <class E>
E* packed_buffer(Operand which, const PackKey& key, uint64_t elems, bool* hit);

// Every write into L0A / L0B: [p, p + bytes).
void note_l0_write(const uint8_t* p, uint64_t bytes);

struct PackedCacheStats {
  uint64_t hits = 0, misses = 0;
};
// Counters of this thread (tests; the worker threads' own are not merged).
PackedCacheStats packed_cache_stats();

}  // namespace npurt::sim::cube
