"""GluonNLP 0.10.0 models as real MXNet runs them (needs ``gluonnlp`` next to MXNet).

Small models built by GluonNLP, every parameter set from a numpy generator seeded by its name
without the model's prefix (model_zoo.seeded), inputs from generators seeded by their role,
dropout 0 everywhere:

- ``bert``: ``BERTEncoder`` + ``BERTModel`` (pooler, NSP and MLM decoders): outputs, hybridized
  outputs, the loss, a few gradients and the outputs after two ``BERTAdam`` steps;
- ``transformer``: ``get_transformer_encoder_decoder`` inside ``NMTModel``: outputs, a training
  step with ``MaskedSoftmaxCELoss``, greedy and beam search with ``BeamSearchSampler``;
- ``rnn_lm``, ``awd_lm``: ``StandardRNN`` and ``AWDRNN`` (LSTM, tied weights): outputs, states
  and one SGD step;
- ``elmo``: ``ELMoBiLM`` (character CNN, highway, LSTMPCellWithClip): its layers and
  gradients.

Run with an interpreter that has MXNet 1.9.1 and gluonnlp 0.10.0:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only gluonnlp_models
"""
import os
import zlib

import numpy as np

from .model_zoo import seeded

REQUIRES = 'gluonnlp'

MODELS = ('bert', 'transformer', 'rnn_lm', 'awd_lm', 'elmo')
VOCAB = 50
BATCH, LENGTH = 2, 7


def ints(role, shape, high, low=0):
    r = np.random.RandomState(zlib.crc32(role.encode()) & 0xffffffff)
    return r.randint(low, high, size=shape).astype(np.float32)


def seed_params(mx, net):
    prefix = net.prefix
    for k, p in sorted(net.collect_params().items()):
        p.set_data(mx.nd.array(seeded(k[len(prefix):], p.shape)))


def grads(out, params, names):
    for j, k in enumerate(names):
        out['grad%d' % j] = params[k].grad().asnumpy()


def run_bert(mx):
    import gluonnlp as nlp
    with mx.name.NameManager():
        encoder = nlp.model.BERTEncoder(num_layers=2, units=32, hidden_size=64, max_length=16,
                                        num_heads=2, dropout=0.0, prefix='encoder_')
        net = nlp.model.BERTModel(encoder, vocab_size=VOCAB, token_type_vocab_size=2, units=32,
                                  embed_size=32, use_pooler=True, use_decoder=True,
                                  use_classifier=True, prefix='bert_')
    net.initialize()
    tokens = mx.nd.array(ints('bert/tokens', (BATCH, LENGTH), VOCAB))
    segments = mx.nd.array(ints('bert/segments', (BATCH, LENGTH), 2))
    valid = mx.nd.array([LENGTH, 4])
    masked = mx.nd.array(ints('bert/masked', (BATCH, 3), 4))
    net(tokens, segments, valid, masked)
    seed_params(mx, net)
    out = {}
    for k, o in enumerate(net(tokens, segments, valid, masked)):
        out['predict%d' % k] = o.asnumpy()
    net.hybridize()
    for k, o in enumerate(net(tokens, segments, valid, masked)):
        out['hybrid%d' % k] = o.asnumpy()
    mlm_label = mx.nd.array(ints('bert/mlm_label', (BATCH, 3), VOCAB))
    nsp_label = mx.nd.array(ints('bert/nsp_label', (BATCH,), 2))
    loss_fn = mx.gluon.loss.SoftmaxCELoss()
    params = net.collect_params()
    # Adam moves every weight by about learning_rate whatever its gradient's size, so a
    # gradient near zero carries float32 rounding (1e-3 relative there) into the weights; at
    # 1e-3 that stays below the comparison's atol, at 1e-2 it does not (3 of 1024 elements)
    trainer = mx.gluon.Trainer(params, nlp.optimizer.BERTAdam(learning_rate=1e-3, wd=0.01))
    watched = sorted(k for k in params if k.endswith('weight'))[:4]
    for step in range(2):
        with mx.autograd.record():
            _, _, nsp, mlm = net(tokens, segments, valid, masked)
            loss = (loss_fn(mlm.reshape((-1, VOCAB)), mlm_label.reshape((-1,))).mean()
                    + loss_fn(nsp, nsp_label).mean())
        loss.backward()
        out['loss%d' % step] = loss.asnumpy()
        if step == 0:
            grads(out, params, watched)
        trainer.step(1)
    for j, k in enumerate(watched):
        out['after%d' % j] = params[k].data().asnumpy()
    out['after_predict'] = net(tokens, segments, valid, masked)[3].asnumpy()
    return out


