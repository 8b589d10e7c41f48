"""``mx.npx``: MXNet's NumPy-extension interface is not supported by mxcompat.

Using any name MXNet 1.9.1's ``mx.npx`` has raises NotImplementedError naming it
(``mxcompat/utils/mxnet_api.py``); use ``mx.nd``.
"""

