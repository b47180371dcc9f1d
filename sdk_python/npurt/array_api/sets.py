"""Set functions: unique_all unique_counts unique_inverse unique_values isin, on the device.

unique_* of float32/float16 from 128 Ki elements (2 Mi when the inverse is
wanted: the sizes from which it is cheaper) run on the vector unit end to end
(_vunique: vector sort, ``vunique_count`` + ``vunique_runs`` GatherMask
compaction of the run starts, then take / subtract / scatter +
cumulative_sum kernels for the first indices, counts and inverse). Otherwise
x is flattened, sorted stably with its permutation, then two scalar-unit
run-boundary kernels find the distinct values:
``unique_count`` counts the runs starting in each core's range and
``unique_compact`` numbers them and writes values, first-occurrence indices,
counts and the inverse. The host reads back one scalar (the number of
distinct values) to slice the outputs. Results come out sorted ascending
(the standard leaves the order unspecified; numpy sorts too). Every NaN is
its own distinct value, as the standard says (numpy's np.unique collapses
them by default); -0.0 and 0.0 are one value (the first in sorted order).

Complex x (the sort kernels have no complex order): numpy's order, made of
three stable argsorts of real keys (class, then primary, then secondary key:
R+Rj by real then imag, then R+nanj by real, nan+Rj by imag, nan+nanj), the
run starts ``s[i] != s[i-1]`` (NaN never equals, so each NaN-holding value is
its own run) numbered by a cumulative sum, and the same ``unique_count`` /
``unique_compact`` kernels run on those sorted int64 run numbers; the values
are then gathered from x at the first-occurrence indices.

isin(x1, x2): x2 is flattened and sorted, then every x1 element is binary
searched in it (``isin_sorted``); NaN is never in anything.

Invariants: no numpy on the data path; errors name the function and argument.
"""
import builtins
from collections import namedtuple

from .. import _npurt
from .._npurt import ArgumentTypeError
from .manipulation import _copy, reshape
from .searching import _VECTOR_SORTED, check_array, promote_pair, sort_last, sort_plan

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values", "isin"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _ops():
    from .. import ops
    return ops


def _complex_order(flat):
    """The stable permutation sorting the 1-D complex `flat` in numpy's order."""
    import npurt as nr
    re, im = nr.real(flat), nr.imag(flat)
    nre, nim = nr.isnan(re), nr.isnan(im)
    cls = nr.astype(nre, nr.int8) * 2 + nr.astype(nim, nr.int8)
    zero = nr.zeros_like(re)
    primary = nr.where(nre, nr.where(nim, zero, im), re)
    secondary = nr.where(nre | nim, zero, im)
    perm = sort_last(secondary)[1]
    for key in (primary, cls):  # later keys dominate: stable sorts keep the earlier order among ties
        perm = nr.take(perm, sort_last(nr.take(key, perm))[1])
    return perm


def _complex_runs(flat):
    """(sorted int64 run numbers, the permutation) standing in for the sorted complex `flat`."""
    import npurt as nr
    perm = _complex_order(flat)
    s = nr.take(flat, perm)
    starts = nr.concat([nr.ones((1,), dtype=nr.bool), s[1:] != s[:-1]])
    return nr.cumulative_sum(starts, dtype=nr.int64), perm


# Sizes from which _vunique costs less CPU than the scalar unique_count +
# unique_compact pair (2 launches against 4, or 9 with the inverse), measured
# on the sim after the same vector sort (docs/performance.md "Sort (wave 5)"):
# unique_counts 131072: 7.6 vs 8.4 ms, 524288: 31.7 vs 41.7 ms; with the inverse
# (cumulative_sum + scatter) equal at 1 Mi, 451 vs 529 ms at 4 Mi.
_VECTOR_UNIQUE_MIN = 1 << 17
_VECTOR_INVERSE_MIN = 1 << 21


