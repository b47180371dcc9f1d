"""npurt.profiler: ``with nr.profile() as p:`` over the runtime's profiler (npurt/profiler.h).

    with nr.profile() as p:
        y = nr.ops.add(x, x)
        y.numpy()
    print(p.table(sort_by="device_time"))      # op summary (like msprof's)
    p.export_chrome_trace("trace.json")        # open in https://ui.perfetto.dev
    p.plot("timeline.png")                     # needs matplotlib

``NPURT_PROFILE=trace.json python script.py`` profiles a whole run (the
trace is written at exit); ``python -m npurt profile script.py -o trace.json``
does the same from the command line.

Invariants: one session at a time per process (nesting raises); results are
available after the ``with`` block ends; leaving the block waits (bounded) for
profiled device work still queued, so the trace holds complete launches
without synchronizing streams (stream errors stay for the user to see).
"""
from __future__ import annotations

import atexit
import os
import sys
from typing import Optional

from . import _npurt

_prof = _npurt._profiler

__all__ = ["profile", "Profile", "range", "install_from_env"]


class Profile:
    """The records of one session: activities, memory events, host spans, outputs."""

    def __init__(self, raw):
        self._raw = raw

    @property
    def activities(self) -> list:
        return self._raw.activities

    @property
    def memory(self) -> list:
        return self._raw.memory

    @property
    def spans(self) -> list:
        return self._raw.spans

    @property
    def threads(self) -> dict:
        return self._raw.threads

    @property
    def incomplete(self) -> int:
        return self._raw.incomplete

    @property
    def duration_ns(self) -> int:
        return self._raw.stop_ns - self._raw.start_ns

    def op_summary(self, sort_by: str = "device_time") -> list:
        return self._raw.op_summary(sort_by)

    def table(self, sort_by: str = "device_time", limit: Optional[int] = None) -> str:
        """Op summary: calls, total/mean/min/max device time (us), time share, GB/s, GFLOP/s."""
        if limit is not None and limit < 0:
            raise ValueError(f"npurt.Profile.table: argument 'limit': must be >= 0, got {limit}")
        return self._raw.table(sort_by, limit or 0)

    def chrome_trace_json(self) -> str:
        return self._raw.chrome_trace_json()

    def export_chrome_trace(self, path) -> None:
        self._raw.export_chrome_trace(os.fspath(path))

    def plot(self, path=None, *, show: bool = False):
        """Timeline per stream and pool memory over time (matplotlib); returns the figure."""
        from .profiler_plot import plot_profile
        return plot_profile(self, path, show=show)

    def __repr__(self) -> str:
        return (f"<npurt.Profile {len(self.activities)} activities, {len(self.memory)} memory "
                f"events, {self.duration_ns / 1e6:.3f} ms>")


class profile:
    """Context manager that profiles the enclosed block (a session of the process profiler)."""

    def __init__(self, *, record_blocks: bool = True, record_memory: bool = True,
                 drain_timeout_ms: int = 30000):
        self._options = (bool(record_blocks), bool(record_memory), int(drain_timeout_ms))
        self._result: Optional[Profile] = None
        self._running = False

    def start(self) -> "profile":
        _prof.start(*self._options)
        self._running = True
        return self

    def stop(self) -> Profile:
        if not self._running:
            raise RuntimeError("npurt.profile.stop: this profile is not running")
        self._running = False
        self._result = Profile(_prof.stop())
        return self._result

    def __enter__(self) -> "profile":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def result(self) -> Profile:
        if self._result is None:
            state = "still running" if self._running else "not started"
            raise RuntimeError(f"npurt.profile: results are available after the session ends "
                               f"(this profile is {state})")
        return self._result

    def __repr__(self) -> str:
        state = "running" if self._running else ("done" if self._result else "not started")
        return f"<npurt.profile {state}>" if self._result is None else repr(self._result)

    def __getattr__(self, name):
        # Delegate table(), export_chrome_trace(), plot(), activities ... to the result.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.result, name)


class range:  # noqa: A001 - mirrors torch.profiler.record_function / nvtx.range
    """``with nr.profiler.range("step 3"):`` marks a host interval on the trace."""

    def __init__(self, name: str):
        self.name = str(name)
        self._start = 0

    def __enter__(self):
        self._start = _prof.clock_ns()
        return self

    def __exit__(self, *exc):
        _prof.add_range(self.name, self._start, _prof.clock_ns())


def is_running() -> bool:
    return _prof.is_running()


def run_with_trace(path: str, table: bool = False, stream=None):
    """Starts a session now and writes `path` (and optionally the table) at interpreter exit."""
    session = profile().start()

    def _finish():
        try:
            result = session.stop()
            result.export_chrome_trace(path)
            out = stream or sys.stderr
            print(f"npurt: profile written to {path} ({len(result.activities)} activities)",
                  file=out)
            if table:
                print(result.table(), file=out)
        except Exception as e:  # at exit: report, never mask the script's own exit status
            print(f"npurt: NPURT_PROFILE: could not write the profile: {e}", file=sys.stderr)

    atexit.register(_finish)
    return session


def install_from_env(environ=os.environ) -> Optional[profile]:
    """Honours NPURT_PROFILE=<trace.json> (and NPURT_PROFILE_TABLE=1); called at import."""
    path = environ.get("NPURT_PROFILE")
    if not path:
        return None
    return run_with_trace(path, table=environ.get("NPURT_PROFILE_TABLE", "") not in ("", "0"))

