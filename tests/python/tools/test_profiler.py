"""Tests of nr.profile(): trace JSON validity and structure, op table vs event timings,
streams and threads, memory counters, kernel launches with per-core spans, errors.
"""
import json
import threading

import jsonschema
import numpy as np
import pytest

import npurt as nr
from trace_schema import TRACE_SCHEMA, check_structure


def _copies_workload(n=4096):
    x = nr.asarray(np.arange(n, dtype=np.float32))   # H2D copy
    y = x.copy()                                      # D2D copy on the device
    z = nr.zeros((n,), nr.float32)                    # memset
    return x, y, z, y.numpy()                         # D2H copy


def _trace(p, tmp_path):
    path = tmp_path / "trace.json"
    p.export_chrome_trace(path)
    trace = json.loads(path.read_text())
    jsonschema.validate(trace, TRACE_SCHEMA)
    return trace, check_structure(trace)


def test_copies_and_memsets_are_recorded_with_bytes_and_flows(tmp_path):
    with nr.profile() as p:
        _, _, _, host = _copies_workload(4096)
    np.testing.assert_array_equal(host, np.arange(4096, dtype=np.float32))
    kinds = {a.name: a for a in p.activities}
    for name in ("copy H2D", "copy D2D", "copy D2H", "memset"):
        assert name in kinds, f"{name} missing from {sorted(kinds)}"
        a = kinds[name]
        assert a.executed and a.bytes == 4096 * 4
        assert a.enqueue_ns <= a.start_ns <= a.end_ns
    trace, s = _trace(p, tmp_path)
    assert len(s["flows"]) == sum(a.executed for a in p.activities) >= 4
    stream_tracks = {name for name in s["thread_names"].values() if name.startswith("stream")}
    assert stream_tracks, s["thread_names"]


def test_op_table_agrees_with_event_timings():
    with nr.profile() as p:
        for _ in range(3):
            _copies_workload(1 << 14)
    rows = {r.name: r for r in p.op_summary()}
    by_name = {}
    for a in p.activities:
        by_name.setdefault(a.name, []).append(a.end_ns - a.start_ns)
    assert set(rows) == set(by_name)
    for name, durations in by_name.items():
        r = rows[name]
        assert r.calls == len(durations)
        assert r.total_ns == sum(durations)
        assert r.min_ns == min(durations) and r.max_ns == max(durations)
    h2d = rows["copy H2D"]
    assert h2d.gbps == pytest.approx(h2d.bytes / h2d.total_ns)
    assert h2d.bytes == 3 * (1 << 14) * 4
    table = p.table(sort_by="calls")
    first_row = table.splitlines()[1]
    most = max(x.calls for x in rows.values())
    assert any(first_row.startswith(n + " ") for n, r in rows.items() if r.calls == most), table
    total_us = sum(r.total_ns for r in rows.values()) / 1e3
    assert f"{total_us:.3f} us device time" in table
    with pytest.raises(ValueError, match="argument 'sort_by'"):
        p.table(sort_by="speed")


def test_work_on_two_streams_gets_two_tracks(tmp_path):
    s1, s2 = nr.Stream(), nr.Stream()
    with nr.profile() as p:
        with s1:
            a = nr.asarray(np.ones(1024, np.float32))
        with s2:
            b = nr.asarray(np.ones(1024, np.float32))
        s1.synchronize()
        s2.synchronize()
    streams = {act.stream for act in p.activities}
    assert {s1.id, s2.id} <= streams
    _, s = _trace(p, tmp_path)
    tids = {e["tid"] for e in s["slices"] if e["pid"] != 0}
    assert {s1.id, s2.id} <= tids
    del a, b


