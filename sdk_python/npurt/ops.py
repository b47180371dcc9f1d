"""nr.ops: every registered op as a function, built from the registry.

    y = nr.ops.add(x, x)                        # the built-in kernels
    z = nr.ops.cast(y, dtype=nr.float16, out=None, stream=None)
    nr.ops.list()                               # names
    print(nr.ops.describe("add", (1024,), (1024,)))   # signature, doc and tiling plan
    nr.ops.load_library("libmy_ops.so")         # a plugin: its ops appear at once
    nr.ops.build("my_op", sources=["my_op.cc"]) # compile + load, cached by content

Each op function calls straight into the C++ dispatcher (no Python wrapper);
inputs are positional (or by name), attributes keyword-only, plus ``out=`` and
``stream=``. ``inspect.signature`` and ``help`` show the op's real signature and
docstring. Ops registered later (plugins) appear on first attribute access.
Names that clash with the helpers below (list, describe, ...) are reached with
``nr.ops.get(name)``.
"""
import builtins
import inspect
import threading

from . import _npurt

__all__ = ["list", "get", "describe", "load_library", "build", "registration_errors"]

_lock = threading.Lock()
_generation = -1
_ops = {}
_HELPERS = frozenset(__all__)
_ATTR_ANNOTATIONS = {"int": int, "float": float, "bool": bool, "str": str, "int list": "tuple[int, ...]",
                     "dtype": "npurt.dtype"}


def _signature(schema):
    P = inspect.Parameter
    params = []
    seen_optional = False
    for name, _dtypes, optional, _strided, _sim_only in schema["inputs"]:
        seen_optional = seen_optional or optional
        default = None if seen_optional else P.empty  # after an optional input every input has a default
        params.append(P(name, P.POSITIONAL_OR_KEYWORD, default=default, annotation="npurt.ndarray"))
    for name, type_name, required, default in schema["attrs"]:
        params.append(P(name, P.KEYWORD_ONLY, default=P.empty if required else default,
                        annotation=_ATTR_ANNOTATIONS.get(type_name, type_name)))
    params.append(P("out", P.KEYWORD_ONLY, default=None))
    params.append(P("stream", P.KEYWORD_ONLY, default=None))
    ret = "npurt.ndarray" if len(schema["outputs"]) == 1 else "tuple[npurt.ndarray, ...]"
    return inspect.Signature(params, return_annotation=ret)


def _docstring(schema):
    lines = [schema["doc"] or schema["name"], "", "Inputs:"]
    for name, dtypes, optional, strided, sim_only in schema["inputs"]:
        extra = " (optional)" if optional else ""
        extra += "; any strides" if strided else "; made contiguous on the device if needed"
        if sim_only:
            extra += f"; sim-only dtypes: {sim_only}"
        lines.append(f"    {name}: {dtypes}{extra}")
    if schema["attrs"]:
        lines.append("Attributes (keyword-only):")
        for name, type_name, required, default in schema["attrs"]:
            lines.append(f"    {name}: {type_name}" + ("" if required else f" = {default!r}"))
    lines.append("Outputs: " + ", ".join(schema["outputs"]))
    lines.append("")
    lines.append("out= takes preallocated output array(s) (contiguous, exact shape and dtype); stream= the stream")
    lines.append(f"to run on (default: the inputs' current stream). Kernel: {schema['kernel']} ({schema['source']}).")
    return "\n".join(lines)


def _make(name):
    schema = _npurt._op_schema(name)
    f = _npurt._op_function(name)
    f.__signature__ = _signature(schema)
    f.__doc__ = _docstring(schema)
    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    return f


def _refresh():
    global _generation
    gen = _npurt._op_generation()
    if gen == _generation:
        return
    with _lock:
        for name in _npurt._op_names():
            if name not in _ops:
                _ops[name] = _make(name)
                if name not in _HELPERS:
                    globals()[name] = _ops[name]
        _generation = gen


def __getattr__(name):  # PEP 562: ops registered after import
    if name.startswith("__"):
        raise AttributeError(name)
    _refresh()
    if name in _ops:
        return _ops[name]
    close = [n for n in _ops if name in n or n in name][:5]
    hint = f" (did you mean: {', '.join(close)}?)" if close else ""
    raise AttributeError(f"npurt.ops has no op {name!r}{hint}; registered ops: nr.ops.list()")


def __dir__():
    _refresh()
    return sorted(set(globals()) | set(_ops))


def list():  # noqa: A001  (nr.ops.list() is the documented name)
    """Names of every registered op, sorted."""
    _refresh()
    return builtins.list(_npurt._op_names())


def _unknown(e, where):
    """The registry's NotFoundError ("npurt.ops: unknown op 'x' (did you mean ...)") relabelled with
    the function the user called and its argument; class, .code and traceback kept."""
    e.args = (f"{where}: argument 'name': {str(e).split(': ', 1)[-1]}",) + tuple(e.args[1:])
    return e


def get(name):
    """The function of op `name` (also for ops named like the helpers of this module)."""
    _refresh()
    if name not in _ops:
        try:
            _npurt._op_function(name)  # raises NotFoundError naming close matches
        except _npurt.NotFoundError as e:
            raise _unknown(e, "npurt.ops.get")
    return _ops[name]


def _spec(s, dtype):
    if s is None:
        return None
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        return (tuple(s.shape), s.dtype)
    if isinstance(s, int):
        return ((s,), dtype)
    return (tuple(s), dtype)


def describe(name, *inputs, dtype="float32", profile=None, **attrs):
    """The op's signature, doc and, given input shapes, its plan: output shapes,
    numBlocks, tiling and workspace bytes and the op's own tiling summary.

    inputs: shapes (tuples), arrays (their shape and dtype are used) or None for an
    absent optional input; `dtype` applies to shapes; `profile` a chip profile
    name (default: the current device's); attributes by keyword.
    """
    specs = [_spec(s, dtype) for s in inputs]
    try:
        return _npurt._op_describe(name, specs, attrs, profile)
    except _npurt.NotFoundError as e:
        if "unknown op" not in str(e):
            raise
        raise _unknown(e, "npurt.ops.describe")


def registration_errors():
    """Problems found registering ops from libraries linked at start-up."""
    return builtins.list(_npurt._registration_errors())


def load_library(path):
    """Loads an op plugin library; returns the names of its ops (now in nr.ops).
    Loading the same library again is harmless. Raises AlreadyExistsError on a
    name clash and InvalidArgumentError on an invalid op; nothing is registered then."""
    import os

    try:
        names = _npurt._load_library(os.fspath(path))
    except _npurt.NpurtError as e:  # C++ names its npurt::load_library; Python users called nr.ops.load_library
        e.args = (str(e).replace("npurt.load_library", "npurt.ops.load_library", 1),) + tuple(e.args[1:])
        raise
    _refresh()
    return names


def build(name, sources, extra_cflags=(), extra_ldflags=(), include_dirs=(), verbose=False):
    """Compiles Ascend C kernel + registration sources into an op plugin with the
    host compiler and loads it. Builds are cached by content in $NPURT_CACHE_DIR
    (default ~/.cache/npurt/ops). Returns a BuildResult(path, ops, cached).
    Compiler errors raise nr.CompileError carrying the compiler's message."""
    from . import _op_build

    result = _op_build.build_plugin(name, sources, extra_cflags, extra_ldflags, include_dirs, verbose)
    _refresh()
    return result
