"""Systematic bad-input sweep of npurt's public Python surface (surface_fuzz.py).

Each family runs in its own interpreter: a segfault, abort or hang fails that one
test, not pytest. Hard contract (always asserted): no crash, no hang/slow call
(> SLOW_SECONDS), no leak (allocated pool bytes back to the baseline after each
call and family, minus the array layer's bounded scalar-constant cache), no
corruption (a small computation right afterwards), and every exception is one of
TypeError/ValueError/IndexError/MemoryError/RuntimeError/NotImplementedError.
Message quality (the message names the public function and the argument) is
checked against known_gaps.json: a NEW gap fails, and test_no_message_gaps keeps the
file empty (wave 9 closed the last recorded gap; record one only with a reason in
docs/numpy-users.md 'Errors', marking that test xfail again).
"""
import collections
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = ["wrong_types", "numpy_for_array", "dtypes", "shapes", "axes", "sizes", "ops", "ndarray", "runtime"]
HARD = {"leak", "leak_call", "corrupted", "slow", "wrong_exception"}
MESSAGE = {"message_lacks_function", "message_lacks_argument"}


def run_family(family):
    env = dict(os.environ, NPURT_SIM_DEVICES=os.environ.get("NPURT_SIM_DEVICES", "2"))
    proc = subprocess.run([sys.executable, os.path.join(HERE, "surface_fuzz.py"), family], env=env,
                          capture_output=True, text=True, timeout=240)
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]
    return proc, lines


@pytest.fixture(scope="module")
def results():
    return {}


def known_gaps():
    with open(os.path.join(HERE, "known_gaps.json")) as f:
        return {k: set(v) for k, v in json.load(f).items()}


@pytest.mark.parametrize("family", FAMILIES)
def test_family(family, results):
    proc, lines = run_family(family)
    results[family] = lines
    assert proc.returncode == 0, f"{family}: interpreter died (rc {proc.returncode}):\n{proc.stderr[-3000:]}"
    done = [d for d in lines if d["kind"] == "done"]
    assert done and done[0]["calls"] > 0, f"{family}: sweep did not finish:\n{proc.stderr[-3000:]}"
    hard = [d for d in lines if d["kind"] in HARD]
    allowed = known_gaps().get("hard:" + family, set())
    new_hard = [d for d in hard if d.get("public") not in allowed]
    assert not new_hard, f"{family}: {len(new_hard)} contract violations, e.g. {new_hard[:5]}"
    gaps = {d["public"] for d in lines if d["kind"] in MESSAGE}
    new = gaps - known_gaps().get(family, set())
    assert not new, f"{family}: new message gaps (function/argument not named) in {sorted(new)}: " + \
        str([d for d in lines if d.get("public") in new][:5])


def test_no_message_gaps():
    gaps = known_gaps()
    left = {k: sorted(v) for k, v in gaps.items() if v}
    assert not left, f"message gaps left: {left}"


def summary(lines):
    return collections.Counter(d["kind"] for d in lines)
