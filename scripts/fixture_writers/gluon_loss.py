"""gluon.loss from real MXNet: reprs, per-sample losses and the gradients of every float input
in train and predict mode, main option combinations (machinery: _layer_cases.py)."""
from scripts.fixture_writers._layer_cases import inp, write_cases

BOTH = (True, False)
# compute_full updates a tensor in place, which MXNet refuses under autograd.record.
FORWARD = (None,)


def _c(ctor, inputs, modes=BOTH):
    return (ctor, inputs, modes)


P = inp('pred', (3, 4))
P3 = inp('pred3', (3, 2, 4))
L = inp('label', (3, 4), kind='const')
L3 = inp('label3', (3, 8), kind='const')
SW = inp('sw', (3, 1), 0.0, 2.0, kind='const')
SIGN = inp('sign', (3, 4), 0, 2, kind='int')
PROB = inp('prob', (3, 4), 0.05, 0.95)
BIN = inp('bin', (3, 4), 0, 2, kind='int')
IDX = inp('idx', (3,), 0, 4, kind='int')
IDX3 = inp('idx3', (3, 2), 0, 4, kind='int')
DIST = inp('dist', (3, 4), 0.01, 1.0, kind='const')


def _loss(mx):
    return mx.gluon.loss


CASES = {
    'l2': _c(lambda mx: _loss(mx).L2Loss(), [P, L]),
    'l2_w_sw': _c(lambda mx: _loss(mx).L2Loss(weight=0.7),
                  [P3, L3, inp('sw3', (3, 1, 1), 0.0, 2.0, kind='const')]),
    'l1': _c(lambda mx: _loss(mx).L1Loss(), [P, L]),
    'l1_w_sw': _c(lambda mx: _loss(mx).L1Loss(weight=2.0), [P, L, SW]),
    'l1_batch1': _c(lambda mx: _loss(mx).L1Loss(batch_axis=1), [P, L]),
    'sbce': _c(lambda mx: _loss(mx).SigmoidBCELoss(), [P, BIN]),
    'sbce_sw': _c(lambda mx: _loss(mx).SigmoidBinaryCrossEntropyLoss(weight=0.5),
                  [P, BIN, SW]),
    'sbce_posw': _c(lambda mx: _loss(mx).SigmoidBCELoss(),
                    [P, BIN, SW, inp('posw', (1, 4), 0.5, 3.0, kind='const')]),
    'sbce_from_sigmoid': _c(lambda mx: _loss(mx).SigmoidBCELoss(from_sigmoid=True),
                            [PROB, BIN]),
    'sbce_from_sigmoid_posw': _c(lambda mx: _loss(mx).SigmoidBCELoss(from_sigmoid=True),
                                 [PROB, BIN, SW, inp('posw2', (1, 4), 0.5, 3.0,
                                                     kind='const')]),
    'softmaxce': _c(lambda mx: _loss(mx).SoftmaxCELoss(), [P, IDX]),
    'softmaxce_sw': _c(lambda mx: _loss(mx).SoftmaxCrossEntropyLoss(weight=1.5), [P, IDX, SW]),
    'softmaxce_axis': _c(lambda mx: _loss(mx).SoftmaxCELoss(axis=1),
                         [inp('p_ax', (3, 4, 2)), inp('i_ax', (3, 2), 0, 4, kind='int')]),
    'softmaxce_nd': _c(lambda mx: _loss(mx).SoftmaxCELoss(), [P3, IDX3]),
    'softmaxce_dense': _c(lambda mx: _loss(mx).SoftmaxCELoss(sparse_label=False), [P, DIST]),
    'softmaxce_logits': _c(lambda mx: _loss(mx).SoftmaxCELoss(from_logits=True), [P, IDX]),
    # fractional and out-of-range labels: truncated, then clipped into [0, classes)
    'softmaxce_clip_w': _c(lambda mx: _loss(mx).SoftmaxCELoss(weight=2.0),
                           [inp('p_clip', (6, 4)), inp('i_clip2', (6,), -3.0, 6.0, kind='const')]),
    'kldiv': _c(lambda mx: _loss(mx).KLDivLoss(), [P, DIST]),
    'kldiv_softmax': _c(lambda mx: _loss(mx).KLDivLoss(from_logits=False, weight=2.0),
                        [P, DIST, SW]),
    'ctc': _c(lambda mx: _loss(mx).CTCLoss(),
              [inp('ctc_p', (2, 6, 4)), inp('ctc_l', (2, 3), 0, 3, kind='int')]),
    'ctc_tnc_lengths': _c(lambda mx: _loss(mx).CTCLoss(layout='TNC', label_layout='TN',
                                                       weight=0.5),
                          [inp('ctc_pt', (6, 2, 4)), inp('ctc_lt', (3, 2), 0, 3, kind='int'),
                           inp('ctc_pl', (2,), 5, 7, kind='int'),
                           inp('ctc_ll', (2,), 1, 4, kind='int')]),
    'huber': _c(lambda mx: _loss(mx).HuberLoss(), [inp('hp', (3, 4), -3, 3), L]),
    'huber_rho': _c(lambda mx: _loss(mx).HuberLoss(rho=0.5, weight=0.3),
                    [inp('hp', (3, 4), -3, 3), L, SW]),
    'hinge': _c(lambda mx: _loss(mx).HingeLoss(), [inp('hip', (3, 4), -2, 2), SIGN]),
    'hinge_margin': _c(lambda mx: _loss(mx).HingeLoss(margin=0.5, weight=2.0),
                       [inp('hip', (3, 4), -2, 2), SIGN, SW]),
    'sqhinge': _c(lambda mx: _loss(mx).SquaredHingeLoss(), [inp('hip', (3, 4), -2, 2), SIGN]),
    'sqhinge_margin': _c(lambda mx: _loss(mx).SquaredHingeLoss(margin=2, weight=0.5),
                         [inp('hip', (3, 4), -2, 2), SIGN, SW]),
    'logistic_signed': _c(lambda mx: _loss(mx).LogisticLoss(),
                          [P, inp('sgn', (3, 4), -1, 2, kind='int')]),
    'logistic_binary': _c(lambda mx: _loss(mx).LogisticLoss(label_format='binary', weight=2.),
                          [P, BIN, SW]),
    'triplet': _c(lambda mx: _loss(mx).TripletLoss(),
                  [P, inp('pos', (3, 4)), inp('neg', (3, 4))]),
    'triplet_margin': _c(lambda mx: _loss(mx).TripletLoss(margin=3, weight=0.5),
                         [P3, inp('pos3', (3, 8)), inp('neg3', (3, 2, 4))]),
    'poisson': _c(lambda mx: _loss(mx).PoissonNLLLoss(), [P, inp('cnt', (3, 4), 0, 5, 'int')]),
    'poisson_full': _c(lambda mx: _loss(mx).PoissonNLLLoss(from_logits=False,
                                                           compute_full=True, weight=2.),
                       [PROB, inp('cnt', (3, 4), 0, 5, 'int'), SW], FORWARD),
    'cosine': _c(lambda mx: _loss(mx).CosineEmbeddingLoss(),
                 [P, inp('p2', (3, 4)), inp('y', (3,), -1, 2, kind='int')]),
    'cosine_margin': _c(lambda mx: _loss(mx).CosineEmbeddingLoss(margin=0.2, weight=2.),
                        [P, inp('p2', (3, 4)), inp('y2', (3,), -1, 2, kind='int'), SW]),
    'sdml': _c(lambda mx: _loss(mx).SDMLLoss(), [P, inp('p2', (3, 4))]),
    'sdml_smooth': _c(lambda mx: _loss(mx).SDMLLoss(smoothing_parameter=0.1, weight=0.5),
                      [inp('s1', (4, 3)), inp('s2', (4, 3))]),
}


def write(mx, outdir):
    reprs = {'loss_base': repr(mx.gluon.loss.Loss(None, 0)),
             'ctc_repr': repr(mx.gluon.loss.CTCLoss(label_layout='TN'))}
    write_cases(mx, outdir, CASES, 'gluon_loss', reprs)
