"""mx.metric: every metric updated with seeded predictions/labels over several batches.

``record(mx, name)`` creates the metric of case ``name``, runs its script ('update',
'update2' (two outputs at once), 'update_dict', 'reset_local', 'reset') and logs after each
step get(), get_global(), the name/value lists, the counters and str(metric); it also logs the
metric's config and the config of the metric recreated from it. The writer runs it under real
MXNet, the test under mxcompat.
"""
import json
import os

import numpy as np

STEPS = ['update', 'update', 'reset_local', 'update', 'update2', 'reset_local', 'update',
         'reset', 'update']


def custom_abs(label, pred):
    return np.mean(np.abs(label - pred.reshape(label.shape)))


def custom_tuple(label, pred):
    return float(np.sum(label)), label.size


# name: (metric argument, positional args, kwargs, input kind)
CASES = {
    'acc': ('acc', (), {}, 'cls'),
    'acc-axis0': ('acc', (), {'axis': 0}, 'cls_t'),
    'acc-2d-label': ('accuracy', (), {}, 'cls_2d_label'),
    'acc-same-shape': ('acc', (), {}, 'cls_index'),
    'top3': ('top_k_accuracy', (), {'top_k': 3}, 'topk'),
    'top2-1d': ('TopKAccuracy', (), {'top_k': 2}, 'topk_1d'),
    'f1-macro': ('f1', (), {}, 'bin'),
    'f1-micro': ('f1', (), {'average': 'micro'}, 'bin'),
    'mcc-macro': ('mcc', (), {}, 'bin'),
    'mcc-micro': ('mcc', (), {'average': 'micro'}, 'bin'),
    'perplexity': ('perplexity', (None,), {}, 'prob'),
    'perplexity-ignore': ('perplexity', (3,), {}, 'prob'),
    'perplexity-3d': ('Perplexity', (), {'ignore_label': None, 'axis': -1}, 'prob_3d'),
    'perplexity-axis1': ('Perplexity', (None,), {'axis': 1}, 'prob'),
    'mae': ('mae', (), {}, 'reg'),
    'mse': ('mse', (), {}, 'reg'),
    'rmse': ('rmse', (), {}, 'reg'),
    'rmse-2d': ('rmse', (), {'name': 'my-rmse'}, 'reg_2d'),
    'ce': ('ce', (), {}, 'prob'),
    'cross-entropy-eps': ('CrossEntropy', (), {'eps': 1e-3}, 'prob'),
    'nll': ('nll_loss', (), {}, 'prob'),
    'pearsonr-macro': ('pearsonr', (), {}, 'same'),
    'pearsonr-micro': ('pearsonr', (), {'average': 'micro'}, 'same'),
    'pcc': ('pcc', (), {}, 'pcc'),
    'loss': ('loss', (), {}, 'loss'),
    'torch': ('torch', (), {}, 'loss'),
    'caffe': ('caffe', (), {}, 'loss'),
    'custom': ('custom_abs', (), {}, 'reg'),
    'custom-lambda': ('lambda', (), {}, 'reg'),
    'custom-tuple': ('custom_tuple', (), {'name': 'tup'}, 'reg'),
    'np-decorator': ('np', (), {}, 'reg'),
    'composite': (['acc', 'f1'], (), {}, 'bin'),
    'composite-3': (['acc', 'ce', 'nll_loss'], (), {}, 'cls_comp'),
    'named-outputs': ('acc', (), {'output_names': ['b_out'], 'label_names': ['b_lab']}, 'cls'),
}


def _softmax(r, shape):
    x = r.uniform(0.05, 1, size=shape)
    return x / x.sum(axis=-1, keepdims=True)


def make_batch(kind, r):
    """One (label, pred) pair of float32 numpy arrays (label None for 'loss')."""
    label, pred = _batch(kind, r)
    return (None if label is None else np.float32(label)), np.float32(pred)


def _batch(kind, r):
    b, k = 8, 4
    if kind in ('cls', 'prob', 'cls_comp'):
        k = 5 if kind == 'cls_comp' else k
        return r.randint(0, k, size=b), _softmax(r, (b, k))
    if kind == 'cls_t':
        return r.randint(0, b, size=k), _softmax(r, (b, k))
    if kind == 'cls_2d_label':
        return r.randint(0, k, size=(2, 3)), _softmax(r, (6, k))
    if kind == 'cls_index':
        return r.randint(0, k, size=b), r.randint(0, k, size=b)
    if kind == 'topk':
        return r.randint(0, 10, size=b), r.uniform(size=(b, 10))
    if kind == 'topk_1d':
        return r.randint(0, 2, size=b), r.uniform(size=b)
    if kind == 'bin':
        label = r.randint(0, 2, size=b)
        label[0], label[1] = 0, 1
        return label, _softmax(r, (b, 2))
    if kind == 'prob_3d':
        return r.randint(0, k, size=(2, 3)), _softmax(r, (2, 3, k))
    if kind == 'reg':
        return r.uniform(-1, 1, size=b), r.uniform(-1, 1, size=b)
    if kind == 'reg_2d':
        return r.uniform(-1, 1, size=(b, 3)), r.uniform(-1, 1, size=(b, 3))
    if kind == 'same':
        label = r.uniform(-1, 1, size=(b, 3))
        return label, (label * 0.5 + r.uniform(-1, 1, size=(b, 3)))
    if kind == 'pcc':
        ncls = 3 + int(r.uniform() < 0.5)   # sometimes a 4th class: the matrix grows
        return r.randint(0, ncls, size=b), _softmax(r, (b, ncls))
    if kind == 'loss':
        return None, r.uniform(0, 2, size=(b, 2))
    raise ValueError(kind)


