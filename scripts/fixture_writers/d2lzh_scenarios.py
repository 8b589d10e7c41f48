"""d2lzh 1.0.0 (the d2l book's legacy ``nd`` helpers) as real MXNet runs them.

d2lzh has no unit-test suite, so each scenario here calls its public functions the way the
book does, on tiny generated data, with every weight set from a numpy generator seeded by
its name (model_zoo.seeded) and Python's and NumPy's generators seeded (data_iter,
data_iter_random, voc_rand_crop and DataLoader shuffling draw from them). Where d2lzh draws
weights from MXNet's own generator (``nd.random.normal`` in train_ch7, ``init.Normal`` in
train_gluon_ch7 and train_and_predict_rnn_gluon), the scenario hands it a seeded NumPy draw
instead (_seeded_normal), since MXNet's generator is not PyTorch's. Files d2lzh reads from
disk (Fashion-MNIST, airfoil, lyrics, IMDB, VOC) are generated in MXNet's formats in a
temporary folder; Fashion-MNIST's checksum check is bypassed, as the generated files are not
the published ones. What the helpers print is captured, with the times masked. Run with an
interpreter that has MXNet 1.9.1 and d2lzh 1.0.0:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only d2lzh_scenarios
"""
import contextlib
import gzip
import io
import os
import random
import re
import shutil
import struct
import tempfile
import zlib

import numpy as np

from .model_zoo import seeded

REQUIRES = 'd2lzh'

CORPUS = 'the time traveller for so it will be convenient to speak of him was expounding'


def rng(key):
    return np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)


def _seed(mx, key):
    random.seed(zlib.crc32(key.encode()))
    np.random.seed(zlib.crc32(key.encode()) & 0xffffffff)


@contextlib.contextmanager
def _seeded_normal(mx, key):
    """Route mx.nd.random.normal and mx.random.normal (what init.Normal draws from) to
    a NumPy generator seeded by ``key``."""
    r = rng(key)

    def normal(loc=0, scale=1, shape=None, dtype=None, ctx=None, out=None, **kwargs):
        shape = out.shape if out is not None else shape
        value = r.normal(loc, scale, size=shape).astype(np.float32)
        if out is None:
            return mx.nd.array(value, ctx=ctx)
        out[:] = value
        return out

    saved = mx.nd.random.normal, mx.random.normal
    mx.nd.random.normal = mx.random.normal = normal
    try:
        yield
    finally:
        mx.nd.random.normal, mx.random.normal = saved


