"""npurt.compare: element-wise comparison of a result against a golden array.

This is host-side checking of results (what msprof's compare tool does for a
golden/result pair), not device compute: both arrays are brought to the host
with ``np.asarray`` (npurt arrays included) and compared with numpy.

Semantics (numpy.testing.assert_allclose, extended):
  * an element matches when ``|actual - desired| <= atol + rtol * |desired|``;
  * NaN matches NaN (``equal_nan=True``), +inf only +inf, -inf only -inf;
  * integers and bools with rtol = atol = 0 are compared exactly (no float
    rounding of large int64 values);
  * errors (abs, rel, ULP) are measured over elements where both sides are
    finite; NaN and inf disagreements are counted separately;
  * the relative error is taken over elements whose desired value is non-zero
    (a relative error against 0 is meaningless);
  * the ULP distance is the number of representable values of the compared
    dtype between the two values (+0 and -0 are 0 ULP apart), computed on the
    bit patterns, so it is exact for float16, bfloat16, float32, float64 and
    the 8-bit float types of ml_dtypes.

Invariants: shapes must be equal and, unless ``check_dtype=False``, dtypes
too; a mismatch raises a ValueError/TypeError naming the argument. Inputs
are never modified.
"""
from __future__ import annotations

import dataclasses
from typing import Any, List, Optional, Tuple

import numpy as np

from .tolerances import default_tolerance, is_float_dtype, ulp_bits

__all__ = ["CompareReport", "Mismatch", "compare_arrays", "as_host_array"]

_WHERE = "npurt.testing.compare"


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """One reported element: where it is and how far off it is."""
    index: Tuple[int, ...]
    actual: Any
    desired: Any
    abs_error: float
    rel_error: float
    ulp: Optional[int]
    reason: str  # "tolerance", "nan", "inf"


@dataclasses.dataclass
class CompareReport:
    """Result of comparing ``actual`` against ``desired``; ``bool(report)`` is ``passed``."""
    name: str
    shape: Tuple[int, ...]
    dtype: str
    rtol: float
    atol: float
    total: int
    mismatches: int
    nan_mismatches: int
    inf_mismatches: int
    max_abs_error: float
    max_abs_index: Optional[Tuple[int, ...]]
    max_rel_error: float
    max_rel_index: Optional[Tuple[int, ...]]
    mean_abs_error: float
    max_ulp: Optional[int]
    max_ulp_index: Optional[Tuple[int, ...]]
    worst: List[Mismatch]
    first_mismatch: Optional[Mismatch] = None  # lowest index (C order) that mismatches

    @property
    def passed(self) -> bool:
        return self.mismatches == 0

    @property
    def mismatch_fraction(self) -> float:
        return self.mismatches / self.total if self.total else 0.0

    def __bool__(self) -> bool:
        return self.passed

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["passed"] = self.passed
        d["mismatch_fraction"] = self.mismatch_fraction
        for m in d["worst"] + ([d["first_mismatch"]] if d["first_mismatch"] else []):
            m["actual"] = _json_scalar(m["actual"])
            m["desired"] = _json_scalar(m["desired"])
        return d

    def __str__(self) -> str:
        head = f"{self.name}: " if self.name else ""
        status = "PASS" if self.passed else "FAIL"
        lines = [
            f"{head}{status} {self.dtype}{list(self.shape)} rtol={self.rtol:g} atol={self.atol:g}",
            f"  mismatches: {self.mismatches} / {self.total} ({100.0 * self.mismatch_fraction:.4g}%)"
            f", NaN mismatches: {self.nan_mismatches}, inf mismatches: {self.inf_mismatches}",
            f"  max abs error: {self.max_abs_error:.6g}" + _at(self.max_abs_index)
            + f", mean abs error: {self.mean_abs_error:.6g}",
            f"  max rel error: {self.max_rel_error:.6g}" + _at(self.max_rel_index),
        ]
        if self.first_mismatch is not None:
            m = self.first_mismatch
            lines.append(f"  first mismatch at {list(m.index)}: {_fmt(m.actual, self.dtype)} vs "
                         f"{_fmt(m.desired, self.dtype)} [{m.reason}]")
        if self.max_ulp is not None:
            lines.append(f"  max ULP distance: {self.max_ulp}" + _at(self.max_ulp_index))
        if self.worst:
            title = "worst mismatches" if not self.passed else "largest errors"
            lines.append(f"  {title} (index: actual vs desired, abs / rel / ulp):")
            for m in self.worst:
                ulp = "-" if m.ulp is None else str(m.ulp)
                lines.append(f"    {list(m.index)}: {_fmt(m.actual, self.dtype)} vs {_fmt(m.desired, self.dtype)}  "
                             f"{m.abs_error:.3g} / {m.rel_error:.3g} / {ulp}  [{m.reason}]")
        return "\n".join(lines)


