"""Every function of the array API standard, drawn by hypothesis on npurt, against array-api-strict.

The cases live in tools/conformance/cases.py (the same table the conformance
run scores). Functions with a known, documented gap are listed with the
reason in tools/conformance/known_gaps.txt: those are expected to fail (xfail;
some gaps show only on some draws), everything else must pass.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "conformance"))

pytest.importorskip("array_api_strict")
from hypothesis.extra.array_api import make_strategies_namespace  # noqa: E402

import npurt as nr  # noqa: E402
from cases import build_cases  # noqa: E402
from run import STANDARD, check_case, known_gaps, reference_namespace  # noqa: E402

xs = reference_namespace()

XPS = make_strategies_namespace(nr)
KNOWN = known_gaps()
EXAMPLES = int(os.environ.get("NPURT_CONFORMANCE_EXAMPLES", "10"))


def test_reference_is_the_standard_npurt_implements():
    assert nr.__array_api_version__ == STANDARD
    assert xs.__array_api_version__ == STANDARD  # not array-api-strict's default (2025.12 in 2.6)
    assert isinstance(xs.meshgrid(xs.asarray([1.0])), list)  # a tuple from 2025.12


@pytest.mark.parametrize("case", build_cases(), ids=lambda c: c.name)
def test_function_matches_reference(case):
    failure = check_case(case, nr, xs, XPS, EXAMPLES)
    if case.name in KNOWN and failure is not None:
        pytest.xfail(f"known gap ({KNOWN[case.name]}): {failure}")
    assert failure is None, failure
