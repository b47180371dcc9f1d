"""Generates bad calls over npurt's public Python surface and classifies each outcome.

Run as a script (``python surface_fuzz.py FAMILY``) it prints one JSON line per
finding: a call that crashed the interpreter never prints its closing line, so
the parent test (test_surface_fuzz.py) sees the crash as one failed family
instead of a dead pytest. Invariant: a call either succeeds with an npurt array
(or tuple/scalar) whose host copy is readable, or raises one of ALLOWED whose
message names the public function; after each family the pool's allocated bytes
are back to the baseline and a small computation is right.
"""
import gc
import inspect
import json
import math
import os
import sys
import time

import numpy as np

import npurt as nr

ALLOWED = (TypeError, ValueError, IndexError, MemoryError, RuntimeError, NotImplementedError)
TRACE = bool(os.environ.get("NPURT_FUZZ_TRACE"))
SLOW_SECONDS = 30.0  # a bad size must fail fast, not loop 2**40 times (unstack of 1023 reads back 1023 arrays: ~5 s under load)
SKIP = {"__array_api_version__", "__array_namespace_info__", "e", "inf", "nan", "newaxis", "pi"}


class Opaque:
    """An object no API accepts: repr is stable so messages are comparable."""

    def __repr__(self):
        return "<Opaque>"


def bad_values():
    """Wrong-type arguments (not arrays, not numbers npurt can use)."""
    return {"None": None, "str": "x", "list_str": ["a", "b"], "object": Opaque(),
            "nan": math.nan, "inf": math.inf, "dict": {"a": 1}}


def public_functions():
    """(name, function) for every callable of the array API namespace."""
    out = []
    for name in nr.array_api.__all__:
        obj = getattr(nr, name, None)
        if name in SKIP or obj is None or isinstance(obj, nr.dtype) or not callable(obj):
            continue
        out.append((name, obj))
    return out


def params(fn):
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []


def sane(result):
    """Reads back the result(s) host-side: a corrupted array fails here, not later."""
    if isinstance(result, nr.ndarray):
        return result.numpy()
    if isinstance(result, (tuple, list)):
        return [sane(r) for r in result]
    return result


def classify(public, call, arg=None):
    """None when the call behaved; otherwise a dict describing the finding."""
    try:
        sane(call())
        return None
    except ALLOWED as e:
        msg = str(e)
        names = (f"npurt.{public}", f"ndarray.{public}", f"npurt.ops.{public}")
        if not any(n in msg for n in names):
            return {"kind": "message_lacks_function", "exc": type(e).__name__, "msg": msg[:300]}
        if arg is not None and arg not in msg:
            return {"kind": "message_lacks_argument", "arg": arg, "exc": type(e).__name__,
                    "msg": msg[:300]}
        return None
    except Exception as e:  # noqa: BLE001 - the point is to catch the wrong class
        return {"kind": "wrong_exception", "exc": type(e).__name__, "msg": str(e)[:300]}


def forget_constants():
    """Drops the bounded cache of 0-d scalar constants (sdk_python/bindings/scalar_constants.cpp:
    at most 1024 blocks, by design): what stays allocated after this is a real leak."""
    nr._npurt._clear_scalar_constants()


def healthy(baseline):
    """Findings after a family: leak (allocated bytes above baseline) or corruption."""
    forget_constants()
    gc.collect()
    nr.synchronize()
    out = []
    now = nr.memory.memory_allocated()
    if now != baseline:
        out.append({"kind": "leak", "bytes": now - baseline})
    host = np.arange(33, dtype=np.float32)
    got = (nr.asarray(host) * 2 + 1).numpy()
    if not np.array_equal(got, host * 2 + 1):
        out.append({"kind": "corrupted"})
    del got
    gc.collect()
    return out


# ---- valid stand-ins: every argument not under test gets a value the function accepts ----

def arr(shape=(3,), dtype="float32"):
    n = int(np.prod(shape))
    return nr.asarray(((np.arange(n) % 5) + 1).astype(dtype).reshape(shape))


