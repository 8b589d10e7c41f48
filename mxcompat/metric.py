"""Online evaluation metrics (``mx.metric``).

Every metric keeps a local accumulator (``sum_metric`` / ``num_inst``, cleared by
``reset_local``) and a global one (``global_sum_metric`` / ``global_num_inst``, cleared only by
``reset``), with MXNet's exact counting rules and numpy arithmetic.
"""
import math
from collections import OrderedDict

import numpy
import torch

from .base import numeric_types, string_types
from . import ndarray, registry

__all__ = ['EvalMetric', 'CompositeEvalMetric', 'Accuracy', 'TopKAccuracy', 'F1', 'MCC',
           'Perplexity', 'MAE', 'MSE', 'RMSE', 'CrossEntropy', 'NegativeLogLikelihood',
           'PearsonCorrelation', 'PCC', 'Loss', 'Torch', 'Caffe', 'CustomMetric', 'np',
           'create', 'register', 'alias', 'check_label_shapes']


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Checks that labels and preds have the same length (or shape, if ``shape``).

    Parameters
    ----------
    labels : list of NDArray
        The labels of the data.
    preds : list of NDArray
        Predicted values.
    wrap : bool
        Wrap a single NDArray into a list.
    shape : bool
        Compare ``.shape`` instead of ``len``.
    """
    if shape:
        label_shape, pred_shape = labels.shape, preds.shape
    else:
        label_shape, pred_shape = len(labels), len(preds)
    if label_shape != pred_shape:
        raise ValueError('Shape of labels {} does not match shape of '
                         'predictions {}'.format(label_shape, pred_shape))
    if wrap:
        if isinstance(labels, ndarray.NDArray):
            labels = [labels]
        if isinstance(preds, ndarray.NDArray):
            preds = [preds]
    return labels, preds


class EvalMetric(object):
    """Base class of evaluation metrics.

    Parameters
    ----------
    name : str
        Name of this metric instance for display.
    output_names : list of str, or None
        Names of the predictions used by ``update_dict`` (default: all).
    label_names : list of str, or None
        Names of the labels used by ``update_dict`` (default: all).
    """
    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop('has_global_stats', False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return 'EvalMetric: {}'.format(dict(self.get_name_value()))

    def get_config(self):
        """The configuration of the metric; ``metric.create(**config)`` recreates it."""
        config = self._kwargs.copy()
        config.update({'metric': type(self).__name__, 'name': self.name,
                       'output_names': self.output_names, 'label_names': self.label_names})
        return config

    def update_dict(self, label, pred):
        """Updates with labels and predictions given as name -> NDArray mappings."""
        pred = [pred[n] for n in self.output_names] if self.output_names is not None \
            else list(pred.values())
        label = [label[n] for n in self.label_names] if self.label_names is not None \
            else list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Updates the internal evaluation result with a batch of labels and predictions."""
        raise NotImplementedError()

    def _add(self, value, count):
        """Adds ``value`` over ``count`` instances to the local and global accumulators."""
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def reset(self):
        """Resets the local and global results."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Resets the local results (the global ones are kept)."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def get(self):
        """The current (local) result: ``(name, value)``; value is nan before any update."""
        if self.num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self):
        """The result since the last ``reset``: ``(name, value)``."""
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, self.global_sum_metric / self.global_num_inst)

    @staticmethod
    def _pairs(name, value):
        return list(zip(name if isinstance(name, list) else [name],
                        value if isinstance(value, list) else [value]))

    def get_name_value(self):
        """The current result as a list of ``(name, value)`` pairs."""
        return self._pairs(*self.get())

    def get_global_name_value(self):
        """The global result as a list of ``(name, value)`` pairs."""
        if not self._has_global_stats:
            return self.get_name_value()
        return self._pairs(*self.get_global())


# ---------------------------------------------------------------------------------------------
# Registry: metric names (lower case) -> classes, for create().
# ---------------------------------------------------------------------------------------------
register = registry.get_register_func(EvalMetric, 'metric')
alias = registry.get_alias_func(EvalMetric, 'metric')
_create = registry.get_create_func(EvalMetric, 'metric')


def create(metric, *args, **kwargs):
    """Creates an evaluation metric.

    Parameters
    ----------
    metric : str, EvalMetric, list or callable
        A metric name (or JSON config), an instance (returned as is), a list of those
        (a CompositeEvalMetric), or a function ``feval(label, pred)`` (a CustomMetric).
    *args, **kwargs
        Arguments of the metric's constructor.
    """
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create(metric, *args, **kwargs)


def _flatten_results(results):
    names, values = [], []
    for name, value in results:
        names.extend([name] if isinstance(name, string_types) else name)
        values.extend([value] if isinstance(value, numeric_types) else value)
    return (names, values)


@register
@alias('composite')
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` returns lists of names and values.

    Parameters
    ----------
    metrics : list of EvalMetric
        Child metrics (anything ``create`` accepts).
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, metrics=None, name='composite', output_names=None, label_names=None):
        super(CompositeEvalMetric, self).__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.metrics = [create(m) for m in (metrics or [])]

    def add(self, metric):
        """Adds a child metric."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at ``index``."""
        try:
            return self.metrics[index]
        except IndexError:
            # MXNet returns (does not raise) this error
            return ValueError('Metric index {} is out of range 0 and {}'.format(
                index, len(self.metrics)))

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict(i for i in labels.items() if i[0] in self.label_names)
        if self.output_names is not None:
            preds = OrderedDict(i for i in preds.items() if i[0] in self.output_names)
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, 'metrics', ()):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, 'metrics', ()):
            metric.reset_local()

    def get(self):
        return _flatten_results(m.get() for m in self.metrics)

    def get_global(self):
        return _flatten_results(m.get_global() for m in self.metrics)

    def get_config(self):
        config = super(CompositeEvalMetric, self).get_config()
        config['metrics'] = [m.get_config() for m in self.metrics]
        return config


