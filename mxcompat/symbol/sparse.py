"""``mx.sym.sparse``: sparse storage is not supported by mxcompat."""
