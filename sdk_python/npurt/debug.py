"""npurt.debug: per-op and layer-by-layer precision debugging (``nr.debug``).

    rep = nr.debug.check_op("add", x, y, reference=np.add)
    print(rep)                      # PASS/FAIL, fault if the simulated core caught one,
                                    # first diverging element and the full comparison
    rep = nr.debug.compare_layers(model, reference_model, x)
    print(rep.first_failing)        # the first recorded layer that diverges

check_op runs the op through nr.ops at ``NPURT_SIM_CHECK=full`` (every GM
and UB access checked, overlapping block writes detected) and compares each
output with the reference's on the host (npurt.testing.compare). The check
level is read when the launch is enqueued, so the op is run with the
environment variable set for the call and restored afterwards; do not run
other ops concurrently from other threads while it is set.

compare_layers runs ``fn(tap, *inputs)`` and ``reference(tap, *host_inputs)``;
each calls ``tap(name, value)`` on the intermediates it wants compared. Taps
are compared by name in fn's order; the report names the first layer that
fails, which is usually where a bug starts.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from . import _npurt
from .compare import CompareReport, compare_arrays

__all__ = ["check_op", "CheckOpReport", "compare_layers", "LayerReport", "sim_check_level"]


@contextlib.contextmanager
def sim_check_level(level: str):
    """Sets NPURT_SIM_CHECK for the enclosed launches (off, basic, full)."""
    if level not in ("off", "basic", "full"):
        raise ValueError(f"npurt.debug.sim_check_level: argument 'level': expected off, basic or "
                         f"full, got {level!r}")
    old = os.environ.get("NPURT_SIM_CHECK")
    os.environ["NPURT_SIM_CHECK"] = level
    _npurt._reload_sim_check_level()  # launches read the variable once: tell them
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("NPURT_SIM_CHECK", None)
        else:
            os.environ["NPURT_SIM_CHECK"] = old
        _npurt._reload_sim_check_level()


@dataclasses.dataclass
class CheckOpReport:
    """Outcome of check_op; ``bool(report)`` is ``passed``."""
    op: str
    fault: Optional[str]                  # the simulated core's diagnostic, if the op faulted
    outputs: List[CompareReport]          # one per output, in order

    @property
    def passed(self) -> bool:
        return self.fault is None and all(r.passed for r in self.outputs)

    def __bool__(self) -> bool:
        return self.passed

    @property
    def first_divergence(self):
        """(output index, Mismatch) of the first diverging element, or None."""
        for i, r in enumerate(self.outputs):
            if r.first_mismatch is not None:
                return i, r.first_mismatch
        return None

    def __str__(self) -> str:
        head = f"check_op {self.op}: {'PASS' if self.passed else 'FAIL'}"
        if self.fault is not None:
            return f"{head}\n  kernel fault: {self.fault}"
        lines = [head]
        div = self.first_divergence
        if div is not None:
            i, m = div
            lines.append(f"  first diverging element: output {i} at {list(m.index)}: "
                         f"{m.actual!r} vs reference {m.desired!r}")
        lines += ["  " + line for r in self.outputs for line in str(r).splitlines()]
        return "\n".join(lines)


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _to_device(x):
    from . import asarray, ndarray
    return x if isinstance(x, ndarray) or x is None else asarray(x)


def check_op(name: str, *inputs, reference: Callable, rtol: Optional[float] = None,
             atol: Optional[float] = None, check_level: str = "full", **attrs) -> CheckOpReport:
    """Runs op `name` on `inputs` with full simulated-core checks and compares with `reference`.

    inputs: npurt or numpy arrays (numpy ones are copied to the device);
    reference(*host_inputs, **attrs) returns the expected output(s) as arrays.
    A kernel fault is reported (report.fault), not raised; bad arguments raise.
    """
    if not callable(reference):
        raise TypeError(f"npurt.debug.check_op: argument 'reference': expected a callable, got "
                        f"{type(reference).__name__}")
    from . import NpurtError, ops, KernelFault
    op = ops.get(name)
    device_inputs = [_to_device(x) for x in inputs]
    host_inputs = [None if x is None else np.asarray(x) for x in device_inputs]
    with sim_check_level(check_level):
        try:
            outs = _as_tuple(op(*device_inputs, **attrs))
            actual = [np.asarray(o) for o in outs]  # waits: a fault surfaces here
        except KernelFault as e:
            return CheckOpReport(op=name, fault=str(e), outputs=[])
        except NpurtError as e:
            if "fault" in type(e).__name__.lower():
                return CheckOpReport(op=name, fault=str(e), outputs=[])
            raise
    desired = [np.asarray(d) for d in _as_tuple(reference(*host_inputs, **attrs))]
    if len(desired) != len(actual):
        raise ValueError(f"npurt.debug.check_op: argument 'reference': returned {len(desired)} "
                         f"outputs, op {name} returned {len(actual)}")
    reports = [compare_arrays(a, d, rtol, atol, check_dtype=False, name=f"{name} output {i}")
               for i, (a, d) in enumerate(zip(actual, desired))]
    return CheckOpReport(op=name, fault=None, outputs=reports)


@dataclasses.dataclass
class LayerReport:
    """Per-layer comparisons of compare_layers, in the order fn recorded them."""
    layers: Dict[str, CompareReport]
    missing_in_reference: List[str]
    missing_in_fn: List[str]

    @property
    def first_failing(self) -> Optional[str]:
        for name, r in self.layers.items():
            if not r.passed:
                return name
        return None

    @property
    def passed(self) -> bool:
        return self.first_failing is None and not self.missing_in_reference \
            and not self.missing_in_fn

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        lines = [f"compare_layers: {'PASS' if self.passed else 'FAIL'}"
                 + (f" (first failing layer: {self.first_failing})" if self.first_failing else "")]
        for name, r in self.layers.items():
            lines.append(f"  {name:<24} {'ok  ' if r.passed else 'FAIL'} max abs {r.max_abs_error:.3g}"
                         f"  max rel {r.max_rel_error:.3g}  mismatches {r.mismatches}/{r.total}")
        if self.missing_in_reference:
            lines.append(f"  recorded by fn only: {', '.join(self.missing_in_reference)}")
        if self.missing_in_fn:
            lines.append(f"  recorded by reference only: {', '.join(self.missing_in_fn)}")
        return "\n".join(lines)


class _Recorder:
    def __init__(self, who: str):
        self.who = who
        self.values: Dict[str, np.ndarray] = {}

    def __call__(self, name: str, value: Any):
        if name in self.values:
            raise ValueError(f"npurt.debug.compare_layers: {self.who} recorded layer {name!r} twice")
        self.values[name] = np.array(np.asarray(value), copy=True)
        return value


def compare_layers(fn: Callable, reference: Callable, *inputs, rtol: Optional[float] = None,
                   atol: Optional[float] = None) -> LayerReport:
    """Runs fn(tap, *inputs) and reference(tap, *host_inputs) and diffs their taps by name."""
    got, want = _Recorder("fn"), _Recorder("reference")
    fn(got, *inputs)
    reference(want, *[np.asarray(x) for x in inputs])
    layers = {name: compare_arrays(v, want.values[name], rtol, atol, check_dtype=False, name=name)
              for name, v in got.values.items() if name in want.values}
    return LayerReport(layers=layers,
                       missing_in_reference=[n for n in got.values if n not in want.values],
                       missing_in_fn=[n for n in want.values if n not in got.values])