def _vunique(flat, need):
    """float32/float16 on the vector path: (values, first indices, inverse of
    flat, counts), each None unless named in `need`. After the vector sort,
    ``vunique_runs`` compacts the run starts (GatherMask of the values and of
    their sorted positions `starts`, ending with n); then device kernels only:
    first indices = perm gathered at the starts (take), counts = adjacent
    differences of the starts (subtract), and the inverse = the run number of
    every sorted position (a 1 scattered at each later run start, cumulative
    sum) scattered back through perm."""
    import npurt as nr
    ops = _ops()
    n = flat.size
    s, perm = sort_last(flat)
    values, starts, total = ops.vunique_runs(s, ops.vunique_count(s))
    k = builtins.int(total.item())  # the one host read: the number of distinct values sizes the results
    values = _copy(values[:k]) if k < n else values
    first = starts[:k]
    index = nr.take(perm, first) if "index" in need else None
    counts = nr.subtract(starts[1:k + 1], first) if "counts" in need else None
    inverse = None
    if "inverse" in need:
        # perm is a permutation and starts are distinct positions < n, both made by the
        # kernels above: scatter with unique=True (spread over the cores) and no index_check.
        step = nr.zeros((n,), dtype=nr.int32)
        if k > 1:
            ops.scatter(starts[1:k], nr.ones((k - 1,), dtype=nr.int32), shape=[n], axis=0, unique=True, out=step)
        inverse = nr.empty((n,), dtype=nr.int64)
        ops.scatter(perm, nr.cumulative_sum(step, dtype=nr.int64), shape=[n], axis=0, unique=True, out=inverse)
    return values, index, inverse, counts


def _unique(x, where, need=("index", "inverse", "counts")):
    """(values, first indices, inverse shaped like x, counts), all on the device
    (float32/float16: the fields not in `need` may be None)."""
    cplx = isinstance(x, _npurt.ndarray) and x.dtype in (_npurt.complex64, _npurt.complex128)
    if not cplx:  # complex has no order for the sort kernels: _complex_runs orders it
        check_array(x, where)
    flat = reshape(x, (-1,))
    if flat.size == 0:
        empty = _npurt.empty((0,), _npurt.int64)
        return _npurt.empty((0,), x.dtype), empty, _npurt.empty(tuple(x.shape), _npurt.int64), empty
    if str(x.dtype) in _VECTOR_SORTED and flat.size >= (_VECTOR_INVERSE_MIN if "inverse" in need
                                                        else _VECTOR_UNIQUE_MIN):
        values, index, inverse, counts = _vunique(flat, need)
        return values, index, None if inverse is None else reshape(inverse, tuple(x.shape)), counts
    ops = _ops()
    s, perm = _complex_runs(flat) if cplx else sort_last(flat)
    values, index, counts, inverse, total = ops.unique_compact(s, perm, ops.unique_count(s))
    k = builtins.int(total.item())  # the one host read: the number of distinct values sizes the results
    if k < flat.size:
        values, index, counts = (_copy(a[:k]) for a in (values, index, counts))
    if cplx:
        import npurt as nr
        values = nr.take(flat, index)
    return values, index, reshape(inverse, tuple(x.shape)), counts


def unique_all(x, /):
    """The distinct values of x (sorted), the index of each one's first occurrence in
    the flattened x, the inverse indices (x's shape) and the counts."""
    v, i, inv, c = _unique(x, "npurt.unique_all")
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x, /):
    if (isinstance(x, _npurt.ndarray) and str(x.dtype) in _VECTOR_SORTED and x.size >= _CHUNKED_UNIQUE_MIN):
        r = _chunked_counts(reshape(x, (-1,)))  # large, many duplicates: chunk by chunk first
        if r is not None:
            return r
    v, _, _, c = _unique(x, "npurt.unique_counts", ("counts",))
    return UniqueCountsResult(v, c)


def unique_inverse(x, /):
    v, _, inv, _ = _unique(x, "npurt.unique_inverse", ("inverse",))
    return UniqueInverseResult(v, inv)


# unique_values / unique_counts of float32/float16 from this size first look at a sample (the
# first vector chunk) and, when it holds few distinct values (at most 1/8 of
# it), sorts and dedupes chunk by chunk before the full sort: measured
# (docs/performance.md "Sort (wave 6)") 1 Mi elements of 1000 distinct values
# 66 -> 44 ms CPU; no gain at 64 Ki (launch costs), 1.5x the cost on
# all-distinct data, which is what the sample keeps away.
_CHUNKED_UNIQUE_MIN = 1 << 19


def _run_firsts(s):
    """(the first value of every run of the sorted 1-D float32/float16 `s` as a
    prefix, how many): run starts compacted by GatherMask."""
    ops = _ops()
    values, total = ops.vunique_values(s, ops.vunique_count(s))
    return values, builtins.int(total.item())  # a host read: the number of runs sizes the result


def _distinct_sorted(flat):
    return _run_firsts(sort_last(flat)[0])