def _fmt(value, dtype: str) -> str:
    """Shortest repr of value in the compared dtype (float32 0.1 prints as 0.1, not 0.100000001)."""
    try:
        import ml_dtypes  # noqa: F401  (registers bfloat16 / float8 names with numpy)
    except ImportError:
        pass
    try:
        return str(np.dtype(dtype).type(value))
    except (TypeError, ValueError, OverflowError):
        return repr(value)


def _at(index) -> str:
    return "" if index is None else f" at {list(index)}"


def _json_scalar(v):
    if isinstance(v, complex):
        return [v.real, v.imag]
    if isinstance(v, float) and not np.isfinite(v):
        return str(v)
    return v


def as_host_array(x: Any, where: str, arg: str) -> np.ndarray:
    """np.asarray that turns conversion failures into an error naming the argument."""
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except Exception as e:  # npurt arrays raise their own errors (e.g. a kernel fault)
        raise TypeError(f"{where}: argument '{arg}': cannot convert {type(x).__name__} "
                        f"to a host array: {e}") from e


def _coerce_pair(actual, desired, check_dtype: bool):
    a = as_host_array(actual, _WHERE, "actual")
    d = as_host_array(desired, _WHERE, "desired")
    # Python scalars/lists carry no dtype of their own: adopt the other side's.
    if not hasattr(desired, "dtype"):
        d = d.astype(a.dtype)
    elif not hasattr(actual, "dtype"):
        a = a.astype(d.dtype)
    if a.shape != d.shape:
        raise ValueError(f"{_WHERE}: argument 'actual': shape {a.shape} does not match "
                         f"the shape of 'desired' {d.shape}")
    if a.dtype != d.dtype and check_dtype:
        raise TypeError(f"{_WHERE}: argument 'actual': dtype {a.dtype} does not match the dtype "
                        f"of 'desired' {d.dtype} (pass check_dtype=False to compare anyway)")
    return a, d


def _wide(x: np.ndarray) -> np.ndarray:
    """float64 / complex128 copy used for error arithmetic."""
    if x.dtype.kind == "c":
        return x.astype(np.complex128)
    return x.astype(np.float64)


def ulp_distance(a: np.ndarray, d: np.ndarray) -> Optional[np.ndarray]:
    """Element-wise ULP distance (uint64) of two same-dtype float arrays; None if not a float type."""
    if a.dtype.kind == "c":
        part = a.real.dtype
        re = ulp_distance(a.real.astype(part), d.real.astype(part))
        im = ulp_distance(a.imag.astype(part), d.imag.astype(part))
        return None if re is None else np.maximum(re, im)
    bits = ulp_bits(a.dtype)
    if bits is None:
        return None
    utype = np.dtype(f"uint{bits}")
    sign = np.uint64(1) << np.uint64(bits - 1)
    ab = np.ascontiguousarray(a).view(utype).astype(np.uint64)
    db = np.ascontiguousarray(d).view(utype).astype(np.uint64)
    amag, dmag = ab & ~sign, db & ~sign
    same_sign = (ab & sign) == (db & sign)
    with np.errstate(over="ignore"):
        diff_same = np.where(amag > dmag, amag - dmag, dmag - amag)
        return np.where(same_sign, diff_same, amag + dmag)


def compare_arrays(actual, desired, rtol: Optional[float] = None, atol: Optional[float] = None,
                   *, equal_nan: bool = True, check_dtype: bool = True, worst: int = 5,
                   name: str = "") -> CompareReport:
    """Compares two arrays element-wise and returns a CompareReport (never raises on mismatch)."""
    a, d = _coerce_pair(actual, desired, check_dtype)
    dtype = d.dtype if d.dtype.itemsize <= a.dtype.itemsize else a.dtype
    def_rtol, def_atol = default_tolerance(dtype)
    rtol = def_rtol if rtol is None else float(rtol)
    atol = def_atol if atol is None else float(atol)
    if rtol < 0 or atol < 0:
        raise ValueError(f"{_WHERE}: argument 'rtol'/'atol': tolerances must be >= 0 "
                         f"(got rtol={rtol}, atol={atol})")
    return _Comparison(a, d, rtol, atol, equal_nan, dtype).report(worst, name)


