"""`python -m npurt compare GOLDEN RESULT`: golden-vs-result precision check for scripts.

Inputs: .npy (one array), .npz (compared key by key; a key missing on either
side is a failure), or raw binary (any other suffix) read with --dtype and
--shape; a raw side without --dtype/--shape takes the other side's.

Exit codes: 0 every array within tolerance; 1 a mismatch, a shape/dtype
mismatch or a missing key; 2 a usage error (bad arguments, unreadable file,
raw size not matching dtype x shape). Only numpy on the host is used: the
command never initialises a device.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Dict, List, Optional, Tuple

import numpy as np

from .compare import CompareReport, compare_arrays

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad command-line input: reported on stderr with exit code 2."""


def resolve_dtype(name: str) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:
        pass
    try:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, name))
    except (ImportError, AttributeError, TypeError):
        raise UsageError(f"npurt compare: argument '--dtype': unknown dtype '{name}'") from None


def parse_shape(text: Optional[str]) -> Optional[Tuple[int, ...]]:
    if text is None:
        return None
    try:
        dims = tuple(int(t) for t in text.replace("x", ",").split(",") if t.strip())
    except ValueError:
        raise UsageError(f"npurt compare: argument '--shape': expected e.g. 2,3,4, got '{text}'")
    if any(d < 0 for d in dims):
        raise UsageError(f"npurt compare: argument '--shape': negative dimension in '{text}'")
    return dims


def _load_raw(path: str, dtype: np.dtype, shape: Optional[Tuple[int, ...]]) -> np.ndarray:
    size = os.path.getsize(path)
    if size % dtype.itemsize:
        raise UsageError(f"npurt compare: '{path}': {size} bytes is not a multiple of the "
                         f"{dtype} itemsize {dtype.itemsize}")
    data = np.fromfile(path, dtype=dtype)
    if shape is None:
        return data
    if int(np.prod(shape, dtype=np.int64)) != data.size:
        raise UsageError(f"npurt compare: '{path}': {data.size} elements of {dtype} do not fill "
                         f"shape {shape}")
    return data.reshape(shape)


def load(path: str, dtype: Optional[np.dtype], shape, like: Optional[np.ndarray] = None):
    """Array or {key: array} from a .npy/.npz/raw file; raw uses dtype/shape or `like`'s."""
    if not os.path.isfile(path):
        raise UsageError(f"npurt compare: '{path}': no such file")
    try:
        if path.endswith(".npz"):
            with np.load(path, allow_pickle=False) as z:
                return {k: z[k] for k in z.files}
        if path.endswith(".npy"):
            return np.load(path, allow_pickle=False)
    except (ValueError, OSError) as e:
        raise UsageError(f"npurt compare: '{path}': cannot read: {e}") from e
    if dtype is None and like is None:
        raise UsageError(f"npurt compare: '{path}' is raw binary: give --dtype (and --shape)")
    dtype = dtype if dtype is not None else like.dtype
    shape = shape if shape is not None else (like.shape if like is not None else None)
    return _load_raw(path, dtype, shape)


def _pairs(golden, result) -> List[Tuple[str, Optional[np.ndarray], Optional[np.ndarray]]]:
    if isinstance(golden, dict) != isinstance(result, dict):
        raise UsageError("npurt compare: one input is an .npz archive and the other is not")
    if not isinstance(golden, dict):
        return [("", golden, result)]
    keys = list(golden) + [k for k in result if k not in golden]
    return [(k, golden.get(k), result.get(k)) for k in keys]


def run_compare(args) -> int:
    dtype = resolve_dtype(args.dtype) if args.dtype else None
    shape = parse_shape(args.shape)
    golden_is_raw = not args.golden.endswith((".npy", ".npz"))
    result_is_raw = not args.result.endswith((".npy", ".npz"))
    if golden_is_raw and not result_is_raw:
        result = load(args.result, dtype, shape)
        golden = load(args.golden, dtype, shape, like=_first(result))
    else:
        golden = load(args.golden, dtype, shape)
        result = load(args.result, dtype, shape, like=_first(golden))
    reports: Dict[str, dict] = {}
    failed = False
    for key, g, r in _pairs(golden, result):
        outcome = _compare_one(key, g, r, args)
        failed |= not outcome.get("passed", False)
        reports[key or os.path.basename(args.result)] = outcome
    if args.json:
        print(json.dumps(reports, indent=2))
    return EXIT_MISMATCH if failed else EXIT_OK


def _first(x):
    if isinstance(x, dict):
        return next(iter(x.values()), None)
    return x


def _compare_one(key: str, golden, result, args) -> dict:
    label = key or args.result
    if golden is None or result is None:
        side = "golden" if golden is None else "result"
        msg = f"{label}: FAIL key missing from the {side} archive"
        _emit(args, msg)
        return {"passed": False, "error": msg}
    try:
        report: CompareReport = compare_arrays(result, golden, args.rtol, args.atol,
                                               check_dtype=not args.allow_dtype_mismatch,
                                               worst=args.worst, name=key)
    except (ValueError, TypeError) as e:
        msg = f"{label}: FAIL {e}"
        _emit(args, msg)
        return {"passed": False, "error": str(e)}
    _emit(args, str(report))
    return report.to_dict()


def _emit(args, text: str) -> None:
    if not args.json:
        print(text)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "compare", help="compare a result against a golden array (.npy/.npz/raw)",
        description=__doc__.split("\n\n")[1] if __doc__ else None)
    p.add_argument("golden", help="expected values (.npy, .npz or raw binary)")
    p.add_argument("result", help="values to check (.npy, .npz or raw binary)")
    p.add_argument("--rtol", type=float, default=None, help="relative tolerance (default: per dtype)")
    p.add_argument("--atol", type=float, default=None, help="absolute tolerance (default: per dtype)")
    p.add_argument("--dtype", default=None, help="dtype of raw binary inputs (float16, bfloat16 ...)")
    p.add_argument("--shape", default=None, help="shape of raw binary inputs, e.g. 2,3,4")
    p.add_argument("--worst", type=int, default=5, help="how many worst elements to list")
    p.add_argument("--allow-dtype-mismatch", action="store_true",
                   help="compare arrays of different dtypes (tolerance of the narrower one)")
    p.add_argument("--json", action="store_true", help="print the reports as JSON")
    p.set_defaults(func=main_with_args)
    return p


def main_with_args(args) -> int:
    try:
        return run_compare(args)
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="npurt")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
