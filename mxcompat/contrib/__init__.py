"""Experimental contributions (``mx.contrib``): the contrib operators under their MXNet paths,
``text`` (vocabularies, token embeddings), ``io`` (DataLoaderIter), ``quantization`` (also
``quant``: int8 graphs and calibration helpers) and, imported on demand as in MXNet,
``svrg_optimization``."""
from . import amp, autograd, ndarray, symbol
from . import ndarray as nd
from . import symbol as sym
from . import text
from . import io
from . import quantization
from . import quantization as quant
