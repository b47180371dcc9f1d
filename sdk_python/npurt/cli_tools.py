"""npurt.cli_tools: the tools' subcommands of ``python -m npurt`` (compare, profile, bench, ops).

``__main__`` calls ``add_subcommands(subparsers)``; each subcommand sets
``func`` (args -> exit code). Modules are imported lazily by the parsers'
functions so that ``npurt compare`` never initialises a device.
"""
from __future__ import annotations

from . import benchmarks, cli_compare, cli_ops, cli_profile

_SUBCOMMANDS = (cli_compare, cli_profile, cli_ops, benchmarks)


def add_subcommands(subparsers) -> None:
    for module in _SUBCOMMANDS:
        module.add_parser(subparsers)


def run(args):
    """Runs a parsed tools subcommand; None when `args` is not one of ours."""
    func = getattr(args, "func", None)
    return None if func is None else func(args)
