"""bench/sort.py: sort, argsort, unique_values, argmax and searchsorted on
npurt next to numpy (and PyTorch CPU at 2 threads when installed): medians of
repeated runs (each npurt run synchronized), ratios against numpy (> 1: npurt
is faster), in wall time and in process CPU time (all threads; steadier on a
loaded machine).

    python bench/sort.py [--n N] [--repeat R] [--check off|basic|full]
    python bench/sort.py --sizes 65536,1048576,16777216 [--dtypes float32,float16,int32] [--repeat R]

--sizes: sort and argsort of each size and dtype (float16 data drawn from
[-1000, 1000) so it has duplicates, int32 from [-2^30, 2^30)), npurt next to
numpy and PyTorch, and the unique family on float32 with 1000 distinct values.

float32/float16 sort on the simulated vector unit (Sort32/MrgSort), int32 too
(two radix passes of 16-bit digits); the rows marked "[scalar path]" force the
scalar-unit kernels (sort_block/sort_merge) that int64/float64 use, in the same run, so the two paths compare side by
side; "unique_all f32 [scalar compact]" runs the scalar unique_count/
unique_compact kernels after the vector sort (the path of the non-vector
dtypes) next to the vector path of float32/float16. The figures say nothing about NPU speed.
"""
import argparse

import numpy as np

import npurt as nr
from _common import import_torch, median_ms, median_time
from npurt.array_api import searching

torch = import_torch(2)



def row(name, npurt_ms, npurt_cpu_ms, numpy_ms, numpy_cpu_ms, torch_ms):
    t = f"{torch_ms:10.2f}" if torch_ms is not None else "         -"
    print(f"{name:32s} {npurt_ms:10.2f} {numpy_ms:10.2f} {t} {numpy_ms / npurt_ms:8.3f}x "
          f"{npurt_cpu_ms:10.2f} {numpy_cpu_ms:10.2f} {numpy_cpu_ms / npurt_cpu_ms:8.3f}x")


def timed(fn, rep):
    """(median wall ms, median process CPU ms over all threads): on a loaded
    machine the CPU figure is the steadier one."""
    cpu = []
    wall = median_time(fn, rep, cpu=cpu)
    return wall * 1e3, cpu[0] * 1e3


def header(title):
    print(title)
    print(f"{'op':32s} {'npurt ms':>10s} {'numpy ms':>10s} {'torch ms':>10s} {'vs numpy':>9s} "
          f"{'npurt cpu':>10s} {'numpy cpu':>10s} {'cpu ratio':>9s}")


def host_data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if dtype == "int32":
        return rng.integers(-(1 << 30), 1 << 30, n).astype(np.int32)
    if dtype == "float16":
        return rng.uniform(-1000, 1000, n).astype(np.float16)
    return rng.standard_normal(n).astype(dtype)


def sync_all(result):
    """Host copies of a result or of every field of a result tuple (waits for the device)."""
    return [y.numpy() for y in result] if isinstance(result, tuple) else result.numpy()


def scalar_unique_all(x):
    """unique_all through the scalar-unit unique_count/unique_compact kernels
    (the path of the non-vector dtypes), for comparison with the vector path."""
    s, perm = searching.sort_last(x)
    out = nr.ops.unique_compact(s, perm, nr.ops.unique_count(s))
    k = int(out[4].numpy()[0])
    return [a[:k].numpy() for a in out[:3]] + [out[3].numpy()]


def sizes_cases(n, dtypes, unique=True):
    """(name, npurt, numpy, torch) of sort/argsort per dtype and the unique family, at n elements."""
    cases = []
    for dt in dtypes:
        a = host_data(dt, n, 0)
        x, ta = nr.asarray(a), (torch.from_numpy(a) if torch else None)
        cases += [
            (f"sort {dt}", lambda x=x: nr.sort(x).numpy(), lambda a=a: np.sort(a, kind="stable"),
             (lambda ta=ta: torch.sort(ta, stable=True)) if torch else None),
            (f"argsort {dt}", lambda x=x: nr.argsort(x).numpy(), lambda a=a: np.argsort(a, kind="stable"),
             (lambda ta=ta: torch.argsort(ta, stable=True)) if torch else None)]
    if not unique:
        return cases
    dup = np.random.default_rng(1).integers(0, 1000, n).astype(np.float32)
    xd, td = nr.asarray(dup), (torch.from_numpy(dup) if torch else None)
    for fn, kw, tkw in (("unique_values", {}, {}), ("unique_counts", {"return_counts": True},
                                                      {"return_counts": True}),
                        ("unique_inverse", {"return_inverse": True}, {"return_inverse": True}),
                        ("unique_all", {"return_index": True, "return_inverse": True, "return_counts": True},
                         {"return_inverse": True, "return_counts": True})):
        cases.append((f"{fn} float32 (1000 distinct)",
                      lambda fn=fn: sync_all(getattr(nr, fn)(xd)),
                      lambda kw=kw: np.unique(dup, **kw),
                      (lambda tkw=tkw: torch.unique(td, sorted=True, **tkw)) if torch else None))
    return cases