def test_profiling_across_threads(tmp_path):
    errors = []

    def worker():
        try:
            s = nr.Stream()
            with s:
                for _ in range(5):
                    nr.asarray(np.ones(256, np.float32)).numpy()
        except Exception as e:  # surfaced below
            errors.append(e)

    with nr.profile() as p:
        threads = [threading.Thread(target=worker) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    h2d = [a for a in p.activities if a.name == "copy H2D"]
    assert len(h2d) == 15
    assert len({a.host_thread for a in h2d}) == 3
    assert len({a.stream for a in h2d}) == 3
    assert len({a.id for a in p.activities}) == len(p.activities)
    _trace(p, tmp_path)


def test_memory_events_and_counter_track(tmp_path):
    with nr.profile() as p:
        x = nr.empty((1 << 16,), nr.float32)
        del x
        nr.synchronize()
    allocs = [m for m in p.memory if m.is_alloc]
    frees = [m for m in p.memory if not m.is_alloc]
    assert allocs and frees
    assert allocs[0].bytes >= (1 << 16) * 4
    assert allocs[0].allocated_after >= (1 << 16) * 4
    assert allocs[0].pool in ("small_pool", "large_pool")
    _, s = _trace(p, tmp_path)
    assert len(s["counters"]) == len(p.memory)
    assert {"allocated", "reserved"} <= set(s["counters"][0]["args"])


def test_user_range_appears_on_the_host_track(tmp_path):
    with nr.profile() as p:
        with nr.profiler.range("step 1"):
            _copies_workload(64)
    assert [sp.name for sp in p.spans] == ["step 1"]
    trace, _ = _trace(p, tmp_path)
    assert any(e["name"] == "step 1" and e["cat"] == "range" for e in trace["traceEvents"])


def test_session_errors_are_clear():
    with nr.profile():
        with pytest.raises(nr.NpurtError, match="already running"):
            nr.profile().start()
    p = nr.profile()
    with pytest.raises(RuntimeError, match="not started"):
        p.table()
    with pytest.raises(RuntimeError, match="not running"):
        p.stop()
    with nr.profile() as q:
        with pytest.raises(RuntimeError, match="still running"):
            q.table()
    with pytest.raises(ValueError, match="argument 'limit'"):
        q.table(limit=-1)
    with pytest.raises(nr.NpurtError, match="argument 'path'"):
        q.export_chrome_trace("/nonexistent-dir/x/trace.json")


def test_disabled_profiler_records_nothing_between_sessions():
    _copies_workload(64)
    with nr.profile() as p:
        pass
    assert p.activities == [] and p.memory == []


def test_kernel_launches_carry_op_annotation_and_core_tracks(tmp_path):
    x = nr.asarray(np.arange(4096, dtype=np.float32))
    nr.synchronize()
    with nr.profile() as p:
        for _ in range(3):
            y = nr.ops.add(x, x)
        host = y.numpy()
    np.testing.assert_array_equal(host, 2 * np.arange(4096, dtype=np.float32))
    adds = [a for a in p.activities if a.kind == "kernel" and a.name == "add"]
    assert len(adds) == 3, [(a.name, a.kind) for a in p.activities]
    a = adds[0]
    assert a.kernel and a.num_blocks >= 1
    assert a.shapes == "[4096], [4096] -> [4096]"
    assert a.dtypes == "float32, float32 -> float32"
    assert f"numBlocks={a.num_blocks}" in a.tiling
    assert len(a.blocks) == a.num_blocks
    assert all(a.start_ns <= b.start_ns <= b.end_ns <= a.end_ns for b in a.blocks)
    row = next(r for r in p.op_summary() if r.name == "add")
    assert row.calls == 3
    # add's OpDef declares its traffic and flops: the table's rates come from them.
    assert a.mem_bytes > 0 and a.flops > 0
    assert row.gbps == pytest.approx(3 * a.mem_bytes / row.total_ns)
    assert row.gflops == pytest.approx(3 * a.flops / row.total_ns)
    _, s = _trace(p, tmp_path)
    cores = {name for name in s["thread_names"].values() if name.startswith("core ")}
    assert len(cores) == a.num_blocks
    block_events = [e for e in s["slices"] if e["cat"] == "block"]
    assert len(block_events) == 3 * a.num_blocks
