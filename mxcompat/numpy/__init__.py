"""``mx.np``: MXNet's NumPy-compatible interface is not supported by mxcompat.

The module exists so that code importing it keeps importing; using any of its names raises
NotImplementedError naming it. Use the ``mx.nd`` API (or torch) instead.
"""


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise NotImplementedError('mx.np.%s: the mx.np (NumPy-compatible) interface is not supported '
                              'by mxcompat; use mx.nd' % name)
