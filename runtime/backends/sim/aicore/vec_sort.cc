// vec_sort.cc: the simulated vector unit's sort primitives (aicore/vec_sort_raw.h):
// Sort32, MrgSort (up to 4 lists, optional exhausted suspension), Extract and
// GatherMask compaction. Scores are compared through an order-preserving
// unsigned key (descending score = ascending ~key), so a structure's rank is
// one integer compare; ties fall to the position / list number as documented.
// On x86-64 hosts with AVX-512F, MrgSort merges 64-bit composite keys 8 lanes
// wide (bitonic network) and Sort32 runs an AVX-512 build of its rank sort;
// elsewhere the portable branch-free code runs (same results: both are the
// documented order). The AVX-512 paths follow the raw layer's active ISA
// (use_avx512), never an ifunc resolver (see sort32_entry: resolvers run
// during relocation, before sanitizer runtimes are ready).
#if defined(__x86_64__)
// GCC 12.2 false positive (GCC PR 105593, fixed in later releases): the
// AVX-512 intrinsics pass _mm512_undefined_epi32() (a self-initialised
// `__m512i __Y = __Y;`) as the unused pass-through operand of their unmasked
// builtins, and once they are inlined into bitonic_clean8 / merge_composites
// -O2's -Wmaybe-uninitialized reports that operand (21 warnings in a Release
// build). Diagnostic pragmas are location based, so this silences only
// warnings located in the intrinsic headers: one in this file's own code
// still warns.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "aicore/vec_raw.h"
#include "aicore/vec_sort_raw.h"