def build_transformer(mx):
    import gluonnlp as nlp
    from gluonnlp.model.transformer import get_transformer_encoder_decoder
    vocab = nlp.Vocab(nlp.data.count_tokens(['w%d' % i for i in range(VOCAB - 4)]))
    with mx.name.NameManager():
        encoder, decoder, one_step = get_transformer_encoder_decoder(
            num_layers=2, num_heads=2, units=32, hidden_size=64, dropout=0.0,
            max_src_length=16, max_tgt_length=16)
        net = nlp.model.translation.NMTModel(vocab, vocab, encoder, decoder, one_step,
                                             embed_size=32, prefix='nmt_')
    net.initialize()
    src = mx.nd.array(ints('nmt/src', (BATCH, LENGTH), VOCAB, 4))
    tgt = mx.nd.array(ints('nmt/tgt', (BATCH, LENGTH - 1), VOCAB, 4))
    src_valid, tgt_valid = mx.nd.array([LENGTH, 5]), mx.nd.array([LENGTH - 1, 4])
    net(src, tgt, src_valid, tgt_valid)
    seed_params(mx, net)
    return net, vocab, (src, tgt, src_valid, tgt_valid)


def run_transformer(mx):
    import gluonnlp as nlp
    net, vocab, (src, tgt, src_valid, tgt_valid) = build_transformer(mx)
    out = {'predict': net(src, tgt, src_valid, tgt_valid)[0].asnumpy()}
    net.hybridize()
    out['hybrid'] = net(src, tgt, src_valid, tgt_valid)[0].asnumpy()
    label = mx.nd.array(ints('nmt/label', (BATCH, LENGTH - 1), VOCAB, 4))
    loss_fn = nlp.loss.MaskedSoftmaxCELoss()
    params = net.collect_params()
    trainer = mx.gluon.Trainer(params, 'adam', {'learning_rate': 0.01})
    watched = sorted(k for k in params if k.endswith('weight'))[:4]
    with mx.autograd.record():
        loss = loss_fn(net(src, tgt, src_valid, tgt_valid)[0], label, tgt_valid).mean()
    loss.backward()
    out['loss'] = loss.asnumpy()
    grads(out, params, watched)
    trainer.step(1)
    out['after_predict'] = net(src, tgt, src_valid, tgt_valid)[0].asnumpy()
    bos = mx.nd.full((BATCH,), vocab[vocab.bos_token])

    def decode(step_input, states):  # as the BeamSearchTranslator of GluonNLP's NMT scripts
        logits, states, _ = net.decode_step(step_input, states)
        return mx.nd.log_softmax(logits), states
    for beam in (1, 3):
        sampler = nlp.model.BeamSearchSampler(
            beam_size=beam, decoder=decode, eos_id=vocab[vocab.eos_token],
            scorer=nlp.model.BeamSearchScorer(alpha=0.6, K=5), max_length=5)
        enc_out, _ = net.encode(src, valid_length=src_valid)
        states = net.decoder.init_state_from_encoder(enc_out, src_valid)
        samples, scores, lengths = sampler(bos, states)
        out['beam%d_samples' % beam] = samples.asnumpy()
        out['beam%d_scores' % beam] = scores.asnumpy()
        out['beam%d_lengths' % beam] = lengths.asnumpy()
    return out