VALID = {  # by parameter name; callables so each call gets fresh arrays
    "x": arr, "x1": arr, "x2": arr, "condition": lambda: arr(dtype="bool"), "y": arr,
    "indices": lambda: nr.asarray(np.array([0, 2, 1], np.int32)), "shape": lambda: (3,),
    "dtype": lambda: nr.float32, "arrays": lambda: [arr(), arr()], "axes": lambda: (0,),
    "source": lambda: 0, "destination": lambda: 0, "repeats": lambda: 1, "repetitions": lambda: (1,),
    "shift": lambda: 1, "fill_value": lambda: 1.0, "start": lambda: 0, "stop": lambda: 3, "num": lambda: 3,
    "n_rows": lambda: 3, "from_": lambda: nr.float32, "to": lambda: nr.float32, "type": lambda: nr.float32,
    "kind": lambda: "real floating", "obj": lambda: [1.0, 2.0], "shapes": lambda: (3,),
}


def required_args(fn, override=None, valid=None):
    """Positional args and keywords that make a valid call, with `override` {name: value} applied.
    A parameter after a skipped (defaulted) one goes by keyword: positionally it would land in the
    skipped slot (arange(0, step=x) is not arange(0, x))."""
    override = override or {}
    valid = valid or VALID
    args, kwargs = [], {}
    skipped = False
    for p in params(fn):
        given = p.name in override
        if not given and p.default is not inspect.Parameter.empty:
            skipped = True
            continue
        if not given and p.name not in valid:
            return None  # cannot build a valid call for this function
        value = override[p.name] if given else valid[p.name]()
        if p.kind == p.VAR_POSITIONAL:
            args.extend(value if isinstance(value, list) else [value])
        elif p.kind == p.KEYWORD_ONLY or (skipped and p.kind == p.POSITIONAL_OR_KEYWORD):
            kwargs[p.name] = value
        elif skipped:
            return None  # a positional-only parameter after a skipped one: not reachable alone
        else:
            args.append(value)
    return args, kwargs


def stand_ins(fn):
    """The VALID stand-ins, or the same with int32 arrays (the bitwise functions, iinfo) or 3x3
    matrices (tril, tensordot ...), whichever first makes the plain call succeed; None when neither does. A finding
    must name the argument under test only when every other argument was acceptable."""
    int_valid = dict(VALID, **{n: (lambda: arr(dtype="int32")) for n in ("x", "x1", "x2", "y")},
                     type=lambda: nr.int32)
    matrices = dict(VALID, **{n: (lambda: arr((3, 3))) for n in ("x", "x1", "x2", "y")})
    for valid in (VALID, int_valid, matrices):
        built = required_args(fn, valid=valid)
        if built is None:
            return None
        try:
            sane(fn(*built[0], **built[1]))
            return valid
        except Exception:  # noqa: BLE001 - a probe: any refusal means "try the next stand-ins"
            continue
    return None


def each_function_call(name_fn_pairs, overrides_for):
    """Yields (public, arg, call) for each function and each override dict overrides_for(fn) gives.
    When no stand-ins make a valid call, the other arguments may be at fault too: the message must
    still name the function, but not necessarily the argument under test."""
    for public, fn in name_fn_pairs:
        valid = stand_ins(fn)
        for arg, override in overrides_for(fn):
            built = required_args(fn, override, valid)
            if built is not None:
                a, k = built
                yield public, arg if valid is not None else None, (lambda fn=fn, a=a, k=k: fn(*a, **k))


# ---- families ----

ARRAY_PARAMS = ("x", "x1", "x2", "condition", "indices", "y")


def fam_wrong_types():
    """Every parameter of every function replaced by each wrong-type value."""
    def overrides(fn):
        for p in params(fn):
            if p.kind != p.VAR_POSITIONAL:
                for label, bad in bad_values().items():
                    yield p.name, {p.name: bad}
    return each_function_call(public_functions(), overrides)


def fam_numpy_for_array():
    """A numpy array (or list) passed where an npurt array is expected."""
    def overrides(fn):
        for p in params(fn):
            if p.name in ARRAY_PARAMS:
                yield p.name, {p.name: np.ones(3, np.float32)}
                yield p.name, {p.name: [1.0, 2.0, 3.0]}
    return each_function_call(public_functions(), overrides)


DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float64", "complex64", "complex128")