namespace npurt::aicore::vec {
namespace {

// Unsigned key, larger = earlier in the output: -0.0 -> +0.0, every NaN above +inf.
// Branch-free (selects only), so the key loops vectorise.
inline uint32_t order_key(float f) {
  const uint32_t u = float_bits(f), mag = u & 0x7FFFFFFFu;
  const uint32_t key = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
  const uint32_t zeroed = mag == 0 ? 0x80000000u : key;  // -0.0 ranks as +0.0
  return mag > 0x7F800000u ? 0xFFFFFFFFu : zeroed;
}
// The same order from the binary16 bits directly (a half -> float conversion
// is a libgcc call on hosts built without F16C): keys of one dtype only ever
// meet each other, and none is 0.
inline uint32_t order_key(half h) {
  const uint32_t u = half_bits(h), mag = u & 0x7FFFu;
  const uint32_t key = (u & 0x8000u) ? (~u & 0xFFFFu) : (u | 0x8000u);
  const uint32_t zeroed = mag == 0 ? 0x8000u : key;  // -0.0 ranks as +0.0
  return mag > 0x7C00u ? 0xFFFFu : zeroed;
}

// The AVX-512 paths run while the raw layer's active ISA (chosen once from
// cpuid, NPURT_SIM_ISA or force_isa; aicore/vec_raw.h) is avx512: an atomic
// load and a short compare per Sort32 / MrgSort call, which sorts >= 32 elements.
inline bool use_avx512() { return std::strcmp(active_isa(), "avx512") == 0; }

template <class T> struct Slot;  // one 8-byte structure
template <> struct Slot<float> {
  float score;
  uint32_t index;
};
template <> struct Slot<half> {
  half score;
  uint16_t reserved;
  uint32_t index;
};
static_assert(sizeof(Slot<float>) == 8 && sizeof(Slot<half>) == 8, "sort structures are 8 bytes");

// Rank sort of each group: element i goes to slot #{j: key_j > key_i} +
// #{j < i: key_j == key_i} (descending score, lower position first on ties).
// Branch-free fixed-size loops the compiler vectorises; faster than a
// comparison sort for 32 elements.
// Always inlined, so each dispatch entry (sort32_entry) compiles the loops for
// its own target.
template <class T>
__attribute__((always_inline)) inline void sort32(void* dst, const T* score, const uint32_t* index, uint64_t groups) {
  auto* out = static_cast<Slot<T>*>(dst);
  uint32_t key[32];
  for (uint64_t g = 0; g < groups; ++g) {
    const T* s = score + 32 * g;
    const uint32_t* ix = index + 32 * g;
    for (uint32_t i = 0; i < 32; ++i) key[i] = order_key(s[i]);
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t ki = key[i];
      uint32_t rank = 0;
      for (uint32_t j = 0; j < 32; ++j) rank += (key[j] > ki) | ((key[j] == ki) & (j < i));
      Slot<T>& o = out[32 * g + rank];
      o.score = s[i];
      if constexpr (std::is_same_v<T, half>) o.reserved = 0;
      o.index = ix[i];
    }
  }
}

// Stable two-way merge of (key, slot) runs a and b (ties: a first). The
// taken element is picked by pointer select (cmov), no data-dependent branch,
// and the merge runs from both ends at once: the front takes the larger key
// (a on ties), the back the smaller (b on ties), so the front's first h
// outputs and the back's last total - h are exactly the merged order's and
// the two independent dependency chains overlap (a branch-free merge is
// latency-bound). Loads past a run's end are clamped, never used.
template <class T, bool kKeys>
void merge2(const uint32_t* ka, const Slot<T>* a, uint32_t na, const uint32_t* kb, const Slot<T>* b, uint32_t nb,
            uint32_t* ko, Slot<T>* o) {
  const uint32_t total = na + nb, h = (total + 1) / 2;
  if (na == 0 || nb == 0) {  // one run: a copy
    const Slot<T>* src = na ? a : b;
    const uint32_t* ks = na ? ka : kb;
    std::memcpy(o, src, sizeof(Slot<T>) * total);
    if constexpr (kKeys) std::memcpy(ko, ks, sizeof(uint32_t) * total);
    return;
  }
  uint32_t i = 0, j = 0;                      // front heads
  int64_t ia = int64_t{na} - 1, jb = int64_t{nb} - 1;  // back heads
  for (uint32_t w = 0; w < h; ++w) {
    {
      const uint32_t x = ka[i < na ? i : na - 1], y = kb[j < nb ? j : nb - 1];
      const bool take_b = (j < nb) & ((i >= na) | (y > x));  // strictly larger first; equal: a
      o[w] = *(take_b ? b + j : a + i);
      if constexpr (kKeys) ko[w] = take_b ? y : x;
      j += take_b;
      i += !take_b;
    }
    const uint32_t wb = total - 1 - w;
    if (wb < h) break;  // odd total: the middle output is the front's
    {
      const uint32_t x = ka[ia >= 0 ? ia : 0], y = kb[jb >= 0 ? jb : 0];
      const bool take_a = (ia >= 0) & ((jb < 0) | (x < y));  // strictly smaller last; equal: b last
      o[wb] = *(take_a ? a + ia : b + jb);
      if constexpr (kKeys) ko[wb] = take_a ? x : y;
      ia -= take_a;
      jb -= !take_a;
    }
  }
}

#if defined(__x86_64__)
// ---- AVX-512 merge of composite keys (hosts with AVX-512F) ----------------
// A structure's composite is (~order_key << 32) | seq, seq = its position in
// the concatenation of the lists: all composites differ, and their ascending
// order is exactly MrgSort's (descending score, ties by list then position),
// at every pairwise level. Two ascending composite runs merge 8 lanes at a
// time (bitonic network on min/max_epu64), then one gather by seq moves the
// structures. Runs are padded with UINT64_MAX (never a real composite: no
// order_key is 0) up to a multiple of 8 plus 8.

constexpr uint64_t kPad = ~uint64_t{0};
inline uint32_t round8(uint32_t n) { return (n + 7) & ~7u; }

__attribute__((target("avx512f"))) inline __m512i bitonic_clean8(__m512i v) {
  __m512i p = _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(1, 0, 3, 2));  // distance 4
  v = _mm512_mask_blend_epi64(0xF0, _mm512_min_epu64(v, p), _mm512_max_epu64(v, p));
  p = _mm512_permutex_epi64(v, _MM_SHUFFLE(1, 0, 3, 2));             // distance 2
  v = _mm512_mask_blend_epi64(0xCC, _mm512_min_epu64(v, p), _mm512_max_epu64(v, p));
  p = _mm512_permutex_epi64(v, _MM_SHUFFLE(2, 3, 0, 1));             // distance 1
  return _mm512_mask_blend_epi64(0xAA, _mm512_min_epu64(v, p), _mm512_max_epu64(v, p));
}