@contextlib.contextmanager
def _in_dir(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _set_seeded(mx, net, shape, ctx=None):
    """Initialise ``net`` (deferred shapes from a zero input of ``shape``), then set every
    parameter from model_zoo.seeded by its name without the net's prefix."""
    ctx = ctx or mx.cpu()
    net.initialize(ctx=ctx)
    net(mx.nd.zeros(shape, ctx=ctx))
    for k, p in sorted(net.collect_params().items()):
        p.set_data(mx.nd.array(seeded(_strip(net, k), p.shape)))


def _strip(net, name):
    """A parameter's name without the net's prefix (children made outside the net's
    name_scope, as d2lzh makes them, have names of their own)."""
    return name[len(net.prefix):] if name.startswith(net.prefix) else name


def _params(net):
    """Each parameter's value; of a large one (resnet18's), the first 2 entries of each
    output channel, to keep the fixture small."""
    out = {}
    for k, p in net.collect_params().items():
        v = p.data().asnumpy()
        out['param/' + _strip(net, k)] = v if v.size <= 4096 else v.reshape(len(v), -1)[:, :2]
    return out


def _classification(key, n, shape, classes):
    r = rng(key)
    x = r.uniform(0, 1, size=(n,) + shape).astype(np.float32)
    y = r.randint(0, classes, size=n).astype(np.float32)
    return x, y


# ---------------------------------------------------------------- scenarios

def linreg_scratch(mx, d2l, tmp):
    """Ch. 3.2: data_iter, linreg, squared_loss and sgd train a linear regression."""
    nd = mx.nd
    r = rng('linreg')
    features = nd.array(r.normal(0, 1, (60, 2)))
    labels = nd.dot(features, nd.array([[2], [-3.4]])).reshape((-1,)) + 4.2
    labels += nd.array(r.normal(0, 0.01, labels.shape))
    w = nd.array(seeded('linreg/w', (2, 1)))
    b = nd.zeros((1,))
    w.attach_grad()
    b.attach_grad()
    out, batches = {}, []
    for epoch in range(2):
        for X, y in d2l.data_iter(10, features, labels):
            batches.append(y.asnumpy())
            with mx.autograd.record():
                loss = d2l.squared_loss(d2l.linreg(X, w, b), y)
            loss.backward()
            d2l.sgd([w, b], 0.03, 10)
        train_l = d2l.squared_loss(d2l.linreg(features, w, b), labels)
        print('epoch %d, loss %f' % (epoch + 1, train_l.mean().asnumpy()))
        out['loss%d' % epoch] = train_l.asnumpy()
    out.update(w=w.asnumpy(), b=b.asnumpy(), batches=np.concatenate(batches))
    return out


def corr2d(mx, d2l, tmp):
    """Ch. 5.1: corr2d, and learning its kernel with nn.Conv2D (the book's example)."""
    r = rng('corr2d')
    X = mx.nd.array(r.uniform(-1, 1, (6, 8)))
    K = mx.nd.array([[1, -1]])
    Y = d2l.corr2d(X, K)
    conv2d = mx.gluon.nn.Conv2D(1, kernel_size=(1, 2))
    _set_seeded(mx, conv2d, (1, 1, 6, 8))
    X4, Y4 = X.reshape((1, 1, 6, 8)), Y.reshape((1, 1, 6, 7))
    for i in range(5):
        with mx.autograd.record():
            loss = (conv2d(X4) - Y4) ** 2
        loss.backward()
        conv2d.weight.data()[:] -= 3e-2 * conv2d.weight.grad()
        print('batch %d, loss %.3f' % (i + 1, loss.sum().asscalar()))
    return {'Y': Y.asnumpy(), 'weight': conv2d.weight.data().asnumpy()}


def sequence_iters(mx, d2l, tmp):
    """Ch. 6.3: data_iter_random, data_iter_consecutive, to_onehot."""
    corpus = list(range(30))
    out = {}
    for name, fn in (('random', d2l.data_iter_random),
                     ('consecutive', d2l.data_iter_consecutive)):
        xs, ys = [], []
        for X, Y in fn(corpus, batch_size=2, num_steps=6):
            xs.append(X.asnumpy())
            ys.append(Y.asnumpy())
        out[name + '/X'], out[name + '/Y'] = np.stack(xs), np.stack(ys)
    onehot = d2l.to_onehot(mx.nd.arange(10).reshape((2, 5)), 7)
    out['onehot'] = np.stack([o.asnumpy() for o in onehot])
    return out


def grad_clipping(mx, d2l, tmp):
    """grad_clipping rescales the gradients above theta, and leaves the others alone."""
    out = {}
    for theta in (0.5, 100.0):
        params = [mx.nd.array(seeded('clip/%d' % i, (3, 4))) for i in range(2)]
        for p in params:
            p.attach_grad()
        with mx.autograd.record():
            loss = (params[0] * params[1] * 3).sum() + (params[0] ** 3).sum()
        loss.backward()
        d2l.grad_clipping(params, theta, mx.cpu())
        for i, p in enumerate(params):
            out['theta%g/grad%d' % (theta, i)] = p.grad.asnumpy()
    return out


def _softmax_data(mx, key, n):
    x, y = _classification(key, n, (1, 6, 6), 4)
    return mx.gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y))


