"""Experimental contributions (``mx.contrib``): the contrib operators under their MXNet paths,
``text`` (vocabularies, token embeddings), ``io`` (DataLoaderIter) and, imported on demand as in
MXNet, ``svrg_optimization``."""
from . import amp, autograd, ndarray, symbol
from . import ndarray as nd
from . import symbol as sym
from . import text
from . import io
