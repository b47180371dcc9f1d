"""The npurt command line: ``python -m npurt demo`` and ``python -m npurt info``.

Also installed as the console script ``npurt``.
"""
import argparse
import sys


def _parser():
    p = argparse.ArgumentParser(prog="npurt", description="npurt runtime and NumPy-style SDK for Ascend NPUs")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="a tour: devices, arrays, streams, events, memory pool")
    demo.add_argument("sections", nargs="*", metavar="SECTION",
                      help="run only these sections (names as listed by --list)")
    demo.add_argument("--list", action="store_true", help="list the demo sections and exit")
    sub.add_parser("info", help="version, backends (and why one is unavailable), devices, chip profiles")
    from .cli_tools import add_subcommands  # compare, profile (owner: tools)

    add_subcommands(sub)
    from .scaffold import add_subcommand as add_new_op  # new-op (owner: registry)

    add_new_op(sub)
    return p


def main(argv=None):
    from .cmake_dir import handle_argv  # --cmake-dir (owner: packaging)

    if handle_argv(sys.argv[1:] if argv is None else argv):
        return 0
    args = _parser().parse_args(argv)
    if args.command == "demo":
        from . import demo

        return demo.main(args.sections, list_only=args.list)
    if args.command == "info":
        from . import info

        return info.main()
    if getattr(args, "func", None) is not None:  # subcommands of cli_tools
        return args.func(args)
    _parser().print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
