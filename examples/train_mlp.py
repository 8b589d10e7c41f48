"""Train a multilayer perceptron on a three-class spiral, with NDArray and autograd.

A legacy MXNet 1.x training script in the style of MXNet's "from scratch" tutorials: the
parameters are plain NDArrays with ``attach_grad()``, the forward pass calls ``mx.nd``
operators inside ``autograd.record()``, and ``sgd_update`` applies SGD with weight decay.
The data set (a 2-D spiral, as in CS231n) and the initial weights come from a seeded numpy
generator, so every run -- on MXNet or on mxcompat -- sees the same numbers.

    python train_mlp.py             # real MXNet 1.9.1
    mxcompat run train_mlp.py       # the same file on PyTorch
"""
from __future__ import print_function

import argparse
import time

import numpy as np
import mxnet as mx
from mxnet import nd, autograd


def spiral(num_per_class, num_classes, seed):
    """Points on ``num_classes`` interleaved noisy spiral arms, and their labels."""
    rs = np.random.RandomState(seed)
    X = np.zeros((num_per_class * num_classes, 2), dtype=np.float32)
    y = np.zeros(num_per_class * num_classes, dtype=np.float32)
    for k in range(num_classes):
        r = np.linspace(0.0, 1.0, num_per_class)
        t = np.linspace(k * 4.0, (k + 1) * 4.0, num_per_class) + rs.randn(num_per_class) * 0.2
        rows = slice(num_per_class * k, num_per_class * (k + 1))
        X[rows] = np.c_[r * np.sin(t), r * np.cos(t)]
        y[rows] = k
    return X, y


def init_params(num_inputs, num_hidden, num_outputs, ctx, seed):
    rs = np.random.RandomState(seed)

    def uniform(*shape):
        scale = np.sqrt(6.0 / sum(shape))  # Xavier (uniform) as mx.init.Xavier() would
        return nd.array(rs.uniform(-scale, scale, size=shape), ctx=ctx)

    W1 = uniform(num_inputs, num_hidden)        # used as nd.dot(X, W1)
    b1 = nd.zeros((num_hidden,), ctx=ctx)
    W2 = uniform(num_hidden, num_hidden)        # FullyConnected weight: (out, in)
    b2 = nd.zeros((num_hidden,), ctx=ctx)
    W3 = uniform(num_outputs, num_hidden)
    b3 = nd.zeros((num_outputs,), ctx=ctx)
    params = [W1, b1, W2, b2, W3, b3]
    for param in params:
        param.attach_grad()
    return params


def net(X, params):
    W1, b1, W2, b2, W3, b3 = params
    h1 = nd.relu(nd.dot(X, W1) + b1)
    h2 = nd.Activation(nd.FullyConnected(h1, W2, b2, num_hidden=W2.shape[0]), act_type='tanh')
    return nd.FullyConnected(h2, W3, b3, num_hidden=W3.shape[0])


def cross_entropy(yhat, y):
    return -nd.pick(nd.log_softmax(yhat), y)


def evaluate_accuracy(X, y, params):
    output = net(X, params)
    predictions = nd.argmax(output, axis=1)
    return nd.mean(predictions == y).asscalar()


def train(args):
    ctx = mx.gpu() if args.gpu else mx.cpu()
    X_np, y_np = spiral(args.num_per_class, 3, seed=args.seed)
    X, y = nd.array(X_np, ctx=ctx), nd.array(y_np, ctx=ctx)
    params = init_params(2, args.num_hidden, 3, ctx, seed=args.seed + 1)
    order = np.random.RandomState(args.seed + 2)
    num_examples = X.shape[0]
    losses = []
    for epoch in range(args.epochs):
        tic = time.time()
        perm = nd.array(order.permutation(num_examples), ctx=ctx)
        Xs, ys = nd.take(X, perm), nd.take(y, perm)
        cumulative_loss = 0.0
        for i in range(0, num_examples, args.batch_size):
            data = Xs[i:i + args.batch_size]
            label = ys[i:i + args.batch_size]
            with autograd.record():
                output = net(data, params)
                loss = cross_entropy(output, label)
            loss.backward()
            for param in params:
                nd.sgd_update(param, param.grad, lr=args.lr, wd=args.wd,
                              rescale_grad=1.0 / data.shape[0], out=param)
            cumulative_loss += nd.sum(loss).asscalar()
        losses.append(cumulative_loss / num_examples)
        train_acc = evaluate_accuracy(X, y, params)
        print("Epoch %d. Loss: %.6f, Train_acc %.4f, Time %.3fs"
              % (epoch, losses[-1], train_acc, time.time() - tic))
    nd.waitall()
    print("Final loss: %.6f" % losses[-1])
    print("Final weight norms: %s" % ' '.join('%.6f' % nd.norm(p).asscalar() for p in params))
    return losses, params


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--epochs', type=int, default=30)
    parser.add_argument('--batch-size', type=int, default=30)
    parser.add_argument('--lr', type=float, default=0.2)
    parser.add_argument('--wd', type=float, default=1e-4)
    parser.add_argument('--num-hidden', type=int, default=64)
    parser.add_argument('--num-per-class', type=int, default=100)
    parser.add_argument('--seed', type=int, default=42)
    parser.add_argument('--gpu', action='store_true', help='train on mx.gpu(0)')
    return parser.parse_args(argv)


if __name__ == '__main__':
    train(parse_args())
