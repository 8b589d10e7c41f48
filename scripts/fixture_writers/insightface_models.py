"""InsightFace 0.1.5's model zoo and FaceAnalysis as real MXNet runs them.

InsightFace 0.1.5 ships no network definitions: its model zoo downloads ``-symbol.json`` and
``.params`` checkpoints and runs them through ``mx.model.load_checkpoint`` and
``mx.mod.Module`` (bind, set_params, forward). Here the checkpoints are built the way
InsightFace's training code builds them -- a small ResNet-style recognition network whose
embedding is the BatchNorm ``fc1`` (read back through ``get_internals()['fc1_output']``), a
gender/age network with the 202 outputs ``FaceGenderage.get`` decodes, and a RetinaFace-style
detector (three strides, FPN with UpSampling and Crop, channel SoftmaxActivation between two
Reshapes, box and landmark heads) -- with every parameter set from a numpy generator seeded
by its name (model_zoo.seeded), saved with ``mx.model.save_checkpoint`` into a temporary
model root, and loaded by InsightFace's own code: ``model_zoo.get_model`` (its checksum check
is bypassed: the files are not the published ones), ``prepare``, ``get_embedding``,
``compute_sim``, ``FaceGenderage.get``, ``FaceDetector.detect`` and ``FaceAnalysis.get``
(detection, ``face_align.norm_crop``, embedding, gender and age). Run with an interpreter
that has MXNet 1.9.1 and insightface 0.1.5:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only insightface_models
"""
import contextlib
import io
import os
import shutil
import tempfile
import zlib

import numpy as np

from .model_zoo import seeded

REQUIRES = 'insightface'

DET_SIZE = (32, 48)  # the detector's input (height, width), as prepare(fix_image_size=)


def rng(key):
    return np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)


def _bn(mx, x, name, fix_gamma=False):
    return mx.sym.BatchNorm(x, fix_gamma=fix_gamma, eps=2e-5, momentum=0.9, name=name)


