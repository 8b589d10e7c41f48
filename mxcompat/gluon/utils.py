"""Utilities of Gluon (``mx.gluon.utils``)."""
import collections
import hashlib
import os
import sys
import time
import warnings
import weakref

from ..base import env_seconds
from ..utils import fileio
from ..util import is_np_array, is_np_shape

__all__ = []


# ------------------------------------------------------------------ helpers of Block/Parameter
def _indent(s_, numSpaces):
    """Indent every line of ``s_`` but the first by ``numSpaces`` spaces."""
    lines = s_.split('\n')
    if len(lines) == 1:
        return s_
    return '\n'.join([lines[0]] + [(numSpaces * ' ') + line for line in lines[1:]])


def _brief_print_list(lst, limit=7):
    """Print at most `limit` elements of list."""
    lst = list(lst)
    if len(lst) > limit:
        return _brief_print_list(lst[:limit // 2], limit) + ', ..., ' + \
            _brief_print_list(lst[-limit // 2:], limit)
    return ', '.join(["'%s'" % str(i) for i in lst])


class HookHandle(object):
    """A handle that can attach/detach a hook."""

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        assert not self._hooks_dict_ref, 'The same handle cannot be attached twice.'
        self._id = id(hook)
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks_dict = self._hooks_dict_ref()
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self):
        return (self._hooks_dict_ref(), self._id)

    def __setstate__(self, state):
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(collections.OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()


def shape_is_known(shape):
    """Check whether a shape is completely known (an unknown size is 0, or -1 in NumPy-shape
    mode, where a 0-d shape is known)."""
    if shape is None:
        return False
    unknown = -1 if is_np_shape() else 0
    if len(shape) == 0:
        return unknown == -1
    for dim_size in shape:
        if dim_size == unknown:
            return False
        assert dim_size > unknown, 'shape dimension size cannot be less than {}, while ' \
            'received {}'.format(unknown, dim_size)
    return True


def _check_same_symbol_type(symbols):
    """The class of the symbols, all classic (``mx.sym.Symbol``) or all NumPy
    (``mx.sym.np._Symbol``); TypeError for a mix."""
    from ..symbol import Symbol
    from ..symbol.numpy import _Symbol
    is_np = isinstance(symbols[0], _Symbol)
    if any(isinstance(s, _Symbol) != is_np for s in symbols[1:]):
        raise TypeError('Found both classic symbol (mx.sym.Symbol) and numpy symbol '
                        '(mx.sym.np._Symbol) in outputs. Convert them to one type with '
                        '`as_np_ndarray()` (numpy outputs) or `as_nd_ndarray()` (classic '
                        'outputs) on each of them.')
    return _Symbol if is_np else Symbol


def _check_all_np_ndarrays(out):
    """TypeError unless every array or symbol in ``out`` is ``mx.np.ndarray`` /
    ``mx.sym.np._Symbol`` (a block's outputs in NumPy array semantics)."""
    from ..numpy import ndarray
    from ..symbol.numpy import _Symbol
    from ..symbol import Symbol
    from ..ndarray import NDArray
    if isinstance(out, (NDArray, Symbol)) and not isinstance(out, (ndarray, _Symbol)):
        raise TypeError("Block's output ndarrays/symbols must be of type "
                        '`mxnet.numpy.ndarray` or `mxnet.symbol.numpy._Symbol`, while got '
                        'output type {}'.format(str(type(out))))
    if isinstance(out, (list, tuple)):
        for i in out:
            _check_all_np_ndarrays(i)


# ------------------------------------------------------------------ data parallelism
__all__ += ['split_data', 'split_and_load', 'clip_global_norm', 'check_sha1', 'download',
            'replace_file']


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Splits an NDArray into `num_slice` slices along `batch_axis`.
    Usually used for data parallelism where each slices is sent
    to one device (i.e. GPU).

    Parameters
    ----------
    data : NDArray
        A batch of data.
    num_slice : int
        Number of desired slices.
    batch_axis : int, default 0
        The axis along which to slice.
    even_split : bool, default True
        Whether to force all slices to have the same number of elements.
        If `True`, an error will be raised when `num_slice` does not evenly
        divide `data.shape[batch_axis]`.

    Returns
    -------
    list of NDArray
        Return value is a list even if `num_slice` is 1.
    """
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(
            "data with shape %s cannot be evenly split into %d slices along axis %d. "
            "Use a batch size that's multiple of %d or set even_split=False to allow "
            "uneven partitioning of data." % (str(data.shape), num_slice, batch_axis, num_slice))
    base, extra = divmod(size, num_slice)
    bounds = [0]
    for i in range(num_slice):  # the first `extra` slices get one more element
        bounds.append(bounds[-1] + base + (1 if i < extra else 0))
    if batch_axis == 0:
        return [data[bounds[i]:bounds[i + 1]] for i in range(num_slice)]
    from .. import ndarray
    return [ndarray.slice_axis(data, axis=batch_axis, begin=bounds[i], end=bounds[i + 1])
            for i in range(num_slice)]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Splits an NDArray into `len(ctx_list)` slices along `batch_axis` and loads
    each slice to one context in `ctx_list`.

    Parameters
    ----------
    data : NDArray or numpy.ndarray
        A batch of data.
    ctx_list : list of Context
        A list of Contexts.
    batch_axis : int, default 0
        The axis along which to slice.
    even_split : bool, default True
        Whether to force all slices to have the same number of elements.

    Returns
    -------
    list of NDArray
        Each corresponds to a context in `ctx_list`.
    """
    from .. import ndarray, numpy
    if not isinstance(data, ndarray.NDArray):  # an mx.np.ndarray in NumPy mode, as in MXNet
        data = (numpy.array if is_np_array() else ndarray.array)(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(ctx) for s, ctx in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Rescales NDArrays so that the sum of their 2-norm is smaller than `max_norm`.

    Parameters
    ----------
    arrays : list of NDArray
    max_norm : float
    check_isfinite : bool, default True
         If True, check that the total_norm is finite (not nan or inf). This
         requires a blocking .asscalar() call.

    Returns
    -------
    NDArray or float
      Total norm. Return type is NDArray of shape (1,) if check_isfinite is
      False. Otherwise a float is returned.
    """
    import numpy as np
    import torch
    from ..ndarray.ndarray import wrap
    assert len(arrays) > 0
    ctx = arrays[0].context
    dev = arrays[0]._t.device
    with torch.no_grad():
        sq = [a._t.reshape(-1) for a in arrays]
        total = torch.stack([torch.dot(x, x).to(dev) for x in sq]).sum().reshape(1).sqrt()
        total_norm = wrap(total)
        total_norm._ctx = ctx
        if check_isfinite and not np.isfinite(total_norm.asscalar()):
            warnings.warn(UserWarning('nan or inf is detected. '
                                      'Clipping results will be undefined.'), stacklevel=2)
        scale = torch.clamp(max_norm / (total + 1e-8), max=1.0)
        for a in arrays:
            a._t.mul_(scale.to(device=a._t.device, dtype=a._t.dtype))
    if check_isfinite:
        return total_norm.asscalar()
    return total_norm


# ------------------------------------------------------------------ downloads
def check_sha1(filename, sha1_hash):
    """Check whether the sha1 hash of the file content matches the expected hash.

    Parameters
    ----------
    filename : str
        Path to the file.
    sha1_hash : str
        Expected sha1 hash in hexadecimal digits.

    Returns
    -------
    bool
        Whether the file content matches the expected hash.
    """
    sha1 = hashlib.sha1()
    with open(filename, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            sha1.update(block)
    return sha1.hexdigest() == sha1_hash


def replace_file(src, dst):
    """Atomically replace ``dst`` by ``src`` (``os.replace``); on failure ``src`` is removed.

    Parameters
    ----------
    src : source file path
    dst : destination file path
    """
    try:
        os.replace(src, dst)
    except OSError as err:
        try:
            os.remove(src)
        except OSError:
            pass
        raise OSError('Moving downloaded temp file - {}, to {} failed. '
                      'Please retry the download.'.format(src, dst)) from err


_RETRY_BACKOFF_S = 0.5   # first wait between attempts; doubled after each failure
_MAX_BACKOFF_S = 8.0


def _progress(total, desc):
    """A tqdm progress bar when tqdm is installed and stderr is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit='B', unit_scale=True, unit_divisor=1024, desc=desc)


def _fetch_to(url, fname, verify_ssl, deadline, read_timeout):
    """Download ``url`` into a temporary file next to ``fname``; returns its path. The
    temporary file is removed on any failure: a connection that breaks, sends nothing for
    ``read_timeout`` seconds, is still sending at time.monotonic() ``deadline``, or ends a network
    body whose end cannot be verified (neither Content-Length nor chunked encoding)."""
    import requests
    from urllib3.exceptions import ReadTimeoutError, HTTPError as Urllib3Error
    fd, tmp = fileio.open_aside(fname)
    try:
        try:
            r = requests.get(url, stream=True, verify=verify_ssl,
                             timeout=min(read_timeout, max(deadline - time.monotonic(), 0.01)))
        except requests.exceptions.ConnectionError as err:
            raise RuntimeError('Failed downloading url {}: cannot connect ({}). Check the '
                               'network connection, or download the file by hand to {}'
                               .format(url, err, fname)) from err
        with r:
            if r.status_code != 200:
                raise RuntimeError('Failed downloading url {} (HTTP status {})'
                                   .format(url, r.status_code))
            total = r.headers.get('content-length')
            chunked = 'chunked' in r.headers.get('transfer-encoding', '').lower()
            bar = _progress(int(total) if total and total.isdigit() else None,
                            os.path.basename(fname))
            raw = r.raw
            if hasattr(raw, 'stream'):  # urllib3's response: at most one read from the socket
                def read():
                    return raw.read1(1 << 16, decode_content=True)
            else:  # a plain file-like body (as requests itself allows)
                def read():
                    return raw.read(1 << 16)
            try:
                with os.fdopen(fd, 'wb') as f:
                    fd = None
                    while True:
                        if time.monotonic() > deadline:
                            raise RuntimeError(
                                'Failed downloading url {}: the download exceeded the total '
                                'timeout (MXCOMPAT_DOWNLOAD_TIMEOUT)'.format(url))
                        try:  # returns what arrived
                            chunk = read()
                        except ReadTimeoutError:
                            raise RuntimeError(
                                'Failed downloading url {}: no data for {} s (the read '
                                'timeout, MXCOMPAT_DOWNLOAD_READ_TIMEOUT)'
                                .format(url, read_timeout)) from None
                        except Urllib3Error as err:  # IncompleteRead, connection reset, ...
                            raise RuntimeError('Failed downloading url {}: the connection '
                                               'broke ({})'.format(url, err)) from None
                        if not chunk:
                            break
                        f.write(chunk)
                        if bar is not None:
                            bar.update(len(chunk))
            finally:
                if bar is not None:
                    bar.close()
            # (a body that is no network stream, e.g. an in-memory one, cannot be cut short)
            if hasattr(raw, 'stream') and not (total and total.isdigit()) and not chunked:
                raise RuntimeError(
                    'Failed downloading url {}: the server sent neither Content-Length nor '
                    'chunked encoding, so a dropped connection cannot be told from the end '
                    'of the file'.format(url))
    except BaseException:
        if fd is not None:
            os.close(fd)
        fileio.discard(tmp)
        raise
    return tmp


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Download a given URL

    The file is written to a temporary file in the destination directory and moved into
    place only when complete (and, with `sha1_hash`, verified): a failed download leaves no
    partial file behind. Failed attempts are retried with a growing pause between them.
    A download fails (with an error naming the timeout) when the server sends nothing for
    ``MXCOMPAT_DOWNLOAD_READ_TIMEOUT`` seconds (default 60) or when all attempts together take
    longer than ``MXCOMPAT_DOWNLOAD_TIMEOUT`` seconds (default 3600); these environment
    variables are read at each call. A body without Content-Length or chunked encoding is
    refused, since its end cannot be told from a dropped connection.

    Parameters
    ----------
    url : str
        URL to download
    path : str, optional
        Destination path to store downloaded file. By default stores to the
        current directory with same name as in url.
    overwrite : bool, optional
        Whether to overwrite destination file if already exists.
    sha1_hash : str, optional
        Expected sha1 hash in hexadecimal digits. Will ignore existing file when hash is
        specified but doesn't match.
    retries : integer, default 5
        The number of times to attempt the download in case of failure or non 200 return
        codes
    verify_ssl : bool, default True
        Verify SSL certificates.

    Returns
    -------
    str
        The file path of the downloaded file.
    """
    if path is None:
        fname = url.split('/')[-1]
        assert fname, 'Can\'t construct file-name from this URL. ' \
            'Please set the `path` option manually.'
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split('/')[-1]) if os.path.isdir(path) else path
    assert retries >= 0, "Number of retries should be at least 0, currently it's {}".format(
        retries)
    if not verify_ssl:
        warnings.warn('Unverified HTTPS request is being made (verify_ssl=False). '
                      'Adding certificate verification is strongly advised.')
    if not (overwrite or not os.path.exists(fname) or
            (sha1_hash and not check_sha1(fname, sha1_hash))):
        return fname
    dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
    os.makedirs(dirname, exist_ok=True)
    deadline = time.monotonic() + env_seconds('MXCOMPAT_DOWNLOAD_TIMEOUT', 3600.0)
    read_timeout = env_seconds('MXCOMPAT_DOWNLOAD_READ_TIMEOUT', 60.0)
    attempts = max(retries, 1)  # as in MXNet: `retries` counts attempts
    wait = _RETRY_BACKOFF_S
    for attempt in range(1, attempts + 1):
        try:
            print('Downloading {} from {}...'.format(fname, url))
            tmp = _fetch_to(url, fname, verify_ssl, deadline, read_timeout)
            if sha1_hash and not check_sha1(tmp, sha1_hash):
                fileio.discard(tmp)
                raise UserWarning(
                    'File {} is downloaded but the content hash does not match.'
                    ' The repo may be outdated or download may be incomplete. '
                    'If the "repo_url" is overridden, consider switching to '
                    'the default repo.'.format(fname))
            if not os.path.exists(fname) or overwrite or \
                    (sha1_hash and not check_sha1(fname, sha1_hash)):
                fileio.commit(tmp, fname)
            else:  # another process put a good copy there meanwhile
                fileio.discard(tmp)
                warnings.warn('File {} exists in file system so the downloaded file is '
                              'deleted'.format(fname))
            return fname
        except Exception as err:  # pylint: disable=broad-except
            if attempt >= attempts or time.monotonic() + wait > deadline:
                raise
            left = attempts - attempt
            print('download failed due to {}, retrying, {} attempt{} left'
                  .format(repr(err), left, 's' if left > 1 else ''))
            time.sleep(wait)
            wait = min(wait * 2, _MAX_BACKOFF_S)
    return fname


def _get_repo_url():
    """Return the base URL for Gluon dataset and model repository."""
    default_repo = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'
    repo_url = os.environ.get('MXNET_GLUON_REPO', default_repo)
    if repo_url[-1] != '/':
        repo_url = repo_url + '/'
    return repo_url


def _get_repo_file_url(namespace, filename):
    """Return the URL for hosted file in Gluon repository.

    Parameters
    ----------
    namespace : str
        Namespace of the file.
    filename : str
        Name of the file
    """
    return '{base_url}{namespace}/{filename}'.format(base_url=_get_repo_url(),
                                                     namespace=namespace,
                                                     filename=filename)
