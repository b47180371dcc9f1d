"""Pins how Python scalars become array values in nr.full / full_like / ones, nr.arange and the
operators' scalar constants (x + v): out-of-range ints, bools into ints, floats / NaN / inf into
ints, float16 and bfloat16 rounding (near a half-way point: float16 rounds once from the double,
bfloat16 through float32), complex values. The conversion and range rule is one C++ rule
(`npurt/fill_value.h`, bound as `_npurt._fill_attrs` and used by the scalar-constant cache);
these tables were recorded on the Python restatement it replaced (wave 10) and must not change.
Wave 11 changed two things on purpose: a complex fill_value into a real dtype and arange of a
complex dtype raise nr.UnsupportedDtypeError (still a TypeError), and 10**400 into an integral
operand names the op and the range (see OPERATOR).
Wave 12 changed three things on purpose (docs/numpy-users.md, "One conversion rule"): a float
into an integral dtype is truncated toward zero as numpy's full does (2.5 -> 2; NaN raises
nr.InvalidArgumentError, inf and out-of-range values nr.OutOfRangeError), float16 rounds the
double once (1 + 2**-11 + 2**-40 -> 1.0009765625, numpy's value, no longer 1.0 through float32),
and out-of-range ints raise nr.OutOfRangeError (still an OverflowError).

Each outcome is "<dtype> <first element>" or "<exception class>: <message prefix>" (the message
without the op's "(raised by ...)" suffix)."""
import math

import pytest

import npurt as nr


def outcome(make, first=True):
    try:
        r = make()
    except Exception as e:  # the class and text are what is pinned
        return f"{type(e).__name__}: {str(e).split(' (raised by')[0]}"
    values = r.numpy().ravel().tolist()
    return f"{r.dtype} {values[0]!r}" if first else f"{r.dtype} {values!r}"


def ids(table):
    return [f"row{i}" for i in range(len(table))]


def check(got, expected):
    if expected.split(" ", 1)[0].endswith(":"):  # an error: its class and message prefix
        assert got.startswith(expected), (got, expected)
    else:
        assert got == expected


