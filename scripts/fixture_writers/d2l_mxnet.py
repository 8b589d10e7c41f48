"""d2l 0.17.6's ``d2l.mxnet`` (the second edition of the d2l book, on MXNet's NumPy interface)
as real MXNet runs it.

Each scenario runs under ``npx.set_np()``, as the book's notebooks do, and calls d2l's training
helpers the way the book does, on tiny generated data, for a few steps. Every weight comes from
a numpy generator seeded by the parameter's name (model_zoo.seeded): nets are initialised with
Seeded, and where d2l initialises them itself (``init.Xavier()`` in train_ch6 and
train_seq2seq, ``init.Normal(0.01)`` in train_ch8) those initialisers are routed to Seeded
for the scenario's duration; draws d2l takes from MXNet's generator (``d2l.normal`` in
synthetic_data) are replaced by seeded NumPy draws, since MXNet's generator is not PyTorch's.
Python's and NumPy's generators are seeded (DataLoader shuffling and d2l's sequence samplers
draw from them). Files d2l downloads (the time machine, fra-eng) are generated in a temporary
folder, with their DATA_HUB checksums replaced by the generated files' own. Dropout is 0
wherever gradients flow. What the helpers print is captured, with the speeds masked. Run
with an interpreter that has MXNet 1.9.1 and d2l 0.17.6 (and its imports: matplotlib,
matplotlib-inline, IPython, pandas, requests):

    ~/oracle-d2l/bin/python scripts/make_fixtures.py --only d2l_mxnet
"""
import contextlib
import hashlib
import io
import os
import re
import shutil
import tempfile
import zipfile

import numpy as onp

from .d2lzh_scenarios import _in_dir, _seed, rng
from .model_zoo import seeded

REQUIRES = 'd2l'

TIME_MACHINE = """The Time Machine, by H. G. Wells
The Time Traveller (for so it will be convenient to speak of him)
was expounding a recondite matter to us. His grey eyes shone and
twinkled, and his usually pale face was flushed and animated.
"""

PAIRS = [('go .', 'va !'), ('hi .', 'salut !'), ('run !', 'cours !'), ('run !', 'courez !'),
         ('who ?', 'qui ?'), ('wow !', 'ca alors !'), ('i lost .', "j'ai perdu ."),
         ('i won .', "j'ai gagne ."), ('he ran .', 'il a couru .'), ('go now .', 'va !'),
         ('i ran .', "j'ai couru ."), ('he won .', 'il a gagne .'),
         ('we won .', 'nous avons gagne .'), ('we lost .', 'nous avons perdu .'),
         ('he lost .', 'il a perdu .'), ('hi !', 'salut !')]


class _Initializers:
    """Seeded (an Initializer setting each parameter from model_zoo.seeded by its name), and
    the initializer classes d2l's helpers create, routed to it."""

    def __init__(self, mx):
        class Seeded(mx.init.Initializer):
            """Each parameter from model_zoo.seeded by its name."""

            def _init_weight(self, name, arr):
                arr[:] = seeded(str(name), arr.shape)

        self.mx, self.Seeded = mx, Seeded

    @contextlib.contextmanager
    def routed(self):
        init = self.mx.init
        saved = init.Xavier, init.Normal
        init.Xavier = init.Normal = lambda *args, **kwargs: self.Seeded()
        try:
            yield
        finally:
            init.Xavier, init.Normal = saved


def _params(net):
    return {'param/' + k: p.data().asnumpy() for k, p in net.collect_params().items()}


def _hub_file(d2l, name, path):
    """Point d2l's DATA_HUB entry ``name`` at the generated file ``path`` (its checksum)."""
    with open(path, 'rb') as f:
        d2l.DATA_HUB[name] = (d2l.DATA_URL + os.path.basename(path),
                              hashlib.sha1(f.read()).hexdigest())


# ---------------------------------------------------------------- scenarios

