"""GluonCV 0.10.5 models as real MXNet runs them (needs ``gluoncv`` next to MXNet).

For each model in MODELS, built by ``gluoncv.model_zoo.get_model`` without pretrained
weights and with every parameter set from a numpy generator seeded by its name (without the
model's prefix; model_zoo.seeded): the predict-mode outputs for a seeded input, and for the
classifiers the loss, a few parameters' gradients and the outputs after SGD steps. Run with an
interpreter that has MXNet 1.9.1 and gluoncv 0.10.5.post0:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only gluoncv_models
"""
import os
import zlib

import numpy as np

from .model_zoo import seeded

REQUIRES = 'gluoncv'

# name -> (get_model keyword arguments, input shape, task)
MODELS = {
    'resnet18_v1b': (dict(classes=10), (2, 3, 64, 64), 'classify'),
    'mobilenetv3_small': (dict(classes=10), (2, 3, 64, 64), 'predict'),  # has Dropout
    'cifar_resnet20_v1': (dict(classes=10), (2, 3, 32, 32), 'classify'),
    'resnest14': (dict(classes=10), (2, 3, 64, 64), 'predict'),
    'ssd_300_mobilenet0.25_voc': (dict(pretrained_base=False), (1, 3, 128, 128), 'detect'),
    'yolo3_mobilenet0.25_voc': (dict(pretrained_base=False), (1, 3, 128, 128), 'detect'),
}
STEPS = 2


def data(name, shape):
    r = np.random.RandomState(zlib.crc32(('input/' + name).encode()) & 0xffffffff)
    return r.uniform(-1, 1, size=shape).astype(np.float32)


def labels(name, n, classes):
    r = np.random.RandomState(zlib.crc32(('label/' + name).encode()) & 0xffffffff)
    return r.randint(0, classes, size=n).astype(np.float32)


def build(mx, name):
    import gluoncv
    kwargs, shape, _ = MODELS[name]
    with mx.name.NameManager():
        net = gluoncv.model_zoo.get_model(name, pretrained=False, **kwargs)
    net.initialize()
    x = mx.nd.array(data(name, shape))
    net(x)
    prefix = net.prefix
    for k, p in sorted(net.collect_params().items()):
        p.set_data(mx.nd.array(seeded(k[len(prefix):], p.shape)))
    return net, x


def run(mx, name):
    """name -> {array name: numpy array} of MXNet's (or mxcompat's) results."""
    net, x = build(mx, name)
    task = MODELS[name][2]
    out = {}
    outs = net(x)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    for k, o in enumerate(outs):
        out['predict%d' % k] = o.asnumpy()
    if task != 'classify':
        return out
    classes = MODELS[name][0]['classes']
    y = mx.nd.array(labels(name, x.shape[0], classes))
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    params = net.collect_params()
    trainer = mx.gluon.Trainer(params, 'sgd', {'learning_rate': 0.05, 'momentum': 0.9,
                                               'wd': 1e-4})
    watched = sorted(k for k in params if k.endswith('weight'))[:3]
    for step in range(STEPS):
        with mx.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        out['loss%d' % step] = loss.asnumpy()
        if step == 0:
            for j, k in enumerate(watched):
                out['grad%d' % j] = params[k].grad().asnumpy()
        trainer.step(x.shape[0])
    out['after'] = net(x).asnumpy()
    return out


def write(mx, outdir):
    for name in MODELS:
        res = run(mx, name)
        np.savez(os.path.join(outdir, name + '.npz'), **res)
