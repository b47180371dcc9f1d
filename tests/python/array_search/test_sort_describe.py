"""The sort family's tiling plans read back through nr.ops.describe: each op's
describe function decodes its own tiling struct (tiling_as), so the printed
plan carries the shape the plan was made for; a describe paired with another
op's tiling would print wrong numbers or raise."""
import pytest

import npurt as nr


def plan_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip().startswith("tiling plan:")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize(
    "op, inputs, kw, expect",
    [
        ("sort_block", [(4, 1000)], {}, "rows=4 n=1000 "),
        ("sort_merge", [(3, 33), (3, 33)], {"width": 16}, "rows=3 n=33 width=16 "),
        ("vsort_block", [(5, 15)], {}, "rows=5 n=15 "),
        ("vsort_merge", [(2, 1023)], {"dtype": "uint64"}, "rows=2 n=1023 "),
        ("vsort_extract", [(2, 7), (2, 7)], {}, "rows=2 n=7 "),
        ("unique_count", [(1000,)], {}, "n=1000 blocks="),
        ("vunique_count", [(33,)], {}, "n=33 blocks="),
        ("searchsorted", [(100,), (50,)], {}, "n1=100 n2=50 "),
    ],
)
def test_plan_names_the_shape(op, inputs, kw, expect):
    if op == "sort_merge":
        text = nr.ops.describe(op, nr.zeros(inputs[0]), nr.zeros(inputs[1], dtype="int64"), **kw)
    elif op == "vsort_extract":
        text = nr.ops.describe(op, nr.zeros(inputs[0], dtype="uint64"), nr.zeros(inputs[1]), **kw)
    else:
        text = nr.ops.describe(op, *inputs, **kw)
    assert expect in plan_line(text)


def test_unique_blocks_cover_n():
    # blocks * per_core must cover n for both unique paths (same split, other alignment).
    for op, align in (("unique_count", 64), ("vunique_count", 128)):
        fields = dict(f.split("=") for f in plan_line(nr.ops.describe(op, (100003,)))[len("tiling plan: "):].split())
        n, blocks, per_core = int(fields["n"]), int(fields["blocks"]), int(fields["per_core"])
        assert n == 100003 and per_core % align == 0
        assert (blocks - 1) * per_core < n <= blocks * per_core