def linear_regression(mx, d2l, inits, tmp):
    """Ch. 3.2/3.3: synthetic_data, load_array, linreg, squared_loss and sgd from scratch;
    nn.Dense with L2Loss and a Trainer."""
    np, gluon = mx.np, mx.gluon
    r = rng('d2l/linreg')
    saved = d2l.normal
    d2l.normal = lambda loc, scale, size: np.array(r.normal(loc, scale, size).astype('float32'))
    try:
        features, labels = d2l.synthetic_data(np.array([2, -3.4]), 4.2, 60)
    finally:
        d2l.normal = saved
    w = np.array(seeded('linreg/w', (2, 1)))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    out = {'features': features.asnumpy(), 'labels': labels.asnumpy()}
    batch_size, lr = 10, 0.03
    data_iter = d2l.load_array((features, labels), batch_size)
    for epoch in range(2):
        for X, y in data_iter:
            with mx.autograd.record():
                l = d2l.squared_loss(d2l.linreg(X, w, b), y)
            l.backward()
            d2l.sgd([w, b], lr, batch_size)
        train_l = d2l.squared_loss(d2l.linreg(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
    out.update(w=w.asnumpy(), b=b.asnumpy())
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(1))
    net.initialize(inits.Seeded())
    loss = gluon.loss.L2Loss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.03})
    for epoch in range(2):
        for X, y in data_iter:
            with mx.autograd.record():
                l = loss(net(X), y)
            l.backward()
            trainer.step(batch_size)
        l = loss(net(features), labels)
        print(f'epoch {epoch + 1}, loss {l.mean().asnumpy():f}')
    out.update(_params(net))
    return out


def _classes(mx, key, n, shape, classes, noise):
    """``n`` examples of ``shape``: a class's own pattern plus noise; int32 labels."""
    r = rng(key)
    patterns = rng('d2l/patterns').uniform(0, 2, (classes,) + shape)
    y = r.randint(0, classes, n)
    x = patterns[y] + r.normal(0, noise, (n,) + shape)
    return mx.gluon.data.ArrayDataset(mx.np.array(x.astype('float32')),
                                      mx.np.array(y, dtype='int32'))


def softmax_regression(mx, d2l, inits, tmp):
    """Ch. 3.6/3.7: softmax regression from scratch (train_ch3 with d2l.sgd as the updater)
    and with nn.Dense, SoftmaxCrossEntropyLoss and a Trainer; train_epoch_ch3, accuracy,
    evaluate_accuracy, evaluate_loss."""
    np, gluon = mx.np, mx.gluon
    batch_size, lr = 8, 0.5
    train_iter = gluon.data.DataLoader(_classes(mx, 'd2l/ch3/train', 48, (1, 4, 4), 4, 0.1),
                                       batch_size, shuffle=True)
    test_iter = gluon.data.DataLoader(_classes(mx, 'd2l/ch3/test', 16, (1, 4, 4), 4, 0.1),
                                      batch_size, shuffle=False)
    W = np.array(seeded('ch3/W', (16, 4)))
    b = np.zeros(4)
    W.attach_grad()
    b.attach_grad()

    def softmax(X):
        X_exp = np.exp(X)
        partition = X_exp.sum(1, keepdims=True)
        return X_exp / partition

    def net(X):
        return softmax(np.dot(X.reshape((-1, W.shape[0])), W) + b)

    def cross_entropy(y_hat, y):
        return - np.log(y_hat[range(len(y_hat)), y])

    def updater(batch_size):
        return d2l.sgd([W, b], lr, batch_size)

    d2l.train_ch3(net, train_iter, test_iter, cross_entropy, 3, updater)
    out = {'W': W.asnumpy(), 'b': b.asnumpy(),
           'scratch/epoch': onp.array(d2l.train_epoch_ch3(net, train_iter, cross_entropy,
                                                           updater)),
           'scratch/test_acc': onp.array(d2l.evaluate_accuracy(net, test_iter)),
           'scratch/test_loss': onp.array(d2l.evaluate_loss(net, test_iter, cross_entropy))}
    gnet = gluon.nn.Sequential()
    gnet.add(gluon.nn.Dense(4))
    gnet.initialize(inits.Seeded())
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(gnet.collect_params(), 'sgd', {'learning_rate': lr})
    d2l.train_ch3(gnet, train_iter, test_iter, loss, 3, trainer)
    out.update(_params(gnet))
    out['gluon/test_loss'] = onp.array(d2l.evaluate_loss(gnet, test_iter, loss))
    return out


