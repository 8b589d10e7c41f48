"""Gradients where torch.autograd has none to give, from real MXNet: Cast passes gradients to
and from integer arrays (bound executors and autograd); integer arguments no operator
differentiates (softmax's length, take's indices) get zeros under 'write' and 'add'; a head
gradient of the wrong shape is an error, except for an output whose gradient the backward pass
does not read (MultiProposal's rois). The same ``run(mx)`` executes under mxcompat in
tests/test_executor_grads.py."""
import os

import numpy as np


def _rng(seed):
    return np.random.RandomState(seed)


def _softmax_length(mx, out, req):
    data = _rng(1).uniform(-2, 2, (2, 4, 3)).astype(np.float32)
    length = np.array([[1, 4, 2], [3, 0, 4]], np.int32)
    sym = mx.sym.softmax(mx.sym.Variable('data'), length=mx.sym.Variable('length'),
                         use_length=True, axis=1)
    grads = {'data': mx.nd.ones(data.shape), 'length': mx.nd.array(np.full((2, 3), 3), dtype='int32')}
    exe = sym.bind(mx.cpu(), args={'data': mx.nd.array(data),
                                   'length': mx.nd.array(length, dtype='int32')},
                   args_grad=grads, grad_req=req)
    exe.forward(is_train=True)
    exe.backward(mx.nd.array(_rng(2).uniform(-1, 1, data.shape)))
    out['softmax-length-%s/data' % req] = exe.grad_dict['data'].asnumpy()
    out['softmax-length-%s/length' % req] = exe.grad_dict['length'].asnumpy()


def _take_indices(mx, out):
    sym = mx.sym.take(mx.sym.Variable('a'), mx.sym.Variable('idx'))
    exe = sym.bind(mx.cpu(), args={'a': mx.nd.array(np.arange(12).reshape(4, 3)),
                                   'idx': mx.nd.array([[3, 0], [1, 1]], dtype='int32')},
                   args_grad={'a': mx.nd.ones((4, 3)),
                              'idx': mx.nd.array([[5, -2], [7, 1]], dtype='int32')})
    exe.forward(is_train=True)
    exe.backward(mx.nd.ones((2, 2, 3)))
    out['take/a'] = exe.grad_dict['a'].asnumpy()
    out['take/idx'] = exe.grad_dict['idx'].asnumpy()


def _multi_proposal(mx, out):
    """A head gradient shaped for one image on a two-image MultiProposal (as MXNet's own
    test_multi_proposal_op passes it): not read, the gradients are zero."""
    a, h, w = 3, 4, 4
    rng = _rng(3)
    cls_prob = rng.uniform(0, 1, (2, 2 * a, h, w)).astype(np.float32)
    bbox_pred = rng.uniform(0, 1, (2, 4 * a, h, w)).astype(np.float32)
    im_info = np.array([[60, 50, 1.0], [64, 40, 0.8]], np.float32)
    names = ('cls_prob', 'bbox_pred', 'im_info')
    sym = mx.sym.contrib.MultiProposal(*[mx.sym.Variable(n) for n in names], feature_stride=16,
                                       scales=(2.0,), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=20,
                                       rpn_post_nms_top_n=5, threshold=0.7, rpn_min_size=4)
    values = (cls_prob, bbox_pred, im_info)
    exe = sym.bind(mx.cpu(), args={n: mx.nd.array(v) for n, v in zip(names, values)},
                   args_grad={n: mx.nd.ones(v.shape) for n, v in zip(names, values)})
    exe.forward(is_train=True)
    out['multi-proposal/rois'] = exe.outputs[0].asnumpy()
    exe.backward(mx.nd.ones((5, 5)))
    for n in names:
        out['multi-proposal/grad-%s' % n] = exe.grad_dict[n].asnumpy()