# ---------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------
# argmax indices in these dtypes are exact: no round trip through the prediction's dtype
_EXACT_INDEX = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))


def _count_correct(label, pred, axis):
    """Accuracy's count of ``int32(argmax(pred)) == int32(label)`` as a numpy int64, as
    MXNet's; None where the general path must decide (other array types, devices, or sizes
    that do not match: it raises MXNet's error)."""
    if type(label) is not ndarray.NDArray or type(pred) is not ndarray.NDArray:
        return None
    lab, p = label._t, pred._t
    if lab.requires_grad:
        lab = lab.detach()
    if p.requires_grad:
        p = p.detach()
    if p.is_cpu and lab.is_cpu and p.dtype is not torch.bfloat16 and \
            lab.dtype is not torch.bfloat16:
        # small arrays: numpy's kernels cost less than torch's dispatch
        lab, p = lab.numpy(), p.numpy()
        indices = False
        if p.shape != lab.shape:
            if not -p.ndim <= axis < p.ndim:
                return None
            idx = p.argmax(axis)
            # MXNet's argmax returns the indices in the input's dtype
            indices = p.dtype.itemsize >= 4
            p = idx if indices else idx.astype(p.dtype)
        if p.size != lab.size:
            return None
        # argmax's int64 indices (below 2**31) compare with int32 labels as their int32 would
        if p.dtype != numpy.int32 and not indices:
            p = p.astype(numpy.int32)
        if lab.dtype != numpy.int32:
            lab = lab.astype(numpy.int32)
        if p.shape != lab.shape:
            p, lab = p.reshape(-1), lab.reshape(-1)
        return numpy.int64(numpy.count_nonzero(p == lab))
    if p.get_device() != lab.get_device():
        return None
    if p.shape != lab.shape:
        try:
            idx = p.argmax(axis)
        except (IndexError, RuntimeError):
            return None
        p = idx if p.dtype in _EXACT_INDEX else idx.to(p.dtype)
    if p.numel() != lab.numel():
        return None
    if p.dtype is not torch.int32:
        p = p.to(torch.int32)
    if lab.dtype is not torch.int32:
        lab = lab.to(torch.int32)
    if p.shape != lab.shape:
        p, lab = p.reshape(-1), lab.reshape(-1)
    return numpy.int64((p == lab).sum().item())


