// sdk_python/bindings/temporary_check.h: may an operand with a Python
// reference count of 1 be treated as a temporary that dies with this call
// (npurt::array::binary's `expiring` flags, deferred fusion)?
//
// A count of 1 proves it only when the interpreter's own evaluation stack
// holds that reference (`a * 2 + b`). C code (a Cython module, a C extension
// calling PyNumber_Add on an array it alone owns) can hold the only reference
// and read the array afterwards; fusing it away would leave it unwritten. So,
// as numpy's temporary elision does (numpy/_core/src/multiarray/temp_elide.c),
// the call stack is walked: every frame between here and the interpreter's
// frame-evaluation loop must belong to this extension or to the Python
// runtime itself. Anything else (or a stack that cannot be read) says no.
//
// Cost: one backtrace() of a few frames (~1 us), so callers ask only for
// operands large enough to be deferred (>= 2^18 elements, deferred_fusion.h).
#pragma once

namespace npurt::python {

bool called_from_interpreter();

}  // namespace npurt::python