def run_rnn_lm(mx, name):
    import gluonnlp as nlp
    with mx.name.NameManager():
        if name == 'rnn_lm':
            net = nlp.model.StandardRNN('lstm', VOCAB, 16, 24, 2, 0.0, False, prefix='lm_')
        else:  # awd_lstm_lm_1150's architecture, small and without dropout
            net = nlp.model.AWDRNN('lstm', VOCAB, 16, 24, 3, True, 0.0, 0.0, 0.0, 0.0, 0.0,
                                   prefix='lm_')
    net.initialize()
    x = mx.nd.array(ints('lm/tokens', (LENGTH, BATCH), VOCAB))
    y = mx.nd.array(ints('lm/labels', (LENGTH, BATCH), VOCAB))
    state = net.begin_state(batch_size=BATCH, func=mx.nd.zeros)
    net(x, state)
    seed_params(mx, net)
    out = {}
    logits, states = net(x, state)
    out['predict'] = logits.asnumpy()
    flat = [t for s in states for t in (s if isinstance(s, (list, tuple)) else [s])]
    for j, s in enumerate(flat):  # StandardRNN: [h, c]; AWDRNN: [[h, c] per layer]
        out['state%d' % j] = s.asnumpy()
    params = net.collect_params()
    trainer = mx.gluon.Trainer(params, 'sgd', {'learning_rate': 0.5, 'clip_gradient': 0.25})
    watched = sorted(k for k in params if k.endswith('weight'))[:3]
    loss_fn = mx.gluon.loss.SoftmaxCELoss()
    with mx.autograd.record():
        loss = loss_fn(net(x, state)[0].reshape((-3, -1)), y.reshape((-1,))).mean()
    loss.backward()
    out['loss'] = loss.asnumpy()
    grads(out, params, watched)
    trainer.step(1)
    out['after_predict'] = net(x, state)[0].asnumpy()
    return out


def run_elmo(mx):
    import gluonnlp as nlp
    with mx.name.NameManager():
        net = nlp.model.ELMoBiLM('lstmpc', output_size=16, filters=[[1, 4], [2, 8]],
                                 char_embed_size=8, char_vocab_size=262, num_highway=1,
                                 conv_layer_activation='relu', max_chars_per_token=6,
                                 input_size=16, hidden_size=24, proj_size=16, num_layers=2,
                                 cell_clip=3, proj_clip=3, prefix='elmo_')
    net.initialize()
    chars = mx.nd.array(ints('elmo/chars', (BATCH, LENGTH, 6), 262))
    mask = mx.nd.array((np.arange(LENGTH)[None] < np.array([[LENGTH], [4]])).astype(np.float32))
    state = net.begin_state(mx.nd.zeros, batch_size=BATCH)
    # every shape is known here; after a forward, MXNet 1.9.1 (MKLDNN build) refuses
    # set_data on the kernel-2 Conv1D weight ("Check failed: to.IsDefaultData()")
    seed_params(mx, net)
    # not hybridized: with a mask, MXNet's own graph refuses ELMoBiLM's elementwise
    # (2, 7, 32) * (2, 7, 1) in hybrid_forward (as an NDArray it broadcasts)
    params = net.collect_params()
    watched = sorted(k for k in params if k.endswith('weight'))[:4]
    out = {}
    with mx.autograd.record():
        layers, states = net(chars, state, mask)
        loss = sum((o * o).sum() for o in layers)
    loss.backward()
    for j, o in enumerate(layers):
        out['layer%d' % j] = o.asnumpy()
    out['loss'] = loss.asnumpy()
    grads(out, params, watched)
    return out


def run(mx, name):
    """name -> {array name: numpy array} of MXNet's (or mxcompat's) results."""
    if name in ('rnn_lm', 'awd_lm'):
        return run_rnn_lm(mx, name)
    return {'bert': run_bert, 'transformer': run_transformer, 'elmo': run_elmo}[name](mx)


def write(mx, outdir):
    for name in MODELS:
        np.savez(os.path.join(outdir, name + '.npz'), **run(mx, name))
