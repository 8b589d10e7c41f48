"""KVStore: MXNet's single-process key-value store ('local', 'device', 'nccl', ...).

Values pushed under one key (from one or several contexts) are summed; with an updater set
(``set_optimizer``) the sum is the gradient applied to the stored weight, otherwise the sum
becomes the stored value. As in MXNet, a single pushed value is stored without a copy, keys of
a call are processed in key order (string keys in the order they were first initialised), and
'local' keeps its copy in host memory (context ``cpu_pinned(0)``) while 'device' sums on the
device of the first pushed value.
"""
import torch

from ..base import MXNetError, string_types
from ..context import Context
from ..ndarray import NDArray
from ..ndarray.ndarray import wrap
from .. import optimizer as opt
from ..utils.fileio import atomic_write_bytes
from .base import KVStoreBase

__all__ = ['KVStore']

_HOME = Context('cpu_pinned', 0)


def _key_value_pairs(keys, vals):
    """Flattens (key, value) arguments into parallel lists of keys and NDArrays."""
    if isinstance(keys, (tuple, list)):
        assert len(keys) == len(vals)
        out_keys, out_vals = [], []
        for key, val in zip(keys, vals):
            k, v = _key_value_pairs(key, val)
            out_keys += k
            out_vals += v
        assert len({isinstance(k, string_types) for k in out_keys}) <= 1, \
            'inconsistent types of keys detected.'
        return out_keys, out_vals
    assert isinstance(keys, (int,) + string_types), 'unexpected type for keys: ' + str(type(keys))
    if isinstance(vals, NDArray):
        return [keys], [vals]
    vals = list(vals)
    for v in vals:
        assert isinstance(v, NDArray)
    return [keys] * len(vals), vals


def _copy_into(dst, src, key):
    if dst.shape != src.shape:
        raise MXNetError('kvstore: the array for key %s has shape %s but the stored value has '
                         'shape %s' % (key, dst.shape, src.shape))
    if dst._t is not src._t:
        dst._t.detach().copy_(src._t.detach())