def typed(shape, dtype):
    if dtype == "bfloat16":
        return arr(shape).astype(nr.bfloat16)
    return arr(shape, dtype)


def fam_dtypes():
    """All array arguments of one dtype, for every dtype (kernels refuse some: clean error)."""
    def overrides(fn):
        names = [p.name for p in params(fn) if p.name in ARRAY_PARAMS]
        if names:
            for dt in DTYPES:
                yield None, {n: typed((3,), dt) for n in names}
    return each_function_call(public_functions(), overrides)


SHAPES = {"0d": (), "empty": (0,), "empty2d": (0, 3), "one": (1,), "odd15": (15,), "odd33": (3, 11),
          "big1023": (1023,)}


def fam_shapes():
    """0-d, empty, one-element, odd-size and non-contiguous inputs; mismatched binary shapes."""
    def overrides(fn):
        names = [p.name for p in params(fn) if p.name in ARRAY_PARAMS and p.name != "indices"]
        if not names:
            return
        for label, shape in SHAPES.items():
            yield None, {n: arr(shape) for n in names}
        yield None, {n: arr((4, 6))[::2, 1::2] for n in names}  # strided view
        yield None, {n: arr((4, 6)).T for n in names}  # transposed view
        if len(names) >= 2:
            yield None, {names[0]: arr((3,)), names[1]: arr((4,))}
            yield None, {names[0]: arr((2, 3)), names[1]: arr((3, 2))}
    return each_function_call(public_functions(), overrides)


BAD_AXES = {"axis5": 5, "axis-5": -5, "dup": (0, 0), "nan": math.nan, "huge": 2**63, "float": 1.5,
            "str": "0"}


def fam_axes():
    """axis / source / destination / axes out of range, duplicated or of the wrong type."""
    def overrides(fn):
        for p in params(fn):
            if p.name in ("axis", "source", "destination", "axes"):
                for label, bad in BAD_AXES.items():
                    yield p.name, {p.name: bad, "x": arr((2, 3))} if "x" in [q.name for q in params(fn)] \
                        else {p.name: bad}
    return each_function_call(public_functions(), overrides)


BAD_SIZES = {"neg": -1, "huge": 2**40, "overflow": 2**70, "prod_overflow": (2**40, 2**40, 4),
             "nan": math.nan, "inf": math.inf, "float": 2.5}


def fam_sizes():
    """Negative, huge, overflowing and non-integer sizes for the creation functions."""
    def overrides(fn):
        for p in params(fn):
            if p.name in ("shape", "n_rows", "n_cols", "num", "repeats", "repetitions", "n", "k"):
                for label, bad in BAD_SIZES.items():
                    yield p.name, {p.name: bad}
    return each_function_call(public_functions(), overrides)


def op_functions():
    return [(name, nr.ops.get(name)) for name in nr.ops.list()]


def accepted_inputs(public, fn, required):
    """Inputs the op accepts: {name: array} for the first candidate (shape, per-input dtype: float32
    when supported, else the input's first supported dtype) whose call without out= succeeds; None
    when none does (an op that needs attributes). An out= probe built on them fails only because
    of out=, so its message must name 'out'; built on inputs the op refuses, the right message
    names the refused input instead, and only the function is demanded."""
    schema = {n: d.split(", ") for n, d, *_ in nr._npurt._op_schema(public)["inputs"]}
    for shape in ((3,), (2, 4), (4, 4), ()):
        kw = {n: typed(shape, "float32" if "float32" in schema[n] else schema[n][0]) for n in required}
        try:
            sane(fn(**kw))
            return kw
        except Exception:  # noqa: BLE001 - a probe: any refusal means "try the next candidate"
            continue
    return None