def train_ch3(mx, d2l, tmp):
    """Ch. 3.6/3.7: softmax regression from scratch (params + lr) and with a Trainer;
    evaluate_accuracy."""
    gdata, nd = mx.gluon.data, mx.nd
    train_iter = gdata.DataLoader(_softmax_data(mx, 'ch3/train', 40), 8, shuffle=True)
    test_iter = gdata.DataLoader(_softmax_data(mx, 'ch3/test', 16), 8, shuffle=False)
    W = nd.array(seeded('ch3/W', (36, 4)))
    b = nd.zeros(4)
    W.attach_grad()
    b.attach_grad()

    def net(X):
        e = nd.dot(X.reshape((-1, 36)), W) + b
        e = e.exp()
        return e / e.sum(axis=1, keepdims=True)

    def cross_entropy(y_hat, y):
        return -nd.pick(y_hat, y).log()

    d2l.train_ch3(net, train_iter, test_iter, cross_entropy, 2, 8, [W, b], 0.5)
    out = {'W': W.asnumpy(), 'b': b.asnumpy()}
    gnet = mx.gluon.nn.Sequential()
    gnet.add(mx.gluon.nn.Dense(4))
    _set_seeded(mx, gnet, (1, 1, 6, 6))
    trainer = mx.gluon.Trainer(gnet.collect_params(), 'sgd', {'learning_rate': 0.5})
    d2l.train_ch3(gnet, train_iter, test_iter, mx.gluon.loss.SoftmaxCrossEntropyLoss(), 2, 8,
                  None, None, trainer)
    out.update(_params(gnet))
    out['accuracy'] = np.array(d2l.evaluate_accuracy(test_iter, gnet))
    return out


def _write_idx(path, arr, labels):
    with gzip.open(path, 'wb') as f:
        if labels:
            f.write(struct.pack('>II', 2049, len(arr)))
        else:
            f.write(struct.pack('>IIII', 2051, len(arr), 28, 28))
        f.write(arr.astype(np.uint8).tobytes())


def fashion_mnist_ch5(mx, d2l, tmp):
    """Ch. 5.5: load_data_fashion_mnist (with and without resize) from Fashion-MNIST files
    in MXNet's format, get_fashion_mnist_labels, and a LeNet trained by train_ch5."""
    root = os.path.join(tmp, 'fashion-mnist')
    os.makedirs(root)
    r = rng('fashion')
    for prefix, n in (('train', 24), ('t10k', 12)):
        _write_idx(os.path.join(root, prefix + '-images-idx3-ubyte.gz'),
                   r.randint(0, 256, (n, 28, 28)), False)
        _write_idx(os.path.join(root, prefix + '-labels-idx1-ubyte.gz'),
                   r.randint(0, 10, n), True)
    utils = mx.gluon.utils
    saved = utils.check_sha1
    utils.check_sha1 = lambda filename, sha1_hash: True  # the generated files stand in
    try:
        _seed(mx, 'fashion/resize')
        train_iter, test_iter = d2l.load_data_fashion_mnist(6, resize=14, root=root)
        out = {'resized': next(iter(train_iter))[0].asnumpy()}
        _seed(mx, 'fashion')
        train_iter, test_iter = d2l.load_data_fashion_mnist(6, root=root)
    finally:
        utils.check_sha1 = saved
    X, y = next(iter(test_iter))
    out.update(X=X.asnumpy(), y=y.asnumpy())
    print(d2l.get_fashion_mnist_labels(y.asnumpy()))
    nn = mx.gluon.nn
    net = nn.Sequential()
    net.add(nn.Conv2D(channels=4, kernel_size=5, activation='sigmoid'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=8, kernel_size=5, activation='sigmoid'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Dense(16, activation='sigmoid'),
            nn.Dense(10))
    _set_seeded(mx, net, (1, 1, 28, 28))
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.9})
    _seed(mx, 'fashion/train')
    d2l.train_ch5(net, train_iter, test_iter, 6, trainer, mx.cpu(), 2)
    out.update(_params(net))
    return out


