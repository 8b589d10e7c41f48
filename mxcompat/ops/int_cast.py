"""MXNet's conversions of floating-point values to integer types, as its C++ casts compile on
x86 (``static_cast<DType>``): truncated toward zero; NaN and values outside the range of
int32 (of int64 for int64) become that type's minimum; a type narrower than int32 keeps the
low bits of the int32. MXNet casts a Python scalar to an integer array's type so
(``int_array < inf`` compares with the minimum, ``uint8_array + 300`` adds 44), and the
float32 results of its integer power, reciprocal and other float-computed kernels."""
import torch


_NARROW = {torch.int8: (8, True), torch.uint8: (8, False), torch.int16: (16, True)}


def int_scalar(scalar, dtype):
    """The Python number ``scalar`` cast to the integer type ``dtype`` (a bool stays as it
    is)."""
    if type(scalar) is bool or type(scalar) is int and 0 <= scalar < 128:
        return scalar  # (the same in every type)
    lo = -2 ** 63 if dtype is torch.int64 else -2 ** 31
    v = int(scalar) if scalar == scalar and lo <= scalar < -lo else lo
    narrow = _NARROW.get(dtype)
    if narrow is not None:
        bits, signed = narrow
        v &= (1 << bits) - 1
        if signed and v >> (bits - 1):
            v -= 1 << bits
    return v


def to_int(x, dtype):
    """The floating-point tensor ``x`` cast to the integer type ``dtype``."""
    wide = torch.int64 if dtype is torch.int64 else torch.int32
    info = torch.iinfo(wide)
    t = torch.trunc(x.to(torch.float64))
    t = torch.where((t >= info.min) & (t <= info.max), t, info.min)  # (NaN fails both)
    return t.to(wide).to(dtype)


def cast_recorded(t, dtype, copy=False):
    """``t.to(dtype, copy=copy)``; where an integer ``dtype`` is asked of a recorded result,
    MXNet's gradient passes through the cast (``autograd.cast``)."""
    if not dtype.is_floating_point and t.requires_grad:
        from ..autograd import cast  # (autograd imports the operator table)
        return cast(t, dtype)
    return t.to(dtype, copy=copy)
