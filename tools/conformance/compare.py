"""Calls one case on npurt and on array-api-strict and compares the results.

Arguments are drawn as npurt arrays; the reference receives copies made
through numpy (host memory), so both sides see identical bits. A case whose
arguments the reference rejects is not a valid draw (hypothesis `reject`);
npurt raising where the reference succeeds is a failure.
"""
import numpy as np

RTOL = {"float": {"float16": 2e-3, "float32": 2e-5, "float64": 1e-11, "complex64": 2e-5, "complex128": 1e-11},
        "loose": {"float16": 4e-3, "float32": 1e-4, "float64": 1e-9, "complex64": 1e-4, "complex128": 1e-9}}


class Mismatch(AssertionError):
    pass


def to_reference(value, nr, xs):
    if isinstance(value, nr.ndarray):
        return xs.asarray(np.array(np.asarray(value), copy=True))
    if isinstance(value, nr.dtype):
        return getattr(xs, str(value).replace("npurt.", ""))
    if isinstance(value, dict):
        return {k: to_reference(v, nr, xs) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_reference(v, nr, xs) for v in value)
    return value


def _host(value):
    return np.asarray(value)


def _dtype_name(x):
    return str(x.dtype).split(".")[-1].replace("'", "").replace(">", "")


def compare(actual, expected, tolerance, nr, where="result"):
    if isinstance(expected, tuple):  # tuples and namedtuples
        if not isinstance(actual, tuple) or len(actual) != len(expected):
            raise Mismatch(f"{where}: expected a tuple of {len(expected)}, got {type(actual).__name__}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            compare(a, e, tolerance, nr, f"{where}[{i}]")
        return
    if isinstance(expected, list):  # 2024.12: meshgrid, broadcast_arrays
        if not isinstance(actual, list) or len(actual) != len(expected):
            raise Mismatch(f"{where}: expected a list of {len(expected)}, got {type(actual).__name__}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            compare(a, e, tolerance, nr, f"{where}[{i}]")
        return
    if not isinstance(actual, nr.ndarray):
        raise Mismatch(f"{where}: expected an npurt array, got {type(actual).__name__}")
    if tuple(actual.shape) != tuple(expected.shape):
        raise Mismatch(f"{where}: shape {tuple(actual.shape)} != reference {tuple(expected.shape)}")
    a_dt, e_dt = _dtype_name(actual), _dtype_name(expected)
    if a_dt != e_dt:
        raise Mismatch(f"{where}: dtype {a_dt} != reference {e_dt}")
    a, e = _host(actual), _host(expected)
    if a.dtype.kind in "fc":
        same_nan = np.isnan(a) == np.isnan(e)
        if not same_nan.all():
            raise Mismatch(f"{where}: NaN positions differ: got {a[~same_nan][:3]} expected {e[~same_nan][:3]}")
        if tolerance == "exact":
            ok = (a == e) | np.isnan(e)
        else:
            rtol = RTOL[tolerance][e_dt]
            ok = np.isclose(a, e, rtol=rtol, atol=rtol, equal_nan=True)
        if not ok.all():
            bad = np.argwhere(~ok)[0]
            raise Mismatch(f"{where}: value at {tuple(bad)}: got {a[tuple(bad)]!r}, expected {e[tuple(bad)]!r}")
    elif not np.array_equal(a, e):
        bad = np.argwhere(a != e)[0] if a.shape else ()
        raise Mismatch(f"{where}: value at {tuple(bad)}: got {a[tuple(bad)]!r}, expected {e[tuple(bad)]!r}")


def spread_tolerance(power):
    """Comparator for var (power 2) and std (power 1): values agree within the float rtol or within
    (n * eps * max|x|) ** power, n the number of reduced elements.

    Why: the standard states accuracy requirements only for arithmetic and elementwise math
    functions (Accuracy, 2024.12), none for statistical ones, and the reference's own two-pass var
    is off by delta**2 where delta, the rounding error of its mean, reaches n * eps * max|x|:
    for 12 copies of -2.03e16 numpy gives var 16.0 where the exact (and npurt's) result is 0.
    A bound scaled by the data's magnitude accepts both and still rejects a wrong spread."""
    def check(actual, expected, args, kwargs, nr):
        x = np.asarray(args[0])
        finite = np.abs(x[np.isfinite(x)]) if x.size else x
        eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 0.0
        axis = kwargs.get("axis")
        axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        n = int(np.prod([x.shape[a] for a in axes])) if x.ndim else 1
        with np.errstate(over="ignore"):  # data near the dtype's max: an infinite bound, as for the result
            bound = np.float64(n * float(eps) * float(finite.max() if finite.size else 0.0)) ** power
        compare_within(actual, expected, bound, nr)
    return check


def compare_within(actual, expected, atol, nr):
    """Shape, dtype and NaN positions as compare(); values within rtol("float") or atol."""
    if not isinstance(actual, nr.ndarray):
        raise Mismatch(f"result: expected an npurt array, got {type(actual).__name__}")
    if tuple(actual.shape) != tuple(expected.shape) or _dtype_name(actual) != _dtype_name(expected):
        raise Mismatch(f"result: {tuple(actual.shape)} {_dtype_name(actual)} != reference "
                       f"{tuple(expected.shape)} {_dtype_name(expected)}")
    a, e = _host(actual), _host(expected)
    if not (np.isnan(a) == np.isnan(e)).all():
        raise Mismatch(f"result: NaN positions differ: got {a} expected {e}")
    with np.errstate(all="ignore"):
        ok = (a == e) | np.isnan(e) | (np.abs(a - e) <= atol + RTOL["float"][_dtype_name(expected)] * np.abs(e))
    if not ok.all():
        bad = tuple(np.argwhere(~ok)[0])
        raise Mismatch(f"result: value at {bad}: got {a[bad]!r}, expected {e[bad]!r} (atol {atol:.3g})")