FULL = [
    (True, 'bool', 'bool True'),
    (True, 'int8', 'int8 1'),
    (True, 'uint8', 'uint8 1'),
    (True, 'int32', 'int32 1'),
    (True, 'int64', 'int64 1'),
    (True, 'uint64', 'uint64 1'),
    (True, 'float16', 'float16 1.0'),
    (True, 'bfloat16', 'bfloat16 1.0'),
    (True, 'float32', 'float32 1.0'),
    (True, 'float64', 'float64 1.0'),
    (True, 'complex64', 'complex64 (1+0j)'),
    (-1, 'bool', 'bool True'),
    (-1, 'int8', 'int8 -1'),
    (-1, 'uint8', 'OutOfRangeError: npurt.full: Python int -1 is out of range for uint8'),
    (-1, 'int32', 'int32 -1'),
    (-1, 'int64', 'int64 -1'),
    (-1, 'uint64', 'OutOfRangeError: npurt.full: Python int -1 is out of range for uint64'),
    (-1, 'float16', 'float16 -1.0'),
    (-1, 'bfloat16', 'bfloat16 -1.0'),
    (-1, 'float32', 'float32 -1.0'),
    (-1, 'float64', 'float64 -1.0'),
    (-1, 'complex64', 'complex64 (-1+0j)'),
    (256, 'bool', 'bool True'),
    (256, 'int8', 'OutOfRangeError: npurt.full: Python int 256 is out of range for int8'),
    (256, 'uint8', 'OutOfRangeError: npurt.full: Python int 256 is out of range for uint8'),
    (256, 'int32', 'int32 256'),
    (256, 'int64', 'int64 256'),
    (256, 'uint64', 'uint64 256'),
    (256, 'float16', 'float16 256.0'),
    (256, 'bfloat16', 'bfloat16 256.0'),
    (256, 'float32', 'float32 256.0'),
    (256, 'float64', 'float64 256.0'),
    (256, 'complex64', 'complex64 (256+0j)'),
    (2**53 + 1, 'bool', 'bool True'),
    (2**53 + 1, 'int8', 'OutOfRangeError: npurt.full: Python int 9007199254740993 is out of range for int8'),
    (2**53 + 1, 'uint8', 'OutOfRangeError: npurt.full: Python int 9007199254740993 is out of range for uint'),
    (2**53 + 1, 'int32', 'OutOfRangeError: npurt.full: Python int 9007199254740993 is out of range for int3'),
    (2**53 + 1, 'int64', 'int64 9007199254740993'),
    (2**53 + 1, 'uint64', 'uint64 9007199254740993'),
    (2**53 + 1, 'float16', 'float16 inf'),
    (2**53 + 1, 'bfloat16', 'bfloat16 9007199254740992.0'),
    (2**53 + 1, 'float32', 'float32 9007199254740992.0'),
    (2**53 + 1, 'float64', 'float64 9007199254740992.0'),
    (2**53 + 1, 'complex64', 'complex64 (9007199254740992+0j)'),
    (2**63, 'bool', 'bool True'),
    (2**63, 'int8', 'OutOfRangeError: npurt.full: Python int 9223372036854775808 is out of range for i'),
    (2**63, 'uint8', 'OutOfRangeError: npurt.full: Python int 9223372036854775808 is out of range for u'),
    (2**63, 'int32', 'OutOfRangeError: npurt.full: Python int 9223372036854775808 is out of range for i'),
    (2**63, 'int64', 'OutOfRangeError: npurt.full: Python int 9223372036854775808 is out of range for i'),
    (2**63, 'uint64', 'uint64 9223372036854775808'),
    (2**63, 'float16', 'float16 inf'),
    (2**63, 'bfloat16', 'bfloat16 9.223372036854776e+18'),
    (2**63, 'float32', 'float32 9.223372036854776e+18'),
    (2**63, 'float64', 'float64 9.223372036854776e+18'),
    (2**63, 'complex64', 'complex64 (9.223372036854776e+18+0j)'),
    (2**64, 'bool', 'bool True'),
    (2**64, 'int8', 'OutOfRangeError: npurt.full: Python int 18446744073709551616 is out of range for '),
    (2**64, 'uint8', 'OutOfRangeError: npurt.full: Python int 18446744073709551616 is out of range for '),
    (2**64, 'int32', 'OutOfRangeError: npurt.full: Python int 18446744073709551616 is out of range for '),
    (2**64, 'int64', 'OutOfRangeError: npurt.full: Python int 18446744073709551616 is out of range for '),
    (2**64, 'uint64', 'OutOfRangeError: npurt.full: Python int 18446744073709551616 is out of range for '),
    (2**64, 'float16', 'float16 inf'),
    (2**64, 'bfloat16', 'bfloat16 1.8446744073709552e+19'),
    (2**64, 'float32', 'float32 1.8446744073709552e+19'),
    (2**64, 'float64', 'float64 1.8446744073709552e+19'),
    (2**64, 'complex64', 'complex64 (1.8446744073709552e+19+0j)'),
    (-2**63 - 1, 'bool', 'bool True'),
    (-2**63 - 1, 'int8', 'OutOfRangeError: npurt.full: Python int -9223372036854775809 is out of range for '),
    (-2**63 - 1, 'uint8', 'OutOfRangeError: npurt.full: Python int -9223372036854775809 is out of range for '),
    (-2**63 - 1, 'int32', 'OutOfRangeError: npurt.full: Python int -9223372036854775809 is out of range for '),
    (-2**63 - 1, 'int64', 'OutOfRangeError: npurt.full: Python int -9223372036854775809 is out of range for '),
    (-2**63 - 1, 'uint64', 'OutOfRangeError: npurt.full: Python int -9223372036854775809 is out of range for '),
    (-2**63 - 1, 'float16', 'float16 -inf'),
    (-2**63 - 1, 'bfloat16', 'bfloat16 -9.223372036854776e+18'),
    (-2**63 - 1, 'float32', 'float32 -9.223372036854776e+18'),
    (-2**63 - 1, 'float64', 'float64 -9.223372036854776e+18'),
    (-2**63 - 1, 'complex64', 'complex64 (-9.223372036854776e+18+0j)'),
    (10**400, 'bool', 'OverflowError: int too large to convert to float'),
    (10**400, 'int8', 'OutOfRangeError: npurt.full: Python int 10000000000000000000000000000000000000000'),
    (10**400, 'uint8', 'OutOfRangeError: npurt.full: Python int 10000000000000000000000000000000000000000'),
    (10**400, 'int32', 'OutOfRangeError: npurt.full: Python int 10000000000000000000000000000000000000000'),
    (10**400, 'int64', 'OutOfRangeError: npurt.full: Python int 10000000000000000000000000000000000000000'),
    (10**400, 'uint64', 'OutOfRangeError: npurt.full: Python int 10000000000000000000000000000000000000000'),
    (10**400, 'float16', 'OverflowError: int too large to convert to float'),
    (10**400, 'bfloat16', 'OverflowError: int too large to convert to float'),
    (10**400, 'float32', 'OverflowError: int too large to convert to float'),
    (10**400, 'float64', 'OverflowError: int too large to convert to float'),
    (10**400, 'complex64', 'OverflowError: int too large to convert to float'),
    (2.5, 'bool', 'bool True'),
    (2.5, 'int8', 'int8 2'),
    (2.5, 'uint8', 'uint8 2'),
    (2.5, 'int32', 'int32 2'),
    (2.5, 'int64', 'int64 2'),
    (2.5, 'uint64', 'uint64 2'),
    (2.5, 'float16', 'float16 2.5'),
    (2.5, 'bfloat16', 'bfloat16 2.5'),
    (2.5, 'float32', 'float32 2.5'),
    (2.5, 'float64', 'float64 2.5'),
    (2.5, 'complex64', 'complex64 (2.5+0j)'),
    (float('nan'), 'bool', 'bool True'),
    (float('nan'), 'int8', 'InvalidArgumentError: npurt.full: Python float nan cannot be converted to int8'),
    (float('nan'), 'uint8', 'InvalidArgumentError: npurt.full: Python float nan cannot be converted to uint8'),
    (float('nan'), 'int32', 'InvalidArgumentError: npurt.full: Python float nan cannot be converted to int32'),
    (float('nan'), 'int64', 'InvalidArgumentError: npurt.full: Python float nan cannot be converted to int64'),
    (float('nan'), 'uint64', 'InvalidArgumentError: npurt.full: Python float nan cannot be converted to uint64'),
    (float('nan'), 'float16', 'float16 nan'),
    (float('nan'), 'bfloat16', 'bfloat16 nan'),
    (float('nan'), 'float32', 'float32 nan'),
    (float('nan'), 'float64', 'float64 nan'),
    (float('nan'), 'complex64', 'complex64 (nan+0j)'),
    (float('inf'), 'bool', 'bool True'),
    (float('inf'), 'int8', 'OutOfRangeError: npurt.full: Python float inf is out of range for int8'),
    (float('inf'), 'uint8', 'OutOfRangeError: npurt.full: Python float inf is out of range for uint8'),
    (float('inf'), 'int32', 'OutOfRangeError: npurt.full: Python float inf is out of range for int32'),
    (float('inf'), 'int64', 'OutOfRangeError: npurt.full: Python float inf is out of range for int64'),
    (float('inf'), 'uint64', 'OutOfRangeError: npurt.full: Python float inf is out of range for uint64'),
    (float('inf'), 'float16', 'float16 inf'),
    (float('inf'), 'bfloat16', 'bfloat16 inf'),
    (float('inf'), 'float32', 'float32 inf'),
    (float('inf'), 'float64', 'float64 inf'),
    (float('inf'), 'complex64', 'complex64 (inf+0j)'),
    (0.1, 'bool', 'bool True'),
    (0.1, 'int8', 'int8 0'),
    (0.1, 'uint8', 'uint8 0'),
    (0.1, 'int32', 'int32 0'),
    (0.1, 'int64', 'int64 0'),
    (0.1, 'uint64', 'uint64 0'),
    (0.1, 'float16', 'float16 0.0999755859375'),
    (0.1, 'bfloat16', 'bfloat16 0.10009765625'),
    (0.1, 'float32', 'float32 0.10000000149011612'),
    (0.1, 'float64', 'float64 0.1'),
    (0.1, 'complex64', 'complex64 (0.10000000149011612+0j)'),
    (65520.0, 'bool', 'bool True'),
    (65520.0, 'int8', 'OutOfRangeError: npurt.full: Python float 65520.0 is out of range for int8'),
    (65520.0, 'uint8', 'OutOfRangeError: npurt.full: Python float 65520.0 is out of range for uint8'),
    (65520.0, 'int32', 'int32 65520'),
    (65520.0, 'int64', 'int64 65520'),
    (65520.0, 'uint64', 'uint64 65520'),
    (65520.0, 'float16', 'float16 inf'),
    (65520.0, 'bfloat16', 'bfloat16 65536.0'),
    (65520.0, 'float32', 'float32 65520.0'),
    (65520.0, 'float64', 'float64 65520.0'),
    (65520.0, 'complex64', 'complex64 (65520+0j)'),
    (1 + 2**-11 + 2**-40, 'bool', 'bool True'),
    (1 + 2**-11 + 2**-40, 'int8', 'int8 1'),
    (1 + 2**-11 + 2**-40, 'uint8', 'uint8 1'),
    (1 + 2**-11 + 2**-40, 'int32', 'int32 1'),
    (1 + 2**-11 + 2**-40, 'int64', 'int64 1'),
    (1 + 2**-11 + 2**-40, 'uint64', 'uint64 1'),
    (1 + 2**-11 + 2**-40, 'float16', 'float16 1.0009765625'),
    (1 + 2**-11 + 2**-40, 'bfloat16', 'bfloat16 1.0'),
    (1 + 2**-11 + 2**-40, 'float32', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'float64', 'float64 1.0004882812509095'),
    (1 + 2**-11 + 2**-40, 'complex64', 'complex64 (1.00048828125+0j)'),
    (1 + 2**-8 + 2**-40, 'bool', 'bool True'),
    (1 + 2**-8 + 2**-40, 'int8', 'int8 1'),
    (1 + 2**-8 + 2**-40, 'uint8', 'uint8 1'),
    (1 + 2**-8 + 2**-40, 'int32', 'int32 1'),
    (1 + 2**-8 + 2**-40, 'int64', 'int64 1'),
    (1 + 2**-8 + 2**-40, 'uint64', 'uint64 1'),
    (1 + 2**-8 + 2**-40, 'float16', 'float16 1.00390625'),
    (1 + 2**-8 + 2**-40, 'bfloat16', 'bfloat16 1.0'),
    (1 + 2**-8 + 2**-40, 'float32', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'float64', 'float64 1.0039062500009095'),
    (1 + 2**-8 + 2**-40, 'complex64', 'complex64 (1.00390625+0j)'),
    ((1+2j), 'bool', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'int8', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'uint8', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'int32', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'int64', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'uint64', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'float16', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'bfloat16', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'float32', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'float64', "UnsupportedDtypeError: npurt.full: argument 'fill_value': a complex value needs a compl"),
    ((1+2j), 'complex64', 'complex64 (1+2j)'),
]
# 10**400 into an integral dtype: wave 10's constant cache raised float()'s OverflowError 'int too
# large to convert to float' where nr.full named the op and the range; the one rule names them here too.
OPERATOR = [
    (True, 'bool', "UnsupportedDtypeError: npurt.add: argument 'x1': dtype bool is not supported (supported"),
    (True, 'int8', 'int8 1'),
    (True, 'uint8', 'uint8 1'),
    (True, 'int64', 'int64 1'),
    (True, 'uint64', 'uint64 1'),
    (True, 'float16', 'float16 1.0'),
    (True, 'bfloat16', 'bfloat16 1.0'),
    (True, 'float32', 'float32 1.0'),
    (-1, 'bool', 'int64 -1'),
    (-1, 'int8', 'int8 -1'),
    (-1, 'uint8', 'OutOfRangeError: npurt.add: Python int -1 is out of range for uint8'),
    (-1, 'int64', 'int64 -1'),
    (-1, 'uint64', 'OutOfRangeError: npurt.add: Python int -1 is out of range for uint64'),
    (-1, 'float16', 'float16 -1.0'),
    (-1, 'bfloat16', 'bfloat16 -1.0'),
    (-1, 'float32', 'float32 -1.0'),
    (256, 'bool', 'int64 256'),
    (256, 'int8', 'OutOfRangeError: npurt.add: Python int 256 is out of range for int8'),
    (256, 'uint8', 'OutOfRangeError: npurt.add: Python int 256 is out of range for uint8'),
    (256, 'int64', 'int64 256'),
    (256, 'uint64', 'uint64 256'),
    (256, 'float16', 'float16 256.0'),
    (256, 'bfloat16', 'bfloat16 256.0'),
    (256, 'float32', 'float32 256.0'),
    (2**53 + 1, 'bool', 'int64 9007199254740993'),
    (2**53 + 1, 'int8', 'OutOfRangeError: npurt.add: Python int 9007199254740993 is out of range for int8'),
    (2**53 + 1, 'uint8', 'OutOfRangeError: npurt.add: Python int 9007199254740993 is out of range for uint8'),
    (2**53 + 1, 'int64', 'int64 9007199254740993'),
    (2**53 + 1, 'uint64', 'uint64 9007199254740993'),
    (2**53 + 1, 'float16', 'float16 inf'),
    (2**53 + 1, 'bfloat16', 'bfloat16 9007199254740992.0'),
    (2**53 + 1, 'float32', 'float32 9007199254740992.0'),
    (2**63, 'bool', 'OutOfRangeError: npurt.add: Python int 9223372036854775808 is out of range for in'),
    (2**63, 'int8', 'OutOfRangeError: npurt.add: Python int 9223372036854775808 is out of range for in'),
    (2**63, 'uint8', 'OutOfRangeError: npurt.add: Python int 9223372036854775808 is out of range for ui'),
    (2**63, 'int64', 'OutOfRangeError: npurt.add: Python int 9223372036854775808 is out of range for in'),
    (2**63, 'uint64', 'uint64 9223372036854775808'),
    (2**63, 'float16', 'float16 inf'),
    (2**63, 'bfloat16', 'bfloat16 9.223372036854776e+18'),
    (2**63, 'float32', 'float32 9.223372036854776e+18'),
    (2**64, 'bool', 'OutOfRangeError: npurt.add: Python int 18446744073709551616 is out of range for i'),
    (2**64, 'int8', 'OutOfRangeError: npurt.add: Python int 18446744073709551616 is out of range for i'),
    (2**64, 'uint8', 'OutOfRangeError: npurt.add: Python int 18446744073709551616 is out of range for u'),
    (2**64, 'int64', 'OutOfRangeError: npurt.add: Python int 18446744073709551616 is out of range for i'),
    (2**64, 'uint64', 'OutOfRangeError: npurt.add: Python int 18446744073709551616 is out of range for u'),
    (2**64, 'float16', 'float16 inf'),
    (2**64, 'bfloat16', 'bfloat16 1.8446744073709552e+19'),
    (2**64, 'float32', 'float32 1.8446744073709552e+19'),
    (-2**63 - 1, 'bool', 'OutOfRangeError: npurt.add: Python int -9223372036854775809 is out of range for i'),
    (-2**63 - 1, 'int8', 'OutOfRangeError: npurt.add: Python int -9223372036854775809 is out of range for i'),
    (-2**63 - 1, 'uint8', 'OutOfRangeError: npurt.add: Python int -9223372036854775809 is out of range for u'),
    (-2**63 - 1, 'int64', 'OutOfRangeError: npurt.add: Python int -9223372036854775809 is out of range for i'),
    (-2**63 - 1, 'uint64', 'OutOfRangeError: npurt.add: Python int -9223372036854775809 is out of range for u'),
    (-2**63 - 1, 'float16', 'float16 -inf'),
    (-2**63 - 1, 'bfloat16', 'bfloat16 -9.223372036854776e+18'),
    (-2**63 - 1, 'float32', 'float32 -9.223372036854776e+18'),
    (10**400, 'bool', 'OutOfRangeError: npurt.add: Python int 1000000000000'),  # was float()'s 'int too large'
    (10**400, 'int8', 'OutOfRangeError: npurt.add: Python int 1000000000000'),  # was float()'s 'int too large'
    (10**400, 'uint8', 'OutOfRangeError: npurt.add: Python int 1000000000000'),  # was float()'s 'int too large'
    (10**400, 'int64', 'OutOfRangeError: npurt.add: Python int 1000000000000'),  # was float()'s 'int too large'
    (10**400, 'uint64', 'OutOfRangeError: npurt.add: Python int 1000000000000'),  # was float()'s 'int too large'
    (10**400, 'float16', 'OverflowError: int too large to convert to float'),
    (10**400, 'bfloat16', 'OverflowError: int too large to convert to float'),
    (10**400, 'float32', 'OverflowError: int too large to convert to float'),
    (2.5, 'bool', 'float32 2.5'),
    (2.5, 'int8', 'float32 2.5'),
    (2.5, 'uint8', 'float32 2.5'),
    (2.5, 'int64', 'float32 2.5'),
    (2.5, 'uint64', 'float32 2.5'),
    (2.5, 'float16', 'float16 2.5'),
    (2.5, 'bfloat16', 'bfloat16 2.5'),
    (2.5, 'float32', 'float32 2.5'),
    (float('nan'), 'bool', 'float32 nan'),
    (float('nan'), 'int8', 'float32 nan'),
    (float('nan'), 'uint8', 'float32 nan'),
    (float('nan'), 'int64', 'float32 nan'),
    (float('nan'), 'uint64', 'float32 nan'),
    (float('nan'), 'float16', 'float16 nan'),
    (float('nan'), 'bfloat16', 'bfloat16 nan'),
    (float('nan'), 'float32', 'float32 nan'),
    (float('inf'), 'bool', 'float32 inf'),
    (float('inf'), 'int8', 'float32 inf'),
    (float('inf'), 'uint8', 'float32 inf'),
    (float('inf'), 'int64', 'float32 inf'),
    (float('inf'), 'uint64', 'float32 inf'),
    (float('inf'), 'float16', 'float16 inf'),
    (float('inf'), 'bfloat16', 'bfloat16 inf'),
    (float('inf'), 'float32', 'float32 inf'),
    (0.1, 'bool', 'float32 0.10000000149011612'),
    (0.1, 'int8', 'float32 0.10000000149011612'),
    (0.1, 'uint8', 'float32 0.10000000149011612'),
    (0.1, 'int64', 'float32 0.10000000149011612'),
    (0.1, 'uint64', 'float32 0.10000000149011612'),
    (0.1, 'float16', 'float16 0.0999755859375'),
    (0.1, 'bfloat16', 'bfloat16 0.10009765625'),
    (0.1, 'float32', 'float32 0.10000000149011612'),
    (65520.0, 'bool', 'float32 65520.0'),
    (65520.0, 'int8', 'float32 65520.0'),
    (65520.0, 'uint8', 'float32 65520.0'),
    (65520.0, 'int64', 'float32 65520.0'),
    (65520.0, 'uint64', 'float32 65520.0'),
    (65520.0, 'float16', 'float16 inf'),
    (65520.0, 'bfloat16', 'bfloat16 65536.0'),
    (65520.0, 'float32', 'float32 65520.0'),
    (1 + 2**-11 + 2**-40, 'bool', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'int8', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'uint8', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'int64', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'uint64', 'float32 1.00048828125'),
    (1 + 2**-11 + 2**-40, 'float16', 'float16 1.0009765625'),
    (1 + 2**-11 + 2**-40, 'bfloat16', 'bfloat16 1.0'),
    (1 + 2**-11 + 2**-40, 'float32', 'float32 1.00048828125'),
    (1 + 2**-8 + 2**-40, 'bool', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'int8', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'uint8', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'int64', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'uint64', 'float32 1.00390625'),
    (1 + 2**-8 + 2**-40, 'float16', 'float16 1.00390625'),
    (1 + 2**-8 + 2**-40, 'bfloat16', 'bfloat16 1.0'),
    (1 + 2**-8 + 2**-40, 'float32', 'float32 1.00390625'),
    ((1+2j), 'bool', 'complex64 (1+2j)'),
    ((1+2j), 'int8', 'complex64 (1+2j)'),
    ((1+2j), 'uint8', 'complex64 (1+2j)'),
    ((1+2j), 'int64', 'complex64 (1+2j)'),
    ((1+2j), 'uint64', 'complex64 (1+2j)'),
    ((1+2j), 'float16', 'complex64 (1+2j)'),
    ((1+2j), 'bfloat16', 'complex64 (1+2j)'),
    ((1+2j), 'float32', 'complex64 (1+2j)'),
]