def _chunk_representatives(flat, counts=False):
    """(the values of `flat` minus duplicates inside each vector chunk, in chunk
    order, each chunk's kept values sorted; with `counts`, how many elements
    each stands for (int64), else None), or None when a sample says that would
    not pay. The rows of the [rows, chunk] view sort with no merge pass;
    vunique over the flattened rows keeps every value that differs from its
    left neighbour (a row start may repeat the previous row's last value: the
    full sort afterwards dedupes across chunks). The stable sorts keep the
    first zero in position order, so -0.0 vs 0.0 comes out as without this step."""
    import npurt as nr
    chunk = builtins.int(sort_plan(flat)[4])
    if _distinct_sorted(flat[:chunk])[1] * 8 > chunk:
        return None
    rows = flat.size // chunk
    head = reshape(sort_last(reshape(flat[:rows * chunk], (rows, chunk)))[0], (-1,))
    if counts:
        ops = _ops()
        values, starts, total = ops.vunique_runs(head, ops.vunique_count(head))
        k = builtins.int(total.item())  # a host read: the number of runs
        c = nr.subtract(starts[1:k + 1], starts[:k])
    else:
        (values, k), c = _run_firsts(head), None
    reps = values[:k]
    if rows * chunk < flat.size:  # the tail: every element stands for itself
        tail = flat[rows * chunk:]
        reps = nr.concat([reps, tail])
        c = None if c is None else nr.concat([c, nr.ones((tail.size,), dtype=nr.int64)])
    return reps, c


def _chunked_counts(flat):
    """unique_counts through _chunk_representatives, or None when the sample
    refuses: the representatives sorted with their permutation, run starts
    (vunique_runs), and each run's count = the sum of its members' counts
    (differences of the inclusive-initial cumulative sum at the run starts)."""
    import npurt as nr
    got = _chunk_representatives(flat, counts=True)
    if got is None:
        return None
    reps, c = got
    ops = _ops()
    s, perm = sort_last(reps)
    values, starts, total = ops.vunique_runs(s, ops.vunique_count(s))
    k = builtins.int(total.item())  # a host read: the number of distinct values
    csum = nr.cumulative_sum(nr.take(c, perm), include_initial=True)
    counts = nr.subtract(nr.take(csum, starts[1:k + 1]), nr.take(csum, starts[:k]))
    return UniqueCountsResult(_copy(values[:k]) if k < reps.size else values, counts)


def unique_values(x, /):
    """The distinct values of x, sorted (every NaN distinct; -0.0 and 0.0 one value).
    float32/float16 take the vector path: the vector-unit sort, then run starts
    compacted by GatherMask (``vunique_count`` / ``vunique_values``); large
    inputs with many duplicates first drop the duplicates inside each chunk
    (_chunk_representatives)."""
    if isinstance(x, _npurt.ndarray) and str(x.dtype) in _VECTOR_SORTED and x.size > 0:
        flat = reshape(x, (-1,))
        if flat.size >= _CHUNKED_UNIQUE_MIN:
            reps = _chunk_representatives(flat)
            flat = flat if reps is None else reps[0]
        values, k = _distinct_sorted(flat)
        return _copy(values[:k]) if k < flat.size else values
    return _unique(x, "npurt.unique_values")[0]


def isin(x1, x2, /, *, invert=False):
    """Bool array of x1's shape: whether each x1 element is in x2 (NaN never is)."""
    where = "npurt.isin"
    x1, x2 = promote_pair(x1, x2, where)
    flat = reshape(x2, (-1,))
    s = sort_last(flat)[0] if flat.size else flat
    return _ops().isin_sorted(s, x1, None, invert=builtins.bool(invert))


# ---- numpy dispatch (NEP 18) ----

def _np_unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
               equal_nan=True, sorted=True):
    if axis is not None:
        raise ArgumentTypeError("numpy.unique: argument 'axis' is not supported for npurt arrays")
    need = [f for f, want in (("index", return_index), ("inverse", return_inverse), ("counts", return_counts))
            if want]
    v, i, inv, c = _unique(ar, "numpy.unique", need)
    out = [v] + [a for a, want in ((i, return_index), (inv, return_inverse), (c, return_counts)) if want]
    return out[0] if len(out) == 1 else tuple(out)


def _np_isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    return isin(element, test_elements, invert=invert)


NUMPY_FUNCTIONS = {"unique": _np_unique, "isin": _np_isin}
