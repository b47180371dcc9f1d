"""``python -m npurt ops``: list the registered ops, or describe one.

    npurt ops                       every op with its first doc line
    npurt ops add                   signature, inputs, attributes, kernel
    npurt ops add --shape 4,1024 --shape 4,1024 [--dtype float16] [--attr axis=[-1]]
                                    + the plan for those inputs: output shapes,
                                    numBlocks, tiling and workspace bytes
    npurt ops --load libmy_ops.so   load a plugin first

Exit codes: 0, 1 for an op that rejects the given inputs, 2 for a usage error
(unknown op, malformed --shape/--attr).
"""
from __future__ import annotations

import ast
import sys


def _shape(text):
    text = text.strip()
    if text in ("", "()", "scalar"):
        return ()
    try:
        return tuple(int(d) for d in text.strip("()[]").split(",") if d.strip())
    except ValueError:
        raise ValueError(f"npurt ops: argument '--shape': {text!r} is not a comma-separated list of ints") from None


def _attr(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"npurt ops: argument '--attr': {text!r} is not NAME=VALUE")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value  # a bare string, e.g. --attr dtype=float16


def main(args, out=None):
    out = out if out is not None else sys.stdout  # resolved per call (capture, redirection)
    import npurt as nr

    for lib in args.load or ():
        nr.ops.load_library(lib)
    names = nr.ops.list()
    if not args.name:
        for n in names:
            doc = (nr.ops.get(n).__doc__ or "").strip().splitlines()
            print(f"{n:<24} {doc[0] if doc else ''}", file=out)
        print(f"{len(names)} ops", file=out)
        return 0
    if args.name not in names:
        close = [n for n in names if args.name in n or n in args.name][:5]
        hint = f" (did you mean: {', '.join(close)}?)" if close else ""
        print(f"npurt ops: argument 'name': no op {args.name!r}{hint}", file=sys.stderr)
        return 2
    try:
        shapes = [_shape(s) for s in args.shape or ()]
        attrs = dict(_attr(a) for a in args.attr or ())
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    f = nr.ops.get(args.name)
    print(f"{args.name}{f.__signature__}", file=out)
    print(f.__doc__, file=out)
    if shapes or attrs:
        try:
            print(nr.ops.describe(args.name, *shapes, dtype=args.dtype, **attrs), file=out)
        except (ValueError, TypeError, nr.NpurtError) as e:
            print(f"npurt ops: {args.name} rejects these inputs: {e}", file=sys.stderr)
            return 1
    return 0


def add_parser(subparsers):
    p = subparsers.add_parser("ops", help="list the registered ops or describe one (and its plan for given shapes)")
    p.add_argument("name", nargs="?", help="the op to describe (default: list all)")
    p.add_argument("--shape", action="append", metavar="D0,D1,...", help="an input shape (repeat per input)")
    p.add_argument("--dtype", default="float32", help="dtype of the --shape inputs (default float32)")
    p.add_argument("--attr", action="append", metavar="NAME=VALUE", help="an attribute (Python literal)")
    p.add_argument("--load", action="append", metavar="LIB", help="load an op plugin library first")
    p.set_defaults(func=main)