def lenet(mx, d2l, inits, tmp):
    """Ch. 6.6: a LeNet (sigmoid convolutions, average pooling) trained by train_ch6 on
    generated images (its init.Xavier() routed to Seeded); evaluate_accuracy_gpu, try_gpu."""
    nn = mx.gluon.nn
    net = nn.Sequential()
    net.add(nn.Conv2D(channels=4, kernel_size=5, padding=2, activation='sigmoid'),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=8, kernel_size=5, activation='sigmoid'),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(32, activation='sigmoid'),
            nn.Dense(16, activation='sigmoid'),
            nn.Dense(4))
    loader = mx.gluon.data.DataLoader
    train_iter = loader(_classes(mx, 'd2l/lenet/train', 20, (1, 12, 12), 4, 0.3), 4,
                        shuffle=True)
    test_iter = loader(_classes(mx, 'd2l/lenet/test', 8, (1, 12, 12), 4, 0.3), 4)
    with inits.routed():
        d2l.train_ch6(net, train_iter, test_iter, 2, 0.9, d2l.try_gpu())
    out = _params(net)
    out['test_acc'] = onp.array(d2l.evaluate_accuracy_gpu(net, test_iter))
    return out


def _time_machine(d2l, tmp, batch_size, num_steps, use_random_iter=False):
    data = os.path.join(tmp, 'data')
    os.makedirs(data, exist_ok=True)
    os.makedirs(os.path.join(tmp, 'work'), exist_ok=True)
    path = os.path.join(data, 'timemachine.txt')
    with open(path, 'w') as f:
        f.write(TIME_MACHINE)
    _hub_file(d2l, 'time_machine', path)
    with _in_dir(os.path.join(tmp, 'work')):
        return d2l.load_data_time_machine(batch_size, num_steps, use_random_iter)


def rnn_scratch(mx, d2l, inits, tmp):
    """Ch. 8.3/8.5: load_data_time_machine (read_time_machine, tokenize, Vocab,
    seq_data_iter_sequential/random) on a generated text; RNNModelScratch trained by
    train_ch8 (grad_clipping, sgd, predict_ch8), sequential and random sampling."""
    np = mx.np
    out = {}
    for use_random_iter in (False, True):
        train_iter, vocab = _time_machine(d2l, tmp, 2, 5, use_random_iter)
        num_hiddens, n = 16, len(vocab)
        shapes = [('W_xh', (n, num_hiddens)), ('W_hh', (num_hiddens, num_hiddens)),
                  ('b_h', (num_hiddens,)), ('W_hq', (num_hiddens, n)), ('b_q', (n,))]

        def get_params(vocab_size, num_hiddens, device):
            params = [np.array(seeded('rnn/' + k, s) * 0.1, ctx=device) for k, s in shapes]
            for param in params:
                param.attach_grad()
            return params

        def init_rnn_state(batch_size, num_hiddens, device):
            return (np.zeros((batch_size, num_hiddens), ctx=device), )

        def rnn(inputs, state, params):
            W_xh, W_hh, b_h, W_hq, b_q = params
            H, = state
            outputs = []
            for X in inputs:
                H = np.tanh(np.dot(X, W_xh) + np.dot(H, W_hh) + b_h)
                Y = np.dot(H, W_hq) + b_q
                outputs.append(Y)
            return np.concatenate(outputs, axis=0), (H, )

        net = d2l.RNNModelScratch(n, num_hiddens, d2l.try_gpu(), get_params, init_rnn_state,
                                  rnn)
        print(d2l.predict_ch8('time traveller ', 10, net, vocab, d2l.try_gpu()))
        d2l.train_ch8(net, train_iter, vocab, 1, 2, d2l.try_gpu(), use_random_iter)
        for (k, _), p in zip(shapes, net.params):
            out['random%s/%s' % (use_random_iter, k)] = p.asnumpy()
    out['vocab'] = onp.array(vocab.idx_to_token)
    return out


def rnn_gluon(mx, d2l, inits, tmp):
    """Ch. 8.6/9.1/9.2: RNNModel over rnn.RNN, rnn.GRU and rnn.LSTM trained by train_ch8 (its
    init.Normal(0.01) routed to Seeded)."""
    train_iter, vocab = _time_machine(d2l, tmp, 2, 5)
    out = {}
    for kind in ('RNN', 'GRU', 'LSTM'):
        net = d2l.RNNModel(getattr(mx.gluon.rnn, kind)(8), len(vocab))
        with inits.routed():
            d2l.train_ch8(net, train_iter, vocab, 1, 2, d2l.try_gpu())
        for k, v in _params(net).items():
            out[kind + '/' + k] = v
    return out


