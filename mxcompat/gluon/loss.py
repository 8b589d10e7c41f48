"""Losses (``mx.gluon.loss``): HybridBlocks that return one loss value per sample.

Every loss reduces over all axes except the batch axis (no batch reduction), as MXNet 1.9.1
does; ``weight`` scales the loss and ``sample_weight`` is broadcast-multiplied into it.
"""
import numpy as np
import torch
from torch.nn.functional import cross_entropy as _cross_entropy

from .. import ndarray
from ..ndarray.ndarray import NDArray
from ..base import numeric_types
from ..util import is_np_array
from .block import HybridBlock

__all__ = ['Loss', 'L2Loss', 'L1Loss', 'SigmoidBinaryCrossEntropyLoss', 'SigmoidBCELoss',
           'SoftmaxCrossEntropyLoss', 'SoftmaxCELoss', 'KLDivLoss', 'CTCLoss', 'HuberLoss',
           'HingeLoss', 'SquaredHingeLoss', 'LogisticLoss', 'TripletLoss', 'PoissonNLLLoss',
           'CosineEmbeddingLoss', 'SDMLLoss']


def _apply_weighting(F, loss, weight=None, sample_weight=None):
    """Scales `loss` by `sample_weight` (broadcast) and then by the number `weight`."""
    if sample_weight is not None:
        if is_np_array():  # NumPy's promotion: a float loss times an int mask stays float
            loss = loss * sample_weight
        else:
            loss = F.broadcast_mul(loss, sample_weight)
    if weight is not None:
        assert isinstance(weight, numeric_types), 'weight must be a number'
        loss = loss * weight
    return loss


def _reshape_like(F, x, y):
    """`x` reshaped to the shape of `y`."""
    if F is ndarray:
        return x.reshape(y.shape)
    return F.reshape_like(x, y)