def run_cases(cases, rep):
    for name, fn_nr, fn_np, fn_t in cases:
        w_nr, c_nr = timed(fn_nr, rep)
        w_np, c_np = timed(fn_np, rep)
        row(name, w_nr, c_nr, w_np, c_np, median_ms(fn_t, rep) if fn_t else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 16)
    ap.add_argument("--sizes", default="", help="comma-separated element counts: the per-size/dtype table")
    ap.add_argument("--dtypes", default="float32,float16,int32")
    ap.add_argument("--no-unique", action="store_true", help="--sizes: leave the unique_* rows out")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--check", default="off", choices=["off", "basic", "full"])
    args = ap.parse_args()
    n, rep = args.n, args.repeat
    if args.sizes:
        with nr.debug.sim_check_level(args.check):
            for size in (int(v) for v in args.sizes.split(",")):
                header(f"n = {size}, median of {rep} runs, NPURT_SIM_CHECK={args.check}, device {nr.current_device()}")
                run_cases(sizes_cases(size, args.dtypes.split(","), not args.no_unique), rep)
        return
    a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    dup = np.random.default_rng(1).integers(0, 1000, n).astype(np.float32)  # unique: 1000 distinct values
    keys = np.sort(np.random.default_rng(2).standard_normal(4096).astype(np.float32))
    x, xd, xk = nr.asarray(a), nr.asarray(dup), nr.asarray(keys)
    ta, td, tk = (torch.from_numpy(a), torch.from_numpy(dup), torch.from_numpy(keys)) if torch else (None,) * 3

    def sync(y):
        return (y[0] if isinstance(y, tuple) else y).numpy()

    cases = [
        ("sort f32", lambda: sync(nr.sort(x)), lambda: np.sort(a, kind="stable"),
         (lambda: torch.sort(ta, stable=True)) if torch else None),
        ("argsort f32", lambda: sync(nr.argsort(x)), lambda: np.argsort(a, kind="stable"),
         (lambda: torch.argsort(ta, stable=True)) if torch else None),
        ("unique_values f32 (1000 distinct)", lambda: sync(nr.unique_values(xd)), lambda: np.unique(dup),
         (lambda: torch.unique(td)) if torch else None),
        ("sort f32 [scalar path]", lambda: sync(searching.sort_last(x, scalar=True)[0]),
         lambda: np.sort(a, kind="stable"), None),
        ("argsort f32 [scalar path]", lambda: sync(searching.sort_last(x, scalar=True)[1]),
         lambda: np.argsort(a, kind="stable"), None),
        ("unique_all f32 [scalar compact]", lambda: scalar_unique_all(xd),
         lambda: np.unique(dup, return_index=True, return_inverse=True, return_counts=True), None),
        ("unique_all f32 (vector)", lambda: sync_all(nr.unique_all(xd)),
         lambda: np.unique(dup, return_index=True, return_inverse=True, return_counts=True), None),
        ("argmax f32", lambda: sync(nr.argmax(x)), lambda: np.argmax(a), (lambda: torch.argmax(ta)) if torch else None),
        ("searchsorted 4096 <- n", lambda: sync(nr.searchsorted(xk, x)), lambda: np.searchsorted(keys, a),
         (lambda: torch.searchsorted(tk, ta)) if torch else None),
    ]
    header(f"n = {n} float32, median of {args.repeat} runs, NPURT_SIM_CHECK={args.check}, "
           f"device {nr.current_device()}")
    with nr.debug.sim_check_level(args.check):
        run_cases(cases, rep)


if __name__ == "__main__":
    main()