class _Seq2Seq:
    """The book's Seq2SeqDecoder and Seq2SeqAttentionDecoder (sec_seq2seq,
    sec_seq2seq_attention), which d2l keeps in the notebooks, not in its library."""

    def __init__(self, mx, d2l):
        np, nn, rnn = mx.np, mx.gluon.nn, mx.gluon.rnn

        class Seq2SeqDecoder(d2l.Decoder):
            def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0,
                         **kwargs):
                super(Seq2SeqDecoder, self).__init__(**kwargs)
                self.embedding = nn.Embedding(vocab_size, embed_size)
                self.rnn = rnn.GRU(num_hiddens, num_layers, dropout=dropout)
                self.dense = nn.Dense(vocab_size, flatten=False)

            def init_state(self, enc_outputs, *args):
                return enc_outputs[1]

            def forward(self, X, state):
                X = self.embedding(X).swapaxes(0, 1)
                context = state[0][-1]
                context = np.broadcast_to(context, (X.shape[0], context.shape[0],
                                                    context.shape[1]))
                X_and_context = d2l.concat((X, context), 2)
                output, state = self.rnn(X_and_context, state)
                output = self.dense(output).swapaxes(0, 1)
                return output, state

        class Seq2SeqAttentionDecoder(d2l.AttentionDecoder):
            def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0,
                         **kwargs):
                super(Seq2SeqAttentionDecoder, self).__init__(**kwargs)
                self.attention = d2l.AdditiveAttention(num_hiddens, dropout)
                self.embedding = nn.Embedding(vocab_size, embed_size)
                self.rnn = rnn.GRU(num_hiddens, num_layers, dropout=dropout)
                self.dense = nn.Dense(vocab_size, flatten=False)

            def init_state(self, enc_outputs, enc_valid_lens, *args):
                outputs, hidden_state = enc_outputs
                return (outputs.swapaxes(0, 1), hidden_state, enc_valid_lens)

            def forward(self, X, state):
                enc_outputs, hidden_state, enc_valid_lens = state
                X = self.embedding(X).swapaxes(0, 1)
                outputs, self._attention_weights = [], []
                for x in X:
                    query = np.expand_dims(hidden_state[0][-1], axis=1)
                    context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
                    x = np.concatenate((context, np.expand_dims(x, axis=1)), axis=-1)
                    out, hidden_state = self.rnn(x.swapaxes(0, 1), hidden_state)
                    outputs.append(out)
                    self._attention_weights.append(self.attention.attention_weights)
                outputs = self.dense(np.concatenate(outputs, axis=0))
                return outputs.swapaxes(0, 1), [enc_outputs, hidden_state, enc_valid_lens]

            @property
            def attention_weights(self):
                return self._attention_weights

        self.Seq2SeqDecoder = Seq2SeqDecoder
        self.Seq2SeqAttentionDecoder = Seq2SeqAttentionDecoder


def seq2seq(mx, d2l, inits, tmp):
    """Ch. 9.5/9.7/10.4: load_data_nmt (read_data_nmt, preprocess_nmt, tokenize_nmt,
    build_array_nmt, truncate_pad) on a generated fra-eng.zip; Seq2SeqEncoder with the book's
    Seq2SeqDecoder and Seq2SeqAttentionDecoder (AdditiveAttention) in an EncoderDecoder,
    MaskedSoftmaxCELoss, train_seq2seq (init.Xavier() routed to Seeded), predict_seq2seq,
    bleu."""
    data = os.path.join(tmp, 'data')
    os.makedirs(data)
    os.makedirs(os.path.join(tmp, 'work'))
    path = os.path.join(data, 'fra-eng.zip')
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('fra-eng/fra.txt', ''.join('%s\t%s\n' % p for p in PAIRS * 3))
    _hub_file(d2l, 'fra-eng', path)
    with _in_dir(os.path.join(tmp, 'work')):
        train_iter, src_vocab, tgt_vocab = d2l.load_data_nmt(batch_size=8, num_steps=6)
    X, X_valid_len, Y, Y_valid_len = next(iter(train_iter))
    out = {'X': X.asnumpy(), 'X_valid_len': X_valid_len.asnumpy(), 'Y': Y.asnumpy(),
           'tgt_vocab': onp.array(tgt_vocab.idx_to_token)}
    decoders = _Seq2Seq(mx, d2l)
    for kind in ('Seq2SeqDecoder', 'Seq2SeqAttentionDecoder'):
        encoder = d2l.Seq2SeqEncoder(len(src_vocab), 8, 16, 2)
        decoder = getattr(decoders, kind)(len(tgt_vocab), 8, 16, 2)
        net = d2l.EncoderDecoder(encoder, decoder)
        with inits.routed():
            d2l.train_seq2seq(net, train_iter, 0.005, 3, tgt_vocab, d2l.try_gpu())
        for k, v in _params(net).items():
            out[kind + '/' + k] = v
        for eng, fra in PAIRS[:4]:
            translation, weights = d2l.predict_seq2seq(
                net, eng, src_vocab, tgt_vocab, 6, d2l.try_gpu(),
                kind == 'Seq2SeqAttentionDecoder')
            k = min(2, len(translation.split(' ')))  # bleu divides by zero for longer k
            print(f'{eng} => {translation}, bleu {d2l.bleu(translation, fra, k):.3f}')
        if weights:
            out[kind + '/attention'] = onp.concatenate([a.asnumpy() for w in weights for a in w])
    return out