def create(mx, name):
    """The metric of case ``name``."""
    metric, args, kwargs, _ = CASES[name]
    if metric == 'custom_abs':
        return mx.metric.create(custom_abs, *args, **kwargs)
    if metric == 'custom_tuple':
        return mx.metric.CustomMetric(custom_tuple, *args, **kwargs)
    if metric == 'lambda':
        return mx.metric.create(lambda label, pred: float(np.max(label - pred)))
    if metric == 'np':
        return mx.metric.np(custom_abs)
    return mx.metric.create(metric, *args, **kwargs)


def _value(v):
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v if isinstance(v, str) else float(v)


def _state(metric):
    return {'get': _value(metric.get()), 'get_global': _value(metric.get_global()),
            'name_value': _value(metric.get_name_value()),
            'global_name_value': _value(metric.get_global_name_value()),
            'num_inst': _value(getattr(metric, 'num_inst', -1)),
            'global_num_inst': _value(getattr(metric, 'global_num_inst', -1)),
            'str': str(metric)}


def _config(mx, metric):
    try:
        config = metric.get_config()
    except NotImplementedError:
        return 'NotImplementedError'
    again = mx.metric.create(json.dumps(config))
    return [json.dumps(config, sort_keys=True), json.dumps(again.get_config(), sort_keys=True),
            again.name]


def _run(metric, step, kind, r, nd, named):
    if step not in ('update', 'update2'):
        getattr(metric, step)()
        return
    pairs = [make_batch(kind, r) for _ in range(1 if step == 'update' else 2)]
    labels = [nd(l) for l, _ in pairs]
    preds = [nd(p) for _, p in pairs]
    if named:
        noise = [nd(make_batch(kind, r)[1]) for _ in pairs]
        metric.update_dict({'a_lab': labels[0], 'b_lab': labels[-1]},
                           {'a_out': noise[0], 'b_out': preds[-1]})
    else:
        metric.update(None if labels[0] is None else labels, preds)


def record(mx, name):
    """Runs case ``name``: a list of metric states, one after each step."""
    metric = create(mx, name)
    kind = CASES[name][3]
    r = np.random.RandomState(sum(map(ord, name)))

    def nd(a):
        return None if a is None else mx.nd.array(a)

    log = [{'config': _config(mx, metric), 'initial': _state(metric)}]
    for step in STEPS:
        try:
            _run(metric, step, kind, r, nd, CASES[name][2].get('output_names'))
        except Exception as err:   # MXNet's failure is part of the behaviour
            log.append({'error': type(err).__name__})
            break
        log.append(_state(metric))
    return log


def errors(mx):
    """Exception types MXNet raises for bad metric use."""
    def kind(fn):
        try:
            fn()
        except Exception as err:   # the type is what is recorded
            return type(err).__name__
        return None
    one = mx.nd.array([0, 1])
    pred = mx.nd.array([[0.2, 0.8], [0.6, 0.4]])
    return {
        'length-mismatch': kind(lambda: mx.metric.Accuracy().update([one, one], [pred])),
        'top1': kind(lambda: mx.metric.TopKAccuracy(top_k=1)),
        'f1-multiclass': kind(lambda: mx.metric.F1().update(
            [mx.nd.array([0, 1, 2])], [mx.nd.array([[0.1, 0.9]] * 3)])),
        'unknown': kind(lambda: mx.metric.create('no-such-metric')),
        'pearson-shape': kind(lambda: mx.metric.PearsonCorrelation().update(
            [mx.nd.ones((2, 3))], [mx.nd.ones((3, 2))])),
        'check_label_shapes': kind(lambda: mx.metric.check_label_shapes(
            mx.nd.ones((2, 3)), mx.nd.ones((2, 4)), shape=True)),
    }


def write(mx, outdir):
    out = {'cases': {name: record(mx, name) for name in CASES}, 'errors': errors(mx)}
    tmp = os.path.join(outdir, 'metric.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'metric.json'))