class KVStore(KVStoreBase):
    """A key-value store for synchronization of values over multiple devices.

    Create one with ``mx.kv.create(name)``.
    """

    def __init__(self, name='local'):
        self._type = name
        self._on_device = 'device' in name or 'nccl' in name
        self._store = {}
        self._order = {}      # key -> rank in init order (string keys are processed in it)
        self._str_keys = None
        self._merge_bufs = {}
        self._updater = None
        self._threshold = None  # 2-bit gradient compression threshold, when enabled
        self._residuals = {}

    # ------------------------------------------------------------------ keys
    def _check_key_type(self, keys):
        if not keys:
            return
        is_str = isinstance(keys[0], string_types)
        if self._str_keys is None:
            self._str_keys = is_str
        elif self._str_keys != is_str:
            raise MXNetError('Check failed: key_type_ == key_type: Mixed key types are not '
                             'allowed: this store uses %s keys' %
                             ('string' if self._str_keys else 'integer'))

    def _rank(self, key):
        if not self._str_keys:
            return key
        if key not in self._order:
            raise MXNetError("key %s doesn't exist. Did you init?" % key)
        return self._order[key]

    def _grouped(self, key, value):
        """[(key, [arrays])] for a call's arguments, in MXNet's processing order."""
        keys, vals = _key_value_pairs(key, value)
        self._check_key_type(keys)
        order = sorted(range(len(keys)), key=lambda i: self._rank(keys[i]))
        groups = []
        for i in order:
            if groups and groups[-1][0] == keys[i]:
                groups[-1][1].append(vals[i])
            else:
                groups.append((keys[i], [vals[i]]))
        return groups

    def _stored(self, key):
        local = self._store.get(key)
        if local is None:
            raise MXNetError('key %s has not been inited' % key)
        return local

    # ------------------------------------------------------------------ reduction
    def _merge_buffer(self, key, local, like):
        buf = self._merge_bufs.get(key)
        ctx = like.context if self._on_device else _HOME
        if buf is None or buf.shape != local.shape or buf.context != ctx:
            buf = self._merge_bufs[key] = _wrap_on(
                torch.empty(local.shape, dtype=local._t.dtype, device=ctx.torch_device), ctx)
        return buf

    def _reduce(self, key, vals, local):
        """The sum of ``vals``, compressed when compression is on."""
        if self._threshold is not None:
            return self._reduce_compressed(key, vals, local)
        return self._sum(key, vals, local)

    def _sum(self, key, vals, local):
        """The sum of ``vals`` (the value itself when there is only one)."""
        if len(vals) == 1:
            return vals[0]
        for v in vals:
            if v.shape != local.shape:
                raise MXNetError('kvstore.push: a value for key %s has shape %s, the stored '
                                 'value has shape %s' % (key, v.shape, local.shape))
        buf = self._merge_buffer(key, local, vals[0])
        t = buf._t
        t.copy_(vals[0]._t.detach())
        for v in vals[1:]:
            t.add_(v._t.detach().to(t.device))
        return buf

    def _reduce_compressed(self, key, vals, local):
        """2-bit compression: each value, plus its residual, is sent as +-threshold or 0."""
        thr = self._threshold
        res = self._residuals.get(key)
        if res is None:
            res = self._residuals[key] = [torch.zeros(local.shape, dtype=local._t.dtype,
                                                      device=v._t.device) for v in vals]
        buf = self._merge_buffer(key, local, vals[0])
        t = buf._t
        t.zero_()
        for v, r in zip(vals, res):
            t.add_(_quantize_2bit(v._t.detach(), r, thr).to(t.device))
        return buf

    def _apply(self, key, merged, local):
        """Stores ``merged`` under ``key``, or updates the stored value with it."""
        if self._updater is None:
            self._store[key] = merged
            return
        if merged._t.device.type != 'cpu' and local._t.device.type == 'cpu':
            local = self._store[key] = local.copyto(merged.context)
        self._updater(key.encode('utf-8') if self._str_keys else key, merged, local)

    # ------------------------------------------------------------------ API
    def init(self, key, value):
        """Initializes a single or a sequence of key-value pairs into the store.

        Each key must be initialised once, before it is pushed or pulled.

        Parameters
        ----------
        key : str, int, or sequence of str or int
            The keys.
        value : NDArray or sequence of NDArray
            Values corresponding to the keys.

        Examples
        --------
        >>> kv = mx.kv.create('local')
        >>> kv.init('3', mx.nd.ones((2, 3)) * 2)
        >>> a = mx.nd.zeros((2, 3))
        >>> kv.pull('3', out=a)
        >>> print(a.asnumpy())
        [[ 2.  2.  2.]
        [ 2.  2.  2.]]
        """
        keys, vals = _key_value_pairs(key, value)
        self._check_key_type(keys)
        for k, v in zip(keys, vals):
            self._init_one(k, v)

    def _init_one(self, key, value):
        if key in self._store:
            raise MXNetError('duplicate init of key %s. Please double check if you called '
                             'kv.init or kv.broadcast with this key multiple times' % key)
        self._order[key] = len(self._order)
        self._store[key] = value.copyto(_HOME)

    def push(self, key, value, priority=0):
        """Pushes a single or a sequence of key-value pairs into the store.

        Values pushed under one key (e.g. gradients from several devices) are summed. With an
        updater (see :meth:`set_optimizer`) the sum updates the stored value; otherwise it
        replaces it.

        Parameters
        ----------
        key : str, int, or sequence of str or int
            Keys.
        value : NDArray, list of NDArray, or list of list of NDArray
            Values corresponding to the keys.
        priority : int, optional
            The priority of the push operation (ignored: operations run in call order).

        Examples
        --------
        >>> kv.push('3', [mx.nd.ones((2, 3), ctx=mx.cpu(i)) for i in range(4)])
        >>> kv.pull('3', out=a)
        >>> print(a.asnumpy())
        [[ 4.  4.  4.]
        [ 4.  4.  4.]]
        """
        for k, vals in self._grouped(key, value):
            local = self._stored(k)
            self._apply(k, self._reduce(k, vals, local), local)

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Pulls a single value or a sequence of values from the store.

        Parameters
        ----------
        key : str, int, or sequence of str or int
            Keys.
        out : NDArray or list of NDArray or list of list of NDArray
            Arrays receiving the values.
        priority : int, optional
            The priority of the pull operation (ignored).
        ignore_sparse : bool, optional, default True
            Whether to ignore sparse arrays in the request (they are pulled with
            :meth:`row_sparse_pull`).
        """
        assert out is not None
        for k, outs in self._grouped(key, out):
            local = self._stored(k)
            for o in outs:
                if not ignore_sparse or o.stype == 'default':
                    _copy_into(o, local, k)

    def pushpull(self, key, value, out=None, priority=0):
        """Pushes ``value`` and pulls the updated value into ``out`` (into ``value`` when
        ``out`` is None).

        Parameters
        ----------
        key : str, int, or sequence of str or int
            Keys.
        value : NDArray, list of NDArray, or list of list of NDArray
            Values corresponding to the keys.
        out : NDArray or list of NDArray or list of list of NDArray, optional
            Arrays receiving the values.
        priority : int, optional
            The priority of the operation (ignored).
        """
        self.push(key, value, priority)
        self.pull(key, value if out is None else out, priority)

    def broadcast(self, key, value, out, priority=0):
        """Initializes ``key`` with ``value`` and pulls it into ``out``.

        Parameters
        ----------
        key : str, int, or sequence of str or int
            The keys (not initialised before).
        value : NDArray or list of NDArray
            Values corresponding to the keys.
        out : NDArray or list of NDArray or list of list of NDArray
            Arrays receiving the values.
        priority : int, optional
            The priority of the operation (ignored).
        """
        self.init(key, value)
        self.pull(key, out, priority)

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pulls the rows ``row_ids`` of a row_sparse value: each ``out`` array (row_sparse)
        receives those rows of the stored value, and zeros elsewhere.

        Parameters
        ----------
        key : str, int, or sequence of str or int
            Keys.
        out : RowSparseNDArray or list of RowSparseNDArray or list of list of RowSparseNDArray
            Arrays receiving the rows.
        priority : int, optional
            The priority of the pull operation (ignored).
        row_ids : NDArray or list of NDArray
            The row ids to pull, one array for every ``out`` array (or one for all).
        """
        assert out is not None
        assert row_ids is not None
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        assert isinstance(row_ids, list), 'row_ids should be NDArray or list of NDArray'
        keys, outs = _key_value_pairs(key, out)
        self._check_key_type(keys)
        if len(row_ids) == 1:
            row_ids = row_ids * len(outs)
        assert len(row_ids) == len(outs), 'the number of row_ids doesn\'t match the number ' \
            'of values'
        for k, o, ids in zip(keys, outs, row_ids):
            local = self._stored(k)
            if o.stype != 'row_sparse' or local.stype != 'row_sparse':
                raise MXNetError('kvstore.row_sparse_pull: key %s holds a %s value and the '
                                 'output is %s; both must be row_sparse (use kv.pull for dense '
                                 'arrays)' % (k, local.stype, o.stype))
            if o.shape != local.shape:
                raise MXNetError('kvstore: the array for key %s has shape %s but the stored '
                                 'value has shape %s' % (k, o.shape, local.shape))
            rows = ids._t.detach().to(device=local._t.device, dtype=torch.int64).unique()
            pulled = torch.zeros_like(local._t.detach())
            pulled[rows] = local._t.detach()[rows]
            o._t.detach().copy_(pulled)

    def set_gradient_compression(self, compression_params):
        """Enables 2-bit gradient compression for pushes.

        Each pushed value plus the residual kept for its sender is sent as ``threshold``,
        ``-threshold`` or 0 per element; what is not sent stays in the residual.

        Parameters
        ----------
        compression_params : dict
            ``{'type': '2bit', 'threshold': 0.5}``; ``threshold`` defaults to 0.5.
        """
        if 'device' not in self.type and 'dist' not in self.type:
            raise Exception('Gradient compression is not supported for this type of kvstore')
        params = dict(compression_params)
        if 'type' not in params:
            raise MXNetError("set_gradient_compression: required parameter 'type' is missing "
                             "(use {'type': '2bit', 'threshold': 0.5})")
        threshold = float(params.get('threshold', 0.5))
        if threshold <= 0:
            raise MXNetError('set_gradient_compression: threshold must be greater than 0')
        if params['type'] != '2bit':
            raise MXNetError('Unknown type for gradient compression %s (only 2bit is '
                             'supported)' % params['type'])
        self._threshold = threshold

    def set_optimizer(self, optimizer):
        """Registers an optimizer: pushed sums then update the stored weights with it.

        Parameters
        ----------
        optimizer : Optimizer
            The new optimizer for the store.

        Examples
        --------
        >>> kv = mx.kv.create()
        >>> shape = (2, 2)
        >>> weight = mx.nd.zeros(shape)
        >>> kv.init(3, weight)
        >>> kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.01))
        >>> kv.push(3, mx.nd.ones(shape))
        >>> kv.pull(3, out=weight)
        >>> weight
        [[-0.01, -0.01],
         [-0.01, -0.01]]
        """
        self._set_updater(opt.get_updater(optimizer))

    def is_capable(self, capability):
        """Whether the store supports ``capability``; it supports ``'optimizer'``."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError('Unknown capability: {}'.format(capability))

    @property
    def type(self):
        """The type of this kvstore (the name it was created with)."""
        return self._type

    @property
    def rank(self):
        """The rank of this worker node (0 for a single process)."""
        return 0

    @property
    def num_workers(self):
        """The number of worker nodes (1 for a single process)."""
        return 1

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Saves the optimizer (updater) states to a file (atomically).

        Parameters
        ----------
        fname : str
            Path to the output states file.
        dump_optimizer : bool, default False
            Whether to also save the optimizer itself.
        """
        assert self._updater is not None, 'Cannot save states for distributed training'
        atomic_write_bytes(fname, self._updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname):
        """Loads the optimizer (updater) states from a file.

        Parameters
        ----------
        fname : str
            Path to the input states file.
        """
        assert self._updater is not None, 'Cannot load states for distributed training'
        self._updater._load_states_file(fname)

    def _set_updater(self, updater):
        """Sets the function ``updater(key, pushed_sum, stored)`` that updates stored values
        on push (string keys reach it as bytes, as in MXNet).

        Examples
        --------
        >>> def update(key, input, stored):
        ...     stored += input * 2
        >>> kv._set_updater(update)
        """
        self._updater = updater

    def _barrier(self):
        """Global barrier among all workers (nothing to wait for in one process)."""


def _wrap_on(t, ctx):
    out = wrap(t)
    out._ctx = ctx
    return out


def _quantize_2bit(t, residual, threshold):
    """What 2-bit compression transmits for ``t``: ``residual + t`` rounded towards zero to
    +-threshold or 0, the remainder staying in ``residual``."""
    residual.add_(t)
    q = torch.where(residual >= threshold, threshold,
                    torch.where(residual <= -threshold, -threshold, 0.)).to(residual.dtype)
    residual.sub_(q)
    return q
