"""Base container class for all neural network models (``Block``, ``HybridBlock``,
``SymbolBlock``).

A Block is a ``torch.nn.Module``: child Blocks are torch submodules under the names MXNet gives
them in ``_children``, and every initialized Parameter assigned to a Block is a torch parameter
under its attribute name, so ``state_dict()`` keys are the structural names
``save_parameters`` writes, torch optimizers train a Gluon model, and torch modules can be
children of Blocks. Naming (prefixes, ``name_scope``, parameter names) follows MXNet 1.x.

``hybridize()`` traces ``hybrid_forward`` with ``F = mx.sym`` into a Symbol, as MXNet does, and
runs that graph as one generated Python function of direct torch calls (see ``hybrid.py``).
"""
import copy
import functools
import json
import os
import re
import threading
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import MutableMapping, ValuesView

import numpy as np
import torch

from .. import autograd, initializer, ndarray, symbol, name as _name
from ..autograd_history import ACTIVE as _ACTIVE, note_graph
from ..pending import PENDING
from .fused_step import defer, extend
from ..utils import fileio
from ..base import mx_real_t, MXNetError, MXNetAssertionError, MXNetValueError, dtype_torch
from ..context import Context, swap_context, context_of_device
from ..ndarray.ndarray import NDArray, wrap, _unwrap_tree
from ..ndarray.serialization import ParamsFile
from ..symbol import Symbol, load_json
from ..util import is_np_array
from .parameter import Parameter, TorchParameter, ParameterDict, DeferredInitializationError, \
    _TRACE
from .utils import _indent, _brief_print_list, HookHandle, _check_same_symbol_type, \
    _check_all_np_ndarrays

_PACKAGE = __name__.split('.', 1)[0] + '.'  # mxcompat's own blocks (see HybridBlock.forward)

__all__ = ['Block', 'HybridBlock', 'SymbolBlock']


