"""Stream graphs: capture device work once, replay it with almost no host cost.

    g = nr.Graph()
    with g.capture():                 # work below is recorded, not run
        y = nr.ops.add(x, x)
    g.replay()                        # runs it (again and again)
    g.replay(inputs={x: x2, y: y2})   # on other arrays of the same shape/dtype

    @nr.graphed
    def step(x, w): ...               # captured once per (shape, dtype) signature

Capture rules (docs/graphs.md): no host reads (``.numpy()``), no
synchronize/query of the capturing stream, no blocking copies; they raise
``nr.CaptureError`` and record nothing. The C++ runtime (npurt/graph.h) does
the work; this module adds the context manager and the decorator.
"""
import contextlib
import json
import functools
import warnings

from . import _npurt
from ._npurt import CaptureError, Stream, current_stream, ndarray

__all__ = ["Graph", "graphed", "graph_pool_handle", "is_capturing", "exchange_thread_capture_mode"]


def graph_pool_handle(device=None):
    """A new graph-private memory pool (nr.GraphPool) to share between graphs: ``nr.Graph(pool=p)``."""
    return _npurt.graph_pool_handle(device)


def is_capturing(stream=None):
    """True while ``stream`` (default: the current stream) records into a graph capture."""
    return _npurt.is_capturing(stream if stream is not None else current_stream())


def exchange_thread_capture_mode(mode):
    """Sets this thread's capture interaction mode ('global', 'thread_local', 'relaxed'); returns the old one."""
    return _npurt.exchange_thread_capture_mode(mode)


class Graph:
    """A captured stream graph. ``pool``: share another graph's memory pool."""

    def __init__(self, pool=None):
        self._native = None
        self._pool = pool
        self._stream = None      # the stream the graph was captured on
        self._captured = {}      # id(array) -> (array, slot or None)
        self._names = {}         # binding name -> array

    @contextlib.contextmanager
    def capture(self, stream=None, mode="global", inputs=None):
        """Records the block's device work. ``stream=None``: a new side stream
        (made current for the block) that first waits for the current stream.
        ``inputs``: optional {name: array} usable later in ``replay(inputs=...)``."""
        if self._native is not None or self._stream is not None:
            raise CaptureError("npurt.Graph.capture: this graph was already captured; create a new nr.Graph")
        prev = current_stream()
        s = stream if stream is not None else Stream(prev.device)
        if stream is None:
            s.wait_event(prev.record_event())
        _npurt._graph_begin_capture(s, mode, self._pool)
        self._stream = s
        try:
            with s:
                yield self
        except BaseException:
            _npurt._graph_abort_capture(s)
            self._stream = None
            raise
        self._native = _npurt._graph_end_capture(s)
        for name, arr in (inputs or {}).items():
            self._names[name] = arr

    # ---- replay ---------------------------------------------------------------
    def replay(self, inputs=None, stream=None):
        """Enqueues the graph on ``stream`` (default: the current stream).
        ``inputs``: {captured array or binding name: array} rebinds those arrays
        (inputs or outputs) for this replay; shapes and dtypes must match.
        Outputs are safe to rebind even when the graph pool gave an output the
        address of a temporary freed earlier in the capture: only the work
        recorded after the output's allocation is redirected."""
        binds = [(self._slot(k), v) for k, v in inputs.items()] if inputs else None
        self._replay_slots(binds, stream)

    def _replay_slots(self, binds, stream):
        g = self._require()
        s = stream if stream is not None else current_stream(g.device)
        if binds:
            g.replay_bound(s, binds)
        else:
            g.replay(s)
        if s != self._stream:  # arrays made during capture are read on the capture stream
            self._stream.wait_event(s.record_event())

    def _slot(self, key):
        arr = self._names.get(key, key) if isinstance(key, str) else key
        if not isinstance(arr, ndarray):
            raise CaptureError(f"npurt.Graph.replay: argument 'inputs': unknown binding {key!r} "
                               "(use a captured array or a name given to capture(inputs=...))")
        entry = self._captured.get(id(arr))
        if entry is None or entry[0] is not arr:
            entry = (arr, self._require().add_binding(arr))
            self._captured[id(arr)] = entry
        return entry[1]

    # ---- introspection --------------------------------------------------------
    def _require(self):
        if self._native is None:
            raise CaptureError("npurt.Graph: the graph has not been captured yet (use `with g.capture():`)")
        return self._native

    @property
    def nodes(self):
        """The nodes in capture order: dicts with id, kind, name (kernel), op (the
        OpDef name of dispatcher launches, else ""), lane, stream, bytes, num_blocks, deps."""
        return json.loads(self._require().to_json())["nodes"]

    @property
    def num_nodes(self):
        return self._require().num_nodes

    @property
    def pool(self):
        return self._require().pool

    @property
    def replay_count(self):
        return self._require().replay_count

    def to_dot(self):
        return self._require().to_dot()

    def to_json(self):
        return self._require().to_json()

    def __repr__(self):
        if self._native is None:
            return "npurt.Graph(not captured)"
        return f"npurt.Graph(nodes={self._native.num_nodes}, device='{self._native.device}')"


