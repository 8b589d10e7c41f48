"""Helpers shared by the Estimator and its event handlers."""
from ...loss import SoftmaxCrossEntropyLoss
from ...utils import split_and_load
from ....metric import Accuracy, CompositeEvalMetric, EvalMetric


def _check_metrics(metrics):
    """Returns `metrics` as a flat list of EvalMetric (CompositeEvalMetrics are unpacked);
    None gives an empty list, anything else raises ValueError."""
    if isinstance(metrics, CompositeEvalMetric):
        return [leaf for child in metrics.metrics for leaf in _check_metrics(child)]
    if isinstance(metrics, EvalMetric):
        return [metrics]
    metrics = metrics or []
    if not all(isinstance(metric, EvalMetric) for metric in metrics):
        raise ValueError("metrics must be a Metric or a list of Metric, "
                         "refer to mxnet.metric.EvalMetric: {}".format(metrics))
    return metrics


def _check_handler_metric_ref(handler, known_metrics):
    """Raises ValueError when an attribute of `handler` whose name contains 'metric' refers
    to a metric that is not one of `known_metrics` (the estimator's own metric objects).
    As in MXNet 1.9.1, a handler's `monitor` is not checked."""
    for attribute in dir(handler):
        if 'metric' not in attribute:
            continue
        reference = getattr(handler, attribute)
        if not reference:
            continue
        for metric in reference if isinstance(reference, list) else [reference]:
            _check_metric_known(handler, metric, known_metrics)


def _check_metric_known(handler, metric, known_metrics):
    if metric not in known_metrics:
        raise ValueError(
            'Event handler {} refers to a metric instance {} outside of '
            'the known training and validation metrics. Please use the metrics from '
            'estimator.train_metrics and estimator.val_metrics '
            'instead.'.format(type(handler).__name__, metric))


def _get_data_and_label(batch, ctx, batch_axis=0):
    """Splits the data and the label of `batch` (a (data, label) pair) over the contexts
    `ctx` along `batch_axis`: two lists of NDArray."""
    data = split_and_load(batch[0], ctx_list=ctx, batch_axis=batch_axis)
    label = split_and_load(batch[1], ctx_list=ctx, batch_axis=batch_axis)
    return data, label


def _suggest_metric_for_loss(loss):
    """The metric the Estimator adds by default for `loss` (Accuracy for softmax
    cross-entropy), or None."""
    if isinstance(loss, SoftmaxCrossEntropyLoss):
        return Accuracy()
    return None
