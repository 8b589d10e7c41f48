"""Data iterators for common data formats (``mx.io``)."""
from . import io
from .io import DataBatch, DataDesc, DataIter, MXDataIter, NDArrayIter, PrefetchingIter, ResizeIter
from . import native
from .native import CSVIter, LibSVMIter, MNISTIter
from . import utils
from .utils import _init_data, _getdata_by_idx, _has_instance
from .image_record_iter import (ImageRecordIter, ImageRecordUInt8Iter, ImageRecordInt8Iter,
                                ImageRecordIter_v1, ImageRecordUInt8Iter_v1)