def _head_shape(mx, out):
    """A head gradient of another shape: an error for an operator that reads it."""
    exe = mx.sym.sigmoid(mx.sym.Variable('x')).simple_bind(mx.cpu(), x=(2, 3))
    exe.forward(is_train=True)
    try:
        exe.backward(mx.nd.ones((3, 2)))
        out['head-shape/error'] = np.array('')
    except mx.base.MXNetError:
        out['head-shape/error'] = np.array('MXNetError')
    # an operator without gradient (argmax, shape_array) does not read it: any shape goes
    x = mx.sym.Variable('x')
    for name, sym in (('argmax', mx.sym.argmax(x, axis=1, keepdims=True)),
                      ('shape_array', mx.sym.shape_array(x))):
        exe = sym.bind(mx.cpu(), args={'x': mx.nd.ones((2, 3))},
                       args_grad={'x': mx.nd.ones((2, 3))})
        exe.forward(is_train=True)
        exe.backward(mx.nd.ones((7, 5)))
        out['head-shape/%s' % name] = exe.grad_dict['x'].asnumpy()


def _cast(mx, out):
    """Cast between integer and floating-point types passes the gradient, cast to the input's
    type (truncated toward zero for an integer input)."""
    values = _rng(4).uniform(-10, 10, (2, 3))
    head = np.array([[1.5, -1.7, 2.2], [0.4, -0.6, 9.9]])
    for src in ('int32', 'float32', 'float16'):
        for dst in ('float32', 'int32', 'float16', 'int64'):
            exe = mx.sym.Cast(mx.sym.Variable('x', dtype=src), dtype=dst).simple_bind(
                mx.cpu(), x=(2, 3))
            exe.arg_arrays[0][:] = values
            exe.forward(is_train=True)
            exe.backward(mx.nd.array(head, dtype=dst))
            out['cast-%s-%s/out' % (src, dst)] = exe.outputs[0].asnumpy()
            out['cast-%s-%s/grad' % (src, dst)] = exe.grad_arrays[0].asnumpy()
    # 'add' truncates each gradient, then adds
    exe = mx.sym.Cast(mx.sym.Variable('x', dtype='int32'), dtype='float32').simple_bind(
        mx.cpu(), x=(2, 3), grad_req='add')
    exe.arg_arrays[0][:] = values
    for _ in range(2):
        exe.forward(is_train=True)
        exe.backward(mx.nd.array(head))
    out['cast-add/grad'] = exe.grad_arrays[0].asnumpy()
    # through an integer product: float32 -> int32, * 3, -> float32
    x = mx.sym.Variable('x')
    sym = mx.sym.Cast(mx.sym.Cast(x, dtype='int32') * 3, dtype='float32')
    exe = sym.simple_bind(mx.cpu(), x=(2, 3))
    exe.arg_arrays[0][:] = values
    exe.forward(is_train=True)
    exe.backward(mx.nd.array(head))
    out['cast-chain/out'] = exe.outputs[0].asnumpy()
    out['cast-chain/grad'] = exe.grad_arrays[0].asnumpy()
    # recorded (autograd): astype and cast to int32 and back, of mx.nd and mx.np arrays
    x = mx.nd.array(values)
    x.attach_grad()
    with mx.autograd.record():
        y = x.astype('int32')
        z = (mx.nd.cast(y * 3, dtype='float32') + y.astype('float16').astype('float32'))
    z.backward(mx.nd.array(head))
    out['nd-astype/out'] = z.asnumpy()
    out['nd-astype/grad'] = x.grad.asnumpy()
    with mx.autograd.record():
        y = mx.nd.cast(x, dtype='int32')
    y.backward(mx.nd.array(head, dtype='int32'))
    out['nd-cast-int-head/grad'] = x.grad.asnumpy()
    x = mx.np.array(values)
    x.attach_grad()
    with mx.autograd.record():
        z = (x.astype('int32') * 2 + 1).astype('float32')
    z.backward(mx.np.array(head, dtype='float32'))
    out['np-astype/out'] = z.asnumpy()
    out['np-astype/grad'] = x.grad.asnumpy()


def run(mx):
    """{case id: numpy array}."""
    out = {}
    _cast(mx, out)
    for req in ('write', 'add'):
        _softmax_length(mx, out, req)
    _take_indices(mx, out)
    _multi_proposal(mx, out)
    _head_shape(mx, out)
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'executor_grads.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'executor_grads.npz'))