def _flatten_outputs(out):
    if isinstance(out, ndarray):
        return [out], lambda xs: xs[0]
    if isinstance(out, (tuple, list)) and all(isinstance(o, ndarray) for o in out):
        kind = type(out)
        return list(out), lambda xs: kind(xs)
    return None, None


def _signature(args, kwargs):
    def one(a):
        if isinstance(a, ndarray):
            return ("array", a.shape, str(a.dtype), a.strides, str(a.device))
        hash(a)  # non-array arguments are part of the key: they must be hashable
        return ("value", a)
    return tuple(one(a) for a in args) + tuple((k, one(v)) for k, v in sorted(kwargs.items()))


def _fresh_like(a, stream):
    return _npurt.empty(a.shape, a.dtype, stream=stream)


def _copy(a):
    from . import ops
    return ops.copy(a)


def _input_arrays(args, kwargs):
    return [a for a in list(args) + list(kwargs.values()) if isinstance(a, ndarray)]


def _slot_or_none(graph, a):
    try:
        return graph._slot(a)
    except ValueError:  # nr.InvalidArgumentError: no captured node touches it
        return None


class _Captured:
    """One signature's graph: slots of the call's input arrays (None: unused by
    the graph) and of the captured outputs. Every replay rebinds the inputs to
    the call's arrays and the outputs to fresh arrays (from the ordinary pool),
    so no copy is made and a later call never overwrites an earlier call's
    results (the captured outputs themselves share graph-pool memory with the
    graph's temporaries and are scratch)."""

    def __init__(self, graph, inputs, outputs, rebuild):
        self.graph, self.inputs, self.outputs, self.rebuild = graph, inputs, outputs, rebuild
        self.in_slots = [_slot_or_none(graph, a) for a in inputs]
        # How each output is returned: ("input", k) one of the inputs (the call's);
        # ("bind", slot) a fresh array bound to the slot; ("copy", None) a strided
        # view (a fresh array has other strides): a copy after the replay;
        # ("share", None) an array no node writes.
        self.out_plan = []
        for o in outputs:
            k = next((i for i, a in enumerate(inputs) if a is o), None)
            slot = _slot_or_none(graph, o) if k is None else None
            if k is not None:
                self.out_plan.append(("input", k))
            elif slot is None:
                self.out_plan.append(("share", None))
            elif _npurt.empty(o.shape, o.dtype).strides == o.strides:
                self.out_plan.append(("bind", slot))
            else:
                self.out_plan.append(("copy", None))

    def replay(self, args, kwargs):
        call_inputs = _input_arrays(args, kwargs)
        binds = [(slot, new) for slot, old, new in zip(self.in_slots, self.inputs, call_inputs)
                 if slot is not None and new is not old]
        stream = current_stream(self.graph._native.device)
        results = []
        for (how, arg), o in zip(self.out_plan, self.outputs):
            if how == "bind":
                results.append(_fresh_like(o, stream))
                binds.append((arg, results[-1]))
            else:
                results.append(call_inputs[arg] if how == "input" else o)
        self.graph._replay_slots(binds, stream)
        results = [_copy(r) if how == "copy" else r for (how, _), r in zip(self.out_plan, results)]
        return self.rebuild(results)


def graphed(fn=None, *, mode="global"):
    """Decorator: captures ``fn`` on the first call for each (shapes, dtypes,
    strides, other arguments) signature and replays the graph afterwards, with
    the call's arrays bound to the captured inputs and fresh arrays bound to
    the captured outputs (a later call never overwrites earlier results).
    ``fn`` must return an array or a tuple/list of arrays. When ``fn`` cannot be
    captured (host reads, syncs, ...) it runs eagerly for that signature, with a
    warning the first time."""
    if fn is None:
        return functools.partial(graphed, mode=mode)
    cache = {}
    warned = []

    def fallback(args, kwargs, key, reason):
        if not warned:
            warned.append(True)
            warnings.warn(f"nr.graphed({getattr(fn, '__name__', fn)}): running eagerly, it cannot be captured: "
                          f"{reason}", RuntimeWarning, stacklevel=3)
        if key is not None:
            cache[key] = None
        return fn(*args, **kwargs)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            key = _signature(args, kwargs)
        except TypeError as e:
            return fallback(args, kwargs, None, e)
        if key in cache:
            entry = cache[key]
            return fn(*args, **kwargs) if entry is None else entry.replay(args, kwargs)
        g = Graph()
        try:
            with g.capture(mode=mode):
                out = fn(*args, **kwargs)
        except CaptureError as e:
            return fallback(args, kwargs, key, e)
        outputs, rebuild = _flatten_outputs(out)
        if outputs is None:
            return fallback(args, kwargs, key, f"it returned {type(out).__name__}, not arrays")
        entry = cache[key] = _Captured(g, _input_arrays(args, kwargs), outputs, rebuild)
        # The first call's results are fresh arrays too: the captured outputs live
        # in the graph pool, where the next replay's temporaries may overwrite them.
        return entry.replay(args, kwargs)

    wrapper.graphs = cache
    return wrapper
