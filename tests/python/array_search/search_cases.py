"""Shared host data for the searching/sorting/set tests: random arrays of every
sortable dtype with duplicates and, for floats, NaN / +-inf / -0.0 mixed in."""
import ml_dtypes
import numpy as np

SORT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "bfloat16", "float32", "float64"]
FLOATS = ("float16", "bfloat16", "float32", "float64")


def np_dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def data(name, shape, seed=0, specials=True, spread=None):
    """Random values with many duplicates (values drawn from a small range)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np_dtype(name)
    if name == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if name in FLOATS:
        vals = rng.integers(-20, 20, n).astype(np.float64) / 4
        if specials and n >= 8:
            idx = rng.choice(n, size=max(4, n // 10), replace=False)
            vals[idx] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], size=idx.size)
        return vals.astype(dt).reshape(shape)
    info = np.iinfo(dt)
    lo, hi = (info.min, info.max) if spread is None else (max(info.min, -spread), min(info.max, spread))
    vals = rng.integers(lo, hi, n, dtype=np.int64 if dt.kind == "i" or dt.itemsize < 8 else np.uint64,
                        endpoint=True)
    if n >= 4:  # extremes and duplicates
        vals[:2] = [lo, hi]
        vals[n // 2] = vals[1]
    return vals.astype(dt).reshape(shape)


def ref_sort(host, axis, descending):
    """numpy reference: stable ascending; descending = stable sort of the mirrored order."""
    f = host.astype(np.float64) if host.dtype == np.dtype(ml_dtypes.bfloat16) else host
    if not descending:
        idx = np.argsort(f, axis=axis, kind="stable")
    else:
        n = host.shape[axis]
        idx = n - 1 - np.flip(np.argsort(np.flip(f, axis=axis), axis=axis, kind="stable"), axis=axis)
    return np.take_along_axis(host, idx, axis=axis), idx
