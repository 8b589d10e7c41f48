"""``mx.npx``: MXNet's NumPy-extension interface is not supported by mxcompat.

Using any of its names raises NotImplementedError naming it; ``set_np``/``reset_np`` report
that NumPy semantics are unavailable.
"""


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise NotImplementedError('mx.npx.%s: the mx.npx (NumPy-extension) interface is not '
                              'supported by mxcompat; use mx.nd' % name)
