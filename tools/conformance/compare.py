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
    if isinstance(expected, list):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            raise Mismatch(f"{where}: expected a sequence of {len(expected)}, got {type(actual).__name__}")
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