class Loss(HybridBlock):
    """Base class for loss.

    Parameters
    ----------
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    """
    def __init__(self, weight, batch_axis, **kwargs):
        super(Loss, self).__init__(**kwargs)
        self._weight = weight
        self._batch_axis = batch_axis

    def __repr__(self):
        return '{name}(batch_axis={axis}, w={w})'.format(
            name=self.__class__.__name__, axis=self._batch_axis, w=self._weight)

    def _batch_mean(self, F, loss):
        return F.mean(loss, axis=self._batch_axis, exclude=True)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Overrides to construct symbolic graph for this `Block`."""
        raise NotImplementedError


class L2Loss(Loss):
    r"""Calculates the mean squared error between `label` and `pred`:
    :math:`L = \frac{1}{2} \sum_i \vert {label}_i - {pred}_i \vert^2`.

    `label` and `pred` can have arbitrary shape as long as they have the same number of
    elements. Output: loss tensor with shape (batch_size,).
    """
    def __init__(self, weight=1., batch_axis=0, **kwargs):
        super(L2Loss, self).__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        diff = _reshape_like(F, label, pred) - pred
        loss = _apply_weighting(F, F.square(diff), self._weight / 2, sample_weight)
        return self._batch_mean(F, loss)


class L1Loss(Loss):
    r"""Calculates the mean absolute error between `label` and `pred`:
    :math:`L = \sum_i \vert {label}_i - {pred}_i \vert`. Output shape: (batch_size,)."""
    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super(L1Loss, self).__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        diff = _reshape_like(F, label, pred) - pred
        loss = _apply_weighting(F, F.abs(diff), self._weight, sample_weight)
        return self._batch_mean(F, loss)


class SigmoidBinaryCrossEntropyLoss(Loss):
    r"""The cross-entropy loss for binary classification (alias: ``SigmoidBCELoss``).

    Parameters
    ----------
    from_sigmoid : bool, default is `False`
        Whether the input is from the output of sigmoid. If False, `pred` is logits and the
        numerically stable form ``max(x, 0) - x * z + log(1 + exp(-|x|))`` is used.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.

    Inputs: ``pred``, ``label`` (same number of elements), optional ``sample_weight`` and
    ``pos_weight`` (broadcastable to ``label``, weighs positive examples).
    Output: loss tensor with shape (batch_size,).
    """
    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super(SigmoidBinaryCrossEntropyLoss, self).__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def hybrid_forward(self, F, pred, label, sample_weight=None, pos_weight=None):
        label = _reshape_like(F, label, pred)
        if self._from_sigmoid:
            eps = 1e-12
            pos = F.log(pred + eps) * label
            if pos_weight is not None:
                pos = F.broadcast_mul(pos, pos_weight)
            loss = -(pos + F.log(1. - pred + eps) * (1. - label))
        else:
            softplus_neg_abs = F.Activation(-F.abs(pred), act_type='softrelu')
            if pos_weight is None:
                loss = F.relu(pred) - pred * label + softplus_neg_abs
            else:
                scale = 1 + F.broadcast_mul(pos_weight - 1, label)
                loss = pred - pred * label + scale * (softplus_neg_abs + F.relu(-pred))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    r"""Computes the softmax cross entropy loss (alias: ``SoftmaxCELoss``).

    Parameters
    ----------
    axis : int, default -1
        The axis to sum over when computing softmax and entropy.
    sparse_label : bool, default True
        Whether label is an integer array (class indices) instead of a probability
        distribution.
    from_logits : bool, default False
        Whether input is a log probability (usually from log_softmax) instead of
        unnormalized numbers.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.

    Output: loss tensor with shape (batch_size,).
    """
    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None,
                 batch_axis=0, **kwargs):
        super(SoftmaxCrossEntropyLoss, self).__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits
        # the common case: class scores on the last axis of (batch, classes), integer labels
        self._fused = sparse_label and not from_logits and axis in (-1, 1) and batch_axis == 0

    def forward(self, pred, label, sample_weight=None):
        """The common imperative case straight to the fused kernel (no context switch or layer
        bookkeeping to do for it); the rest as any HybridBlock."""
        if sample_weight is None:
            if self._fused and not self._active and type(pred) is NDArray and \
                    type(label) is NDArray:
                loss = _fused_sparse_ce(pred._t, label._t)
                if loss is not None:
                    loss = pred._like(loss)  # on the prediction's context
                    return loss if self._weight is None else loss * self._weight
            return HybridBlock.forward(self, pred, label)
        return HybridBlock.forward(self, pred, label, sample_weight)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, self._axis)
        if self._sparse_label:
            loss = -F.pick(pred, label, axis=self._axis, keepdims=True)
        else:
            label = _reshape_like(F, label, pred)
            loss = -F.sum(pred * label, axis=self._axis, keepdims=True)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


SoftmaxCELoss = SoftmaxCrossEntropyLoss

_CE_DTYPES = (torch.float32, torch.float64)


# ignore_index for torch's cross_entropy that no label meets (its default, -100, is a label that
# MXNet clips to class 0); only a float label beyond the int64 range (or NaN) converts to it
_NO_IGNORE = -(1 << 63)


def _fused_sparse_ce(pred, label):
    """-pick(log_softmax(pred), label) of a (batch, classes) ``pred`` and (batch,) labels as
    one torch cross_entropy (the same values and gradients: labels are truncated to integers
    and clipped into range as pick does); None where the shapes or dtypes are other."""
    if pred.dim() != 2 or pred.dtype not in _CE_DTYPES or label.dim() != 1 or \
            label.shape[0] != pred.shape[0] or pred.shape[1] == 0:
        return None
    idx = label if label.dtype is torch.int64 else label.to(torch.int64)
    if pred.is_cpu:
        # torch checks the labels' range on the CPU: clip (one more op) only when one is out
        try:
            return _cross_entropy(pred, idx, reduction='none', ignore_index=_NO_IGNORE)
        except (IndexError, RuntimeError):  # a label out of range; other errors recur below
            pass
    top = pred.shape[1] - 1
    idx = idx.clamp(0, top) if idx is label else idx.clamp_(0, top)
    return _cross_entropy(pred, idx, reduction='none')


class KLDivLoss(Loss):
    r"""The Kullback-Leibler divergence loss
    :math:`L = \sum_i {label}_i * \big[\log({label}_i) - {pred}_i\big]`.

    Parameters
    ----------
    from_logits : bool, default is `True`
        Whether the input is log probability (usually from log_softmax) instead
        of unnormalized numbers.
    axis : int, default -1
        The dimension along with to compute softmax. Only used when `from_logits` is False.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.

    Output: loss tensor with shape (batch_size,), summed over the non-batch axes.
    """
    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super(KLDivLoss, self).__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, self._axis)
        loss = label * (F.log(label + 1e-12) - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.sum(loss, axis=self._batch_axis, exclude=True)


class CTCLoss(Loss):
    r"""Connectionist Temporal Classification Loss (the blank label is the last class).

    Parameters
    ----------
    layout : str, default 'NTC'
        Layout of prediction tensor: 'NTC' or 'TNC'.
    label_layout : str, default 'NT'
        Layout of the labels: 'NT' or 'TN'.
    weight : float or None
        Global scalar weight for loss.

    Inputs: ``pred``, ``label`` (padded with -1), optional ``pred_lengths``,
    ``label_lengths`` (shape (batch_size,)) and ``sample_weight``.
    Output: loss tensor with shape (batch_size,).
    """
    def __init__(self, layout='NTC', label_layout='NT', weight=None, **kwargs):
        assert layout in ['NTC', 'TNC'], \
            "Only 'NTC' and 'TNC' layouts for pred are supported. Got: %s" % layout
        assert label_layout in ['NT', 'TN'], \
            "Only 'NT' and 'TN' layouts for label are supported. Got: %s" % label_layout
        self._layout = layout
        self._label_layout = label_layout
        super(CTCLoss, self).__init__(weight, label_layout.find('N'), **kwargs)

    def hybrid_forward(self, F, pred, label, pred_lengths=None, label_lengths=None,
                       sample_weight=None):
        if self._layout == 'NTC':
            pred = F.swapaxes(pred, 0, 1)
        if self._batch_axis == 1:
            label = F.swapaxes(label, 0, 1)
        loss = F.CTCLoss(pred, label, pred_lengths, label_lengths,
                         use_data_lengths=pred_lengths is not None,
                         use_label_lengths=label_lengths is not None,
                         blank_label='last')
        return _apply_weighting(F, loss, self._weight, sample_weight)


class HuberLoss(Loss):
    r"""Calculates smoothed L1 loss that is equal to L1 loss if absolute error exceeds `rho`
    but is equal to L2 loss otherwise.

    Parameters
    ----------
    rho : float, default 1
        Threshold for trimmed mean estimator.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    """
    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super(HuberLoss, self).__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        err = F.abs(_reshape_like(F, label, pred) - pred)
        loss = F.where(err > self._rho, err - 0.5 * self._rho,
                       (0.5 / self._rho) * F.square(err))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class HingeLoss(Loss):
    r"""Calculates the hinge loss function often used in SVMs:
    :math:`L = \sum_i max(0, {margin} - {pred}_i \cdot {label}_i)`, labels -1 or 1."""
    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super(HingeLoss, self).__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.relu(self._margin - pred * label)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class SquaredHingeLoss(Loss):
    r"""Calculates the soft-margin loss function used in SVMs:
    :math:`L = \sum_i max(0, {margin} - {pred}_i \cdot {label}_i)^2`, labels -1 or 1."""
    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super(SquaredHingeLoss, self).__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.square(F.relu(self._margin - pred * label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class LogisticLoss(Loss):
    r"""Calculates the logistic loss (for binary losses only):
    :math:`L = \sum_i \log(1 + \exp(- {pred}_i \cdot {label}_i))`.

    Parameters
    ----------
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    label_format : str, default 'signed'
        Can be either 'signed' (labels -1/1) or 'binary' (labels 0/1).
    """
    def __init__(self, weight=None, batch_axis=0, label_format='signed', **kwargs):
        super(LogisticLoss, self).__init__(weight, batch_axis, **kwargs)
        self._label_format = label_format
        if self._label_format not in ['signed', 'binary']:
            raise ValueError('label_format can only be signed or binary, recieved %s.'
                             % label_format)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        if self._label_format == 'signed':
            label = (label + 1.0) / 2.0
        loss = F.relu(pred) - pred * label + F.Activation(-F.abs(pred), act_type='softrelu')
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return self._batch_mean(F, loss)


class TripletLoss(Loss):
    r"""Calculates triplet loss given three input tensors and a positive margin:
    :math:`L = \max(\Vert {pos} - {pred} \Vert^2 - \Vert {neg} - {pred} \Vert^2 + {margin}, 0)`.
    """
    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super(TripletLoss, self).__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, positive, negative):
        positive = _reshape_like(F, positive, pred)
        negative = _reshape_like(F, negative, pred)
        gap = F.sum(F.square(positive - pred) - F.square(negative - pred),
                    axis=self._batch_axis, exclude=True)
        return _apply_weighting(F, F.relu(gap + self._margin), self._weight, None)


class PoissonNLLLoss(Loss):
    r"""For a target (Random Variable) in a Poisson distribution, the function calculates
    the Negative Log likelihood loss (a scalar: the mean over all elements).

    Parameters
    ----------
    from_logits : boolean, default True
        indicating whether log(predicted) value has already been computed.
    compute_full : boolean, default False
        Whether to add the Stirling approximation term log(target!) for targets > 1.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    """
    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False,
                 **kwargs):
        super(PoissonNLLLoss, self).__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def hybrid_forward(self, F, pred, target, sample_weight=None, epsilon=1e-08):
        target = _reshape_like(F, target, pred)
        if self._from_logits:
            loss = F.exp(pred) - target * pred
        else:
            loss = pred - target * F.log(pred + epsilon)
        if self._compute_full:
            stirling = target * F.log(target) - target + 0.5 * F.log(2 * target * np.pi)
            loss = loss + stirling * (target > 1)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.mean(loss)


class CosineEmbeddingLoss(Loss):
    r"""For a target label 1 or -1, vectors input1 and input2, computes the cosine
    embedding loss: ``1 - cos_sim`` for label 1, ``max(0, cos_sim - margin)`` for label -1.

    Parameters
    ----------
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    margin : float
        Margin of separation between correct and incorrect pair.

    Output: loss tensor with shape (batch_size, 1).
    """
    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super(CosineEmbeddingLoss, self).__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, input1, input2, label, sample_weight=None):
        input1 = _reshape_like(F, input1, input2)
        label = label.reshape((-1, 1))
        cos_sim = self._cosine_similarity(F, input1, input2)
        similar = (1 - cos_sim) * (label == 1)
        zero = F.array([0]) if F is ndarray else F.zeros((1, 1))
        dissimilar = F.broadcast_maximum(zero, (label == -1) * (cos_sim - self._margin))
        loss = _apply_weighting(F, similar + dissimilar, self._weight, sample_weight)
        return loss

    def _cosine_similarity(self, F, x, y, axis=-1):
        norms = F.norm(x, axis=axis).reshape((-1, 1)) * F.norm(y, axis=axis).reshape((-1, 1))
        dots = F.sum(x * y, axis=axis).reshape((-1, 1))
        eps = F.array([1e-12]) if F is ndarray else F.full((1, 1), 1e-12)
        return dots / F.broadcast_maximum(norms, eps)


class SDMLLoss(Loss):
    r"""Calculates Batchwise Smoothed Deep Metric Learning (SDML) Loss given two input
    tensors (batch_size, dim) of paired samples and a smoothing weight.

    Parameters
    ----------
    smoothing_parameter : float
        Probability mass to be distributed over the minibatch. Must be < 1.0.
    weight : float or None
        Global scalar weight for loss.
    batch_axis : int, default 0
        The axis that represents mini-batch.
    """
    def __init__(self, smoothing_parameter=0.3, weight=1., batch_axis=0, **kwargs):
        super(SDMLLoss, self).__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def _compute_distances(self, x1, x2):
        assert x1.shape == x2.shape
        n, dim = x1.shape
        a = x1.expand_dims(1).broadcast_to([n, n, dim])
        b = x2.expand_dims(0).broadcast_to([n, n, dim])
        return ((a - b) ** 2).sum(axis=2)

    def _compute_labels(self, F, batch_size):
        gold = F.eye(batch_size)
        s = self.smoothing_parameter
        return gold * (1 - s) + (1 - gold) * s / (batch_size - 1)

    def _loss(self, F, x1, x2):
        distances = self._compute_distances(x1, x2)
        labels = self._compute_labels(F, x1.shape[0])
        log_probabilities = F.log_softmax(-distances, axis=1)
        return self.kl_loss(log_probabilities, labels.as_in_context(distances.context))

    def hybrid_forward(self, F, x1, x2):
        return self._loss(F, x1, x2)