@register
@alias('acc')
class Accuracy(EvalMetric):
    """Fraction of predictions equal to the labels.

    Predictions whose shape differs from the label's are class scores: their argmax over
    ``axis`` is the predicted class.

    Parameters
    ----------
    axis : int, default 1
        The axis of the classes.
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, axis=1, name='accuracy', output_names=None, label_names=None):
        super(Accuracy, self).__init__(name, axis=axis, output_names=output_names,
                                       label_names=label_names, has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            correct = _count_correct(label, pred, self.axis)
            if correct is not None:
                self._add(correct, label._t.numel())
                continue
            if pred.shape != label.shape:
                pred = ndarray.argmax(pred, axis=self.axis)
            pred = pred.asnumpy().astype('int32').flat
            label = label.asnumpy().astype('int32').flat
            check_label_shapes(label, pred)
            self._add((pred == label).sum(), len(pred))


@register
@alias('top_k_accuracy', 'top_k_acc')
class TopKAccuracy(EvalMetric):
    """Fraction of labels found among the ``top_k`` highest scored classes.

    Parameters
    ----------
    top_k : int
        Number of top classes considered (must be > 1; use Accuracy otherwise).
    name, output_names, label_names
        As for EvalMetric; the name gets a ``_<top_k>`` suffix.
    """
    def __init__(self, top_k=1, name='top_k_accuracy', output_names=None, label_names=None):
        super(TopKAccuracy, self).__init__(name, top_k=top_k, output_names=output_names,
                                           label_names=label_names, has_global_stats=True)
        self.top_k = top_k
        assert self.top_k > 1, 'Please use Accuracy if top_k is no more than 1'
        self.name += '_%d' % self.top_k

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            assert len(pred.shape) <= 2, 'Predictions should be no more than 2 dims'
            ranked = numpy.argpartition(pred.asnumpy().astype('float32'), -self.top_k)
            label = label.asnumpy().astype('int32')
            check_label_shapes(label, ranked)
            if ranked.ndim == 1:
                # MXNet counts this case in the local accumulator only
                self.sum_metric += (ranked.flat == label.flat).sum()
            else:
                ncls = ranked.shape[1]
                for j in range(min(ncls, self.top_k)):
                    hits = (ranked[:, ncls - 1 - j].flat == label.flat).sum()
                    self.sum_metric += hits
                    self.global_sum_metric += hits
            self.num_inst += ranked.shape[0]
            self.global_num_inst += ranked.shape[0]


class _BinaryClassificationMetrics(object):
    """True/false positive/negative counts of a binary classifier, local and global."""

    _FIELDS = ('true_positives', 'false_negatives', 'false_positives', 'true_negatives')

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        """Counts one batch: ``pred`` holds 2-class scores, ``label`` 0/1 labels."""
        pred = pred.asnumpy()
        label = label.asnumpy().astype('int32')
        pred_label = numpy.argmax(pred, axis=1)
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            raise ValueError('%s currently only supports binary classification.'
                             % type(self).__name__)
        pred_true = (pred_label == 1)
        pred_false = 1 - pred_true
        label_true = (label == 1)
        label_false = 1 - label_true
        counts = {'true_positives': (pred_true * label_true).sum(),
                  'false_positives': (pred_true * label_false).sum(),
                  'false_negatives': (pred_false * label_true).sum(),
                  'true_negatives': (pred_false * label_false).sum()}
        for field, n in counts.items():
            setattr(self, field, getattr(self, field) + n)
            setattr(self, 'global_' + field, getattr(self, 'global_' + field) + n)

    def _counts(self, use_global):
        prefix = 'global_' if use_global else ''
        return [getattr(self, prefix + f) for f in self._FIELDS]

    @staticmethod
    def _ratio(a, b):
        return float(a) / (a + b) if a + b > 0 else 0.

    @staticmethod
    def _harmonic(p, r):
        return 2 * p * r / (p + r) if p + r > 0 else 0.

    @property
    def precision(self):
        return self._ratio(self.true_positives, self.false_positives)

    @property
    def global_precision(self):
        return self._ratio(self.global_true_positives, self.global_false_positives)

    @property
    def recall(self):
        return self._ratio(self.true_positives, self.false_negatives)

    @property
    def global_recall(self):
        return self._ratio(self.global_true_positives, self.global_false_negatives)

    @property
    def fscore(self):
        return self._harmonic(self.precision, self.recall)

    @property
    def global_fscore(self):
        return self._harmonic(self.global_precision, self.global_recall)

    def matthewscc(self, use_global=False):
        """Matthews correlation coefficient; zero factors of the denominator count as 1."""
        total = self.global_total_examples if use_global else self.total_examples
        if not total:
            return 0.
        tp, fn, fp, tn = (float(c) for c in self._counts(use_global))
        denom = 1.
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            if t != 0.:
                denom *= t
        return (tp * tn - fp * fn) / math.sqrt(denom)

    @property
    def total_examples(self):
        tp, fn, fp, tn = self._counts(False)
        return fn + fp + tn + tp

    @property
    def global_total_examples(self):
        tp, fn, fp, tn = self._counts(True)
        return fn + fp + tn + tp

    def local_reset_stats(self):
        for f in self._FIELDS:
            setattr(self, f, 0)

    def reset_stats(self):
        for f in self._FIELDS:
            setattr(self, f, 0)
            setattr(self, 'global_' + f, 0)


class _BinaryMetric(EvalMetric):
    """F1 and MCC: a score of the binary counts, averaged per update ('macro') or computed
    over all updates ('micro')."""

    def __init__(self, name, output_names, label_names, average):
        self._average = average
        self._metrics = _BinaryClassificationMetrics()
        EvalMetric.__init__(self, name=name, output_names=output_names,
                            label_names=label_names, has_global_stats=True)

    def _score(self, use_global):
        raise NotImplementedError

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._metrics.update_binary_stats(label, pred)
        stats = self._metrics
        if self._average == 'macro':
            self.sum_metric += self._score(False)
            self.global_sum_metric += self._score(True)
            self.num_inst += 1
            self.global_num_inst += 1
            stats.reset_stats()
        else:
            self.sum_metric = self._score(False) * stats.total_examples
            self.global_sum_metric = self._score(True) * stats.global_total_examples
            self.num_inst = stats.total_examples
            self.global_num_inst = stats.global_total_examples

    def reset_local(self):
        self.sum_metric = 0.
        self.num_inst = self._zero
        self._metrics.local_reset_stats()


@register
class F1(_BinaryMetric):
    """F1 score (harmonic mean of precision and recall) of a binary classifier.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    average : str, default 'macro'
        'macro': mean of the per-update scores; 'micro': one score over all updates.
    """
    _zero = 0

    def __init__(self, name='f1', output_names=None, label_names=None, average='macro'):
        self.average = average
        super(F1, self).__init__(name, output_names, label_names, average)

    @property
    def metrics(self):
        return self._metrics

    def _score(self, use_global):
        return self._metrics.global_fscore if use_global else self._metrics.fscore

    def reset(self):
        self.sum_metric = 0.
        self.num_inst = 0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        self._metrics.reset_stats()


@register
class MCC(_BinaryMetric):
    """Matthews correlation coefficient of a binary classifier (see PCC for multiclass).

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    average : str, default 'macro'
        'macro': mean of the per-update scores; 'micro': one score over all updates.
    """
    _zero = 0.

    def __init__(self, name='mcc', output_names=None, label_names=None, average='macro'):
        super(MCC, self).__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self._metrics.matthewscc(use_global=use_global)

    def reset(self):
        self.sum_metric = 0.
        self.num_inst = 0.
        self.global_sum_metric = 0.
        self.global_num_inst = 0.
        self._metrics.reset_stats()


@register
class Perplexity(EvalMetric):
    """Perplexity: exp of the mean negative log-probability of the labels.

    Parameters
    ----------
    ignore_label : int or None
        Label value not counted (None counts every entry).
    axis : int, default -1
        The class axis of the predictions.
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, ignore_label, axis=-1, name='perplexity',
                 output_names=None, label_names=None):
        super(Perplexity, self).__init__(name, ignore_label=ignore_label,
                                         output_names=output_names, label_names=label_names,
                                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        assert len(labels) == len(preds)
        loss = 0.
        num = 0
        for label, pred in zip(labels, preds):
            assert label.size == pred.size / pred.shape[-1], \
                'shape mismatch: %s vs. %s' % (label.shape, pred.shape)
            label = label.as_in_context(pred.context).reshape((label.size,))
            prob = ndarray.pick(pred, label.astype(dtype='int32'), axis=self.axis)
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(prob.dtype)
                num -= ndarray.sum(ignore).asscalar()
                prob = prob * (1 - ignore) + ignore
            loss -= ndarray.sum(ndarray.log(ndarray.maximum(1e-10, prob))).asscalar()
            num += prob.size
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self):
        if self.global_num_inst == 0:
            return (self.name, float('nan'))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


