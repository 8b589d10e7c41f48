"""NDArray's fluent methods (``x.sum(axis=1)`` == ``mx.nd.sum(x, axis=1)``)."""
import types

# MXNet 1.9.1's NDArray methods that call the operator of the same name with self first
FLUENT = ('abs', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctanh', 'argmax',
          'argmax_channel', 'argmin', 'argsort', 'broadcast_axes', 'cbrt', 'ceil', 'clip', 'cos',
          'cosh', 'degrees', 'depth_to_space', 'diag', 'exp', 'expand_dims', 'expm1', 'fix',
          'flatten', 'flip', 'floor', 'log', 'log10', 'log1p', 'log2', 'log_softmax', 'max',
          'mean', 'min', 'nanprod', 'nansum', 'norm', 'one_hot', 'ones_like', 'pad', 'pick',
          'prod', 'radians', 'rcbrt', 'reciprocal', 'relu', 'repeat', 'reshape_like', 'rint',
          'round', 'rsqrt', 'shape_array', 'sigmoid', 'sign', 'sin', 'sinh', 'size_array',
          'slice', 'slice_assign', 'slice_assign_scalar', 'slice_axis', 'slice_like', 'softmax',
          'softmin', 'sort', 'space_to_depth', 'split', 'split_v2', 'sqrt', 'square', 'squeeze',
          'sum', 'swapaxes', 'take', 'tan', 'tanh', 'tile', 'topk', 'transpose', 'trunc',
          'zeros_like')

# methods whose operator lives under another name
_RENAMED = {'slice_assign': '_slice_assign', 'slice_assign_scalar': '_slice_assign_scalar'}


def _method(fn, name):
    """``fn(self, ...)`` as a method: for a Python function, a copy of it (the same code,
    defaults and namespace, so rebinding an operator's implementation reaches it too) with
    the method's name and docstring, which costs no frame of its own."""
    if isinstance(fn, types.FunctionType):
        method = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__,
                                    fn.__closure__)
        method.__kwdefaults__ = fn.__kwdefaults__
        method.__dict__.update(fn.__dict__)
    else:
        def method(self, *args, **kwargs):
            return fn(self, *args, **kwargs)
        method.__name__ = name
    method.__qualname__ = name
    method.__doc__ = 'Convenience fluent method for :py:func:`%s`.' % name
    return method


def attach(cls, namespace, internal, skip=()):
    """Attach the fluent methods to ``cls`` from the functions in ``namespace`` (and in the
    ``internal`` module for operators MXNet keeps there)."""
    for name in FLUENT:
        if name in skip:
            continue
        target = _RENAMED.get(name, name)
        fn = namespace.get(target) or getattr(internal, target, None)
        if fn is not None and name not in cls.__dict__:
            setattr(cls, name, _method(fn, name))
