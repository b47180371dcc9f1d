"""The array API's constants: e, inf, nan, pi (Python floats, as the standard
specifies) and newaxis (None, an index that inserts a size-1 axis)."""
import math

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None