# ---------------------------------------------------------------------------------------------
# Regression
# ---------------------------------------------------------------------------------------------
def _as_columns(label, pred):
    label, pred = label.asnumpy(), pred.asnumpy()
    if label.ndim == 1:
        label = label.reshape(label.shape[0], 1)
    if pred.ndim == 1:
        pred = pred.reshape(pred.shape[0], 1)
    return label, pred


class _RegressionMetric(EvalMetric):
    """A per-batch error (``_error(label, pred)``) averaged over the batches."""

    def __init__(self, name, output_names, label_names):
        super(_RegressionMetric, self).__init__(name, output_names=output_names,
                                                label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._add(self._error(*_as_columns(label, pred)), 1)


@register
class MAE(_RegressionMetric):
    """Mean absolute error, averaged over batches.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, name='mae', output_names=None, label_names=None):
        super(MAE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return numpy.abs(label - pred).mean()


@register
class MSE(_RegressionMetric):
    """Mean squared error, averaged over batches.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, name='mse', output_names=None, label_names=None):
        super(MSE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return ((label - pred) ** 2.0).mean()


@register
class RMSE(_RegressionMetric):
    """Root mean squared error, averaged over batches.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, name='rmse', output_names=None, label_names=None):
        super(RMSE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return numpy.sqrt(((label - pred) ** 2.0).mean())


class _LogLoss(EvalMetric):
    """Mean of -log(p[label] + eps) over the examples."""

    def __init__(self, eps, name, output_names, label_names):
        super(_LogLoss, self).__init__(name, eps=eps, output_names=output_names,
                                       label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = label.asnumpy().ravel()
            pred = pred.asnumpy()
            n = self._num_examples(label, pred)
            prob = pred[numpy.arange(n, dtype=numpy.int64), numpy.int64(label)]
            self._add((-numpy.log(prob + self.eps)).sum(), n)


@register
@alias('ce')
class CrossEntropy(_LogLoss):
    """Cross entropy of predicted class probabilities, averaged over examples.

    Parameters
    ----------
    eps : float, default 1e-12
        Added to the probabilities before the log.
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, eps=1e-12, name='cross-entropy', output_names=None, label_names=None):
        super(CrossEntropy, self).__init__(eps, name, output_names, label_names)

    @staticmethod
    def _num_examples(label, pred):
        assert label.shape[0] == pred.shape[0]
        return label.shape[0]


