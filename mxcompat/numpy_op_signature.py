"""The ``mx.np`` / ``mx.npx`` function of a table operator named ``_np_*`` / ``_npx_*``, and the
signatures MXNet reports for them (``_numpy_op_doc``), attached at import as MXNet does."""
import inspect

from . import _numpy_op_doc
from . import numpy as mx_np
from . import numpy_extension as mx_npx

_SUBMODULES = ('linalg', 'random')


def _get_builtin_op(op_name):
    """The front-end function of operator ``op_name`` ('_np_sum' -> ``mx.np.sum``), or None
    for an operator of neither interface; ValueError when the function is missing."""
    if op_name.startswith('_np_'):
        module, name = mx_np, op_name[len('_np_'):]
    elif op_name.startswith('_npx_'):
        module, name = mx_npx, op_name[len('_npx_'):]
    else:
        return None
    for sub in _SUBMODULES:
        if name.startswith(sub + '_') and hasattr(module, sub):
            module, name = getattr(module, sub), name[len(sub) + 1:]
            break
    op = getattr(module, name, None)
    if op is None:
        raise ValueError('Cannot find operator {} in module {}'.format(name, module.__name__))
    return op


def _register_op_signatures():
    for op_name in dir(_numpy_op_doc):
        op = _get_builtin_op(op_name)
        if op is not None:
            op.__signature__ = inspect.signature(getattr(_numpy_op_doc, op_name))


_register_op_signatures()
