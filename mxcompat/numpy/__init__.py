"""``mx.np``: MXNet's NumPy-compatible interface is not supported by mxcompat.

The module exists so that code importing it keeps importing; using any name MXNet 1.9.1's
``mx.np`` has raises NotImplementedError naming it (``mxcompat/utils/mxnet_api.py``). Use the
``mx.nd`` API (or torch) instead.
"""