// a (na real + padding), b (nb real + padding) ascending -> o: round8(na) +
// round8(nb) ascending (the real ones first, then padding).
__attribute__((target("avx512f"))) void merge_composites(const uint64_t* a, uint32_t na, const uint64_t* b,
                                                         uint32_t nb, uint64_t* o) {
  const uint32_t blocks = (round8(na) + round8(nb)) / 8;
  const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  uint32_t ia = 0, ib = 0;
  const bool first_a = a[0] < b[0];
  __m512i cur = _mm512_loadu_si512(first_a ? a : b);
  ia += first_a ? 8 : 0;
  ib += first_a ? 0 : 8;
  for (uint32_t k = 1; k < blocks; ++k) {
    const bool ta = a[ia] < b[ib];  // the run whose next head is smaller feeds the network
    const __m512i next = _mm512_permutexvar_epi64(rev, _mm512_loadu_si512(ta ? a + ia : b + ib));
    ia += ta ? 8 : 0;
    ib += ta ? 0 : 8;
    _mm512_storeu_si512(o, bitonic_clean8(_mm512_min_epu64(cur, next)));
    cur = bitonic_clean8(_mm512_max_epu64(cur, next));
    o += 8;
  }
  _mm512_storeu_si512(o, cur);
}

// mrgsort_all's work on AVX-512 hosts: composites, two or three merges, gather.
template <class T>
void mrgsort_all_avx512(Slot<T>* out, const Slot<T>* const in[4], const uint32_t n[4]) {
  thread_local std::vector<uint64_t> buf;
  uint64_t off[4], size = 0;
  uint32_t start[4], at = 0;
  for (int l = 0; l < 4; ++l) off[l] = size, size += round8(n[l]) + 8, start[l] = at, at += n[l];
  const uint64_t t01 = size, t23 = t01 + round8(n[0]) + round8(n[1]) + 8;
  const uint64_t fin = t23 + round8(n[2]) + round8(n[3]) + 8;
  buf.resize(fin + round8(n[0]) + round8(n[1]) + round8(n[2]) + round8(n[3]) + 32);
  uint64_t* c = buf.data();
  for (int l = 0; l < 4; ++l) {
    uint64_t* cl = c + off[l];
    for (uint32_t i = 0; i < n[l]; ++i)
      cl[i] = (uint64_t{~order_key(in[l][i].score)} << 32) | (start[l] + i);
    std::fill(cl + n[l], cl + round8(n[l]) + 8, kPad);
  }
  const uint32_t n01 = n[0] + n[1], n23 = n[2] + n[3], total = n01 + n23;
  const uint64_t* merged = c + t01;
  merge_composites(c + off[0], n[0], c + off[1], n[1], c + t01);
  if (n23 > 0) {
    std::fill(c + t01 + round8(n[0]) + round8(n[1]), c + t23, kPad);
    merge_composites(c + off[2], n[2], c + off[3], n[3], c + t23);
    std::fill(c + t23 + round8(n[2]) + round8(n[3]), c + fin, kPad);
    merge_composites(c + t01, n01, c + t23, n23, c + fin);
    merged = c + fin;
  }
  for (uint32_t w = 0; w < total; ++w) {
    const uint32_t seq = static_cast<uint32_t>(merged[w]);
    const int l = (seq >= start[1]) + (seq >= start[2]) + (seq >= start[3]);
    out[w] = in[l][seq - start[l]];
  }
}