def resnet18_multi_context(mx, d2l, tmp):
    """Ch. 5.11/8.4: Residual, resnet18, try_gpu/try_all_gpus, and train() across two
    contexts (split_and_load, one Trainer over both copies)."""
    gpus = [mx.gpu(i) for i in range(mx.context.num_gpus())]
    print('try_gpu', d2l.try_gpu() == (gpus[0] if gpus else mx.cpu()),
          'try_all_gpus', d2l.try_all_gpus() == (gpus or [mx.cpu()]))
    blk = d2l.Residual(3, use_1x1conv=True, strides=2)
    _set_seeded(mx, blk, (2, 3, 6, 6))
    x = mx.nd.array(rng('residual/x').uniform(-1, 1, (2, 3, 6, 6)))
    out = {'residual': blk(x).asnumpy()}
    ctx = [mx.cpu(0), mx.cpu(1)]
    net = d2l.resnet18(5)
    _set_seeded(mx, net, (1, 1, 16, 16))
    net.collect_params().reset_ctx(ctx)
    x, y = _classification('resnet18', 16, (1, 16, 16), 5)
    gdata = mx.gluon.data
    data = gdata.ArrayDataset(mx.nd.array(x), mx.nd.array(y))
    train_iter = gdata.DataLoader(data, 8, shuffle=False)
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.001})
    d2l.train(train_iter, train_iter, net, mx.gluon.loss.SoftmaxCrossEntropyLoss(),
              trainer, ctx, 2)
    out.update(_params(net))
    return out


def _rnn_scratch(mx, vocab_size, num_hiddens):
    nd = mx.nd

    def get_params():
        shapes = {'W_xh': (vocab_size, num_hiddens), 'W_hh': (num_hiddens, num_hiddens),
                  'b_h': (num_hiddens,), 'W_hq': (num_hiddens, vocab_size),
                  'b_q': (vocab_size,)}
        params = [nd.array(seeded('rnn/' + k, s)) for k, s in shapes.items()]
        for p in params:
            p.attach_grad()
        return params

    def init_rnn_state(batch_size, num_hiddens, ctx):
        return (nd.zeros(shape=(batch_size, num_hiddens), ctx=ctx),)

    def rnn(inputs, state, params):
        W_xh, W_hh, b_h, W_hq, b_q = params
        H, = state
        outputs = []
        for X in inputs:
            H = nd.tanh(nd.dot(X, W_xh) + nd.dot(H, W_hh) + b_h)
            outputs.append(nd.dot(H, W_hq) + b_q)
        return outputs, (H,)

    return get_params, init_rnn_state, rnn


def _corpus():
    idx_to_char = sorted(set(CORPUS))
    char_to_idx = {c: i for i, c in enumerate(idx_to_char)}
    return [char_to_idx[c] for c in CORPUS], idx_to_char, char_to_idx


def rnn_scratch(mx, d2l, tmp):
    """Ch. 6.4: train_and_predict_rnn (random and consecutive sampling, grad_clipping, sgd)
    and predict_rnn."""
    corpus, idx_to_char, char_to_idx = _corpus()
    vocab_size, num_hiddens = len(idx_to_char), 16
    get_params, init_rnn_state, rnn = _rnn_scratch(mx, vocab_size, num_hiddens)
    kept = []

    def get_params_kept():
        kept[:] = get_params()
        return kept

    out = {}
    for is_random in (True, False):
        _seed(mx, 'rnn/%s' % is_random)
        d2l.train_and_predict_rnn(rnn, get_params_kept, init_rnn_state, num_hiddens,
                                  vocab_size, mx.cpu(), corpus, idx_to_char, char_to_idx,
                                  is_random, 2, 5, 10.0, 0.1, 3, 1, 6, ['the', 'tim'])
        for i, p in enumerate(kept):
            out['random%s/param%d' % (is_random, i)] = p.asnumpy()
    print(d2l.predict_rnn('ti', 8, rnn, kept, init_rnn_state, num_hiddens, vocab_size,
                          mx.cpu(), idx_to_char, char_to_idx))
    return out


