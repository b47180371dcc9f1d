"""JSON schema of the Chrome trace event format subset npurt writes, plus structural checks.

The schema follows the Trace Event Format document (JSON Object Format with a
``traceEvents`` array): every event has name/ph/pid/tid, timed events have ts,
complete events ("X") a non-negative dur, counters ("C") numeric args, flow
events ("s"/"f") an id, and flow ends bind to the enclosing slice (bp "e").
"""
import collections

_BASE = {"name": {"type": "string"}, "ph": {"type": "string"},
         "pid": {"type": "integer", "minimum": 0}, "tid": {"type": "integer", "minimum": 0},
         "ts": {"type": "number"}, "cat": {"type": "string"}}


def _event(ph, required, extra=None):
    props = dict(_BASE)
    props.update(extra or {})
    return {"if": {"properties": {"ph": {"const": ph}}},
            "then": {"required": ["name", "ph", "pid", "tid", *required], "properties": props}}


TRACE_SCHEMA = {
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "traceEvents": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "ph", "pid", "tid"],
                "properties": {"ph": {"enum": ["X", "M", "C", "s", "f", "i"]}},
                "allOf": [
                    _event("X", ["ts", "dur", "cat"], {"dur": {"type": "number", "minimum": 0}}),
                    _event("M", ["args"], {"args": {"type": "object", "required": ["name"]}}),
                    _event("C", ["ts", "args"], {"args": {
                        "type": "object", "minProperties": 1,
                        "additionalProperties": {"type": "number"}}}),
                    _event("s", ["ts", "id", "cat"], {"id": {"type": ["string", "integer"]}}),
                    _event("f", ["ts", "id", "cat", "bp"], {"id": {"type": ["string", "integer"]},
                                                             "bp": {"const": "e"}}),
                    _event("i", ["ts", "s"], {"s": {"enum": ["g", "p", "t"]}}),
                ],
            },
        },
    },
}


def check_structure(trace):
    """Structural checks beyond the schema; returns a summary dict for further assertions."""
    events = trace["traceEvents"]
    named_threads = {(e["pid"], e["tid"]) for e in events
                     if e["ph"] == "M" and e["name"] == "thread_name"}
    named_procs = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    for e in events:
        if e["ph"] in ("X", "s", "f"):
            assert (e["pid"], e["tid"]) in named_threads, f"event on an unnamed track: {e}"
            assert e["pid"] in named_procs, f"event in an unnamed process: {e}"
    flows = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in ("s", "f"):
            assert e["ph"] not in flows[e["id"]], f"flow id {e['id']} has two '{e['ph']}' events"
            flows[e["id"]][e["ph"]] = e
    for fid, pair in flows.items():
        assert set(pair) == {"s", "f"}, f"flow {fid} is not paired: {pair}"
        assert pair["s"]["ts"] <= pair["f"]["ts"], f"flow {fid} goes back in time"
        assert pair["s"]["pid"] == 0, "flows start on a host thread track"
    slices = [e for e in events if e["ph"] == "X"]
    for pid, tid in {(e["pid"], e["tid"]) for e in slices if e["pid"] != 0}:
        track = sorted((e for e in slices if (e["pid"], e["tid"]) == (pid, tid) and
                        e["cat"] != "block"), key=lambda e: e["ts"])
        for a, b in zip(track, track[1:]):  # one stream runs one command at a time
            assert a["ts"] + a["dur"] <= b["ts"] + 1e-3, f"overlap on stream track: {a} {b}"
    thread_names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
                    if e["ph"] == "M" and e["name"] == "thread_name"}
    return {"flows": flows, "slices": slices, "thread_names": thread_names,
            "counters": [e for e in events if e["ph"] == "C"]}