ARANGE = [
    (0, 300, 100, 'uint8', 'uint8 [0, 100, 200]'),
    (0, 256, 51, 'uint8', 'uint8 [0, 51, 102, 153, 204, 255]'),
    (-1, 2, 1, 'uint8', 'OutOfRangeError: npurt.arange: Python int -1 is out of range for uint8'),
    (250, 260, 5, 'uint8', 'uint8 [250, 255]'),
    (2**63 - 2, 2**63 + 1, 1, None, 'OutOfRangeError: npurt.arange: Python int 9223372036854775808 is out of range for'),
    (2**63 - 2, 2**63, 1, None, 'int64 [9223372036854775806, 9223372036854775807]'),
    (0, 2**64, 2**63, 'uint64', "InvalidArgumentError: npurt.ops.arange: argument 'int_step': int 9223372036854775808 d"),
    (-2**63, -2**63 + 2, 1, None, 'int64 [-9223372036854775808, -9223372036854775807]'),
    (True, 3, 1, 'int8', 'int8 [1, 2]'),
    (0.5, 3, 1, 'int32', 'int32 [0, 1, 2]'),
    (0, 3, 0.5, 'int8', 'int8 [0, 0, 1, 1, 2, 2]'),
    (0, 5, 2, 'float16', 'float16 [0.0, 2.0, 4.0]'),
    (0.1, 0.5, 0.1, 'float64', 'float64 [0.1, 0.2, 0.30000000000000004, 0.4]'),
    (0, 2**24 + 3, 2**24 + 1, 'float32', 'float32 [0.0, 16777216.0]'),
    (3, 0, -1, 'int8', 'int8 [3, 2, 1]'),
    (-128, -125, 1, 'int8', 'int8 [-128, -127, -126]'),
    (0, 10**30, 10**29, None, 'OutOfRangeError: npurt.arange: Python int 900000000000000000000000000000 is out o'),
    (5, 5, 1, 'uint8', 'uint8 []'),
    (10**400, 10**400, 1, 'int8', "InvalidArgumentError: npurt.ops.arange: argument 'int_start': int 10000000000000000000"),
    (0, 1, 1, 'complex64', "UnsupportedDtypeError: npurt.arange: argument 'dtype': complex dtypes are not supported"),
    (0, 2, 1, 'bool', 'bool [False, True]'),
]