def rnn_gluon(mx, d2l, tmp):
    """Ch. 6.5/6.7: RNNModel over rnn.RNN and rnn.LSTM, train_and_predict_rnn_gluon and
    predict_rnn_gluon."""
    corpus, idx_to_char, char_to_idx = _corpus()
    vocab_size = len(idx_to_char)
    out = {}
    for kind in ('RNN', 'LSTM'):
        layer = getattr(mx.gluon.rnn, kind)(12)
        model = d2l.RNNModel(layer, vocab_size)
        with _seeded_normal(mx, 'rnn_gluon/' + kind):
            d2l.train_and_predict_rnn_gluon(model, 12, vocab_size, mx.cpu(), corpus,
                                            idx_to_char, char_to_idx, 2, 5, 5.0, 0.1, 3, 1,
                                            6, ['the', 'tim'])
        for k, v in _params(model).items():
            out[kind + '/' + k] = v
    return out


def optimisation_ch7(mx, d2l, tmp):
    """Ch. 7: train_2d, get_data_ch7 (from a generated airfoil file), train_ch7 with
    from-scratch sgd/momentum/adagrad, train_gluon_ch7 with Gluon trainers."""
    nd = mx.nd

    def gd_2d(x1, x2, s1, s2):
        return x1 - 0.4 * 2 * x1, x2 - 0.4 * 4 * x2, 0, 0

    out = {'trace': np.array(d2l.train_2d(gd_2d))}
    data_dir = os.path.join(tmp, 'data')
    os.makedirs(os.path.join(tmp, 'work'))
    os.makedirs(data_dir)
    np.savetxt(os.path.join(data_dir, 'airfoil_self_noise.dat'),
               rng('airfoil').uniform(0, 10, (200, 6)), delimiter='\t', fmt='%.5f')
    with _in_dir(os.path.join(tmp, 'work')):
        features, labels = d2l.get_data_ch7()
    out['features'] = features.asnumpy()

    def sgd(params, states, hyperparams):
        for p in params:
            p[:] -= hyperparams['lr'] * p.grad

    def init_momentum_states():
        return (nd.zeros((features.shape[1], 1)), nd.zeros(1))

    def sgd_momentum(params, states, hyperparams):
        for p, v in zip(params, states):
            v[:] = hyperparams['momentum'] * v + hyperparams['lr'] * p.grad
            p[:] -= v

    def adagrad(params, states, hyperparams):
        for p, s in zip(params, states):
            s[:] += p.grad.square()
            p[:] -= hyperparams['lr'] * p.grad / (s + 1e-6).sqrt()

    runs = [('sgd', sgd, None, {'lr': 0.05}),
            ('momentum', sgd_momentum, init_momentum_states(), {'lr': 0.02, 'momentum': 0.5}),
            ('adagrad', adagrad, init_momentum_states(), {'lr': 0.1})]
    for name, fn, states, hp in runs:
        _seed(mx, 'ch7/' + name)
        with _seeded_normal(mx, 'ch7/w/' + name):
            d2l.train_ch7(fn, states, hp, features, labels, batch_size=10, num_epochs=2)
    for name, hp in (('sgd', {'learning_rate': 0.05}),
                     ('adam', {'learning_rate': 0.01}),
                     ('rmsprop', {'learning_rate': 0.01, 'gamma1': 0.9})):
        _seed(mx, 'gluon_ch7/' + name)
        with _seeded_normal(mx, 'gluon_ch7/w/' + name):
            d2l.train_gluon_ch7(name, hp, features, labels, batch_size=10, num_epochs=2)
    return out


