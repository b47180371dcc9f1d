// vec_sort.cc: the simulated vector unit's sort primitives (aicore/vec_sort_raw.h):
// Sort32, MrgSort (up to 4 lists, optional exhausted suspension), Extract and
// GatherMask compaction. Scores are compared through an order-preserving
// unsigned key (descending score = ascending ~key), so a structure's rank is
// one integer compare; ties fall to the position / list number as documented.
#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "aicore/vec_sort_raw.h"

namespace npurt::aicore::vec {
namespace {

// Unsigned key, larger = earlier in the output: -0.0 -> +0.0, every NaN above +inf.
inline uint32_t order_key(float f) {
  if (f != f) return 0xFFFFFFFFu;
  if (f == 0.0f) f = 0.0f;
  const uint32_t u = float_bits(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
inline uint32_t order_key(half h) { return order_key(static_cast<float>(h)); }

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
template <class T>
void sort32(void* dst, const T* score, const uint32_t* index, uint64_t groups) {
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

// Stable two-way merge of (key, slot) runs a and b (ties: a first): the
// taken element is picked by pointer select (cmov), no data-dependent branch.
template <class T, bool kKeys>
void merge2(const uint32_t* ka, const Slot<T>* a, uint32_t na, const uint32_t* kb, const Slot<T>* b, uint32_t nb,
            uint32_t* ko, Slot<T>* o) {
  uint32_t i = 0, j = 0, w = 0;
  while (i < na && j < nb) {
    const uint32_t x = ka[i], y = kb[j];
    const bool take_b = y > x;  // strictly larger score first; equal: a
    const Slot<T>* from = take_b ? b + j : a + i;
    o[w] = *from;
    if constexpr (kKeys) ko[w] = take_b ? y : x;
    ++w;
    j += take_b;
    i += !take_b;
  }
  for (; i < na; ++i, ++w) {
    o[w] = a[i];
    if constexpr (kKeys) ko[w] = ka[i];
  }
  for (; j < nb; ++j, ++w) {
    o[w] = b[j];
    if constexpr (kKeys) ko[w] = kb[j];
  }
}

// Without suspension every list is consumed: merge pairwise ((0,1), (2,3),
// then the two halves), which keeps the list-order tie rule.
template <class T>
uint64_t mrgsort_all(void* dst, const Slot<T>* const in[4], const uint32_t n[4]) {
  thread_local std::vector<uint32_t> keys;
  thread_local std::vector<Slot<T>> tmp;
  const uint32_t total = n[0] + n[1] + n[2] + n[3];
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

}  // namespace

void sort32_f32(void* dst, const float* score, const uint32_t* index, uint64_t groups) {
  sort32<float>(dst, score, index, groups);
}
void sort32_f16(void* dst, const half* score, const uint32_t* index, uint64_t groups) {
  sort32<half>(dst, score, index, groups);
}
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