def _uniform(mx, key, shape, low=-1, high=1):
    return mx.np.array(rng(key).uniform(low, high, shape).astype('float32'))


def attention(mx, d2l, inits, tmp):
    """Ch. 10.3/10.5/10.6: masked_softmax (1-D and 2-D valid lengths), AdditiveAttention,
    DotProductAttention and MultiHeadAttention (with dropout, outside training), transpose_qkv,
    PositionalEncoding; two Trainer steps through MultiHeadAttention."""
    np = mx.np
    npx = mx.npx
    X = _uniform(mx, 'att/X', (2, 2, 4))
    out = {'masked_softmax/1d': d2l.masked_softmax(X, np.array([2, 3])).asnumpy(),
           'masked_softmax/2d': d2l.masked_softmax(X, np.array([[1, 3], [2, 4]])).asnumpy(),
           'masked_softmax/none': d2l.masked_softmax(X, None).asnumpy()}
    queries, keys = _uniform(mx, 'att/q', (2, 1, 20)), np.ones((2, 10, 2))
    values = np.arange(40).reshape(1, 10, 4).repeat(2, axis=0)
    valid_lens = np.array([2, 6])
    additive = d2l.AdditiveAttention(num_hiddens=8, dropout=0.1)
    additive.initialize(inits.Seeded())
    out['additive'] = additive(queries, keys, values, valid_lens).asnumpy()
    out['additive/weights'] = additive.attention_weights.asnumpy()
    dot = d2l.DotProductAttention(dropout=0.5)
    dot.initialize()
    queries = _uniform(mx, 'att/q2', (2, 1, 2))
    out['dot'] = dot(queries, keys, values, valid_lens).asnumpy()
    out['dot/weights'] = dot.attention_weights.asnumpy()
    num_hiddens, num_heads = 20, 5
    multi = d2l.MultiHeadAttention(num_hiddens, num_heads, 0.5)
    multi.initialize(inits.Seeded())
    X, Y = _uniform(mx, 'att/X2', (2, 4, num_hiddens)), _uniform(mx, 'att/Y', (2, 6, num_hiddens))
    out['multihead'] = multi(X, Y, Y, valid_lens).asnumpy()
    out['transpose_qkv'] = d2l.transpose_qkv(X, num_heads).asnumpy()
    pos = d2l.PositionalEncoding(8, 0)
    pos.initialize()
    out['positional'] = pos(np.zeros((1, 12, 8))).asnumpy()
    multi = d2l.MultiHeadAttention(num_hiddens, num_heads, 0, use_bias=True)
    multi.initialize(inits.Seeded())
    trainer = mx.gluon.Trainer(multi.collect_params(), 'sgd', {'learning_rate': 0.1})
    target = _uniform(mx, 'att/target', (2, 4, num_hiddens))
    for step in range(2):
        with mx.autograd.record():
            l = ((multi(X, Y, Y, np.array([[1, 2, 3, 6], [6, 5, 4, 3]])) - target) ** 2).mean()
        l.backward()
        d2l.grad_clipping(multi, 1)
        trainer.step(1)
        out['multihead/loss%d' % step] = l.asnumpy()
    out.update(_params(multi))
    out['npx.batch_dot'] = npx.batch_dot(X, Y, transpose_b=True).asnumpy()
    return out


