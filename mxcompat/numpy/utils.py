"""The dtype names and constants ``mx.np`` shares with NumPy."""
import numpy as onp

__all__ = ['float16', 'float32', 'float64', 'uint8', 'int32', 'int8', 'int64', 'bool', 'bool_',
           'pi', 'inf', 'nan', 'PZERO', 'NZERO', 'newaxis', 'finfo', 'e', 'NINF', 'PINF', 'NAN',
           'NaN']

float16, float32, float64 = onp.float16, onp.float32, onp.float64
uint8, int8, int32, int64 = onp.uint8, onp.int8, onp.int32, onp.int64
bool_ = onp.bool_
bool = onp.bool_  # pylint: disable=redefined-builtin
pi, e, inf, nan = onp.pi, onp.e, onp.inf, onp.nan
PZERO, NZERO, PINF, NINF = 0.0, -0.0, onp.inf, -onp.inf
NAN = NaN = onp.nan
newaxis = None
finfo = onp.finfo
