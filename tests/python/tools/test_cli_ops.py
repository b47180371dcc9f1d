"""`npurt ops`: list, describe, plan for given shapes; exit codes."""
from npurt.__main__ import main


def test_list_has_builtin_ops(capsys):
    assert main(["ops"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("add ") for line in lines) and any(line.startswith("matmul ") for line in lines)
    assert lines[-1].endswith(" ops") and int(lines[-1].split()[0]) == len(lines) - 1


def test_describe_with_and_without_shapes(capsys):
    assert main(["ops", "reduce_sum"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("reduce_sum(") and "axis" in out and "Kernel:" in out
    assert main(["ops", "add", "--shape", "4,1024", "--shape", "4,1024", "--dtype", "float16"]) == 0
    out = capsys.readouterr().out
    assert "numBlocks" in out or "num_blocks" in out
    assert "[4, 1024]" in out or "(4, 1024)" in out


def test_errors_have_exit_codes(capsys):
    assert main(["ops", "ad"]) == 2
    assert "did you mean: add" in capsys.readouterr().err
    assert main(["ops", "add", "--shape", "4,x"]) == 2
    assert "argument '--shape'" in capsys.readouterr().err
    assert main(["ops", "add", "--shape", "4", "--shape", "5"]) == 1  # shapes the op rejects
    assert "add rejects these inputs" in capsys.readouterr().err
    assert main(["ops"]) == 0  # still usable