class _Comparison:
    """The element-wise masks and errors of one comparison (flattened)."""

    def __init__(self, a, d, rtol, atol, equal_nan, dtype):
        self.a, self.d, self.rtol, self.atol, self.shape = a.ravel(), d.ravel(), rtol, atol, a.shape
        self.dtype = np.dtype(dtype)
        exact_ints = self.dtype.kind in "biu" and rtol == 0 and atol == 0
        if exact_ints:
            self._exact_compare()
        else:
            self._float_compare(equal_nan)

    def _exact_compare(self):
        a, d = self.a, self.d
        self.nan_bad = np.zeros(a.shape, bool)
        self.inf_bad = np.zeros(a.shape, bool)
        self.tol_bad = a != d
        self.finite = np.ones(a.shape, bool)
        aw, dw = a.astype(np.float64), d.astype(np.float64)
        self.abs_err = np.abs(aw - dw)
        self.abs_err[~self.tol_bad] = 0.0  # exact equality wins over float rounding
        self.dmag = np.abs(dw)
        self.ulp = None

    def _float_compare(self, equal_nan):
        aw, dw = _wide(self.a), _wide(self.d)
        anan, dnan = np.isnan(aw), np.isnan(dw)
        ainf, dinf = np.isinf(aw), np.isinf(dw)
        self.nan_bad = (anan != dnan) if equal_nan else (anan | dnan)
        both_inf_ok = ainf & dinf & (aw == dw)
        self.inf_bad = (ainf | dinf) & ~both_inf_ok & ~anan & ~dnan
        self.finite = ~(anan | dnan | ainf | dinf)
        with np.errstate(invalid="ignore", over="ignore"):
            self.abs_err = np.where(self.finite, np.abs(aw - dw), 0.0)
        self.dmag = np.where(self.finite, np.abs(dw), 0.0)
        self.tol_bad = self.finite & (self.abs_err > self.atol + self.rtol * self.dmag)
        same = self.a.dtype == self.d.dtype and (is_float_dtype(self.dtype) or self.dtype.kind == "c")
        self.ulp = ulp_distance(self.a, self.d) if same else None
        if self.ulp is not None:
            self.ulp = np.where(self.finite, self.ulp, np.uint64(0))

    def report(self, worst: int, name: str) -> CompareReport:
        n = self.a.size
        bad = self.nan_bad | self.inf_bad | self.tol_bad
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = np.where(self.dmag > 0, self.abs_err / np.where(self.dmag > 0, self.dmag, 1), 0.0)
        idx = self._unravel
        i_abs = int(np.argmax(self.abs_err)) if n else None
        i_rel = int(np.argmax(rel)) if n else None
        i_ulp = int(np.argmax(self.ulp)) if (n and self.ulp is not None) else None
        return CompareReport(
            name=name, shape=tuple(self.shape), dtype=str(self.dtype), rtol=self.rtol,
            atol=self.atol, total=int(n), mismatches=int(bad.sum()),
            nan_mismatches=int(self.nan_bad.sum()), inf_mismatches=int(self.inf_bad.sum()),
            max_abs_error=float(self.abs_err[i_abs]) if n else 0.0, max_abs_index=idx(i_abs),
            max_rel_error=float(rel[i_rel]) if n else 0.0, max_rel_index=idx(i_rel),
            mean_abs_error=float(self.abs_err[self.finite].mean()) if self.finite.any() else 0.0,
            max_ulp=int(self.ulp[i_ulp]) if i_ulp is not None else None,
            max_ulp_index=idx(i_ulp),
            worst=self._worst(bad, rel, worst),
            first_mismatch=self._mismatch(int(np.argmax(bad)), rel) if bad.any() else None)

    def _unravel(self, flat: Optional[int]) -> Optional[Tuple[int, ...]]:
        if flat is None:
            return None
        return tuple(int(i) for i in np.unravel_index(flat, self.shape)) if self.shape else ()

    def _worst(self, bad, rel, k: int) -> List[Mismatch]:
        """Mismatches first (NaN/inf, then by how far past the tolerance), else largest errors."""
        if k <= 0 or self.a.size == 0:
            return []
        if bad.any():
            excess = self.abs_err - (self.atol + self.rtol * self.dmag)
            excess = np.where(self.nan_bad | self.inf_bad, np.inf, excess)
            candidates = np.flatnonzero(bad)
            order = candidates[np.argsort(-excess[candidates], kind="stable")]
        else:
            order = np.argsort(-self.abs_err, kind="stable")
            order = order[self.abs_err[order] > 0]
        return [self._mismatch(int(i), rel) for i in order[:k]]

    def _mismatch(self, i: int, rel) -> Mismatch:
        reason = "nan" if self.nan_bad[i] else "inf" if self.inf_bad[i] else "tolerance"
        # NaN/inf disagreements have no finite error: say so instead of printing 0.
        err = {"nan": np.nan, "inf": np.inf}.get(reason)
        return Mismatch(index=self._unravel(i), actual=self.a[i].item(), desired=self.d[i].item(),
                        abs_error=float(self.abs_err[i]) if err is None else err,
                        rel_error=float(rel[i]) if err is None else err,
                        ulp=None if self.ulp is None else int(self.ulp[i]), reason=reason)