def text_helpers(mx, d2l, tmp):
    """Ch. 10: read_imdb (generated reviews), get_tokenized_imdb, count_tokens,
    get_vocab_imdb, preprocess_imdb, predict_sentiment; load_data_time_machine and
    load_data_jay_lyrics from generated files."""
    words = 'good bad movie plot actor great awful fun boring the a was'.split()
    r = rng('imdb')
    for label in ('pos', 'neg'):
        folder = os.path.join(tmp, 'data', 'aclImdb', 'train', label)
        os.makedirs(folder)
        with open(os.path.join(folder, '0_1.txt'), 'w') as f:
            f.write(' '.join(r.choice(words, 40)))
    work = os.path.join(tmp, 'work')
    os.makedirs(work)
    with open(os.path.join(tmp, 'data', 'timemachine.txt'), 'w') as f:
        f.write(CORPUS.upper() + '\n' + CORPUS)
    import zipfile
    with zipfile.ZipFile(os.path.join(tmp, 'data', 'jaychou_lyrics.txt.zip'), 'w') as z:
        z.writestr('jaychou_lyrics.txt', (CORPUS + '\r\n') * 3)
    _seed(mx, 'imdb')
    with _in_dir(work):
        data = d2l.read_imdb('train')
        machine = d2l.load_data_time_machine()
        lyrics = d2l.load_data_jay_lyrics()
    out = {}
    for name, (indices, char_to_idx, idx_to_char, size) in (('machine', machine),
                                                             ('lyrics', lyrics)):
        # idx_to_char comes from a set: compare the text it encodes, not the order
        out[name] = np.array(''.join(idx_to_char[i] for i in indices))
        assert size == len(char_to_idx) == len(idx_to_char)
    print([label for _, label in data])
    print(sorted(d2l.count_tokens(d2l.get_tokenized_imdb(data)).items()))
    vocab = d2l.get_vocab_imdb(data)
    print(vocab.idx_to_token)
    features, labels = d2l.preprocess_imdb(data, vocab)
    out.update(features=features.asnumpy(), labels=labels.asnumpy())
    net = mx.gluon.nn.Sequential()
    net.add(mx.gluon.nn.Embedding(len(vocab), 4),
            mx.gluon.nn.HybridLambda(lambda F, x: F.mean(x, axis=1)), mx.gluon.nn.Dense(2))
    _set_seeded(mx, net, (1, 5))
    for sentence in (['good', 'movie'], ['awful', 'plot', 'was', 'boring']):
        print(d2l.predict_sentiment(net, vocab, sentence))
    return out


def voc_segmentation(mx, d2l, tmp):
    """Ch. 9.9: read_voc_images, voc_label_indices, voc_rand_crop and VOCSegDataset on a
    generated VOC folder (lossless images, so that no JPEG decoder difference enters)."""
    from PIL import Image
    root = os.path.join(tmp, 'VOC2012')
    for sub in ('ImageSets/Segmentation', 'JPEGImages', 'SegmentationClass'):
        os.makedirs(os.path.join(root, sub))
    r = rng('voc')
    names = ['img%d' % i for i in range(3)]
    colormap = np.array(d2l.VOC_COLORMAP, dtype=np.uint8)
    for i, name in enumerate(names):
        h, w = (12, 14) if i else (6, 14)  # the first is smaller than the crop: filtered
        Image.fromarray(r.randint(0, 256, (h, w, 3)).astype(np.uint8)).save(
            os.path.join(root, 'JPEGImages', name + '.jpg'), format='PNG')
        Image.fromarray(colormap[r.randint(0, 21, (h, w))]).save(
            os.path.join(root, 'SegmentationClass', name + '.png'))
    for split in ('train', 'val'):
        with open(os.path.join(root, 'ImageSets/Segmentation', split + '.txt'), 'w') as f:
            f.write('\n'.join(names) + '\n')
    colormap2label = mx.nd.zeros(256 ** 3)
    for i, cm in enumerate(d2l.VOC_COLORMAP):
        colormap2label[(cm[0] * 256 + cm[1]) * 256 + cm[2]] = i
    _seed(mx, 'voc')
    features, labels = d2l.read_voc_images(root, is_train=True)
    out = {'indices': d2l.voc_label_indices(labels[1], colormap2label).asnumpy()}
    f, l = d2l.voc_rand_crop(features[1], labels[1], 8, 10)
    out.update(crop_feature=f.asnumpy(), crop_label=l.asnumpy())
    dataset = d2l.VOCSegDataset(True, (8, 10), root, colormap2label)
    loader = mx.gluon.data.DataLoader(dataset, 2, shuffle=True, last_batch='keep')
    for k, (X, y) in enumerate(loader):
        out['batch%d/X' % k], out['batch%d/y' % k] = X.asnumpy(), y.asnumpy()
    return out


