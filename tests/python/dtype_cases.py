"""Host reference arrays for every npurt dtype, with its special values.

Used by the round-trip tests: each case is a numpy array whose bytes must come
back unchanged from the device. Floats cover 0, -0, the smallest and largest
subnormals, the smallest normal, max/-max, +-inf and NaN (also a NaN with a
payload: copies must be bit-exact); integers cover min, max, 0, +-1.
"""
import ml_dtypes
import numpy as np

ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


def numpy_dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _float_specials(dt):
    fi = ml_dtypes.finfo(dt) if dt == np.dtype(ml_dtypes.bfloat16) else np.finfo(dt)
    tiny = fi.smallest_normal
    smallest_sub = fi.smallest_subnormal
    values = [0.0, -0.0, smallest_sub, -smallest_sub, tiny - smallest_sub, tiny, 1.0, -1.5,
              fi.max, -fi.max, np.inf, -np.inf, np.nan]
    arr = np.array([np.array(v).astype(dt) for v in values], dtype=dt)
    payload_nan = arr[-1:].copy()
    bits = payload_nan.view(f"u{dt.itemsize}")
    bits |= 1  # a quiet NaN with a non-default payload
    return np.concatenate([arr, payload_nan])


def special_values(name):
    """A 1-d numpy array of dtype `name` holding its special values."""
    dt = numpy_dtype(name)
    if name == "bool":
        return np.array([True, False, True], dtype=dt)
    if dt.kind in "iu":
        ii = np.iinfo(dt)
        vals = [ii.min, ii.max, 0, 1] + ([-1] if dt.kind == "i" else [ii.max - 1])
        return np.array(vals, dtype=dt)
    if dt.kind == "c":
        part = _float_specials(np.dtype(f"f{dt.itemsize // 2}"))
        out = np.empty(part.size * 2, dtype=dt)
        out.real[: part.size], out.imag[: part.size] = part, part[::-1]
        out.real[part.size:], out.imag[part.size:] = part[::-1], part
        return out
    return _float_specials(dt)


def same_bits(a, b):
    """True when a and b have the same dtype, shape and bytes (NaN payloads included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
