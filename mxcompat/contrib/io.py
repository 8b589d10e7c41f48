"""Contrib data iterators for common data formats."""
from ..io import DataIter, DataDesc
from .. import ndarray as nd

__all__ = ['DataLoaderIter']


class DataLoaderIter(DataIter):
    """Returns an iterator for ``mx.gluon.data.Dataloader`` so gluon dataloader
    can be used in symbolic module.

    The batch size is that of the loader's first batch; a shorter batch (the last one of a
    loader with ``last_batch='keep'``) is padded up to it, and ``getpad`` says by how many rows.

    Parameters
    ----------
    loader : mxnet.gluon.data.Dataloader
        Gluon dataloader instance
    data_name : str, optional
        The data name.
    label_name : str, optional
        The label name.
    dtype : str, optional
        The dtype specifier, can be float32 or float16

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.gluon.data.vision import MNIST
    >>> from mxnet.gluon.data import DataLoader
    >>> train_dataset = MNIST(train=True)
    >>> train_data = mx.gluon.data.DataLoader(train_dataset, 32, shuffle=True, num_workers=4)
    >>> dataiter = mx.contrib.io.DataLoaderIter(train_data)
    >>> for batch in dataiter:
    ...     batch.data[0].shape
    ...
    (32, 28, 28, 1)
    """
    def __init__(self, loader, data_name='data', label_name='softmax_label', dtype='float32'):
        super(DataLoaderIter, self).__init__()
        self._loader = loader
        data, label = next(iter(loader))
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        self._current_batch = next(self._iter, None)
        return self._current_batch is not None

    def _padded(self, arr):
        """``arr`` as ``dtype``, padded to ``batch_size`` rows when it is shorter (a padded
        batch is float32, as in MXNet)."""
        arr = arr.astype(self.dtype)
        if arr.shape[0] == self.batch_size:
            return [arr]
        out = nd.empty((self.batch_size,) + arr.shape[1:])
        out[:arr.shape[0]] = arr
        return [out]

    def getdata(self):
        return self._padded(self._current_batch[0])

    def getlabel(self):
        return self._padded(self._current_batch[1])

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