@register
@alias('nll_loss')
class NegativeLogLikelihood(_LogLoss):
    """Negative log-likelihood of predicted class probabilities, averaged over examples.

    Parameters
    ----------
    eps : float, default 1e-12
        Added to the probabilities before the log.
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, eps=1e-12, name='nll-loss', output_names=None, label_names=None):
        super(NegativeLogLikelihood, self).__init__(eps, name, output_names, label_names)

    @staticmethod
    def _num_examples(label, pred):
        assert label.shape[0] == pred.shape[0], (label.shape[0], pred.shape[0])
        return pred.shape[0]


@register
@alias('pearsonr')
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of predictions and labels.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    average : str, default 'macro'
        'macro': mean of the per-batch correlations; 'micro': one correlation over all
        batches (running means, variances and covariance).
    """
    def __init__(self, name='pearsonr', output_names=None, label_names=None, average='macro'):
        self.average = average
        super(PearsonCorrelation, self).__init__(name, output_names=output_names,
                                                 label_names=label_names, has_global_stats=True)
        if self.average == 'micro':
            self.reset_micro()

    def reset_micro(self):
        """Clears the running statistics of 'micro' averaging."""
        self._sse_p = 0
        self._mean_p = 0
        self._sse_l = 0
        self._mean_l = 0
        self._pred_nums = 0
        self._label_nums = 0
        self._conv = 0

    def reset(self):
        super(PearsonCorrelation, self).reset()
        if self.average == 'micro':
            self.reset_micro()

    def update_variance(self, new_values, *aggregate):
        """Welford's update of ``(count, mean, M2)`` with a batch of values."""
        count, mean, m_2 = aggregate
        count += len(new_values)
        delta = new_values - mean
        mean += numpy.sum(delta / count)
        m_2 += numpy.sum(delta * (new_values - mean))
        return count, mean, m_2

    def update_cov(self, label, pred):
        """Adds a batch to the running co-moment (uses the means before this batch)."""
        self._conv = self._conv + numpy.sum((label - self._mean_l) * (pred - self._mean_p))

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            label = label.asnumpy().ravel().astype(numpy.float64)
            pred = pred.asnumpy().ravel().astype(numpy.float64)
            if self.average == 'macro':
                self._add(numpy.corrcoef(pred, label)[0, 1], 1)
                continue
            self.global_num_inst += 1
            self.num_inst += 1
            self._label_nums, self._mean_l, self._sse_l = \
                self.update_variance(label, self._label_nums, self._mean_l, self._sse_l)
            self.update_cov(label, pred)
            self._pred_nums, self._mean_p, self._sse_p = \
                self.update_variance(pred, self._pred_nums, self._mean_p, self._sse_p)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float('nan'))
        if self.average == 'macro':
            return (self.name, self.sum_metric / self.num_inst)
        n = self._label_nums
        std_p = numpy.sqrt(self._sse_p / (n - 1))
        std_l = numpy.sqrt(self._sse_l / (n - 1))
        return (self.name, self._conv / ((n - 1) * std_p * std_l))