def misc_helpers(mx, d2l, tmp):
    """bbox_to_rect, show_bboxes, mkdir_if_not_exist, Benchmark, use_svg_display,
    semilogy/show_images/show_fashion_mnist/show_trace_2d on the Agg backend."""
    from matplotlib import pyplot as plt
    rect = d2l.bbox_to_rect([1.5, 2.0, 6.0, 9.5], 'blue')
    out = {'rect': np.array([rect.get_x(), rect.get_y(), rect.get_width(),
                             rect.get_height()])}
    fig = plt.figure()
    d2l.show_bboxes(fig.gca(), mx.nd.array([[0.1, 0.2, 0.5, 0.6], [0.3, 0.1, 0.9, 0.4]]),
                    ['dog', 'cat'], ['w', 'r'])
    out['patches'] = np.array([[p.get_x(), p.get_y(), p.get_width(), p.get_height()]
                               for p in fig.gca().patches])
    d2l.mkdir_if_not_exist([tmp, 'a', 'b'])
    print(os.path.isdir(os.path.join(tmp, 'a', 'b')))
    with d2l.Benchmark('nd'):
        mx.nd.ones((3, 3)).sum().wait_to_read()
    imgs = [mx.nd.array(rng('img%d' % i).uniform(0, 1, (28, 28))) for i in range(2)]
    d2l.show_fashion_mnist(imgs, ['a', 'b'])
    d2l.show_images(imgs * 2, 2, 2)
    d2l.show_trace_2d(lambda x1, x2: x1 ** 2 + 2 * x2 ** 2, [(-5, -2), (-3, -1)])
    d2l.semilogy(range(1, 3), [1.0, 0.1], 'epochs', 'loss', range(1, 3), [2.0, 0.2],
                 ['train', 'test'])
    plt.close('all')
    return out


SCENARIOS = {f.__name__: f for f in (
    linreg_scratch, corr2d, sequence_iters, grad_clipping, train_ch3, fashion_mnist_ch5,
    resnet18_multi_context, rnn_scratch, rnn_gluon, optimisation_ch7, text_helpers,
    voc_segmentation, misc_helpers)}

_TIMES = re.compile(r'(time[: ]*)[0-9.]+( sec)|[0-9.]+( sec per epoch)')


def mask_times(text):
    """The printed text with its timings replaced by ``<t>``."""
    return _TIMES.sub(lambda m: (m.group(1) or '') + '<t>' + (m.group(2) or m.group(3)), text)


def run(mx, name):
    """name -> {array name: numpy array} of MXNet's (or mxcompat's) results; 'stdout' is
    what d2lzh printed, timings masked."""
    import matplotlib
    matplotlib.use('Agg')  # before d2lzh imports pyplot: plots are drawn, never shown
    import d2lzh
    from IPython import display
    tmp = tempfile.mkdtemp(prefix='d2lzh-')
    buf = io.StringIO()
    # d2lzh's use_svg_display calls IPython.display.set_matplotlib_formats, which IPython 8
    # removed: a stand-in lets the helpers that plot run to their end (on matplotlib's Agg)
    missing = not hasattr(display, 'set_matplotlib_formats')
    if missing:
        display.set_matplotlib_formats = lambda *formats, **kwargs: None
    try:
        _seed(mx, name)
        with contextlib.redirect_stdout(buf), mx.name.NameManager():
            out = SCENARIOS[name](mx, d2lzh, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if missing:
            del display.set_matplotlib_formats
    out['stdout'] = np.array(mask_times(buf.getvalue()))
    return out


def write(mx, outdir):
    for name in SCENARIOS:
        np.savez(os.path.join(outdir, name + '.npz'), **run(mx, name))
