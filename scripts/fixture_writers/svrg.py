"""mx.contrib.svrg_optimization from real MXNet: SVRGModule trained on generated linear
regression data from weights seeded by their names, with full gradients every epoch or every
other epoch, with and without a KVStore object (then the full gradients go through the
`<name>_full` keys), with plain and momentum SGD, on ordered and shuffled data (a padded last
batch counts as a fraction of a batch); the weights after every epoch, the full-gradient
averages and the training metric. The same ``results(mx, svrg_module)`` runs under mxcompat in
tests/test_svrg.py."""
import os
import zlib

import numpy as np

CASES = {
    'freq1_sgd': dict(update_freq=1, epochs=2, kv=None, shuffle=False,
                      optimizer_params={'learning_rate': 0.05}),
    'freq2_momentum': dict(update_freq=2, epochs=3, kv=None, shuffle=False,
                           optimizer_params={'learning_rate': 0.02, 'momentum': 0.9,
                                             'wd': 0.01}),
    'freq2_kvstore': dict(update_freq=2, epochs=3, kv='local', shuffle=False,
                          optimizer_params={'learning_rate': 0.03}),
    'freq1_shuffled': dict(update_freq=1, epochs=2, kv=None, shuffle=True,
                           optimizer_params={'learning_rate': 0.05}),
}


def _seeded(name, shape):
    rng = np.random.RandomState(zlib.crc32(name.encode()) & 0x7fffffff)
    return rng.uniform(-0.5, 0.5, shape).astype(np.float32)


def _data():
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (42, 3)).astype(np.float32)
    y = (x.dot(np.array([1.5, -2.0, 0.5], np.float32)) + 0.3 +
         rng.normal(0, 0.05, 42).astype(np.float32))
    return x, y


def _run_case(mx, svrg_module, name, case):
    x, y = _data()
    np.random.seed(0)  # NDArrayIter shuffles with numpy's global generator
    it = mx.io.NDArrayIter(x, y, batch_size=8, shuffle=case['shuffle'],
                           label_name='lin_reg_label')
    data = mx.sym.Variable('data')
    label = mx.sym.Variable('lin_reg_label')
    fc = mx.sym.FullyConnected(data=data, name='fc1', num_hidden=1)
    net = mx.sym.LinearRegressionOutput(data=fc, label=label, name='lro')
    mod = svrg_module.SVRGModule(symbol=net, data_names=['data'], label_names=['lin_reg_label'],
                                 update_freq=case['update_freq'])
    arg_params = {'fc1_weight': mx.nd.array(_seeded('fc1_weight', (1, 3))),
                  'fc1_bias': mx.nd.array(_seeded('fc1_bias', (1,)))}
    out = {}

    def epoch_end(epoch, symbol, args, auxs):
        for key, value in args.items():
            out['%s/epoch%d/%s' % (name, epoch, key)] = value.asnumpy()
        for key, value in mod._param_dict[0].items():
            out['%s/epoch%d/full_%s' % (name, epoch, key)] = value.asnumpy()

    metric = mx.metric.MSE()
    kv = mx.kv.create('local') if case['kv'] else 'local'
    mod.fit(it, eval_metric=metric, optimizer='sgd', optimizer_params=case['optimizer_params'],
            arg_params=arg_params, num_epoch=case['epochs'], kvstore=kv,
            epoch_end_callback=epoch_end)
    out['%s/mse' % name] = np.array(metric.get()[1], np.float64)
    return out


def results(mx, svrg_module):
    """{name: numpy array} of every case; ``svrg_module`` is the svrg_module module."""
    out = {}
    for name, case in CASES.items():
        out.update(_run_case(mx, svrg_module, name, case))
    return out


def write(mx, outdir):
    from mxnet.contrib.svrg_optimization import svrg_module
    out = results(mx, svrg_module)
    tmp = os.path.join(outdir, 'svrg.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'svrg.npz'))