@register
class PCC(EvalMetric):
    """Multiclass Matthews correlation (the discrete Pearson correlation) of a confusion
    matrix accumulated over the updates.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    has_global_stats : bool, default True
        Keep a global confusion matrix.
    """
    def __init__(self, name='pcc', output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super(PCC, self).__init__(name=name, output_names=output_names, label_names=label_names,
                                  has_global_stats=has_global_stats)

    def _grow(self, inc):
        widen = ((0, inc), (0, inc))
        self.lcm = numpy.pad(self.lcm, widen, 'constant', constant_values=0)
        self.gcm = numpy.pad(self.gcm, widen, 'constant', constant_values=0)
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x = cmat.sum(axis=1)
        y = cmat.sum(axis=0)
        cov_xx = numpy.sum(x * (n - x))
        cov_yy = numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float('nan')
        cov_xy = numpy.sum(cmat.diagonal() * n - x * y)
        return cov_xy / (cov_xx * cov_yy) ** 0.5

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = label.astype('int32', copy=False).asnumpy()
            pred = pred.asnumpy()
            pred = pred.argmax(axis=1) if pred.shape != label.shape \
                else pred.astype('int32', copy=False)
            n = max(pred.max(), label.max())
            if n >= self.k:
                self._grow(n + 1 - self.k)
            batch = numpy.zeros((self.k, self.k))
            numpy.add.at(batch, (pred.ravel(), label.ravel()), 1)
            self.lcm += batch
            self.gcm += batch
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    def reset(self):
        self.global_num_inst = 0.
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.
        self.lcm = numpy.zeros((self.k, self.k))


@register
class Loss(EvalMetric):
    """Mean of the predictions, for outputs that are losses already.

    Parameters
    ----------
    name, output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, name='loss', output_names=None, label_names=None):
        super(Loss, self).__init__(name, output_names=output_names, label_names=label_names,
                                   has_global_stats=True)

    def update(self, _, preds):
        if isinstance(preds, ndarray.NDArray):
            preds = [preds]
        for pred in preds:
            self._add(ndarray.sum(pred).asscalar(), pred.size)


@register
class Torch(Loss):
    """Loss metric named 'torch' (for Torch criterions)."""

    def __init__(self, name='torch', output_names=None, label_names=None):
        super(Torch, self).__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """Loss metric named 'caffe' (for Caffe criterions)."""

    def __init__(self, name='caffe', output_names=None, label_names=None):
        super(Caffe, self).__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(EvalMetric):
    """A metric computed by ``feval(label, pred)`` on numpy arrays, for each output.

    ``feval`` returns either a value (counted as one instance) or ``(sum_metric, num_inst)``.

    Parameters
    ----------
    feval : callable(label, pred)
        The evaluation function.
    name : str, optional
        Defaults to ``feval.__name__`` (``'custom(<lambda>)'`` for a lambda).
    allow_extra_outputs : bool, optional
        Allow more predictions than labels (e.g. RNN states); extra ones are ignored.
    output_names, label_names
        As for EvalMetric.
    """
    def __init__(self, feval, name=None, allow_extra_outputs=False,
                 output_names=None, label_names=None):
        if name is None:
            name = feval.__name__
            if '<' in name:
                name = 'custom(%s)' % name
        super(CustomMetric, self).__init__(name, feval=feval,
                                           allow_extra_outputs=allow_extra_outputs,
                                           output_names=output_names, label_names=label_names,
                                           has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            result = self._feval(label.asnumpy(), pred.asnumpy())
            if isinstance(result, tuple):
                self._add(*result)
            else:
                self._add(result, 1)

    def get_config(self):
        raise NotImplementedError('CustomMetric cannot be serialized')


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A CustomMetric from a function of numpy ``(label, pred)`` returning a float.

    Parameters
    ----------
    numpy_feval : callable(label, pred)
        The evaluation function.
    name : str, optional
        Name of the metric.
    allow_extra_outputs : bool, optional
        Allow more predictions than labels.
    """
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
