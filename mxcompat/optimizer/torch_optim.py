"""A ``torch.optim.Optimizer`` that steps torch tensors with an MXNet optimizer's rule."""
import torch

from ..ndarray import NDArray
from ..ndarray.ndarray import wrap
from .optimizer import Optimizer, create
from .updater import apply_updates

__all__ = ['TorchOptimizer']


def _to_torch(state):
    """An optimizer state (NDArrays in tuples/lists, or None) with torch.Tensors instead."""
    if isinstance(state, NDArray):
        return state._t
    if isinstance(state, (tuple, list)):
        return type(state)(_to_torch(s) for s in state)
    return state


def _to_device(state, device):
    """``state`` with its tensors on ``device``, dtypes unchanged."""
    if isinstance(state, torch.Tensor):
        return state.to(device=device)
    if isinstance(state, (tuple, list)):
        return type(state)(_to_device(s, device) for s in state)
    return state


def _to_nd(state):
    """The inverse of :func:`_to_torch`, sharing memory (updates write into the tensors)."""
    if isinstance(state, torch.Tensor):
        return wrap(state)
    if isinstance(state, (tuple, list)):
        return type(state)(_to_nd(s) for s in state)
    return state


class TorchOptimizer(torch.optim.Optimizer):
    """Steps torch parameters with the update rule of an MXNet optimizer, exactly as
    ``mx.optimizer.Updater`` would (same state arrays, multi-precision copies, aggregation).

    Parameters
    ----------
    params : iterable of torch.Tensor or of dict
        The tensors to optimize, or parameter groups. A group may set ``lr_mult`` and
        ``wd_mult`` (default 1.0), which multiply the optimizer's learning rate and weight
        decay like a Gluon Parameter's ``lr_mult`` / ``wd_mult``.
    optimizer : mx.optimizer.Optimizer or str
        The MXNet optimizer (or its registered name) whose rule is applied. Its learning rate,
        ``lr_scheduler``, ``wd``, ``rescale_grad`` and ``clip_gradient`` are used as they are;
        ``group['lr']`` is not read, so drive the schedule with an ``mx.lr_scheduler``.

    Each parameter's index for the MXNet optimizer is its position over all groups. Its MXNet
    state (as torch tensors) and update count are kept in ``self.state[param]``, so
    ``state_dict()`` / ``load_state_dict()`` work with ``torch.save`` / ``torch.load``.

    Example
    -------
    >>> opt = mx.optimizer.TorchOptimizer(model.parameters(), mx.optimizer.Adam(wd=1e-4))
    >>> loss.backward(); opt.step(); opt.zero_grad()
    """
    def __init__(self, params, optimizer):
        if isinstance(optimizer, str):
            optimizer = create(optimizer)
        if not isinstance(optimizer, Optimizer):
            raise TypeError('TorchOptimizer needs an mx.optimizer.Optimizer, got %s'
                            % type(optimizer).__name__)
        self.mx_optimizer = optimizer
        super(TorchOptimizer, self).__init__(params, {'lr_mult': 1.0, 'wd_mult': 1.0})

    def _indexed(self):
        i = 0
        for group in self.param_groups:
            for p in group['params']:
                yield i, group, p
                i += 1

    @torch.no_grad()
    def step(self, closure=None):
        """Performs one update of every parameter that has a gradient."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        opt = self.mx_optimizer
        indices, weights, grads, states, params = [], [], [], {}, []
        for i, group, p in self._indexed():
            if p.grad is None:
                continue
            if p.grad.is_sparse:
                raise NotImplementedError('TorchOptimizer: sparse gradients are not supported')
            opt.lr_mult[i] = group['lr_mult']
            opt.wd_mult[i] = group['wd_mult']
            weight = wrap(p.detach())
            st = self.state[p]
            if 'mxnet_state' not in st:
                st['mxnet_state'] = _to_torch(opt.create_state_multi_precision(i, weight))
            indices.append(i)
            weights.append(weight)
            grads.append(wrap(p.grad))
            states[i] = _to_nd(st['mxnet_state'])
            params.append(p)
        apply_updates(opt, states, indices, weights, grads)
        for i, p in zip(indices, params):
            self.state[p]['step'] = opt._index_update_count[i]
        return loss

    def load_state_dict(self, state_dict):
        """Loads the state and sets the MXNet optimizer's update counts from it."""
        saved = state_dict['state']
        super(TorchOptimizer, self).load_state_dict(state_dict)
        opt = self.mx_optimizer
        for i, _, p in self._indexed():
            if i not in saved:
                continue
            # torch casts loaded state to the parameter's dtype: keep MXNet's (fp32 masters)
            self.state[p]['mxnet_state'] = _to_device(saved[i]['mxnet_state'], p.device)
            step = int(saved[i]['step'])
            opt._index_update_count[i] = step
            opt.num_update = max(opt.num_update, step)
