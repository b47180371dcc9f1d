"""einops' array-API entry points (einops.array_api, pinned in tools/test.sh) on npurt arrays
against the same calls on numpy arrays: rearrange (permute, merge, split axes), reduce (mean,
max pooling, sum, prod, min), repeat and pack, all through x.__array_namespace__()."""
import pytest

from third_party_compare import assert_same, both, rand

ea = pytest.importorskip("einops.array_api", reason="einops not installed (tools/test.sh installs it)")

CASES = {
    "rearrange_permute": lambda x: ea.rearrange(x, "b c h w -> b h w c"),
    "rearrange_merge": lambda x: ea.rearrange(x, "b c h w -> (b c) (h w)"),
    "rearrange_split": lambda x: ea.rearrange(x, "b c h (w2 w) -> b c (h w2) w", w2=2),
    "reduce_mean": lambda x: ea.reduce(x, "b c h w -> b c", "mean"),
    "reduce_max_pool": lambda x: ea.reduce(x, "b c (h h2) (w w2) -> b c h w", "max", h2=2, w2=2),
    "reduce_sum": lambda x: ea.reduce(x, "b c h w -> c", "sum"),
    "reduce_prod": lambda x: ea.reduce(x, "b c h w -> b c h", "prod"),  # 6 factors: no float16 overflow
    "reduce_min": lambda x: ea.reduce(x, "b c h w -> h", "min"),
    "repeat_new_axis": lambda x: ea.repeat(x, "b c h w -> b c h w r", r=3),
    "repeat_into_axis": lambda x: ea.repeat(x, "b c h w -> (b r) c h w", r=2),
    "pack": lambda x: ea.pack([x, x[:, :1]], "b * w")[0],
}


@pytest.mark.parametrize("dtype", ("float32", "float16", "int32"))
@pytest.mark.parametrize("name", CASES)
def test_einops(name, dtype):
    got, want = both(CASES[name], rand((2, 3, 4, 6), dtype, 1))
    assert_same(got, want, name)