#else
template <class T>
void mrgsort_all_avx512(Slot<T>*, const Slot<T>* const*, const uint32_t*) {}
#endif  // __x86_64__

// Without suspension every list is consumed: merge pairwise ((0,1), (2,3),
// then the two halves), which keeps the list-order tie rule.
template <class T>
uint64_t mrgsort_all(void* dst, const Slot<T>* const in[4], const uint32_t n[4]) {
  const uint32_t total = n[0] + n[1] + n[2] + n[3];
  if (use_avx512() && total > 0) {
    mrgsort_all_avx512<T>(static_cast<Slot<T>*>(dst), in, n);
    return total;
  }
  thread_local std::vector<uint32_t> keys;
  thread_local std::vector<Slot<T>> tmp;
  keys.resize(2 * uint64_t{total});
  tmp.resize(total);
  uint32_t* k = keys.data();
  uint32_t at = 0, start[4];
  for (int l = 0; l < 4; ++l) {
    start[l] = at;
    for (uint32_t i = 0; i < n[l]; ++i) k[at + i] = order_key(in[l][i].score);
    at += n[l];
  }
  uint32_t* k2 = k + total;
  auto* out = static_cast<Slot<T>*>(dst);
  const uint32_t n01 = n[0] + n[1], n23 = n[2] + n[3];
  if (n23 == 0) {
    merge2<T, false>(k + start[0], in[0], n[0], k + start[1], in[1], n[1], nullptr, out);
    return total;
  }
  merge2<T, true>(k + start[0], in[0], n[0], k + start[1], in[1], n[1], k2, tmp.data());
  merge2<T, true>(k + start[2], in[2], n[2], k + start[3], in[3], n[3], k2 + n01, tmp.data() + n01);
  merge2<T, false>(k2, tmp.data(), n01, k2 + n01, tmp.data() + n01, n23, nullptr, out);
  return total;
}

template <class T>
uint64_t mrgsort(void* dst, const void* const src[4], const uint16_t len[4], uint32_t valid_mask, bool exhausted,
                 uint16_t consumed[4]) {
  if (!exhausted) {
    const Slot<T>* in[4];
    uint32_t n[4];
    for (int k = 0; k < 4; ++k) {
      in[k] = static_cast<const Slot<T>*>(src[k]);
      n[k] = (valid_mask >> k) & 1u ? len[k] : 0;
      consumed[k] = static_cast<uint16_t>(n[k]);
    }
    return mrgsort_all<T>(dst, in, n);
  }
  const Slot<T>* in[4];
  uint32_t pos[4] = {0, 0, 0, 0}, n[4] = {0, 0, 0, 0};
  uint32_t live = 0;
  for (int k = 0; k < 4; ++k) {
    in[k] = static_cast<const Slot<T>*>(src[k]);
    n[k] = (valid_mask >> k) & 1u ? len[k] : 0;
    if (n[k] > 0) ++live;
  }
  auto* out = static_cast<Slot<T>*>(dst);
  uint64_t w = 0;
  uint32_t head[4];
  for (int k = 0; k < 4; ++k) head[k] = n[k] ? order_key(in[k][0].score) : 0;
  while (live > 0) {
    int best = -1;
    for (int k = 0; k < 4; ++k)  // strict > keeps the lowest list on ties
      if (pos[k] < n[k] && (best < 0 || head[k] > head[best])) best = k;
    out[w++] = in[best][pos[best]];
    if (++pos[best] == n[best]) {
      --live;
      if (exhausted) break;
    } else {
      head[best] = order_key(in[best][pos[best]].score);
    }
  }
  for (int k = 0; k < 4; ++k) consumed[k] = static_cast<uint16_t>(pos[k]);
  return w;
}

template <class T>
void extract(T* value, uint32_t* index, const void* sorted, uint64_t n) {
  const auto* in = static_cast<const Slot<T>*>(sorted);
  for (uint64_t i = 0; i < n; ++i) {
    value[i] = in[i].score;
    index[i] = in[i].index;
  }
}