@pytest.mark.parametrize("value,dtype,expected", FULL, ids=ids(FULL))
def test_full(value, dtype, expected):
    check(outcome(lambda: nr.full((2,), value, dtype=getattr(nr, dtype))), expected)


@pytest.mark.parametrize("value,dtype,expected", FULL, ids=ids(FULL))
def test_full_like_takes_the_same_rule(value, dtype, expected):
    x = nr.zeros((2,), dtype=getattr(nr, dtype))
    # full_like's kernel errors name it; its range errors name npurt.full, which it calls
    check(outcome(lambda: nr.full_like(x, value)).replace("npurt.full_like:", "npurt.full:"), expected)


@pytest.mark.parametrize("value,dtype,expected", [row for row in FULL if row[0] is True])
def test_ones_is_full_of_one(value, dtype, expected):
    assert outcome(lambda: nr.ones((2,), dtype=getattr(nr, dtype))) == expected  # 1 and True fill alike


@pytest.mark.parametrize("value,dtype,expected", OPERATOR, ids=ids(OPERATOR))
def test_operator_constant(value, dtype, expected):
    check(outcome(lambda: nr.zeros((2,), dtype=getattr(nr, dtype)) + value), expected)


@pytest.mark.parametrize("start,stop,step,dtype,expected", ARANGE, ids=ids(ARANGE))
def test_arange(start, stop, step, dtype, expected):
    dt = None if dtype is None else getattr(nr, dtype)
    check(outcome(lambda: nr.arange(start, stop, step, dtype=dt), first=False), expected)


def test_full_infers_the_dtype_of_the_value():
    assert outcome(lambda: nr.full((2,), 7)) == "int64 7"
    assert outcome(lambda: nr.full((2,), True)) == "bool True"
    assert outcome(lambda: nr.full((2,), 0.5)) == "float32 0.5"
    assert outcome(lambda: nr.full((2,), 1 - 2j)) == "complex64 (1-2j)"
    assert outcome(lambda: nr.full((2,), 2 ** 63)).startswith("OutOfRangeError: npurt.full: Python int 9223372036854775808")
    assert math.isnan(nr.full((2,), float("nan")).numpy()[0])


def test_full_refuses_non_scalars():
    for bad in ("1", None, [1]):
        with pytest.raises(TypeError, match="npurt.full: argument 'fill_value': expected a Python bool, int, float"):
            nr.full((2,), bad)
