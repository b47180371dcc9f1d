// kernels/elementwise/ew_complex_math.h: scalar complex arithmetic of the
// elementwise family, written out where numpy's loops differ from std::complex.
//
// Why not std::complex operators: g++ compiles `a * b` and `a / b` to
// __mulsc3/__divsc3 (C99 Annex G's infinity recovery), while numpy (and so
// array-api-strict, the reference of the conformance run) multiplies with the
// textbook formula and divides with Smith's algorithm. Transcendental
// functions (exp, log, sqrt, sin ... atanh) are std:: calls: libstdc++ maps
// them to glibc's cexp/clog/... which follow Annex G, as numpy's npymath does.
//
// Invariants: every function is pure, computes in R (float or double) and
// returns numpy's value bit for bit where numpy's loop is the same formula.
#pragma once

#include <cmath>
#include <complex>
#include <limits>

namespace npurt::kernels::ew::cx {

template <class R> using C = std::complex<R>;

template <class R> inline C<R> mul(C<R> a, C<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// numpy's complex division (Smith's algorithm; x / 0 gives inf or nan parts).
template <class R> inline C<R> div(C<R> a, C<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {ar / abr, ai / abr};
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// numpy's complex reciprocal.
template <class R> inline C<R> reciprocal(C<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(y) <= std::fabs(x)) {
    const R r = y / x, d = x + y * r;
    return {R(1) / d, -r / d};
  }
  const R r = x / y, d = x * r + y;
  return {r / d, R(-1) / d};
}

// z / |z| (the standard's sign); 0 for 0; NaN parts when a part is NaN (the standard's
// special case, although hypot(NaN, inf) = inf) or both parts are infinite.
template <class R> inline C<R> sign(C<R> z) {
  const R x = z.real(), y = z.imag(), nan = std::numeric_limits<R>::quiet_NaN();
  if (std::isnan(x) || std::isnan(y)) return {nan, nan};
  const R a = std::hypot(x, y);
  if (std::isinf(a)) {
    if (std::isinf(x) && std::isinf(y)) return {nan, nan};
    if (std::isinf(x)) return {x > 0 ? R(1) : R(-1), R(0)};
    return {R(0), y > 0 ? R(1) : R(-1)};
  }
  if (a == 0) return {R(0), R(0)};
  return {x / a, y / a};
}

// numpy's nc_expm1: exp(z) - 1 without cancellation in the real part near 0.
template <class R> inline C<R> expm1(C<R> z) {
  const R x = z.real(), y = z.imag(), s = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
}

// numpy's nc_log1p: log(1 + z) as log|1 + z| + i arg(1 + z).
template <class R> inline C<R> log1p(C<R> z) {
  const R x = z.real() + 1, y = z.imag();
  return {std::log(std::hypot(x, y)), std::atan2(y, x)};
}

template <class R> inline C<R> scale(C<R> z, R k) { return {z.real() * k, z.imag() * k}; }

// numpy's nc_pow: z**0 = 1, 0**w (Re w > 0) = 0 (numpy 2.x, and exp(w * log(0)) as the
// standard reads complex pow), 0**other = NaN, small
// integral real exponents by repeated squaring (exact like numpy), else cpow.
template <class R> inline C<R> pow(C<R> a, C<R> b) {
  const R br = b.real(), bi = b.imag(), nan = std::numeric_limits<R>::quiet_NaN();
  if (br == 0 && bi == 0) return {R(1), R(0)};
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0) return {R(0), R(0)};
    return {nan, nan};
  }
  if (bi == 0 && br == std::floor(br) && std::fabs(br) < 100) {
    const long n = static_cast<long>(br);
    if (n == 1) return a;  // numpy unrolls 1, 2, 3 ("handle inf better")
    if (n == 2) return mul(a, a);
    if (n == 3) return mul(a, mul(a, a));
    C<R> r{R(1), R(0)}, p = a;
    for (long m = n < 0 ? -n : n; m != 0; m >>= 1, p = mul(p, p))
      if (m & 1) r = mul(r, p);
    return n < 0 ? div(C<R>{R(1), R(0)}, r) : r;
  }
  return std::pow(a, b);
}

}  // namespace npurt::kernels::ew::cx
