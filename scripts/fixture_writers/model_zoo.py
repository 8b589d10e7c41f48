"""``gluon.model_zoo.vision`` as real MXNet builds it.

For every name ``get_model`` accepts: the parameter names (default prefixes, built under a
fresh NameManager) and shapes after shape inference, stored as gzipped JSON. For the models
in FORWARD: the predict-mode output for a seeded input with every parameter set from a numpy
generator seeded by its name without the model prefix (``seeded``).
"""
import gzip
import json
import os
import zlib

import numpy as np

NAMES = ['alexnet', 'densenet121', 'densenet161', 'densenet169', 'densenet201', 'inceptionv3',
         'mobilenet0.25', 'mobilenet0.5', 'mobilenet0.75', 'mobilenet1.0',
         'mobilenetv2_0.25', 'mobilenetv2_0.5', 'mobilenetv2_0.75', 'mobilenetv2_1.0',
         'resnet18_v1', 'resnet34_v1', 'resnet50_v1', 'resnet101_v1', 'resnet152_v1',
         'resnet18_v2', 'resnet34_v2', 'resnet50_v2', 'resnet101_v2', 'resnet152_v2',
         'squeezenet1.0', 'squeezenet1.1', 'vgg11', 'vgg13', 'vgg16', 'vgg19',
         'vgg11_bn', 'vgg13_bn', 'vgg16_bn', 'vgg19_bn']


def input_size(name):
    if name == 'inceptionv3':
        return 299
    return 224


# name -> (input side, classes)
FORWARD = {'resnet18_v1': (32, 10), 'mobilenetv2_0.25': (32, 10), 'resnet50_v2': (32, 7),
           'mobilenet0.25': (32, 5), 'squeezenet1.1': (224, 6), 'densenet121': (224, 4)}


def seeded(key, shape):
    r = np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)
    if key.endswith(('running_var', 'moving_var', 'gamma')):
        return r.uniform(0.5, 1.5, size=shape).astype(np.float32)
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    return (r.uniform(-1, 1, size=shape) * np.sqrt(3.0 / fan_in)).astype(np.float32)


def build(mx, name, **kwargs):
    with mx.name.NameManager():
        return mx.gluon.model_zoo.vision.get_model(name, **kwargs)


def shapes(mx, net, name):
    net.initialize()
    side = input_size(name)
    net.infer_shape(mx.nd.zeros((1, 3, side, side)))
    return [[k, list(p.shape)] for k, p in net.collect_params().items()]


def set_params(mx, net):
    prefix = net.prefix
    for k, p in net.collect_params().items():
        p.set_data(mx.nd.array(seeded(k[len(prefix):], p.shape)))


def forward_input(name):
    side = FORWARD[name][0]
    r = np.random.RandomState(zlib.crc32(('input/' + name).encode()) & 0xffffffff)
    return r.uniform(-1, 1, size=(1, 3, side, side)).astype(np.float32)


def forward_model(mx, name):
    net = build(mx, name, classes=FORWARD[name][1])
    net.initialize()
    x = mx.nd.array(forward_input(name))
    net(x)
    set_params(mx, net)
    return net, x


def write(mx, outdir):
    facts = {name: shapes(mx, build(mx, name), name) for name in NAMES}
    with gzip.open(os.path.join(outdir, 'params.json.gz'), 'wt') as f:
        json.dump(facts, f, separators=(',', ':'))
    outs = {}
    for name in FORWARD:
        net, x = forward_model(mx, name)
        outs[name] = net(x).asnumpy()
    np.savez_compressed(os.path.join(outdir, 'forward.npz'), **outs)