template <class T>
using Sort32Fn = void (*)(void*, const T*, const uint32_t*, uint64_t);

template <class T>
void sort32_portable(void* dst, const T* score, const uint32_t* index, uint64_t groups) {
  sort32<T>(dst, score, index, groups);
}
#if defined(__x86_64__)
// The rank sort's 32-wide compare loops and key loops vectorise 16 lanes wide
// when compiled for AVX-512 (sort32 is inlined here, so its body gets this target).
template <class T>
__attribute__((target("avx512f"))) void sort32_avx512(void* dst, const T* score, const uint32_t* index,
                                                      uint64_t groups) {
  sort32<T>(dst, score, index, groups);
}
#endif

// The Sort32 build for this call: the AVX-512 one while the raw layer's
// active ISA is avx512 (so NPURT_SIM_ISA / force_isa select the portable code
// too, and tests compare both). Not GCC's target_clones: those resolve through
// an ifunc resolver that the dynamic loader runs while relocating the program,
// before any constructor, and under -fsanitize=thread GCC instruments the
// resolver itself (__tsan_func_entry reads TSan's not-yet-created thread
// state), so every binary linking the sim statically segfaulted at load.
template <class T>
Sort32Fn<T> sort32_entry() {
#if defined(__x86_64__)
  if (use_avx512()) return &sort32_avx512<T>;
#endif
  return &sort32_portable<T>;
}

}  // namespace

void sort32_f32(void* dst, const float* score, const uint32_t* index, uint64_t groups) {
  sort32_entry<float>()(dst, score, index, groups);
}
void sort32_f16(void* dst, const half* score, const uint32_t* index, uint64_t groups) {
  sort32_entry<half>()(dst, score, index, groups);
}
// MrgSort's AVX-512 work is mrgsort_all_avx512 (explicit intrinsics, picked in
// mrgsort_all by use_avx512()); its scalar loops gain nothing from a clone.
uint64_t mrgsort_f32(void* dst, const void* const src[4], const uint16_t len[4], uint32_t valid_mask, bool exhausted,
                     uint16_t consumed[4]) {
  return mrgsort<float>(dst, src, len, valid_mask, exhausted, consumed);
}
uint64_t mrgsort_f16(void* dst, const void* const src[4], const uint16_t len[4], uint32_t valid_mask, bool exhausted,
                     uint16_t consumed[4]) {
  return mrgsort<half>(dst, src, len, valid_mask, exhausted, consumed);
}
void extract_f32(float* value, uint32_t* index, const void* sorted, uint64_t n) {
  extract<float>(value, index, sorted, n);
}
void extract_f16(half* value, uint32_t* index, const void* sorted, uint64_t n) {
  extract<half>(value, index, sorted, n);
}

uint64_t gather_mask(void* dst, const void* src, size_t elem_bytes, const uint8_t* bits, uint64_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  uint64_t kept = 0;
  for (uint64_t i = 0; i < n; ++i) {
    if ((bits[i / 8] >> (i % 8)) & 1u) std::memcpy(d + elem_bytes * kept++, s + elem_bytes * i, elem_bytes);
  }
  return kept;
}

namespace {
std::mutex g_result_mu;
std::unordered_map<const void*, std::array<uint16_t, 4>>& results() {
  static std::unordered_map<const void*, std::array<uint16_t, 4>> m;
  return m;
}
}  // namespace

void set_mrgsort_result(const void* core, const uint16_t consumed[4]) {
  std::lock_guard<std::mutex> lock(g_result_mu);
  std::copy(consumed, consumed + 4, results()[core].begin());
}

void get_mrgsort_result(const void* core, uint16_t consumed[4]) {
  std::lock_guard<std::mutex> lock(g_result_mu);
  auto it = results().find(core);
  for (int k = 0; k < 4; ++k) consumed[k] = it == results().end() ? 0 : it->second[k];
}

}  // namespace npurt::aicore::vec