def transformer(mx, d2l, inits, tmp):
    """Ch. 10.7: PositionWiseFFN, AddNorm, EncoderBlock, TransformerEncoder (outside training,
    with dropout), and a TransformerEncoder with a Dense head trained three Adam steps on
    MaskedSoftmaxCELoss with grad_clipping."""
    np, nn = mx.np, mx.gluon.nn
    ffn = d2l.PositionWiseFFN(4, 8)
    ffn.initialize(inits.Seeded())
    out = {'ffn': ffn(np.ones((2, 3, 4))).asnumpy()}
    add_norm = d2l.AddNorm(0.5)
    add_norm.initialize()
    out['addnorm'] = add_norm(np.ones((2, 3, 4)), _uniform(mx, 'tf/Y', (2, 3, 4))).asnumpy()
    X = _uniform(mx, 'tf/X', (2, 10, 24))
    valid_lens = np.array([3, 2])
    blk = d2l.EncoderBlock(24, 48, 8, 0.5)
    blk.initialize(inits.Seeded())
    out['block'] = blk(X, valid_lens).asnumpy()
    encoder = d2l.TransformerEncoder(20, 24, 48, 8, 2, 0.5)
    encoder.initialize(inits.Seeded())
    tokens = np.array(rng('tf/tokens').randint(0, 20, (2, 10)), dtype='int32')
    out['encoder'] = encoder(tokens, valid_lens).asnumpy()
    out['encoder/weights'] = onp.stack([w.asnumpy() for w in encoder.attention_weights])
    encoder = d2l.TransformerEncoder(20, 16, 32, 4, 2, 0)
    head = nn.Dense(20, flatten=False)
    encoder.initialize(inits.Seeded())
    head.initialize(inits.Seeded())
    params = encoder.collect_params()
    params.update(head.collect_params())
    trainer = mx.gluon.Trainer(params, 'adam', {'learning_rate': 0.01})
    loss = d2l.MaskedSoftmaxCELoss()
    labels = np.array(rng('tf/labels').randint(0, 20, (2, 10)), dtype='int32')
    valid_lens = np.array([7, 10])
    for step in range(3):
        with mx.autograd.record():
            l = loss(head(encoder(tokens, valid_lens)), labels, valid_lens)
        l.backward()
        d2l.grad_clipping(encoder, 1)
        trainer.step(valid_lens.sum())
        out['loss%d' % step] = l.asnumpy()
    out.update(_params(encoder))
    out.update(_params(head))
    return out


def multi_device(mx, d2l, inits, tmp):
    """Ch. 12.1/12.6/13.1: a hybridized HybridSequential MLP under d2l.Benchmark; a small net
    of d2l.Residual blocks on two contexts trained by train_ch13 (split_batch,
    train_batch_ch13, evaluate_accuracy_gpus)."""
    nn = mx.gluon.nn
    mlp = nn.HybridSequential()
    mlp.add(nn.Dense(16, activation='relu'), nn.Dense(8, activation='relu'), nn.Dense(2))
    mlp.initialize(inits.Seeded())
    x = _uniform(mx, 'multi/x', (3, 12))
    out = {'mlp': mlp(x).asnumpy()}
    mlp.hybridize()
    with d2l.Benchmark('hybridized'):
        out['mlp/hybridized'] = mlp(x).asnumpy()
    net = nn.Sequential()
    net.add(nn.Conv2D(8, kernel_size=3, padding=1), nn.BatchNorm(), nn.Activation('relu'),
            d2l.Residual(8), d2l.Residual(16, use_1x1conv=True, strides=2),
            nn.GlobalAvgPool2D(), nn.Dense(4))
    devices = [mx.cpu(0), mx.cpu(1)]
    net.initialize(inits.Seeded(), ctx=devices)
    loader = mx.gluon.data.DataLoader
    train_iter = loader(_classes(mx, 'd2l/multi/train', 20, (1, 8, 8), 4, 0.3), 4,
                        shuffle=True)
    test_iter = loader(_classes(mx, 'd2l/multi/test', 8, (1, 8, 8), 4, 0.3), 4)
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    d2l.train_ch13(net, train_iter, test_iter, mx.gluon.loss.SoftmaxCrossEntropyLoss(),
                   trainer, 2, devices)
    for k, p in net.collect_params().items():
        out['param/' + k] = p.data(devices[1]).asnumpy()
    return out


