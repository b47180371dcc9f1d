"""Lowering for nr.fuse: the traced SSA graph (_fuse_trace.Graph) becomes the
int-list program of the ``fused_elementwise`` op (kernels/fused/fused_program.h).

Steps: keep the nodes the result depends on; give every node one instruction
(Python numbers become scalar operands, e.g. ``x * 2`` -> Muls, or a Duplicate
into a register where the vector unit has no scalar form); then allocate
registers by liveness (a destination may reuse a source that dies there, which
every kernel instruction allows). Constants are rounded to the dtype the
unfused expression would give them (the Python-scalar rule), then stored as
float32 bits. Scalar *arguments* of the fused function are left as patch
points filled in at each call, so one program serves every scalar value.
"""
import math
import struct

OPC = {n: i + 1 for i, n in enumerate(
    "add sub mul div max min adds muls maxs mins dup exp ln sqrt abs neg copy tanh sin cos cmp cmps select "
    "round_f16 round_bf16".split())}
MAX_INPUTS, MAX_REGS, MAX_INSTR = 4, 12, 96
_SCALAR_FORM = {"add": "adds", "mul": "muls", "max": "maxs", "min": "mins"}


class TooLarge(Exception):
    """The expression exceeds the kernel's limits: the caller runs it unfused."""


def float_bits(v, dtype_name="float32"):
    """IEEE float32 bits (as a signed int32) of v rounded to dtype_name first."""
    v = float(v)
    if dtype_name == "float16" and math.isfinite(v):
        try:
            v = struct.unpack("<e", struct.pack("<e", v))[0]
        except OverflowError:
            v = math.copysign(math.inf, v)
    try:
        bits = struct.unpack("<I", struct.pack("<f", v))[0]
    except OverflowError:
        bits = struct.unpack("<I", struct.pack("<f", math.copysign(math.inf, v)))[0]
    if dtype_name == "bfloat16" and not math.isnan(v):  # round to nearest even on the top 16 bits
        bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000) & 0xFFFFFFFF
    return bits - (1 << 32) if bits >= (1 << 31) else bits


class _Emitter:
    def __init__(self, slots):
        self.slots = slots       # input arg index -> input slot
        self.code = []           # (opcode name, sources (vid >= 0 or ~slot), cmp mode, const)
        self.value = {}          # node -> operand (vid or ~slot) for register-valued nodes

    def emit(self, op, *src, mode=0, const=None):
        self.code.append((op, src, mode, const))
        return len(self.code) - 1

    def operand(self, node, dtype_name):
        """A register operand for node: constants and parameters get a Duplicate."""
        if node.op in ("const", "param"):
            return self.emit("dup", const=(node, dtype_name))
        return self.value[node]

    def lower(self, n):
        dt = n.dtype.name if n.dtype is not None else "float32"
        if n.op == "input":
            return ~self.slots[n.arg]
        if n.op == "dup":
            return self.emit("dup", const=(n.arg, dt))
        args = n.args
        if n.op in ("add", "sub", "mul", "div", "max", "min"):
            return self._binary(n, dt)
        if n.op == "cmp":
            a, b = args
            cdt = a.dtype.name if a.dtype is not None else "float32"
            if b.op in ("const", "param"):
                return self.emit("cmps", self.value[a], mode=n.arg, const=(b, cdt))
            return self.emit("cmp", self.value[a], self.value[b], mode=n.arg)
        if n.op == "select":
            c, a, b = args
            return self.emit("select", self.value[c], self.operand(a, dt), self.operand(b, dt))
        if n.op == "round":
            return self.emit("round_f16" if n.arg == "float16" else "round_bf16", self.value[args[0]])
        return self.emit(n.op, self.operand(args[0], dt))

    def _binary(self, n, dt):
        a, b = n.args
        ka, kb = a.op in ("const", "param"), b.op in ("const", "param")
        if n.op in _SCALAR_FORM and (ka or kb):
            arr, k = (b, a) if ka else (a, b)
            return self.emit(_SCALAR_FORM[n.op], self.operand(arr, dt), const=(k, dt))
        if n.op == "sub" and kb and b.op == "const":  # x - c == x + (-c) exactly
            return self.emit("adds", self.value[a], const=(-b.arg, dt))
        return self.emit(n.op, self.operand(a, dt), self.operand(b, dt))


def _allocate(code, n_in, result_vid):
    """Virtual ids -> temporary slots by liveness; returns (mapping, num_regs)."""
    last = {}
    for t, (_op, src, _m, _k) in enumerate(code):
        for s in src:
            if s >= 0:
                last[s] = t
    last[result_vid] = len(code)
    free, reg_of, used = [], {}, 0
    for t, (_op, src, _m, _k) in enumerate(code):
        for s in set(x for x in src if x >= 0 and last.get(x) == t):
            free.append(reg_of[s])
        if free:
            reg_of[t] = free.pop()
        else:
            reg_of[t], used = used, used + 1
        if t not in last:  # never read (cannot happen for kept nodes); release at once
            free.append(reg_of[t])
    return {v: n_in + r for v, r in reg_of.items()}, used


def lower(graph, result):
    """Program words, patch points [(word, scalar arg index, dtype)] and the input arg order."""
    keep, stack = set(), [result]
    while stack:
        n = stack.pop()
        if n not in keep:
            keep.add(n)
            stack.extend(n.args)
    order = sorted(result.deps)
    if len(order) > MAX_INPUTS:
        raise TooLarge(f"{len(order)} array inputs (the kernel takes {MAX_INPUTS})")
    em = _Emitter({arg: k for k, arg in enumerate(order)})
    for n in graph.nodes:
        if n in keep and n.op not in ("const", "param"):
            em.value[n] = em.lower(n)
    res = em.value[result]
    if res < 0:  # the function returns an input unchanged: the output is a copy
        res = em.emit("copy", res)
    code = em.code
    if len(code) > MAX_INSTR:
        raise TooLarge(f"{len(code)} instructions (the kernel runs {MAX_INSTR})")
    slot, num_regs = _allocate(code, len(order), res)
    if num_regs > MAX_REGS:
        raise TooLarge(f"{num_regs} live temporaries (the kernel has {MAX_REGS})")
    words, patches = _encode(code, slot, len(order), num_regs, res)
    return words, patches, order


def _encode(code, slot, n_in, num_regs, res):
    words = [1, n_in, num_regs, slot[res], len(code)]
    patches = []
    for t, (op, src, mode, const) in enumerate(code):
        w = [~x if x < 0 else slot[x] for x in src] + [0, 0, 0]
        if op in ("cmp", "cmps"):
            w[2] = mode
        if const is not None:
            k, dt = const
            if hasattr(k, "op"):  # a node: literal constant or a scalar-argument patch point
                if k.op == "param":
                    patches.append((len(words) + 3, k.arg[0], dt))
                    k = 0.0
                else:
                    k = k.arg
            w[1] = float_bits(k, dt)
        words += [OPC[op], slot[t], w[0], w[1], w[2]]
    return words, patches
