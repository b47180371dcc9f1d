// kernels/linalg/eigh_ql.h: eigenvalues (and eigenvectors) of a symmetric
// matrix by Householder tridiagonalization and the implicit QL method (device
// code, included by jacobi_kernel.cc; the algorithm of EISPACK tred2/tql2 as
// in the public-domain JAMA library).
//
// The work area holds V (n*n: first the symmetric matrix, then the
// accumulated orthogonal transformations), d (n: diagonal, then eigenvalues)
// and e (n: off-diagonal). Each eigenvalue takes at most `cap` QL steps (the
// op's sweep cap, 100 by default; 1-3 are typical); more gives info -1. Cost ~ (4/3 + ~6) n^3 scalar operations with the
// vectors, against Jacobi's ~sweeps x 4 n^3.
//
// Invariants: the input's scale is already normalized (jacobi_kernel.cc
// scales by a power of two), so the squares here neither overflow nor
// underflow; eigenvalues come out ascending with V's columns (SelectionSort).
#pragma once

#include <cmath>
#include <cstdint>

#include "linalg/jacobi_work.h"

namespace npurt::kernels::linalg {

// sqrt(a^2 + b^2) without overflow of the squares.
template <class T>
__aicore__ inline T Hypot(T a, T b) {
  a = Abs(a);
  b = Abs(b);
  const T big = a > b ? a : b, small = a > b ? b : a;
  if (big == T(0)) return T(0);
  const T r = small / big;
  return big * std::sqrt(T(1) + r * r);
}

template <class T, class Matrix>
class TridiagonalQl {
 public:
  __aicore__ TridiagonalQl(const Matrix& w, uint64_t n, uint32_t cap, bool vectors)
      : w_(w), n_(n), cap_(cap), vectors_(vectors) {}

  // V = the symmetric matrix (full, row-major) on entry. Returns the info
  // value (QL steps of the slowest eigenvalue, -1 past the cap); eigenvalues
  // in d ascending, eigenvectors in V's columns (when vectors: without them
  // the reflections are not accumulated nor the QL rotations applied, which
  // leaves d's arithmetic, so the eigenvalues, unchanged).
  __aicore__ int32_t Run() {
    if (n_ == 0) return 1;
    Tridiagonalize();
    if (vectors_) {
      Accumulate();
    } else {  // the tridiagonal's diagonal is V's (Accumulate moves it to d the same way)
      for (uint64_t j = 0; j < n_; ++j) Set(D(j), Get(V(j, j)));
      Set(E(0), T(0));
    }
    const int32_t info = Ql();
    SelectionSort(
        n_, false, [&](uint64_t i) { return w_.Get(D(i)); },
        [&](uint64_t i, uint64_t j) {
          const T t = w_.Get(D(i));
          w_.Set(D(i), w_.Get(D(j)));
          w_.Set(D(j), t);
          if (vectors_) SwapColumns(w_, V(0, i), V(0, j), n_, n_);
        });
    return info;
  }

  __aicore__ uint64_t V(uint64_t i, uint64_t j) const { return i * n_ + j; }
  __aicore__ uint64_t D(uint64_t i) const { return n_ * n_ + i; }
  __aicore__ uint64_t E(uint64_t i) const { return n_ * n_ + n_ + i; }

 private:
  __aicore__ T Get(uint64_t i) const { return w_.Get(i); }
  __aicore__ void Set(uint64_t i, T v) const { w_.Set(i, v); }

  // tred2's reduction: row i = n-1 .. 1 by one Householder reflection each.
  __aicore__ void Tridiagonalize() {
    for (uint64_t j = 0; j < n_; ++j) Set(D(j), Get(V(n_ - 1, j)));
    for (uint64_t i = n_ - 1; i > 0; --i) {
      T scale = T(0), h = T(0);
      for (uint64_t k = 0; k < i; ++k) scale += Abs(Get(D(k)));
      if (scale == T(0)) {
        Set(E(i), Get(D(i - 1)));
        for (uint64_t j = 0; j < i; ++j) {
          Set(D(j), Get(V(i - 1, j)));
          Set(V(i, j), T(0));
          Set(V(j, i), T(0));
        }
      } else {
        Reflect(i, scale, h);
      }
      Set(D(i), h);
    }
  }