def bert(mx, d2l, inits, tmp):
    """Ch. 14.8/14.10: get_tokens_and_segments, BERTModel (BERTEncoder's learnable positional
    embedding, MaskLM's gathered positions, NextSentencePred) and two SGD steps on
    _get_batch_loss_bert's masked-LM and next-sentence losses (SGD: Adam would scale the
    rounding noise in the key projections' biases, whose true gradient is 0, to its rate)."""
    np = mx.np
    vocab = d2l.Vocab([['the', 'time', 'traveller', 'was', 'here', 'now']],
                      reserved_tokens=['<pad>', '<mask>', '<cls>', '<sep>'])
    pairs = [(['the', 'time'], ['was', 'here', 'now']), (['traveller', 'was', 'here'], None)]
    tokens, segments, valid_lens = [], [], []
    for a, b in pairs:
        t, seg = d2l.get_tokens_and_segments(a, b)
        valid_lens.append(len(t))
        tokens.append(vocab[t] + [vocab['<pad>']] * (8 - len(t)))
        segments.append(seg + [0] * (8 - len(seg)))
    print(tokens, segments)
    tokens, segments = np.array(tokens, dtype='int32'), np.array(segments, dtype='int32')
    valid_lens = np.array(valid_lens, dtype='float32')
    pred_positions = np.array([[1, 5, 2], [6, 1, 5]])
    mlm_weights = np.array([[1, 1, 0], [1, 1, 1]], dtype='float32')
    mlm_Y = np.array([[4, 7, 5], [8, 6, 2]], dtype='int32')
    nsp_y = np.array([1, 0], dtype='int32')
    net = d2l.BERTModel(len(vocab), num_hiddens=16, ffn_num_hiddens=32, num_heads=2,
                        num_layers=2, dropout=0, max_len=12)
    net.initialize(inits.Seeded())
    encoded, mlm_Y_hat, nsp_Y_hat = net(tokens, segments, valid_lens, pred_positions)
    out = {'encoded': encoded.asnumpy(), 'mlm_Y_hat': mlm_Y_hat.asnumpy(),
           'nsp_Y_hat': nsp_Y_hat.asnumpy()}
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    loss = mx.gluon.loss.SoftmaxCELoss()
    for step in range(2):
        with mx.autograd.record():
            mlm_ls, nsp_ls, ls = d2l._get_batch_loss_bert(
                net, loss, len(vocab), [tokens], [segments], [valid_lens], [pred_positions],
                [mlm_weights], [mlm_Y], [nsp_y])
        for l in ls:
            l.backward()
        trainer.step(1)
        out['mlm_loss%d' % step], out['nsp_loss%d' % step] = (mlm_ls[0].asnumpy(),
                                                              nsp_ls[0].asnumpy())
    out.update(_params(net))
    return out


SCENARIOS = {f.__name__: f for f in (
    linear_regression, softmax_regression, lenet, rnn_scratch, rnn_gluon, seq2seq, attention,
    transformer, multi_device, bert)}

_SPEED = re.compile(r'[0-9.]+( (?:examples|tokens)/sec)|(?<=: )[0-9.]+( sec)')


def run(mx, name):
    """name -> {array name: numpy array} of MXNet's (or mxcompat's) results; 'stdout' is
    what d2l printed, speeds masked."""
    import matplotlib
    matplotlib.use('Agg')  # before d2l imports pyplot: plots are drawn, never shown
    from d2l import mxnet as d2l
    tmp = tempfile.mkdtemp(prefix='d2l-')
    buf = io.StringIO()
    hub = dict(d2l.DATA_HUB)
    # use_svg_display starts an IPython shell, and matplotlib 3.7 then imports a name that
    # IPython 9 removed: the plots are drawn on matplotlib's Agg instead
    svg, d2l.use_svg_display = d2l.use_svg_display, lambda: None
    mx.npx.set_np()
    try:
        _seed(mx, name)
        with contextlib.redirect_stdout(buf), mx.name.NameManager():
            out = SCENARIOS[name](mx, d2l, _Initializers(mx), tmp)
    finally:
        mx.npx.reset_np()
        d2l.use_svg_display = svg
        d2l.DATA_HUB.clear()
        d2l.DATA_HUB.update(hub)
        shutil.rmtree(tmp, ignore_errors=True)
        import matplotlib.pyplot as plt
        plt.close('all')
    out['stdout'] = onp.array(_SPEED.sub(lambda m: '<n>' + (m.group(1) or m.group(2)),
                                         buf.getvalue()))
    return out


def write(mx, outdir):
    for name in SCENARIOS:
        onp.savez_compressed(os.path.join(outdir, name + '.npz'), **run(mx, name))