class _BlockScope(object):
    """Scope for collecting child `Block` s."""
    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._old_scope = None
        self._name_scope = None

    @staticmethod
    def create(prefix, params, hint):
        """Creates prefix and params for new `Block`."""
        current = getattr(_BlockScope._current, 'value', None)
        if current is None:
            if prefix is None:
                prefix = _name.current().get(None, hint) + '_'
            if params is None:
                params = ParameterDict(prefix)
            else:
                params = ParameterDict(params.prefix, params)
            return prefix, params

        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = '%s%d_' % (hint, count)
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        self._old_scope = getattr(_BlockScope._current, 'value', None)
        _BlockScope._current.value = self
        self._name_scope = _name.Prefix(self._block.prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        if self._block._empty_prefix:
            return
        self._name_scope.__exit__(ptype, value, trace)
        self._name_scope = None
        _BlockScope._current.value = self._old_scope


def _gather_type_ctx_info(args):
    """(has_symbol, has_ndarray, set of contexts, first context) of (nested) args."""
    if isinstance(args, NDArray):
        return False, True, {args.context}, args.context
    if isinstance(args, Symbol):
        return True, False, set(), None
    if isinstance(args, (list, tuple)):
        has_symbol = False
        has_ndarray = False
        ctx_set = set()
        first_ctx = None
        for ele in args:
            ele_has_sym, ele_has_nd, ele_ctx_set, ele_first_ctx = _gather_type_ctx_info(ele)
            has_symbol = has_symbol or ele_has_sym
            has_ndarray = has_ndarray or ele_has_nd
            if first_ctx is None and ele_first_ctx is not None:
                first_ctx = ele_first_ctx
            ctx_set = ctx_set | ele_ctx_set
            if has_symbol and has_ndarray:
                break
        return has_symbol, has_ndarray, ctx_set, first_ctx
    return False, False, set(), None


def _all_ndarrays(args):
    """Whether every one of ``args`` is an NDArray (not nested)."""
    for a in args:
        if type(a) is not NDArray:
            return False
    return True


def _flatten(args, inout_str):
    """(flat list of Symbol/NDArray/None, nested format of ints) of nested args."""
    if isinstance(args, NDArray):
        return [args], 0
    if isinstance(args, Symbol):
        length = len(args.list_outputs())
        return [args], (length if length > 1 else 0)
    if args is None:
        return [None], -1
    if not isinstance(args, (list, tuple)):
        raise ValueError('When hybridized, the input of HybridBlock {} must be (nested) list '
                         'of Symbol or NDArray, but got {} of type {}'
                         .format(inout_str, str(args), str(type(args))))
    flat = []
    fmts = []
    for i in args:
        arg, fmt = _flatten(i, inout_str)
        flat.extend(arg)
        fmts.append(fmt)
    return flat, fmts


def _regroup(args, fmt):
    """Rebuild the nested structure ``fmt`` (from :func:`_flatten`) over flat ``args``."""
    def _merger(args, fmt):
        if isinstance(fmt, int):
            if fmt < -1:
                raise ValueError('Unsupported encoded format {}.'.format(fmt))
            if fmt == 0:
                return args[0], args[1:]
            if fmt == -1:
                if args[0] is not None:
                    raise ValueError('We do not support passing types that are not None'
                                     ' when the initial HybridBlock has received NoneType and'
                                     ' has been hybridized.'
                                     ' Received arg = {}, fmt = {}.'.format(args[0], fmt))
                return None, args[1:]
            return args[:fmt], args[fmt:]
        if not isinstance(args, (list, tuple)):
            raise ValueError('When hybridized, the output of HybridBlock must be (nested)'
                             ' list of Symbol or NDArray, '
                             'but got {} of type {}'.format(args, type(args)))
        ret = []
        for i in fmt:
            res, args = _merger(args, i)
            ret.append(res)
        return ret, args
    return _merger(args, fmt)[0]


class _Children(MutableMapping):
    """MXNet's ``Block._children``: the Block-valued entries of torch's ``_modules``, so a
    child registered either way is seen by both MXNet's and torch's traversals."""
    __slots__ = ('_modules',)

    def __init__(self, modules):
        self._modules = modules

    def __getitem__(self, key):
        value = self._modules[key]
        if not isinstance(value, Block):
            raise KeyError(key)
        return value

    def __setitem__(self, key, value):
        if not isinstance(value, Block):
            _adopt_torch_module(value)
        self._modules[key] = value

    def __delitem__(self, key):
        self.__getitem__(key)
        del self._modules[key]

    def __iter__(self):
        return (k for k, v in self._modules.items() if isinstance(v, Block))

    def values(self):
        # (a container's forward iterates its children: one generator, no look-up per key)
        return _ChildValues(self)

    def __len__(self):
        return sum(1 for v in self._modules.values() if isinstance(v, Block))

    def __repr__(self):
        return 'OrderedDict(%r)' % list(self.items())


class _ChildValues(ValuesView):
    """``_Children.values()``: the Blocks of ``_modules``, in order."""
    __slots__ = ()

    def __iter__(self):
        for v in self._mapping._modules.values():
            if isinstance(v, Block):
                yield v


def _torch_name(key, param):
    """The torch parameter name of ``_reg_params[key]`` (torch names have no dots and are not
    empty; SymbolBlock can register a parameter under '')."""
    return (key or param.name).replace('.', '_')


class _RegParams(dict):
    """MXNet's ``Block._reg_params``; entries also become the Block's torch parameters."""
    __slots__ = ('_owner',)

    def __init__(self, owner, items=()):
        super(_RegParams, self).__init__()
        self._owner = owner
        for k, v in dict(items).items():
            self[k] = v

    def __setitem__(self, key, value):
        super(_RegParams, self).__setitem__(key, value)
        if isinstance(value, Parameter):
            value._attach(self._owner, _torch_name(key, value))

    def __delitem__(self, key):
        param = self[key]
        super(_RegParams, self).__delitem__(key)
        self._owner._parameters.pop(_torch_name(key, param), None)

    def __reduce__(self):
        return (dict, (dict(self),))


_TORCH_MANAGED = (torch.nn.Module, torch.Tensor)

_module_call = torch.nn.Module.__call__


def _holds_tensor(args):
    """Whether the (nested) arguments hold a ``torch.Tensor``."""
    for a in args:
        if isinstance(a, torch.Tensor) or \
                isinstance(a, (list, tuple)) and _holds_tensor(a):
            return True
    return False


def _wrap_tensors(args, devices):
    """The (nested) arguments with each ``torch.Tensor`` wrapped as an NDArray (no copy);
    adds the tensors' devices to ``devices``."""
    if isinstance(args, torch.Tensor):
        devices.add(args.device)
        return wrap(args)
    if isinstance(args, (list, tuple)):
        return type(args)(_wrap_tensors(a, devices) for a in args)
    return args


def _check_devices(block, devices):
    """MXNetError naming the fix when the input tensors are on several devices, on a device
    mxcompat has no Context for, or on another device than the block's parameters."""
    name = "%s '%s'" % (type(block).__name__, block.name)
    if len(devices) > 1:
        raise MXNetError('%s was called with torch tensors on several devices (%s): move them '
                         'to one device with tensor.to(device)'
                         % (name, ', '.join(sorted(str(d) for d in devices))))
    device, = devices
    if device.type not in ('cpu', 'cuda'):
        raise MXNetError("%s was called with a torch.Tensor on device '%s', which has no MXNet "
                         "Context: move it to the block's device with tensor.to('cpu') or "
                         "tensor.to('cuda')" % (name, device))
    first = next(block.parameters(), None)
    if first is None or first.device == device:
        return
    ctx = context_of_device(device)
    if any(ctx in (p._ctx_list or ()) for p in block.collect_params().values()):
        return  # one of several copies (initialize(ctx=[...]))
    raise MXNetError("%s was called with a torch.Tensor on %s, but its parameters are on %s: "
                     "move the input with tensor.to('%s') (or the model to the input's device "
                     "with net.collect_params().reset_ctx(ctx) and module.to(device))"
                     % (name, device, first.device, first.device))


def _adopt_torch_module(module):
    """Let Gluon code call the torch module ``module`` (a child of a Block) with NDArrays:
    they reach its ``forward`` as their tensors, its tensor outputs come back as NDArrays (no
    copies), and it runs in MXNet's mode (``train()`` while ``autograd.is_training()``, as
    inside ``autograd.record()``; ``eval()`` otherwise)."""
    if not module.__dict__.get('_mx_adopted'):
        module.register_forward_pre_hook(_ndarrays_in)
        module.register_forward_hook(_ndarrays_out)
        module.__dict__['_mx_adopted'] = True


def _ndarrays_in(module, args):
    """Forward pre-hook of an adopted torch module: NDArray inputs become their tensors."""
    called_with_nd = any(isinstance(a, NDArray) or isinstance(a, (list, tuple)) and
                         any(isinstance(i, NDArray) for i in a) for a in args)
    module.__dict__['_mx_nd_call'] = called_with_nd
    if not called_with_nd:
        return None
    training = autograd.is_training()
    if module.training != training:
        module.train(training)
    return _unwrap_tree(args)


def _ndarrays_out(module, args, out):
    """Forward hook of an adopted torch module: called with NDArrays, it returns NDArrays."""
    if module.__dict__.pop('_mx_nd_call', False):
        return _wrap_tensors(out, set())
    return None


def _call_on_tensors(block, args, call):
    """``call(*args)`` for ``block`` called on arguments holding ``torch.Tensor`` s: they run
    as NDArrays over the same tensors (no copies; torch's autograd records through them), the
    NDArray outputs come back as their tensors. Outside ``autograd.record()`` torch's mode of
    the block decides MXNet's training mode (``block.train()``: Dropout and BatchNorm train;
    ``block.eval()``: they predict)."""
    devices = set()
    args = _wrap_tensors(args, devices)
    _check_devices(block, devices)
    if (torch.compiler.is_compiling() or torch.jit.is_tracing()) and \
            any(p._deferred_init for p in block.collect_params().values()):
        # the parameters would be created from the tracer's placeholder tensors
        raise MXNetError("%s '%s' has parameters whose shapes are not known yet (deferred "
                         'initialization): call it once on a real input before torch.export, '
                         'torch.compile or torch.jit.trace, or give its layers their input '
                         'sizes (in_units, in_channels)' % (type(block).__name__, block.name))
    if autograd.is_recording():
        out = call(*args)
    else:
        with autograd.train_mode() if block.training else autograd.predict_mode():
            out = call(*args)
    return _unwrap_tree(out)


class Block(torch.nn.Module):
    """Base class for all neural network layers and models. Your models should
    subclass this class.

    :py:class:`Block` can be nested recursively in a tree structure. You can create and
    assign child :py:class:`Block` as regular attributes::

        from mxnet.gluon import Block, nn
        from mxnet import ndarray as F

        class Model(Block):
            def __init__(self, **kwargs):
                super(Model, self).__init__(**kwargs)
                # use name_scope to give child Blocks appropriate names.
                with self.name_scope():
                    self.dense0 = nn.Dense(20)
                    self.dense1 = nn.Dense(20)

            def forward(self, x):
                x = F.relu(self.dense0(x))
                return F.relu(self.dense1(x))

        model = Model()
        model.initialize(ctx=mx.cpu(0))
        model(F.zeros((10, 10), ctx=mx.cpu(0)))


    Child :py:class:`Block` assigned this way will be registered and :py:meth:`collect_params`
    will collect their Parameters recursively. You can also manually register
    child blocks with :py:meth:`register_child`.

    In mxcompat a Block is also a ``torch.nn.Module``: its initialized Parameters are torch
    parameters (``named_parameters()`` / ``state_dict()`` use the structural names that
    ``save_parameters`` writes), and torch modules may be its children.

    Parameters
    ----------
    prefix : str
        Prefix acts like a name space. All children blocks created in parent block's
        :py:meth:`name_scope` will have parent block's prefix in their name.
    params : ParameterDict or None
        :py:class:`ParameterDict` for sharing weights with the new :py:class:`Block`. For example,
        if you want ``dense1`` to share ``dense0``'s weights, you can do::

            dense0 = nn.Dense(20)
            dense1 = nn.Dense(20, params=dense0.collect_params())
    """
    def __init__(self, prefix=None, params=None):
        torch.nn.Module.__init__(self)
        self._empty_prefix = prefix == ''
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith('_') else self._prefix
        self._scope = _BlockScope(self)
        self._children = _Children(self._modules)
        self._reg_params = _RegParams(self)

    def __repr__(self):
        s = '{name}(\n{modstr}\n)'
        modstr = '\n'.join(['  ({key}): {block}'.format(key=key,
                                                        block=_indent(block.__repr__(), 2))
                            for key, block in self.__dict__.items() if isinstance(block, Block)]
                           + ['  ({key}): {block}'.format(key=key,
                                                          block=_indent(repr(module), 2))
                              for key, module in self._modules.items()
                              if module is not None and not isinstance(module, Block)])
        return s.format(name=self.__class__.__name__, modstr=modstr)

    def __setattr__(self, name, value):
        """Registers parameters."""
        d = self.__dict__
        if '_reg_params' not in d:  # before Block.__init__ (e.g. Activation's _act_type)
            torch.nn.Module.__setattr__(self, name, value)
            return
        existing = d.get(name)
        if existing is None:
            existing = self._modules.get(name)
        if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
            raise TypeError('Changing attribute type for {name} from {type1} to {type2}'
                            'is not allowed.'.format(name=name, type1=type(existing),
                                                     type2=type(value)))
        if isinstance(value, Block):
            self.register_child(value, name)
            object.__setattr__(self, name, value)
        elif isinstance(value, Parameter):
            assert name not in self._reg_params, \
                'Overriding Parameter attribute %s is not allowed. ' \
                'If you want to share parameters between blocks, please set ' \
                "'params' at Block construction instead."
            self._reg_params[name] = value
            object.__setattr__(self, name, value)
        elif name == '_reg_params':
            object.__setattr__(self, name, _RegParams(self, value))
        elif isinstance(value, _TORCH_MANAGED) or name in self._parameters or \
                name in self._modules or name in self._buffers:
            if isinstance(value, torch.nn.Module):
                _adopt_torch_module(value)
            torch.nn.Module.__setattr__(self, name, value)
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self.__dict__:
            object.__delattr__(self, name)  # as in MXNet, a child stays registered
        else:
            torch.nn.Module.__delattr__(self, name)

    def __call__(self, *args, **kwargs):
        """Calls forward. Called with ``torch.Tensor`` inputs (from torch code), the Block
        computes on them without copies and returns ``torch.Tensor`` outputs; see
        :func:`_call_on_tensors` (HybridBlocks check their inputs' types in ``forward``)."""
        if args and type(args[0]) is NDArray or not _holds_tensor(args):
            return _module_call(self, *args, **kwargs)
        return _call_on_tensors(self, args, lambda *a: _module_call(self, *a, **kwargs))

    def _order_torch_params(self):
        """Keep torch's parameter order the order of ``_reg_params`` (the order MXNet
        lists them in), whatever order the Parameters were initialized in."""
        params = self._parameters
        ordered = {}
        for key, param in self._reg_params.items():
            name = _torch_name(key, param)
            if name in params:
                ordered[name] = params[name]
        if list(ordered) == list(params)[:len(ordered)]:
            return
        for key, value in params.items():
            ordered.setdefault(key, value)
        params.clear()
        params.update(ordered)

    def __setstate__(self, state):
        torch.nn.Module.__setstate__(self, state)
        object.__setattr__(self, '_children', _Children(self._modules))
        object.__setattr__(self, '_reg_params', _RegParams(self, self.__dict__['_reg_params']))

    def _check_container_with_block(self):
        children = set(self._children.values())

        def _find_unregistered_block_in_container(data):
            if isinstance(data, (list, tuple)):
                for ele in data:
                    if _find_unregistered_block_in_container(ele):
                        return True
                return False
            if isinstance(data, dict):
                for _, v in data.items():
                    if _find_unregistered_block_in_container(v):
                        return True
                return False
            if isinstance(data, Block):
                return data not in children
            return False
        for k, v in self.__dict__.items():
            if isinstance(v, (list, tuple, dict)) and not (k.startswith('__') or
                                                           k == '_children'):
                if _find_unregistered_block_in_container(v):
                    warnings.warn('"{name}" is an unregistered container with Blocks. '
                                  'Note that Blocks inside the list, tuple or dict will not be '
                                  'registered automatically. Make sure to register them using '
                                  'register_child() or switching to '
                                  'nn.Sequential/nn.HybridSequential instead. '
                                  .format(name=self.__class__.__name__ + '.' + k), stacklevel=3)

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        """Prefix of this :py:class:`Block`."""
        return self._prefix

    @property
    def name(self):
        """Name of this :py:class:`Block`, without '_' in the end."""
        return self._name

    def name_scope(self):
        """Returns a name space object managing a child :py:class:`Block` and parameter
        names. Should be used within a ``with`` statement::

            with self.name_scope():
                self.dense = nn.Dense(20)
        """
        return self._scope

    @property
    def params(self):
        """Returns this :py:class:`Block`'s parameter dictionary (does not include its
        children's parameters)."""
        return self._params

    def collect_params(self, select=None):
        """Returns a :py:class:`ParameterDict` containing this :py:class:`Block` and all of its
        children's Parameters(default), also can returns the select :py:class:`ParameterDict`
        which match some given regular expressions.

        For example, collect the specified parameters in ['conv1_weight', 'conv1_bias', 'fc_weight',
        'fc_bias']::

            model.collect_params('conv1_weight|conv1_bias|fc_weight|fc_bias')

        or collect all parameters whose names end with 'weight' or 'bias', this can be done
        using regular expressions::

            model.collect_params('.*weight|.*bias')

        Parameters
        ----------
        select : str
            regular expressions

        Returns
        -------
        The selected :py:class:`ParameterDict`
        """
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        if not select:
            ret.update(self.params)
        else:
            pattern = re.compile(select)
            ret.update({name: value for name, value in self.params.items()
                        if pattern.match(name)})
        by_tensor = {}
        for key, cld in self._modules.items():
            if isinstance(cld, Block):
                ret.update(cld.collect_params(select=select))
            elif cld is not None:
                torch_params, torch_blocks = self._torch_members(key, cld, by_tensor)
                ret.update({p.name: p for _, p in torch_params
                            if not select or pattern.match(p.name)})
                for _, blk in torch_blocks:
                    ret.update(blk.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=''):
        if prefix:
            prefix += '.'
        ret = {prefix + key: val for key, val in self._reg_params.items()}
        by_tensor = {}
        for name, child in self._modules.items():
            if isinstance(child, Block):
                ret.update(child._collect_params_with_prefix(prefix + name))
            elif child is not None:
                torch_params, torch_blocks = self._torch_members(name, child, by_tensor)
                ret.update({prefix + key: p for key, p in torch_params})
                for key, blk in torch_blocks:
                    ret.update(blk._collect_params_with_prefix(prefix + key))
        return ret

    def _torch_members(self, name, module, by_tensor):
        """What the ``torch.nn.Module`` child ``name`` of this Block holds, down to the next
        Blocks: ``([(structural name, TorchParameter)], [(structural name, Block)])``. Its
        parameters and persistent buffers become TorchParameters named ``prefix + structural
        name`` (dots as '_'), kept for the Block's life; a tensor held under several names is
        one TorchParameter (``by_tensor`` maps the ids of the tensors seen so far to theirs).
        """
        params, blocks = [], []
        cache = self.__dict__.setdefault('_torch_params', {})

        def walk(prefix, module):
            skip = module._non_persistent_buffers_set
            for tensors, buffer in ((module._parameters, False), (module._buffers, True)):
                for key, t in tensors.items():
                    if t is None or buffer and key in skip:
                        continue
                    name = prefix + key
                    param = by_tensor.get(id(t))
                    if param is None:
                        param = cache.get(name)
                        if param is None or param._differentiable == buffer:
                            param = TorchParameter(self.prefix + name.replace('.', '_'), t,
                                                   buffer)
                        else:
                            param._bind(t)
                        by_tensor[id(t)] = param
                    cache[name] = param
                    params.append((name, param))
            for key, child in module._modules.items():
                if isinstance(child, Block):
                    blocks.append((prefix + key, child))
                elif child is not None:
                    walk(prefix + key + '.', child)

        walk(name + '.', module)
        return params, blocks

    def save_parameters(self, filename, deduplicate=False):
        """Save parameters to file.

        Saved parameters can only be loaded with `load_parameters`. Note that this
        method only saves parameters, not model structure. If you want to save
        model structures, please use :py:meth:`HybridBlock.export`.

        Parameters
        ----------
        filename : str
            Path to file.
        deduplicate : bool, default False
            If True, save shared parameters only once. Otherwise, if a Block
            contains multiple sub-blocks that share parameters, each of the
            shared parameters will be separately saved for every sub-block.
        """
        params = self._collect_params_with_prefix()
        if deduplicate:
            # a shared Parameter is registered under several structural names: keep the last
            reverse_params = {v: k for k, v in params.items()}
            params = {v: k for k, v in reverse_params.items()}
        arg_dict = {key: val._reduce() for key, val in params.items()}
        ndarray.save(filename, arg_dict)

    def save_params(self, filename):
        """[Deprecated] Please use save_parameters. Note that if you want load
        from SymbolBlock later, please use export instead.

        Save parameters to file.

        filename : str
            Path to file.
        """
        warnings.warn('save_params is deprecated. Please use save_parameters. '
                      'Note that if you want load from SymbolBlock later, please '
                      'use export instead. For details, see '
                      'https://mxnet.apache.org/tutorials/gluon/save_load_params.html')
        try:
            self.collect_params().save(filename, strip_prefix=self.prefix)
        except ValueError as e:
            raise ValueError('%s\nsave_params is deprecated. Using '
                             'save_parameters may resolve this error.' % e)

    def load_parameters(self, filename, ctx=None, allow_missing=False,
                        ignore_extra=False, cast_dtype=False, dtype_source='current'):
        """Load parameters from file previously saved by `save_parameters`.

        Parameters
        ----------
        filename : str
            Path to parameter file.
        ctx : Context or list of Context, default cpu()
            Context(s) to initialize loaded parameters on.
        allow_missing : bool, default False
            Whether to silently skip loading parameters not represents in the file.
        ignore_extra : bool, default False
            Whether to silently ignore parameters from the file that are not
            present in this Block.
        cast_dtype : bool, default False
            Cast the data type of the NDArray loaded from the checkpoint to the dtype
            provided by the Parameter if any.
        dtype_source : str, default 'current'
            must be in {'current', 'saved'}
            Only valid if cast_dtype=True, specify the source of the dtype for casting
            the parameters
        """
        with ParamsFile(filename) as pf:
            self._load_parameters(pf, filename, ctx, allow_missing, ignore_extra, cast_dtype,
                                  dtype_source)

    def _load_parameters(self, pf, filename, ctx, allow_missing, ignore_extra, cast_dtype,
                         dtype_source):
        """load_parameters from the opened file ``pf``: the names are checked before any
        array is read; an array goes straight into the memory of its initialised parameter
        where it has the parameter's shape, dtype and device (CPU)."""
        loaded = pf.keys or []
        params = self._collect_params_with_prefix()
        if not len(pf) and not params:
            return
        if pf.keys is None:
            raise MXNetError("load_parameters: '%s' holds a list of %d unnamed arrays, not "
                             'named parameters' % (filename, len(pf)))
        if not any('.' in i for i in loaded):
            # legacy file written by save_params: names are prefixed parameter names
            self.collect_params().load(filename, ctx, allow_missing, ignore_extra, self.prefix,
                                       cast_dtype=cast_dtype, dtype_source=dtype_source)
            return
        if not allow_missing:
            # a shared Parameter may be stored under only one of its structural names
            params_inv = defaultdict(list)
            for k, v in params.items():
                params_inv[v].append(k)
            for name, param in params.items():
                if not any(p in loaded for p in params_inv[param]):
                    raise MXNetAssertionError(
                        "Parameter '%s' is missing in file '%s', which contains parameters: "
                        '%s. Set allow_missing=True to ignore missing parameters.' % (
                            name, filename, _brief_print_list(loaded)))
        ctxs = [ctx] if isinstance(ctx, Context) else ctx

        def into(_, name, shape, dtype):
            param = params.get(name)
            data = getattr(param, '_data', None)
            if not data or ctxs is not None and set(ctxs) != set(param.list_ctx()):
                return None
            t = data[0]._t
            if t.device.type == 'cpu' and t.dtype == dtype and tuple(t.shape) == shape and \
                    t.is_contiguous():
                return t  # _load_init below then finds the data in place
            return None

        for name, t in pf.arrays(into):
            if not ignore_extra and name not in params:
                raise MXNetValueError(
                    "Parameter '%s' loaded from file '%s' is not present in ParameterDict, "
                    'which contains parameters %s. Set ignore_extra=True to ignore. ' % (
                        name, filename, _brief_print_list(self._params.keys())))
            if name in params:
                params[name]._load_init(wrap(t), ctx, cast_dtype=cast_dtype,
                                        dtype_source=dtype_source)

    def load_params(self, filename, ctx=None, allow_missing=False,
                    ignore_extra=False):
        """[Deprecated] Please use load_parameters.

        Load parameters from file.

        filename : str
            Path to parameter file.
        ctx : Context or list of Context, default cpu()
            Context(s) to initialize loaded parameters on.
        allow_missing : bool, default False
            Whether to silently skip loading parameters not represents in the file.
        ignore_extra : bool, default False
            Whether to silently ignore parameters from the file that are not
            present in this Block.
        """
        warnings.warn('load_params is deprecated. Please use load_parameters.')
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def register_child(self, block, name=None):
        """Registers block as a child of self. :py:class:`Block` s assigned to self as
        attributes will be registered automatically."""
        if name is None:
            name = str(len(self._children))
        self._children[name] = block

    def register_forward_pre_hook(self, hook):
        r"""Registers a forward pre-hook on the block.

        The hook function is called immediately before :func:`forward`.
        It should not modify the input or output.

        Parameters
        ----------
        hook : callable
            The forward hook function of form `hook(block, input) -> None`.

        Returns
        -------
        :class:`mxnet.gluon.utils.HookHandle`
        """
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        r"""Registers a forward hook on the block.

        The hook function is called immediately after :func:`forward`.
        It should not modify the input or output.

        Parameters
        ----------
        hook : callable
            The forward hook function of form `hook(block, input, output) -> None`.

        Returns
        -------
        :class:`mxnet.gluon.utils.HookHandle`
        """
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def apply(self, fn):
        r"""Applies ``fn`` recursively to every child block as well as self.

        Parameters
        ----------
        fn : callable
            Function to be applied to each submodule, of form `fn(block)`.

        Returns
        -------
        this block
        """
        for cld in self._modules.values():
            if cld is not None:
                cld.apply(fn)
        fn(self)
        return self

    def initialize(self, init=initializer.Uniform(), ctx=None, verbose=False,
                   force_reinit=False):
        """Initializes :py:class:`Parameter` s of this :py:class:`Block` and its children.
        Equivalent to ``block.collect_params().initialize(...)``

        Parameters
        ----------
        init : Initializer
            Global default Initializer to be used when :py:meth:`Parameter.init` is ``None``.
            Otherwise, :py:meth:`Parameter.init` takes precedence.
        ctx : Context or list of Context
            Keeps a copy of Parameters on one or many context(s).
        verbose : bool, default False
            Whether to verbosely print out details on initialization.
        force_reinit : bool, default False
            Whether to force re-initialization if parameter is already initialized.
        """
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        """Please refer description of HybridBlock hybridize()."""
        for cld in self._children.values():
            cld.hybridize(active, **kwargs)

    def save(self, prefix):
        """Save the model architecture and parameters to load again later

        Saves the model architecture as a nested dictionary where each Block
        in the model is a dictionary and its children are sub-dictionaries.
        For HybridBlocks, the cached_graph (Symbol & inputs) is saved if
        it has already been hybridized.

        Parameters
        ----------
        prefix : str
            The prefix to use in filenames for saving this model:
            <prefix>-model.json and <prefix>-model.params
        """
        model = {}

        def _save_cached_graphs(blk, index, structure):
            mdl = {'orig_name': blk.name}
            name = type(blk).__name__.lower()
            structure[name + str(index[0])] = mdl
            if isinstance(blk, HybridBlock):
                if blk._cached_graph:
                    mdl['in_format'] = blk._in_format
                    mdl['out_format'] = blk._out_format
                    syms, out = blk._cached_graph
                    mdl['inputs'] = [sym.tojson() for sym in syms]
                    mdl['symbol'] = out.tojson()
                    mdl['hybridized'] = True
                else:
                    mdl['hybridized'] = False
            children = dict()
            mdl['children'] = children
            for ch_name, child in blk._children.items():
                index[0] += 1
                children[child.name] = ch_name
                _save_cached_graphs(child, index, mdl)
        index = [0]
        _save_cached_graphs(self, index, model)
        with open(prefix + '-model.json', 'w') as fp:
            json.dump(model, fp)
        self.save_parameters(prefix + '-model.params')

    def load(self, prefix):
        """Load a model saved using the `save` API

        Reconfigures a model using the saved configuration. This function
        does not regenerate the model architecture. It resets the children's
        names as they were when saved in order to match the names of the
        saved parameters.

        Parameters
        ----------
        prefix : str
            The prefix to use in filenames for loading this model:
            <prefix>-model.json and <prefix>-model.params
        """
        with open(prefix + '-model.json') as fp:
            model = json.load(fp)

        def _load_cached_graphs(blk, index, structure):
            name = type(blk).__name__.lower()
            mdl = structure[name + str(index[0])]
            blk._name = mdl['orig_name']
            if isinstance(blk, HybridBlock):
                if mdl['hybridized']:
                    blk._in_format = mdl['in_format']
                    blk._out_format = mdl['out_format']
                    out = load_json(mdl['symbol'])
                    syms = [load_json(inp) for inp in mdl['inputs']]
                    blk._cached_graph = (syms, out)
                    blk._active = True
            pnames = list(blk.params.keys())
            for p in pnames:
                param = blk.params._params[p]
                new_name = blk.name + '_' + p[len(blk.params._prefix):]
                blk.params._params.pop(p)
                blk.params._params[new_name] = param
            for ch_name, child in blk._children.items():
                index[0] += 1
                _load_cached_graphs(child, index, mdl)
            children = mdl['children']
            for ch_name in list(blk._children.keys()):
                child = blk._children[ch_name]
                blk._children.pop(ch_name)
                blk._children[children[child.name]] = child
        index = [0]
        _load_cached_graphs(self, index, model)
        self.load_parameters(prefix + '-model.params')

    def cast(self, dtype):
        """Cast this Block to use another data type.

        Parameters
        ----------
        dtype : str or numpy.dtype
            The new data type.
        """
        for child in self._modules.values():
            if isinstance(child, Block):
                child.cast(dtype)
            elif child is not None:  # a torch module child
                child.to(dtype_torch(dtype))
        for _, param in self.params.items():
            param.cast(dtype)

    def forward(self, *args):
        """Overrides to implement forward computation using :py:class:`NDArray`. Only
        accepts positional arguments.

        Parameters
        ----------
        *args : list of NDArray
            Input tensors.
        """
        raise NotImplementedError

    def register_op_hook(self, callback, monitor_all=False):
        """Install callback monitor.

        Parameters
        ----------
        callback : function
            Takes a string and a NDArrayHandle.
        monitor_all : bool, default False
            If true, monitor both input and output, otherwise monitor output only.
        """
        for cld in self._children.values():
            cld.register_op_hook(callback, monitor_all)

    def summary(self, *inputs):
        """Print the summary of the model's output and parameters.

        The network must have been initialized, and must not have been hybridized.

        Parameters
        ----------
        inputs : object
            Any input that the model supports. For any tensor in the input, only
            :class:`mxnet.ndarray.NDArray` is supported.
        """
        summary = OrderedDict()
        seen = set()
        hooks = []

        def _get_shape_str(args):
            def flatten(args):
                if not isinstance(args, (list, tuple)):
                    return [args], 0
                flat = []
                fmts = []
                for i in args:
                    arg, fmt = flatten(i)
                    flat.extend(arg)
                    fmts.append(fmt)
                return flat, fmts

            def regroup(args, fmt):
                if isinstance(fmt, int):
                    if fmt == 0:
                        return args[0], args[1:]
                    return args[:fmt], args[fmt:]
                ret = []
                for i in fmt:
                    res, args = regroup(args, i)
                    ret.append(res)
                return ret, args

            flat_args, fmts = flatten(args)
            flat_arg_shapes = [x.shape if isinstance(x, NDArray) else x for x in flat_args]
            shapes = regroup(flat_arg_shapes, fmts)[0]
            if isinstance(shapes, list):
                shape_str = str(shapes)[1:-1]
            else:
                shape_str = str(shapes)
            return shape_str.replace('L', '')

        def _register_summary_hook(block):
            assert not isinstance(block, HybridBlock) or not block._active, \
                '"{}" must not be hybridized to print summary.'.format(block.name)

            def _summary_hook(block, _, outputs):
                class_name = block.__class__.__name__
                block_idx = len(summary) - 1
                m_key = '%s-%i' % (class_name, block_idx + 1)
                summary[m_key] = OrderedDict()
                summary[m_key]['output_shape'] = _get_shape_str(outputs)
                params = 0
                summary[m_key]['trainable'] = 0
                summary[m_key]['shared'] = 0
                for p in block.params.values():
                    params += p.data().size
                    summary[m_key]['trainable'] += 0 if p.grad_req == 'null' else p.data().size
                    if p in seen:
                        summary[m_key]['shared'] += p.data().size
                    else:
                        seen.add(p)
                summary[m_key]['n_params'] = params

            from .nn.basic_layers import Sequential, HybridSequential
            if not isinstance(block, (Sequential, HybridSequential)):
                hooks.append(block.register_forward_hook(_summary_hook))

        summary['Input'] = OrderedDict()
        summary['Input']['output_shape'] = _get_shape_str(inputs)
        summary['Input']['n_params'] = 0
        summary['Input']['trainable'] = 0
        summary['Input']['shared'] = 0

        try:
            self._apply_blocks(_register_summary_hook)
            self(*inputs)

            line_format = '{:>20}  {:>42} {:>15}'
            print('-' * 80)
            print(line_format.format('Layer (type)', 'Output Shape', 'Param #'))
            print('=' * 80)
            total_params = 0
            trainable_params = 0
            shared_params = 0
            for layer in summary:
                print(line_format.format(layer, str(summary[layer]['output_shape']),
                                         summary[layer]['n_params']))
                total_params += summary[layer]['n_params']
                trainable_params += summary[layer]['trainable']
                shared_params += summary[layer]['shared']
            print('=' * 80)
            print('Parameters in forward computation graph, duplicate included')
            print('   Total params: ' + str(total_params))
            print('   Trainable params: ' + str(trainable_params))
            print('   Non-trainable params: ' + str(total_params - trainable_params))
            print('Shared params in forward computation graph: ' + str(shared_params))
            print('Unique parameters in model: ' + str(total_params - shared_params))
            print('-' * 80)
        finally:
            for h in hooks:
                h.detach()

    def _apply_blocks(self, fn):
        """``fn`` on every Block of the tree (children first), as MXNet's ``apply``."""
        for cld in self._children.values():
            cld._apply_blocks(fn)
        fn(self)


class HybridBlock(Block):
    """`HybridBlock` supports forwarding with both Symbol and NDArray.

    `HybridBlock` is similar to `Block`, with a few differences::

        import mxnet as mx
        from mxnet.gluon import HybridBlock, nn

        class Model(HybridBlock):
            def __init__(self, **kwargs):
                super(Model, self).__init__(**kwargs)
                # use name_scope to give child Blocks appropriate names.
                with self.name_scope():
                    self.dense0 = nn.Dense(20)
                    self.dense1 = nn.Dense(20)

            def hybrid_forward(self, F, x):
                x = F.relu(self.dense0(x))
                return F.relu(self.dense1(x))

        model = Model()
        model.initialize(ctx=mx.cpu(0))
        model.hybridize()
        model(mx.nd.zeros((10, 10), ctx=mx.cpu(0)))

    Forward computation in :py:class:`HybridBlock` must be static to work with :py:class:`Symbol` s,
    i.e. you cannot call :py:meth:`NDArray.asnumpy`, :py:attr:`NDArray.shape`,
    :py:attr:`NDArray.dtype`, `NDArray` indexing (`x[i]`) etc on tensors.
    Also, you cannot use branching or loop logic that bases on non-constant
    expressions like random numbers or intermediate results, since they change
    the graph structure for each iteration.

    Before activating with :py:meth:`hybridize()`, :py:class:`HybridBlock` works just like normal
    :py:class:`Block`. After activation, :py:class:`HybridBlock` will create a symbolic graph
    representing the forward computation and cache it. On subsequent forwards,
    the cached graph will be used instead of :py:meth:`hybrid_forward`. In mxcompat the cached
    graph runs as one generated function of direct torch calls; ``hybridize(compile=True)``
    (or a torch.compile ``backend=`` / ``mode=``, or ``static_alloc=True, static_shape=True``
    from the graph's 50th call) also compiles it with ``torch.compile``.
    """
    __call__ = _module_call  # forward classifies the inputs, torch tensors included

    def __init__(self, prefix=None, params=None):
        super(HybridBlock, self).__init__(prefix=prefix, params=params)
        self._cached_graph = ()
        self._cached_op = None
        self._cached_op_args = []
        self._out_format = None
        self._in_format = None
        self._active = False
        self._flags = []
        self._callback = None
        self._monitor_all = False
        self._backend = None
        self._backend_opts = {}
        self._trace_failed = False

    def __init_subclass__(cls, **kwargs):
        super(HybridBlock, cls).__init_subclass__(**kwargs)
        fwd = cls.__dict__.get('forward')
        if cls.hybrid_forward is HybridBlock.hybrid_forward:
            if fwd is not None:
                cls.forward = _traced_forward(fwd)
        else:
            # a hybrid_forward defines the graph, as in MXNet 1.x: a base class's forward
            # (e.g. one that delegates to HybridBlock.forward) runs as written
            user_forward = getattr(cls.forward, '_mx_user_forward', None)
            if user_forward is not None:
                cls.forward = user_forward

    def __setattr__(self, name, value):
        """Registers parameters."""
        super(HybridBlock, self).__setattr__(name, value)
        if isinstance(value, HybridBlock):
            self._clear_cached_op()

    def _get_graph(self, *args):
        if not self._cached_graph:
            flatten_args, self._in_format = _flatten(args, 'input')
            flatten_inputs = []
            symbol_inputs = []
            cnt = 0
            real_arg_num = sum([ele is not None for ele in flatten_args])
            if real_arg_num == 0:
                raise ValueError('All args are None and we do not support such a case.'
                                 ' Received args={}'.format(args))
            for arg in flatten_args:
                if arg is not None:
                    if real_arg_num > 1:
                        arg_sym = symbol.var('data{}'.format(cnt))
                    else:
                        arg_sym = symbol.var('data')
                    cnt += 1
                    if is_np_array():
                        arg_sym = arg_sym.as_np_ndarray()
                    flatten_inputs.append(arg_sym)
                    symbol_inputs.append(arg_sym)
                else:
                    flatten_inputs.append(None)
            grouped_inputs = _regroup(flatten_inputs, self._in_format)
            params = {i: j.var() for i, j in self._reg_params.items()}
            _check_no_torch_modules(self)
            with self.name_scope():
                out = self._trace(grouped_inputs, params)
            out, self._out_format = _flatten(out, 'output')
            self._cached_graph = symbol_inputs, symbol.Group(out, _check_same_symbol_type(out))
        return self._cached_graph

    def _trace(self, inputs, params):
        """The symbolic outputs of this block for symbolic inputs and parameters."""
        user_forward = getattr(type(self).forward, '_mx_user_forward', None)
        if user_forward is not None:
            prev = _TRACE.active
            _TRACE.active = True
            try:
                return user_forward(self, *inputs)
            finally:
                _TRACE.active = prev
        return self.hybrid_forward(symbol, *inputs, **params)

    def _build_cache(self, *args):
        from .hybrid import CachedGraph
        data, out = self._get_graph(*args)
        data_names = {data.name: i for i, data in enumerate(data)}
        input_names = out.list_inputs()
        expected_names = set(input_names)

        if len(self._cached_op_args) > 0:
            params = {param_tuple[1].name: param_tuple[1]
                      for param_tuple in self._cached_op_args
                      if isinstance(param_tuple[1], Parameter)}
        else:
            params = self.collect_params()
        param_names = set(params.keys())
        for name in expected_names:
            assert name in param_names or name in data_names, \
                'Unknown input to HybridBlock: %s' % name

        used_data_names = [i for i in data_names if i in expected_names]
        if len(used_data_names) != len(data_names):
            unused = ', '.join(['%d-th' % i for name, i in data_names.items()
                                if name not in expected_names])
            warnings.warn('The %s input to HybridBlock is not used by any '
                          'computation. Is this intended?' % unused, stacklevel=4)

        used_param_names = [i for i in param_names if i in expected_names]
        if len(used_param_names) != len(param_names):
            unused = ', '.join(list(param_names - set(used_param_names)))
            warnings.warn('Parameter %s is not used by any computation. '
                          'Is this intended?' % unused, stacklevel=4)

        args, _ = _flatten(args, 'input')
        try:
            for name in input_names:
                if name in params:
                    params[name].data()
        except DeferredInitializationError:
            self._deferred_infer_shape(*args)
            for name in input_names:
                if name in params:
                    params[name]._finish_deferred_init()

        if self._backend is not None and self._backend not in _torch_backends():
            warnings.warn('hybridize(backend=%r): MXNet subgraph backends have no mxcompat '
                          'equivalent; the graph runs with torch operators (pass a '
                          'torch.compile backend such as "inductor" to compile it)'
                          % self._backend, stacklevel=4)

        self._cached_op_args = []
        for name in input_names:
            if name in data_names:
                self._cached_op_args.append((True, data_names[name]))
            else:
                self._cached_op_args.append((False, params[name]))
        on_cpu = not any(a.context.device_type == 'gpu' for a in args if a is not None)
        options, uncompiled_calls = self._compile_options(on_cpu)
        self._cached_op = CachedGraph(out, dict(self._flags), options, uncompiled_calls)

    def _compile_options(self, on_cpu):
        """torch.compile keyword arguments for a graph on the CPU (``on_cpu``) or a GPU, or
        None to run the graph uncompiled; and the number of calls that run uncompiled first."""
        opts = self._backend_opts
        # torch._dynamo (behind _torch_backends) takes about a second to import: only ask it
        # when a backend was named
        backend = self._backend if self._backend is not None and \
            self._backend in _torch_backends() else None
        flags = dict(self._flags)
        static = flags.get('static_alloc') and flags.get('static_shape') and _COMPILE_STATIC
        asked = opts.get('compile') or backend or 'mode' in opts
        if not (static or asked):
            return None, 0
        kwargs = {k: opts[k] for k in _COMPILE_KWARGS if k in opts}
        if backend is not None:
            kwargs['backend'] = backend
        if kwargs.get('backend', 'inductor') == 'inductor' and 'mode' not in kwargs:
            # random operators draw from torch's generator, as uncompiled (Dropout's masks);
            # torch.compile takes a mode or options, not both
            options = {'fallback_random': True}
            if on_cpu:
                # inductor's channels-last layouts slow convolutions' backward on the CPU (a
                # torch ResNet-18 training step compiled with them took 1.65x eager's CPU time,
                # without them 1.07x, one thread of an AMD EPYC)
                options['layout_optimization'] = False
            kwargs['options'] = dict(options, **kwargs.get('options', {}))
        if flags.get('static_shape'):
            kwargs.setdefault('dynamic', False)
        return kwargs, 0 if asked else _COMPILE_STATIC - 1

    def _deferred_infer_shape(self, *args):
        try:
            self.infer_shape(*args)
        except Exception as e:
            error_msg = 'Deferred initialization failed because shape' \
                        ' cannot be inferred. {}: {}'.format(_layer_and_inputs(self, args), e)
            raise ValueError(error_msg)

    def _call_cached_op(self, *args):
        if self._cached_op is None:
            self._build_cache(*args)
        given = args
        if len(args) == 1 and type(args[0]) is NDArray:  # the common case, not nested
            fmt = [0]
        else:
            args, fmt = _flatten(args, 'input')
        if fmt != self._in_format:
            # trailing None arguments may be left out (their defaults are None)
            if len(self._in_format) > len(fmt):
                valid = all([self._in_format[i] == -1
                             for i in range(len(fmt), len(self._in_format))])
                valid = valid and (fmt == self._in_format[:len(fmt)])
            elif len(self._in_format) < len(fmt):
                valid = all([fmt[i] == -1
                             for i in range(len(self._in_format), len(fmt))])
                valid = valid and (fmt[:len(self._in_format)] == self._in_format)
            else:
                valid = False
            if not valid:
                raise ValueError('The argument structure of HybridBlock does not match'
                                 ' the cached version. Stored format = {}, input format = {}'
                                 .format(fmt, self._in_format))
        args_without_none = [ele for ele in args if ele is not None]
        ctx = None
        # a Parameter's one copy must live on the inputs' context: compared here by name (host
        # contexts other than cpu(0) are kept by name, None is the device's own context);
        # devices that differ fail in torch, reported below
        x = args_without_none[0] if args_without_none else None
        in_ctx = x._ctx if x is not None else None
        if in_ctx is not None and in_ctx == context_of_device(x._t.device):
            in_ctx = None
        tensors = []
        for is_arg, i in self._cached_op_args:
            if is_arg:
                tensors.append(args_without_none[i]._t)
            else:
                data = i._data
                if data is None:
                    tensors.append(i.data()._t)  # raises the reason
                elif len(data) == 1:
                    d = data[0]
                    if d._ctx is not in_ctx and x is not None and d.context != x.context:
                        raise self._mixed_context_error(args_without_none)
                    tensors.append(d._t)
                else:
                    if ctx is None:
                        ctx = args_without_none[0].context
                    tensors.append(i.data(ctx)._t)
        graph = self._cached_op
        if graph.fusable and not graph.uncompiled_calls and self._callback is None and \
                autograd.is_recording():
            out = defer(self, given, x, tensors)
            if out is not None:  # computed by backward() or when first read (fused_step.py)
                if _ACTIVE[0]:
                    self._record_call(out, args_without_none)
                return out[0] if len(out) == 1 and self._out_format == 0 else \
                    _regroup(out, self._out_format)
        try:
            if self._callback is not None:
                out = self._cached_op.run_monitored(tensors, self._callback,
                                                    self._monitor_all)
            else:
                out = self._cached_op(tensors)
        except RuntimeError as e:
            raise (self._mixed_context_error(args_without_none) or e) from None
        if type(self._cached_graph[1]) is not Symbol:  # a NumPy-semantics graph
            ctx = args_without_none[0]._ctx if args_without_none else None
            out = [_np_on_ctx(t, ctx) for t in out]
            if _ACTIVE[0]:
                self._record_call(out, args_without_none)
            return out[0] if len(out) == 1 and self._out_format == 0 else \
                _regroup(out, self._out_format)
        if len(out) == 1 and args_without_none and self._out_format == 0:
            res = args_without_none[0]._like(out[0])  # one output, on the inputs' context
            if _ACTIVE[0]:
                self._record_call([res], args_without_none)
            return res
        ctx = args_without_none[0]._ctx if args_without_none else None
        out = [wrap(t) for t in out]
        if ctx is not None:
            for o in out:
                o._ctx = ctx
        if _ACTIVE[0]:
            self._record_call(out, args_without_none)
        return _regroup(out, self._out_format)

    def _record_call(self, outputs, args):
        """Note the call that gave ``outputs`` for ``autograd.get_symbol``."""
        ctx = args[0].context if args else None
        inputs = [args[i] if is_arg else i.data(ctx) for is_arg, i in self._cached_op_args]
        op = self._cached_op
        note_graph(outputs, op.symbol, inputs, op.inlined)

    def _mixed_context_error(self, args):
        """MXNetError, worded as MXNet's CachedOp, for a graph input or a Parameter (one copy)
        that lives on another context than the first input (None when all share it)."""
        if not args:
            return None
        names = [d.name for d in self._cached_graph[0]]
        first, first_ctx = names[0], args[0].context
        for is_arg, i in self._cached_op_args:
            if is_arg:
                name, ctx = names[i], args[i].context
            elif i._data is not None and len(i._data) == 1:
                name, ctx = i.name, i._data[0].context
            else:
                continue
            if ctx != first_ctx:
                return MXNetError(
                    'CachedOp requires all inputs to live on the same context. But %s is on %s '
                    'while %s is on %s; initialize or load the parameters with ctx=%s, or copy '
                    'the inputs with as_in_context()' % (first, first_ctx, name, ctx, first_ctx))
        return None

    def optimize_for(self, x, *args, backend=None, clear=False,
                     static_alloc=False,
                     static_shape=False,
                     inline_limit=2,
                     forward_bulk_size=None,
                     backward_bulk_size=None,
                     **kwargs):
        """Partitions the current HybridBlock and optimizes it for a given backend
        without executing a forward pass. Modifies the HybridBlock in-place.

        In mxcompat ``backend`` names a torch.compile backend ('inductor', 'eager', ...).

        Parameters
        ----------
        x : NDArray
            first input to model
        *args : NDArray
            other inputs to model
        backend : str
            The name of backend, default None
        clear : bool, default False
            Clears any previous optimizations
        static_alloc : bool, default False
            Statically allocate memory to improve speed. Memory usage may increase.
        static_shape : bool, default False
            Optimize for invariant input shapes between iterations.
        **kwargs: The backend options, optional
        """
        if len(kwargs) > 0:
            self._backend_opts = kwargs
        if not backend:
            raise ValueError('Must specify "backend" to optimize_for')
        self.hybridize(True, backend, clear, static_alloc, static_shape,
                       inline_limit, forward_bulk_size, backward_bulk_size)
        x, *args = _wrap_tensors([x] + list(args), set())
        has_symbol, has_ndarray, ctx_set, _ = _gather_type_ctx_info([x] + list(args))
        if not has_symbol and not has_ndarray:
            raise ValueError('In HybridBlock, there must be one NDArray or one Symbol in the '
                             'input. Please check the type of the args.\n')
        if len(ctx_set) > 1:
            raise ValueError('Found multiple contexts in the input, '
                             'After hybridized, the HybridBlock only supports one input '
                             'context. You can print the ele.ctx in the '
                             'input arguments to inspect their contexts. '
                             'Find all contexts = {}'.format(ctx_set))
        self._build_cache(x, *args)

    def _clear_cached_op(self):
        self._cached_graph = ()
        self._cached_op = None
        self._cached_op_args = []

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError(
                'Children of HybridBlock must also be HybridBlock, '
                'but %s has type %s. If you are using Sequential, '
                'please try HybridSequential instead.' % (
                    str(block), str(type(block))))
        super(HybridBlock, self).register_child(block, name)
        self._clear_cached_op()

    def hybridize(self, active=True, backend=None, clear=True,
                  static_alloc=False, static_shape=False,
                  inline_limit=2,
                  forward_bulk_size=None,
                  backward_bulk_size=None,
                  **kwargs):
        """Activates or deactivates :py:class:`HybridBlock` s recursively. Has no effect on
        non-hybrid children.

        Parameters
        ----------
        active : bool, default True
            Whether to turn hybrid on or off.
        backend : str
            A torch.compile backend ('inductor', 'eager', 'aot_eager', ...) to compile the
            graph with. MXNet's subgraph backends (e.g. 'MKLDNN') have no equivalent: the
            graph then runs uncompiled, with a warning.
        clear : bool, default True
            Clears any previous optimizations
        static_alloc : optional bool, default False
            Statically allocate memory to improve speed. Memory usage may increase. With
            ``static_shape`` the graph is compiled with torch.compile (inductor unless
            ``backend`` names another) at its 50th call (``MXCOMPAT_COMPILE_STATIC=N`` in the
            environment: at its N-th call, 1 the first, 0 never), in each train/predict mode,
            and again for each new input shape (seconds per graph, minutes for a large one);
            the calls before it run uncompiled. Where it cannot be compiled it runs
            uncompiled, with a warning. A training step recorded on such a graph, its loss
            block and ``backward()`` then run as one compiled function (from the loss
            block's second call after the graph compiled), float32 matrix products on the
            CPU with oneDNN's kernel or MKL's, whichever is faster for their shapes.
        static_shape : optional bool, default False
            Optimize for invariant input shapes between iterations (a compiled graph is
            compiled with ``dynamic=False``).
        inline_limit : optional int, default 2
            Maximum number of operators that can be inlined.
        forward_bulk_size : optional int, default None
            Segment size of bulk execution during forward pass.
        backward_bulk_size : optional int, default None
            Segment size of bulk execution during forward pass.
        **kwargs:  optional
            ``compile=True`` compiles the graph with torch.compile; other keyword arguments
            (``mode``, ``fullgraph``, ``dynamic``, ``options``) are passed to torch.compile.
        """
        if len(kwargs) > 0:
            self._backend_opts = kwargs
        self._backend = backend
        self._active = active
        self._flags = [('static_alloc', static_alloc), ('static_shape', static_shape),
                       ('inline_limit', inline_limit)]
        if forward_bulk_size is not None:
            self._flags.append(('forward_bulk_size', forward_bulk_size))
        if backward_bulk_size is not None:
            self._flags.append(('backward_bulk_size', backward_bulk_size))
        if clear:
            self._clear_cached_op()
            self._trace_failed = False
        if active and self._forward_hooks or self._forward_pre_hooks:
            warnings.warn('"{block}" is being hybridized while still having forward hook/pre-hook. '
                          'If "{block}" is a child of HybridBlock, the hooks will not take effect.'
                          .format(block=self))
        super(HybridBlock, self).hybridize(active,
                                           static_alloc=static_alloc,
                                           static_shape=static_shape,
                                           inline_limit=inline_limit,
                                           forward_bulk_size=forward_bulk_size,
                                           backward_bulk_size=backward_bulk_size)

    def cast(self, dtype):
        self._clear_cached_op()
        super(HybridBlock, self).cast(dtype)

    def _infer_attrs(self, infer_fn, attr, *args):
        """Generic infer attributes."""
        inputs, out = self._get_graph(*args)
        args, _ = _flatten(args, 'input')
        args_without_none = [ele for ele in args if ele is not None]
        given = {i.name: getattr(j, attr) for i, j in zip(inputs, args_without_none)}
        arg_attrs, _, aux_attrs = getattr(out, infer_fn)(**given)
        if arg_attrs is None:
            partial = getattr(out, infer_fn + '_partial')(**given)[0]
            unknown = [n for n, s in zip(out.list_arguments(), partial)
                       if s is None or (attr == 'shape' and (not s or 0 in s))]
            raise ValueError('%s cannot infer the %s of %s from inputs %s'
                             % (infer_fn, attr, ', '.join(unknown), given))
        sdict = {i: j for i, j in zip(out.list_arguments(), arg_attrs)}
        sdict.update({name: attr for name, attr in
                      zip(out.list_auxiliary_states(), aux_attrs)})
        for i in self.collect_params().values():
            setattr(i, attr, sdict[i.name])

    def infer_shape(self, *args):
        """Infers shape of Parameters from inputs."""
        self._infer_attrs('infer_shape', 'shape', *args)

    def infer_type(self, *args):
        """Infers data type of Parameters from inputs."""
        self._infer_attrs('infer_type', 'dtype', *args)

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Export HybridBlock to json format that can be loaded by
        `gluon.SymbolBlock.imports`, `mxnet.mod.Module` or the C++ interface.

        .. note:: When there are only one input, it will have name `data`. When there
                  Are more than one inputs, they will be named as `data0`, `data1`, etc.

        Parameters
        ----------
        path : str
            Path to save model. Two files `path-symbol.json` and `path-xxxx.params`
            will be created, where xxxx is the 4 digits epoch number.
        epoch : int
            Epoch number of saved model.
        """
        if not self._cached_graph:
            raise RuntimeError(
                'Please first call block.hybridize() and then run forward with '
                'this block at least once before calling export.')
        sym = self._cached_graph[1]
        arg_names = set(sym.list_arguments())
        aux_names = set(sym.list_auxiliary_states())
        arg_dict = {}
        for is_arg, param in self._cached_op_args:
            if not is_arg:
                name = param.name
                if name in arg_names:
                    arg_dict['arg:{}'.format(name)] = param._reduce()
                elif name not in aux_names:
                    warnings.warn('Parameter "{name}" is not found in the graph. '
                                  .format(name=name), stacklevel=3)
                else:
                    arg_dict['aux:%s' % name] = param._reduce()
        params_name = '%s-%04d.params' % (path, epoch)
        with fileio.atomic_group(params_name):  # both replace their targets together
            sym.save('%s-symbol.json' % path, remove_amp_cast=remove_amp_cast)
            ndarray.save(params_name, arg_dict)

    def export_program(self, *example_inputs, dynamic_batch=True, path=None):
        """Export the block's graph with its current parameters as a ``torch.export`` program
        (the sibling of :py:meth:`export`), which runs in a process that imports only torch:
        ``torch.export.load(path).module()(x)``.

        The program takes the block's inputs positionally and returns the tuple of its
        outputs, computed in predict mode. Models loaded with :py:meth:`SymbolBlock.imports`
        export the same way.

        Parameters
        ----------
        *example_inputs : NDArray
            Inputs of the shapes (and dtype) to trace the graph with.
        dynamic_batch : bool, default True
            Whether dim 0 of every input is dynamic, so the program takes any batch size.
        path : str, optional
            Also write the program there (``.pt2``), atomically.

        Returns
        -------
        torch.export.ExportedProgram
            The program, with the parameters in its state dict under their MXNet names.
        """
        from ..symbol.export import export_program, save_program
        if not example_inputs:
            raise MXNetError('export_program needs example inputs of the shapes to trace, '
                             'e.g. block.export_program(mx.nd.zeros((1, 3, 224, 224)))')
        params = self.collect_params()
        if any(p._data is None for p in params.values()):
            self(*example_inputs)  # deferred initialization
        data, out = self._get_graph(*example_inputs)
        arrays = [a for a in _flatten(example_inputs, 'input')[0] if a is not None]
        inputs = set(out.list_inputs())
        values = {p.name: p.data() for p in params.values() if p.name in inputs}
        program = export_program(out, values, {d.name: a.shape for d, a in zip(data, arrays)},
                                 dynamic_batch=dynamic_batch, data_names=[d.name for d in data],
                                 data_dtypes={d.name: a.dtype for d, a in zip(data, arrays)})
        if path is not None:
            save_program(program, path)
        return program

    def register_op_hook(self, callback, monitor_all=False):
        """Install op hook for block recursively.

        Parameters
        ----------
        callback : function
            Takes a string and a NDArrayHandle.
        monitor_all : bool, default False
            If true, monitor both input and output, otherwise monitor output only.
        """
        self._callback = callback
        self._monitor_all = monitor_all
        for cld in self._children.values():
            cld._callback = callback
            cld._monitor_all = monitor_all

    def forward(self, x, *args):
        """Defines the forward computation. Arguments can be either
        :py:class:`NDArray` or :py:class:`Symbol`."""
        if PENDING and (id(x) in PENDING or any(id(a) in PENDING for a in args)):
            out = extend(self, (x,) + args)
            if out is not None:
                return out
        np_mode = False  # NumPy array semantics: outputs must be mx.np arrays
        if type(x) is NDArray and (not args or _all_ndarrays(args)):  # no nested search
            has_symbol, has_ndarray, ctx_set, ctx = False, True, None, x.context
            if args and self._active:
                ctx_set = {x.context}.union([a.context for a in args])
        else:
            np_mode = is_np_array()
            if _holds_tensor((x,) + args):
                return _call_on_tensors(self, (x,) + args, self.forward)
            has_symbol, has_ndarray, ctx_set, ctx = _gather_type_ctx_info([x] + list(args))
            if has_symbol and has_ndarray:
                raise ValueError('In HybridBlock, we do not support mixed NDArrays and Symbols'
                                 ' types for the input. Please check the type of the args.\n')
            if not has_symbol and not has_ndarray:
                raise ValueError('In HybridBlock, there must be one NDArray or one Symbol in '
                                 'the input. Please check the type of the args.\n')
        if has_ndarray:
            if self._active and ctx_set is not None and len(ctx_set) > 1:
                raise ValueError('Find multiple contexts in the input, '
                                 'After hybridized, the HybridBlock only supports one input '
                                 'context. You can print the ele.ctx in the '
                                 'input arguments to inspect their contexts. '
                                 'Find all contexts = {}'.format(ctx_set))
            prev = swap_context(ctx)
            try:
                if self._active:
                    return self._call_cached_op(x, *args)
                try:
                    params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                except DeferredInitializationError:
                    self._deferred_infer_shape(x, *args)
                    for _, v in self.params.items():
                        v._finish_deferred_init()
                    params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                try:
                    out = self.hybrid_forward(ndarray, x, *args, **params)
                except MXNetError as err:
                    raise _error_naming_layer(self, err, (x,) + args) from err
                if np_mode:
                    if type(self).hybrid_forward.__module__.startswith(_PACKAGE):
                        # mxcompat's layers (and subclasses keeping their hybrid_forward) call
                        # legacy operators: their outputs become mx.np arrays, as MXNet's
                        # NumPy-aware layers give
                        out = _as_np_tree(out)
                    else:
                        _check_all_np_ndarrays(out)
                if ctx.device_typeid != 2 and ctx.device_id != 0:
                    _tag_context(out, ctx)  # cpu(1) lives in host memory as cpu(0) does
                return out
            finally:
                Context._default_ctx.value = prev
        params = {i: j.var() for i, j in self._reg_params.items()}
        with self.name_scope():
            return self.hybrid_forward(symbol, x, *args, **params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Overrides to construct symbolic graph for this `Block`.

        Parameters
        ----------
        x : Symbol or NDArray
            The first input tensor.
        *args : list of Symbol or list of NDArray
            Additional input tensors.
        """
        raise NotImplementedError


# hybridize() keyword arguments passed on to torch.compile
_COMPILE_KWARGS = ('mode', 'fullgraph', 'dynamic', 'options', 'disable')


def _static_compile_call():
    """The call of a static_alloc + static_shape graph that compiles it (0: none), from
    ``MXCOMPAT_COMPILE_STATIC``. A recorded training step then runs as one compiled function
    (fused_step.py), faster than torch eager on the CPU (benchmarks/bench_hybridize_static.py),
    but compiling a graph takes seconds to minutes: by default the 50th call compiles, so that
    tests and short loops do not pay for it (GluonTS's trainer hybridizes every model static,
    and its DeepAR smoke test, six training steps per model, did not finish in 10 minutes
    compiled from the first call)."""
    value = os.environ.get('MXCOMPAT_COMPILE_STATIC', '50')
    try:
        call = int(value)
        if call < 0:
            raise ValueError
    except ValueError:
        raise ValueError('MXCOMPAT_COMPILE_STATIC must be the number of the call that compiles '
                         'a static hybridized graph (1: the first, 0: never), got %r'
                         % value) from None
    return call


_COMPILE_STATIC = _static_compile_call()


def _np_on_ctx(t, ctx):
    out = wrap(t).as_np_ndarray()
    out._ctx = ctx
    return out


def _as_np_tree(out):
    """``out`` (an NDArray or nested lists of them) as ``mx.np`` arrays (no copies)."""
    if isinstance(out, NDArray):
        return out.as_np_ndarray()
    if isinstance(out, (list, tuple)):
        return type(out)(_as_np_tree(o) for o in out)
    return out


def _traced_forward(fwd):
    """Wrap the ``forward`` of an MXNet 2.x-style HybridBlock (one without
    ``hybrid_forward``): hybridized, it is traced into a Symbol and runs as a graph like a
    ``hybrid_forward``; with symbolic inputs it builds the symbol; otherwise it runs as written,
    completing deferred initialization by tracing when a Parameter's shape is unknown."""
    @functools.wraps(fwd)
    def forward(self, *args):
        has_symbol, has_ndarray, _, ctx = _gather_type_ctx_info(list(args))
        if not (has_symbol or has_ndarray) and _holds_tensor(args):
            return _call_on_tensors(self, args, self.forward)
        if has_symbol:
            prev = _TRACE.active
            _TRACE.active = True
            try:
                with self.name_scope():
                    return fwd(self, *args)
            finally:
                _TRACE.active = prev
        if has_ndarray and self._active and not self._trace_failed:
            try:
                prev = swap_context(ctx)
                try:
                    return self._call_cached_op(*args)
                finally:
                    Context._default_ctx.value = prev
            except (MXNetError, TypeError, AttributeError, ValueError) as err:
                if self._cached_op is not None:
                    raise
                self._trace_failed = True
                self._clear_cached_op()
                warnings.warn('%s.forward cannot be traced into a symbol (%s: %s); it runs '
                              'imperatively' % (type(self).__name__, type(err).__name__, err),
                              stacklevel=4)
        try:
            return fwd(self, *args)
        except DeferredInitializationError:
            self._deferred_infer_shape(*args)
            for p in self.collect_params().values():
                p._finish_deferred_init()
            return fwd(self, *args)
    forward._mx_user_forward = fwd
    return forward


def _check_no_torch_modules(block):
    """MXNetError naming the fix when a torch.nn.Module is part of the HybridBlock ``block``
    being traced: torch modules compute on tensors and cannot be traced into a Symbol."""
    for name, module in block.named_modules():
        if not isinstance(module, Block):
            raise MXNetError(
                "HybridBlock '%s' cannot be traced into a Symbol (by hybridize() or to infer "
                "deferred parameter shapes): its child '%s' is a torch.nn.Module (%s), which "
                "computes on tensors only. Hybridize the Gluon children (call hybridize() on "
                "them) and leave '%s' imperative, and give its Gluon layers their input sizes "
                "(in_units, in_channels)" % (block.name, name, type(module).__name__, block.name))


def _tag_context(out, ctx):
    """Report Context ``ctx`` on the (nested) output NDArrays."""
    if isinstance(out, NDArray):
        out._ctx = ctx
    elif isinstance(out, (list, tuple)):
        for o in out:
            _tag_context(o, ctx)


def _layer_and_inputs(block, inputs):
    """``'dense0' (Dense) given input shapes [(2, 3)]``: names a layer in an error message."""
    shapes = [tuple(a.shape) for a in inputs if isinstance(a, NDArray)]
    return "layer '{}' ({}) given input shape{} {}".format(
        block.name, type(block).__name__, '' if len(shapes) == 1 else 's',
        shapes[0] if len(shapes) == 1 else shapes)


def _error_naming_layer(block, err, inputs):
    """The operator error ``err`` raised inside ``block``, prefixed with the innermost layer's
    name and input shapes (the operator's message holds the expected and the given shape)."""
    if getattr(err, '_names_layer', False):
        return err
    named = MXNetError('{}: {}'.format(_layer_and_inputs(block, inputs), err))
    named._names_layer = True
    return named


def _torch_backends():
    from .hybrid import torch_backends
    return torch_backends()


def _common_prefix(names):
    """Get the common prefix for all names"""
    if not names:
        return ''
    prefix = names[0]
    for name in names:
        i = 0
        while i < len(prefix) and i < len(name) and prefix[i] == name[i]:
            i += 1
        prefix = prefix[:i]
    return prefix


class SymbolBlock(HybridBlock):
    """Construct block from symbol. This is useful for using pre-trained models
    as feature extractors. For example, you may want to extract the output
    from fc2 layer in AlexNet.

    Parameters
    ----------
    outputs : Symbol or list of Symbol
        The desired output for SymbolBlock.
    inputs : Symbol or list of Symbol
        The Variables in output's argument that should be used as inputs.
    params : ParameterDict
        Parameter dictionary for arguments and auxililary states of outputs
        that are not inputs.

    Examples
    --------
    >>> # To extract the feature from fc1 and fc2 layers of AlexNet:
    >>> alexnet = gluon.model_zoo.vision.alexnet(pretrained=True, ctx=mx.cpu(),
                                                 prefix='model_')
    >>> inputs = mx.sym.var('data')
    >>> out = alexnet(inputs)
    >>> internals = out.get_internals()
    >>> print(internals.list_outputs())
    ['data', ..., 'model_dense0_relu_fwd_output', ..., 'model_dense1_relu_fwd_output', ...]
    >>> outputs = [internals['model_dense0_relu_fwd_output'],
                   internals['model_dense1_relu_fwd_output']]
    >>> # Create SymbolBlock that shares parameters with alexnet
    >>> feat_model = gluon.SymbolBlock(outputs, inputs, params=alexnet.collect_params())
    >>> x = mx.nd.random.normal(shape=(16, 3, 224, 224))
    >>> print(feat_model(x))
    """
    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False,
                ignore_extra=False):
        """Import model previously saved by `gluon.HybridBlock.export` or
        `Module.save_checkpoint` as a `gluon.SymbolBlock` for use in Gluon.

        Parameters
        ----------
        symbol_file : str
            Path to symbol file.
        input_names : list of str
            List of input variable names
        param_file : str, optional
            Path to parameter file.
        ctx : Context, default None
            The context to initialize `gluon.SymbolBlock` on.
        allow_missing : bool, default False
            Whether to silently skip loading parameters not represents in the file.
        ignore_extra : bool, default False
            Whether to silently ignore parameters from the file that are not
            present in this Block.

        Returns
        -------
        gluon.SymbolBlock
            `gluon.SymbolBlock` loaded from symbol and parameter files.

        Examples
        --------
        >>> net1 = gluon.model_zoo.vision.resnet18_v1(
        ...     prefix='resnet', pretrained=True)
        >>> net1.hybridize()
        >>> x = mx.nd.random.normal(shape=(1, 3, 32, 32))
        >>> out1 = net1(x)
        >>> net1.export('net1', epoch=1)
        >>>
        >>> net2 = gluon.SymbolBlock.imports(
        ...     'net1-symbol.json', ['data'], 'net1-0001.params')
        >>> out2 = net2(x)
        """
        sym = symbol.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        if param_file is None:
            # a valid type inference needs the input types: assume float32
            inputs = [symbol.var(i, dtype=mx_real_t) for i in input_names]
        else:
            # the types come from the saved parameters
            inputs = [symbol.var(i) for i in input_names]
        if is_np_array():  # a NumPy-semantics graph: mx.np.ndarray outputs, as in MXNet
            sym = sym.as_np_ndarray()
            inputs = [i.as_np_ndarray() for i in inputs]
        ret = SymbolBlock(sym, inputs)
        if param_file is not None:
            fileio.check_group(param_file, 'SymbolBlock.imports')
            ret.collect_params().load(param_file, ctx, allow_missing, ignore_extra,
                                      cast_dtype=True, dtype_source='saved')
        return ret

    def __repr__(self):
        s = '{name}(\n{modstr}\n)'
        modstr = '\n'.join(['{block} : {numinputs} -> {numoutputs}'.format(
            block=self._cached_graph[1], numinputs=len(self._cached_graph[0]),
            numoutputs=len(self._cached_graph[1].list_outputs()))])
        return s.format(name=self.__class__.__name__, modstr=modstr)

    def __init__(self, outputs, inputs, params=None):
        super(SymbolBlock, self).__init__(prefix=None, params=None)
        self._prefix = ''
        self._params = ParameterDict('', params)
        if isinstance(inputs, Symbol) and len(inputs.list_outputs()) == 1:
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            outputs = outputs[0]

        syms, self._in_format = _flatten(inputs, 'input')
        out, self._out_format = _flatten(outputs, 'output')
        input_names = set()
        for i in syms:
            assert len(i.get_internals().list_outputs()) == 1, \
                'Input symbols must be variable, but %s is an output of operators' % str(i)
            input_names.add(i.name)

        for i in out:
            for j in i.get_internals():
                if j.attr('__storage_type__') not in (None, '0'):
                    raise MXNetAssertionError(
                        "SymbolBlock doesn't support Parameter '%s' because its storage "
                        "type is not 'default'." % j.name)
        if len(out) > 1:
            out = symbol.Group(out, _check_same_symbol_type(out))
        else:
            out = out[0]

        # infer the parameter types from the inputs' (default: every parameter float32)
        arg_params = out.list_arguments()
        aux_params = out.list_auxiliary_states()
        arg_types, aux_types = _infer_param_types(syms, out, arg_params, aux_params)

        for i, arg in enumerate(arg_params):
            if arg not in input_names:
                self.params.get(arg, allow_deferred_init=True, dtype=arg_types[i])
        for i, aux in enumerate(aux_params):
            if aux not in input_names:
                self.params.get(aux, grad_req='null', allow_deferred_init=True,
                                dtype=aux_types[i])

        self._cached_graph = syms, out
        len_prefix = len(_common_prefix(list(self._params.keys())))
        self._reg_params = {key[len_prefix:]: val for key, val in self._params.items()}

    def forward(self, x, *args):
        if isinstance(x, NDArray):
            prev = swap_context(x.context)
            try:
                return self._call_cached_op(x, *args)
            finally:
                Context._default_ctx.value = prev
        if _holds_tensor((x,) + args):
            return _call_on_tensors(self, (x,) + args, self.forward)
        assert isinstance(x, Symbol), \
            'HybridBlock requires the first argument to forward be either ' \
            'Symbol or NDArray, but got %s' % type(x)
        args, in_fmt = _flatten([x] + list(args), 'input')
        assert in_fmt == self._in_format, 'Invalid input format'
        ret = copy.copy(self._cached_graph[1])
        ret._compose(**{k.name: v for k, v in zip(self._cached_graph[0], args)})
        return _regroup(list(ret), self._out_format)

    def _clear_cached_op(self):
        tmp = self._cached_graph
        super(SymbolBlock, self)._clear_cached_op()
        self._cached_graph = tmp

    def cast(self, dtype):
        self._clear_cached_op()
        super(SymbolBlock, self).cast(dtype)
        if np.dtype(dtype).name == 'float16':
            # BatchNorm keeps float32 statistics and scale/shift
            out = self._cached_graph[1]
            params_list = out.get_internals().list_inputs()
            for node in params_list:
                for stat, stem_len, sibs in (('running_var', 11, ('running_mean', 'gamma',
                                                                   'beta')),
                                             ('moving_var', 10, ('moving_mean', 'gamma',
                                                                 'beta'))):
                    if node.endswith(stat):
                        prefix = node[:-stem_len]
                        names = [prefix + t for t in sibs]
                        if all(p in params_list for p in names):
                            self.params.get(node).cast('float32')
                            for sib in names:
                                self.params.get(sib).cast('float32')

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError

    def reset_ctx(self, ctx):
        """Re-assign all Parameters to other contexts. If the Block is hybridized, it will
        reset the _cached_op_args.

        Parameters
        ----------
        ctx : Context or list of Context, default :py:meth:`context.current_context()`.
            Assign Parameter to given context. If ctx is a list of Context, a
            copy will be made for each context.
        """
        for p in self.collect_params().values():
            p.reset_ctx(ctx)


def _infer_param_types(in_params, out_params, arg_params, aux_params, default_dtype=mx_real_t):
    """(arg_types, aux_types) of a graph's parameters, inferred from its inputs' types
    (``default_dtype`` where they cannot be inferred)."""
    arg_types = None
    aux_types = None
    input_sym_names = [in_param.name for in_param in in_params]
    input_sym_arg_types = []
    can_infer_input_type = True
    for in_param in in_params:
        input_sym_arg_type = in_param.infer_type()[0]
        if not input_sym_arg_type or len(input_sym_arg_type) < 1:
            can_infer_input_type = False
            break
        input_sym_arg_types.append(input_sym_arg_type[0])
    if can_infer_input_type:
        params = {k: v for k, v in zip(input_sym_names, input_sym_arg_types)}
        try:
            arg_types, _, aux_types = out_params.infer_type(**params)
        except MXNetError:
            arg_types, aux_types = None, None
    if arg_types is None or len(arg_types) != len(arg_params):
        arg_types = [default_dtype for _ in arg_params]
    if aux_types is None or len(aux_types) != len(aux_params):
        aux_types = [default_dtype for _ in aux_params]
    return (arg_types, aux_types)