def fam_ops():
    """Every registered op (nr.ops.*) with wrong types, dtypes, shapes and out=."""
    for public, fn in op_functions():
        inputs = [p for p in params(fn) if p.annotation == "npurt.ndarray"]
        required = [p.name for p in inputs if p.default is inspect.Parameter.empty]
        for label, bad in bad_values().items():
            for p in inputs[:3]:
                # None for an optional input means "absent": the call is then only missing the
                # required inputs, and the message must name those (not this argument)
                arg = None if bad is None and p.default is not inspect.Parameter.empty else p.name
                yield public, arg, (lambda fn=fn, n=p.name, bad=bad: fn(**{n: bad}))
        yield public, None, (lambda fn=fn: fn())
        for dt in ("bool", "int8", "int64", "float64", "complex64", "float16", "int32"):
            for shape in ((3,), (), (0,), (2, 3)):
                kw = {n: typed(shape, dt) for n in required}
                yield public, None, (lambda fn=fn, kw=kw: fn(**kw))
        if len(required) >= 2:
            kw = {n: arr((3 + i,)) for i, n in enumerate(required)}
            yield public, None, (lambda fn=fn, kw=kw: fn(**kw))
        kw = {n: arr((4, 6))[:, ::2] for n in required}
        yield public, None, (lambda fn=fn, kw=kw: fn(**kw))
        good = accepted_inputs(public, fn, required)
        for out in (arr((7,)), arr((3,), "int8"), np.zeros(3, np.float32), "out", [arr((3,))] * 9):
            kw = good if good is not None else {n: arr((3,)) for n in required}
            yield public, "out" if good is not None else None, (lambda fn=fn, kw=kw, out=out: fn(**kw, out=out))
        kw = {n: arr((3,)) for n in required}
        yield public, "stream", (lambda fn=fn, kw=kw: fn(**kw, stream="s"))


def fam_ndarray():
    """ndarray operators, indexing and methods with wrong operands."""
    x = arr((2, 3))
    ops = {"__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
           "__matmul__": "matmul", "__pow__": "pow", "__and__": "bitwise_and", "__lt__": "less",
           "__floordiv__": "floor_divide", "__mod__": "remainder", "__lshift__": "bitwise_left_shift"}
    for dunder, public in ops.items():
        for label, bad in {**bad_values(), "shape": arr((4,)), "c128": arr((3,), "complex128")}.items():
            yield public, None, (lambda d=dunder, b=bad: getattr(x, d)(b))
    for key in (10, -10, (0, 0, 0), "a", 1.5, None, math.nan, [0, 5], (slice(None), 9),
                nr.asarray(np.array([True, False])), nr.asarray(np.array([7], np.int32)), Ellipsis,
                (Ellipsis, Ellipsis), slice(0, 2, 0)):
        yield "__getitem__", None, (lambda k=key: x[k])
        yield "__setitem__", None, (lambda k=key: x.__setitem__(k, 1.0))
    for value in ("a", None, object(), arr((4,)), np.ones((5,)), [1, 2]):
        yield "__setitem__", None, (lambda v=value: x.__setitem__(0, v))
    methods = {"reshape": [(-2,), (4, 4), ("a",), (None,)], "astype": [("nope",), (None,), (object(),)],
               "transpose": [((0, 0),), ((5, 0),)], "sum": [(9,)], "__dlpack__": [("s",)],
               "to_device": [("sim:9",), (None,), (3,)], "item": [()], "tolist": [()], "numpy": [()],
               "__float__": [()], "__int__": [()], "__index__": [()], "__bool__": [()], "copy": [()]}
    for meth, arglists in methods.items():
        if hasattr(x, meth):
            for a in arglists:
                yield meth, None, (lambda m=meth, a=a: getattr(x, m)(*a))