def _conv(mx, x, name, filters, kernel=3, stride=1):
    pad = (kernel // 2, kernel // 2)
    return mx.sym.Convolution(x, num_filter=filters, kernel=(kernel, kernel),
                              stride=(stride, stride), pad=pad, no_bias=True, name=name)


def recognition_symbol(mx):
    """fresnet's layout, small: input normalisation, conv0-bn0-PReLU, two pre-activation
    residual units that halve the resolution, bn1, Dropout, pre_fc1 and the fc1 BatchNorm."""
    data = mx.sym.Variable('data')
    body = (data - 127.5) * 0.0078125
    body = _conv(mx, body, 'conv0', 8)
    body = _bn(mx, body, 'bn0')
    body = mx.sym.LeakyReLU(body, act_type='prelu', name='relu0')
    for i, filters in enumerate((8, 16)):
        name = 'stage%d_unit1' % (i + 1)
        bn1 = _bn(mx, body, name + '_bn1')
        conv1 = _conv(mx, bn1, name + '_conv1', filters)
        bn2 = _bn(mx, conv1, name + '_bn2')
        act1 = mx.sym.LeakyReLU(bn2, act_type='prelu', name=name + '_relu1')
        conv2 = _conv(mx, act1, name + '_conv2', filters, stride=2)
        bn3 = _bn(mx, conv2, name + '_bn3')
        short = _bn(mx, _conv(mx, body, name + '_conv1sc', filters, kernel=1, stride=2),
                    name + '_sc')
        body = bn3 + short
    body = _bn(mx, body, 'bn1')
    body = mx.sym.Dropout(body, p=0.4)
    fc = mx.sym.FullyConnected(body, num_hidden=16, name='pre_fc1')
    return _bn(mx, fc, 'fc1', fix_gamma=True)


def genderage_symbol(mx):
    data = mx.sym.Variable('data')
    body = (data - 127.5) * 0.0078125
    body = mx.sym.Activation(_bn(mx, _conv(mx, body, 'conv0', 8, stride=2), 'bn0'), 'relu')
    body = mx.sym.Pooling(body, kernel=(4, 4), stride=(4, 4), pool_type='avg')
    return mx.sym.FullyConnected(body, num_hidden=202, name='fc1')


def detection_symbol(mx):
    """RetinaFace's heads on a small backbone: strides 8, 16, 32, the coarser maps added
    into the finer ones through UpSampling + Crop, and per stride the 2-anchor class
    probabilities (Reshape, channel SoftmaxActivation, Reshape), box and landmark deltas."""
    data = mx.sym.Variable('data')
    body = (data - 127.5) * 0.0078125
    feats = {}
    for i, filters in enumerate((4, 8, 8, 16, 16)):
        body = mx.sym.Activation(_bn(mx, _conv(mx, body, 'dconv%d' % i, filters, stride=2),
                                     'dbn%d' % i), 'relu')
        if 2 ** (i + 1) >= 8:
            feats[2 ** (i + 1)] = _conv(mx, body, 'lat%d' % 2 ** (i + 1), 8, kernel=1)
    for stride in (16, 8):
        up = mx.sym.UpSampling(feats[stride * 2], scale=2, sample_type='nearest',
                               num_args=1, name='up%d' % stride)
        up = mx.sym.Crop(up, feats[stride], num_args=2, name='crop%d' % stride)
        feats[stride] = feats[stride] + up
    outs = []
    for stride in (32, 16, 8):
        f = feats[stride]
        score = mx.sym.Convolution(f, num_filter=4, kernel=(1, 1),
                                   name='face_rpn_cls_score_stride%d' % stride)
        score = mx.sym.Reshape(score * 0.1, shape=(0, 2, -1, 0))
        prob = mx.sym.SoftmaxActivation(score, mode='channel')
        prob = mx.sym.Reshape(prob, shape=(0, 4, -1, 0),
                              name='face_rpn_cls_prob_reshape_stride%d' % stride)
        bbox = mx.sym.Convolution(f, num_filter=8, kernel=(1, 1),
                                  name='face_rpn_bbox_pred_stride%d' % stride)
        landmark = mx.sym.Convolution(f, num_filter=20, kernel=(1, 1),
                                      name='face_rpn_landmark_pred_stride%d' % stride)
        outs += [prob, bbox * 0.2, landmark * 0.2]
    return mx.sym.Group(outs)


MODELS = {
    'arcface_r100_v1': (recognition_symbol, (1, 3, 112, 112)),
    'genderage_v1': (genderage_symbol, (1, 3, 112, 112)),
    'retinaface_mnet025_v1': (detection_symbol, (1, 3) + DET_SIZE),
}


def save_model(mx, root, name):
    """``root/name/name-0000.params`` and ``-symbol.json``, where model_store looks."""
    build, shape = MODELS[name]
    sym = build(mx)
    arg_shapes, _, aux_shapes = sym.infer_shape(data=shape)
    args = {k: mx.nd.array(seeded(k, s)) for k, s in zip(sym.list_arguments(), arg_shapes)
            if k != 'data'}
    aux = {k: mx.nd.array(seeded(k, s)) for k, s in
           zip(sym.list_auxiliary_states(), aux_shapes)}
    if name.startswith('retinaface'):  # spread the face scores, so that some pass
        for stride in (32, 16, 8):
            args['face_rpn_cls_score_stride%d_bias' % stride] = mx.nd.array([-2, -2, 2, 2])
    os.makedirs(os.path.join(root, name))
    prefix = os.path.join(root, name, name)
    mx.model.save_checkpoint(prefix, 0, sym, args, aux)
    return prefix + '-0000.params'


def face_image(key, shape):
    return rng(key).randint(0, 256, size=shape).astype(np.uint8)


@contextlib.contextmanager
def _model_root(insightface, tmp):
    """HOME pointed at ``tmp`` (FaceAnalysis takes the default root, ~/.insightface/models),
    and model_store's checksum check answering yes."""
    from insightface.model_zoo import model_store as store
    saved_home, saved_check = os.environ.get('HOME'), store.check_sha1
    os.environ['HOME'] = tmp
    store.check_sha1 = lambda filename, sha1_hash: True
    try:
        yield os.path.join(tmp, '.insightface', 'models')
    finally:
        store.check_sha1 = saved_check
        if saved_home is None:
            del os.environ['HOME']
        else:
            os.environ['HOME'] = saved_home


@contextlib.contextmanager
def _kept_crops():
    """The aligned 112x112 crops FaceAnalysis.get hands to the recognition and gender/age
    models (face_align.norm_crop's results, kept as they pass)."""
    from insightface.app import face_analysis
    align = face_analysis.face_align
    norm_crop, crops = align.norm_crop, []

    def keep(*args, **kwargs):
        crops.append(norm_crop(*args, **kwargs))
        return crops[-1]

    align.norm_crop = keep
    try:
        yield crops
    finally:
        align.norm_crop = norm_crop


def run(mx, name):
    """name -> {array name: numpy array} of MXNet's (or mxcompat's) results."""
    import insightface
    import insightface.app
    from insightface.model_zoo import face_detection
    tmp = tempfile.mkdtemp(prefix='insightface-')
    out = {}
    try:
        with _model_root(insightface, tmp) as root, \
                contextlib.redirect_stdout(io.StringIO()), mx.name.NameManager():
            for model in MODELS:
                save_model(mx, root, model)
            if name == 'recognition':
                rec = insightface.model_zoo.get_model('arcface_r100_v1')
                rec.prepare(-1)
                a, b = (face_image('face/%d' % i, (112, 112, 3)) for i in range(2))
                out['embedding'] = rec.get_embedding(a)
                out['similarity'] = np.array(rec.compute_sim(a, b))
            elif name == 'genderage':
                ga = insightface.model_zoo.get_model('genderage_v1')
                ga.prepare(-1)
                out['gender_age'] = np.array([ga.get(face_image('face/%d' % i, (112, 112, 3)))
                                              for i in range(3)])
                out['outputs'] = ga.model.get_outputs()[0].asnumpy()
            elif name == 'detection':
                det = face_detection.FaceDetector(
                    os.path.join(root, 'retinaface_mnet025_v1',
                                 'retinaface_mnet025_v1-0000.params'), 'net3')
                det.prepare(-1, nms=0.4, fix_image_size=DET_SIZE)
                img = face_image('scene', DET_SIZE + (3,))
                bboxes, landmarks = det.detect(img, threshold=0.6)
                out.update(bboxes=bboxes, landmarks=landmarks)
                for k, o in enumerate(det.model.get_outputs()):
                    out['output%d' % k] = o.asnumpy()
            elif name == 'face_analysis':
                app = insightface.app.FaceAnalysis(det_name='retinaface_mnet025_v1')
                app.prepare(-1, nms=0.4)
                img = face_image('scene/large', (40, 56, 3))
                with _kept_crops() as crops:
                    faces = app.get(img, det_thresh=0.62, max_num=3)
                for i, crop in enumerate(crops):
                    out['face%d/crop' % i] = crop
                for i, face in enumerate(faces):
                    for field in ('bbox', 'landmark', 'det_score', 'embedding', 'gender',
                                  'age', 'embedding_norm', 'normed_embedding'):
                        out['face%d/%s' % (i, field)] = np.asarray(getattr(face, field))
                out['faces'] = np.array(len(faces))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


CASES = ('recognition', 'genderage', 'detection', 'face_analysis')


def write(mx, outdir):
    for name in CASES:
        np.savez_compressed(os.path.join(outdir, name + '.npz'), **run(mx, name))