  // One tred2 step with the row's abs-sum `scale` > 0; h receives the norm term.
  __aicore__ void Reflect(uint64_t i, T scale, T& h) {
    for (uint64_t k = 0; k < i; ++k) {
      const T dk = Get(D(k)) / scale;
      Set(D(k), dk);
      h += dk * dk;
    }
    T f = Get(D(i - 1)), g = std::sqrt(h);
    if (f > T(0)) g = -g;
    Set(E(i), scale * g);
    h -= f * g;
    Set(D(i - 1), f - g);
    for (uint64_t j = 0; j < i; ++j) Set(E(j), T(0));
    for (uint64_t j = 0; j < i; ++j) {  // e = A u (A: the lower part of V)
      f = Get(D(j));
      Set(V(j, i), f);
      g = Get(E(j)) + Get(V(j, j)) * f;
      for (uint64_t k = j + 1; k < i; ++k) {
        g += Get(V(k, j)) * Get(D(k));
        Set(E(k), Get(E(k)) + Get(V(k, j)) * f);
      }
      Set(E(j), g);
    }
    f = T(0);
    for (uint64_t j = 0; j < i; ++j) {
      Set(E(j), Get(E(j)) / h);
      f += Get(E(j)) * Get(D(j));
    }
    const T hh = f / (h + h);
    for (uint64_t j = 0; j < i; ++j) Set(E(j), Get(E(j)) - hh * Get(D(j)));
    for (uint64_t j = 0; j < i; ++j) {  // A -= u e^T + e u^T
      f = Get(D(j));
      g = Get(E(j));
      for (uint64_t k = j; k < i; ++k) Set(V(k, j), Get(V(k, j)) - (f * Get(E(k)) + g * Get(D(k))));
      Set(D(j), Get(V(i - 1, j)));
      Set(V(i, j), T(0));
    }
  }

  // tred2's accumulation of the reflections into V.
  __aicore__ void Accumulate() {
    for (uint64_t i = 0; i + 1 < n_; ++i) {
      Set(V(n_ - 1, i), Get(V(i, i)));
      Set(V(i, i), T(1));
      const T h = Get(D(i + 1));
      if (h != T(0)) {
        for (uint64_t k = 0; k <= i; ++k) Set(D(k), Get(V(k, i + 1)) / h);
        for (uint64_t j = 0; j <= i; ++j) {
          T g = T(0);
          for (uint64_t k = 0; k <= i; ++k) g += Get(V(k, i + 1)) * Get(V(k, j));
          for (uint64_t k = 0; k <= i; ++k) Set(V(k, j), Get(V(k, j)) - g * Get(D(k)));
        }
      }
      for (uint64_t k = 0; k <= i; ++k) Set(V(k, i + 1), T(0));
    }
    for (uint64_t j = 0; j < n_; ++j) {
      Set(D(j), Get(V(n_ - 1, j)));
      Set(V(n_ - 1, j), T(0));
    }
    Set(V(n_ - 1, n_ - 1), T(1));
    Set(E(0), T(0));
  }

  // tql2: implicit QL with Wilkinson-like shifts on the tridiagonal (d, e).
  __aicore__ int32_t Ql() {
    for (uint64_t i = 1; i < n_; ++i) Set(E(i - 1), Get(E(i)));
    Set(E(n_ - 1), T(0));
    T f = T(0), tst1 = T(0);
    int32_t most = 1;
    for (uint64_t l = 0; l < n_; ++l) {
      const T t = Abs(Get(D(l))) + Abs(Get(E(l)));
      tst1 = t > tst1 ? t : tst1;
      uint64_t m = l;
      while (m + 1 < n_ && Abs(Get(E(m))) > Eps<T>() * tst1) ++m;
      int32_t iter = 0;
      while (m > l && Abs(Get(E(l))) > Eps<T>() * tst1) {
        if (++iter > static_cast<int32_t>(cap_)) return -1;
        f += QlStep(l, m);
      }
      most = iter > most ? iter : most;
      Set(D(l), Get(D(l)) + f);
      Set(E(l), T(0));
    }
    return most;
  }

  // One shifted QL step on the block l..m; returns the shift applied to d.
  __aicore__ T QlStep(uint64_t l, uint64_t m) {
    T g = Get(D(l));
    T p = (Get(D(l + 1)) - g) / (T(2) * Get(E(l)));
    T r = Hypot(p, T(1));
    if (p < T(0)) r = -r;
    Set(D(l), Get(E(l)) / (p + r));
    Set(D(l + 1), Get(E(l)) * (p + r));
    const T dl1 = Get(D(l + 1));
    T h = g - Get(D(l));
    for (uint64_t i = l + 2; i < n_; ++i) Set(D(i), Get(D(i)) - h);
    const T shift = h;
    p = Get(D(m));
    T c = T(1), c2 = T(1), c3 = T(1), s = T(0), s2 = T(0);
    const T el1 = Get(E(l + 1));
    for (uint64_t i = m; i-- > l;) {
      c3 = c2;
      c2 = c;
      s2 = s;
      g = c * Get(E(i));
      h = c * p;
      r = Hypot(p, Get(E(i)));
      Set(E(i + 1), s * r);
      s = Get(E(i)) / r;
      c = p / r;
      p = c * Get(D(i)) - s * g;
      Set(D(i + 1), h + s * (c * g + s * Get(D(i))));
      if (vectors_) RotateColumns(w_, V(0, i + 1), V(0, i), n_, n_, c, -s);
    }
    p = -s * s2 * c3 * el1 * Get(E(l)) / dl1;
    Set(E(l), s * p);
    Set(D(l), c * p);
    return shift;
  }

  const Matrix& w_;  // the kernel's work area (a matrix_view.h view, addressed linearly)
  uint64_t n_;
  uint32_t cap_;
  bool vectors_;
};

}  // namespace npurt::kernels::linalg