def fam_runtime():
    """Streams, events, graphs, memory, DLPack, fuse and devices with bad arguments. The label is
    the public name as the user wrote it after `nr.` (memory.set_limit: the message must say
    npurt.memory.set_limit)."""
    calls = [
        ("Stream", lambda: nr.Stream(device="sim:9")), ("Stream", lambda: nr.Stream(device=3.5)),
        ("Stream", lambda: nr.Stream(priority="high")), ("Event", lambda: nr.Event(enable_timing="yes")),
        ("Device", lambda: nr.Device("nope:0")), ("Device", lambda: nr.Device("sim:-1")),
        ("Device", lambda: nr.Device(None)), ("set_device", lambda: nr.set_device("sim:99")),
        ("memory.set_limit", lambda: nr.memory.set_limit(-5)), ("memory.set_limit", lambda: nr.memory.set_limit("x")),
        ("memory.stat", lambda: nr.memory.stat("no.such.key")), ("memory.stats", lambda: nr.memory.stats(device="sim:9")),
        ("memory.round_size", lambda: nr.memory.round_size(-1)), ("memory.round_size", lambda: nr.memory.round_size(2**70)),
        ("from_dlpack", lambda: nr.from_dlpack(Opaque())), ("from_dlpack", lambda: nr.from_dlpack(None)),
        ("from_dlpack", lambda: nr.from_dlpack(np.ones(3, np.float32))),
        ("from_dlpack", lambda: nr.from_dlpack(np.ones((3, 4), np.float64)[:, ::2])),
        ("fuse", lambda: nr.fuse(None)), ("fuse", lambda: nr.fuse(3)),
        ("fuse", lambda: nr.fuse(lambda a: a + 1)("x")),
        ("fuse", lambda: nr.fuse(lambda a, b: a + b)(arr((3,)), arr((4,)))),
        ("synchronize", lambda: nr.synchronize("sim:9")), ("Graph", lambda: nr.Graph().replay()),
        ("graphed", lambda: nr.graphed(None)), ("graph_pool_handle", lambda: nr.graph_pool_handle(5)),
        ("ops.load_library", lambda: nr.ops.load_library("/nonexistent/lib.so")),
        ("ops.get", lambda: nr.ops.get("no_such_op")), ("ops.describe", lambda: nr.ops.describe("no_such_op")),
    ]
    for name, call in calls:
        yield name, None, call
    yield from stream_misuse()


def stream_misuse():
    s = nr.Stream()
    s.close()
    yield "zeros", None, lambda: nr.zeros((3,), stream=s)
    yield "Stream", None, lambda: s.synchronize()
    yield "Stream", None, lambda: s.record_event()
    yield "Stream", None, lambda: s.wait_event(None)
    yield "Stream", None, lambda: s.__enter__()
    yield "add", None, lambda: nr.ops.add(arr(), arr(), stream=s)
    e = nr.Event()
    yield "Event", None, lambda: e.elapsed_time(nr.Event())
    yield "Event", None, lambda: e.record("stream")
    g = nr.Graph()
    yield "Graph", None, lambda: g.capture(stream="s")
    other = nr.Device("sim:1") if nr.device_count() > 1 else None
    if other is not None:
        y = nr.asarray(np.ones(3, np.float32), device=other)
        yield "add", None, lambda: nr.add(arr(), y)
        yield "add", None, lambda: nr.ops.add(arr(), y)
        yield "matmul", None, lambda: nr.matmul(arr((3, 3)), nr.asarray(np.ones((3, 3), np.float32), device=other))


FAMILIES = {"wrong_types": fam_wrong_types, "numpy_for_array": fam_numpy_for_array, "dtypes": fam_dtypes,
            "shapes": fam_shapes, "axes": fam_axes, "sizes": fam_sizes, "ops": fam_ops,
            "ndarray": fam_ndarray, "runtime": fam_runtime}


def run(family, names_only=False):
    """Runs one family; prints one JSON line per finding, then a summary line."""
    gc.collect()
    nr.synchronize()
    baseline = nr.memory.memory_allocated()
    count = 0
    for public, arg, call in FAMILIES[family]():
        count += 1
        if TRACE:  # which call hangs or crashes: NPURT_FUZZ_TRACE=1
            print(f"call {count}: {public} {arg}", file=sys.stderr, flush=True)
        before = nr.memory.memory_allocated()
        started = time.monotonic()
        finding = classify(public, call, arg)
        if finding is None and time.monotonic() - started > SLOW_SECONDS:
            finding = {"kind": "slow", "seconds": round(time.monotonic() - started, 1)}
        if finding is None and nr.memory.memory_allocated() > before:
            forget_constants()
            gc.collect()  # only when something is still held: keeps the sweep fast
            nr.synchronize()
            if nr.memory.memory_allocated() > before:
                finding = {"kind": "leak_call", "bytes": nr.memory.memory_allocated() - before}
        if finding is not None:
            finding.update(public=public, arg=arg, call=count)
            print(json.dumps(finding), flush=True)
    del call
    for finding in healthy(baseline):
        print(json.dumps(finding), flush=True)
    print(json.dumps({"kind": "done", "calls": count}), flush=True)


if __name__ == "__main__":
    run(sys.argv[1])
