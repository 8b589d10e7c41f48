"""The cases ``scripts/run_examples.py`` runs: MXNet 1.9.1's example scripts and Python
tutorials, unchanged, on small generated data.

Each case is a dict:

- ``name``: the fixture's name (``tests/fixtures/examples/<name>.json``);
- ``script`` (a file under ``example/``) with ``args``, its own command-line flags that cut
  epochs, batches and sizes, and ``files`` (repository paths to extract; default: the script's
  directory); the script runs in its own directory; or ``tutorial`` (a ``.md`` file
  whose python code blocks run in order as one script, each block's last expression displayed
  as Jupyter does) with ``skip``, ``{block index: why}`` for the blocks left out, and
  ``replace``, (old, new, why) text replacements (only where the tutorial fails on MXNet 1.9.1
  itself);
- ``data``: generators from ``scripts/examples/data.py`` with ``dest``, where the script looks
  for the files (relative to its working directory; ``{home}`` is ``$MXNET_HOME``);
- ``compare``: regexes over the printed output (stdout and stderr, logging included); every
  number inside each match (group 1 when the regex has groups) is compared with MXNet's, within
  ``rtol`` (default 1e-4) and ``atol`` (default 1e-6);
- ``requires``: modules the script imports beyond MXNet and numpy (the case is skipped, not
  failed, where the interpreter lacks one);
- ``timeout``: seconds the case may run where ``--timeout`` is too short for it;
- ``stream``: ``'stdout'`` to compare stdout only (tutorials: what the notebook shows);
- preamble switches (see ``scripts/examples/preamble.py``): ``random`` = ``'numpy'`` for
  scripts that sample with ``mx.nd.random`` themselves, and ``stop`` (a regex: the run ends
  once a printed line matches, where the rest only draws pictures).
"""
TAG = '1.9.1'

# Module.fit's per-epoch metrics, as logged by BaseModule.fit.
FIT = r'Epoch\[\d+\] (?:Train|Validation)-[\w-]+=(\S+)'

# Every line that prints numpy arrays (``print(x.asnumpy())``).
ARRAY = r'^ *\[[-+ \[\]0-9.eE]*$'
# Every number a tutorial prints on stdout (less the IGNOREd lines of scripts/run_examples.py).
ALL = r'(?s)\A(.*)\Z'
MNIST_HOME = dict(gen='mnist', dest='{home}/datasets/mnist', gz=True)
FASHION_HOME = dict(gen='mnist', dest='{home}/datasets/fashion-mnist', gz=True, seed=1)
# example/rnn/bucketing/*.py: a one-layer network of 16 units, 2 epochs on generated text.
RNN_ARGS = ['--num-layers', '1', '--num-hidden', '16', '--num-embed', '16', '--num-epochs', '2',
            '--batch-size', '8', '--disp-batches', '1000', '--kv-store', 'local']
SHERLOCK = dict(gen='text', dest='data', files=[('sherlockholmes.train.txt', 200),
                                                ('sherlockholmes.test.txt', 40)])
# example/sparse/matrix_factorization/train.py
MF_ARGS = ['--num-epoch', '2', '--batch-size', '50', '--factor-size', '4', '--log-interval', '1000']
MOVIELENS = dict(gen='ratings', dest='data/ml-10M100K', files=[('r1.train', 400), ('r1.test', 100)])
TUTORIALS = 'docs/python_docs/python/tutorials/'


def tutorial(path, **case):
    """A tutorial case: every number it prints on stdout, ``mx.nd.random`` drawn from numpy."""
    name = 'tutorial_' + path[:-3].replace('/', '_').replace('-', '_')
    return dict(dict(name=name, tutorial=TUTORIALS + path, compare=[ALL], stream='stdout',
                     random='numpy'), **case)


def train_mnist(network):
    """example/image-classification/train_mnist.py with ``--network network``."""
    return dict(name='image-classification_train_mnist_' + network,
                script='example/image-classification/train_mnist.py',
                files=['example/image-classification/train_mnist.py',
                       'example/image-classification/common',
                       'example/image-classification/symbols'],
                args=['--network', network, '--num-epochs', '2', '--num-examples', '500',
                      '--disp-batches', '1000', '--kv-store', 'local'],
                data=[dict(gen='mnist', dest='data', gz=True)], compare=[FIT])


def gluon_image_classification(mode):
    """example/gluon/image_classification.py: resnet18_v1 on MNIST in ``--mode mode``, in
    float64 (the script's ``--dtype``): in float32 the first step's logits agree to 1e-5 and its
    gradients to 6e-5, except where a ReLU's input lies within rounding of 0 and the two
    frameworks mask it differently (3 channels of stage2_batchnorm3's beta); ten steps at lr 0.1
    with momentum turn that into 0.55 against 0.52 training accuracy (MXNet itself prints 0.518
    in float64 and 0.520 in float32)."""
    return dict(name='gluon_image_classification_' + mode,
                script='example/gluon/image_classification.py',
                files=['example/gluon/image_classification.py', 'example/gluon/data.py'],
                args=['--dataset', 'mnist', '--model', 'resnet18_v1', '--mode', mode,
                      '--batch-size', '50', '--epochs', '1', '--log-interval', '5',
                      '--dtype', 'float64'],
                data=[dict(gen='mnist', dest='data')],
                compare=[r'\[Epoch \d+\] (?:training|validation): (.*)'])


CASES = [
    # ------------------------------------------------------------------ example/ scripts
    # the scripts issue 15 lists as failing only on mxcompat
    dict(name='numpy-ops_custom_softmax', script='example/numpy-ops/custom_softmax.py',
         data=[dict(gen='mnist', dest='data')], compare=[FIT]),
    dict(name='rbm_binary_rbm_gluon',
         script='example/restricted-boltzmann-machine/binary_rbm_gluon.py',
         args=['--num-hidden', '20', '--k', '2', '--batch-size', '50', '--num-epoch', '2',
               '--ais-batch-size', '10', '--ais-num-batch', '2', '--ais-intermediate-steps', '2',
               '--ais-burn-in-steps', '2', '--data-loader-num-worker', '0', '--no-cuda'],
         random='numpy', data=[MNIST_HOME], compare=[r'Epoch \d+ completed with (.*)'],
         stop='Preparing showcase'),
    dict(name='svrg_module_example_api_train',
         script='example/svrg_module/api_usage_example/example_api_train.py',
         args=['-e', '3', '-bs', '100', '-f', '2'],
         compare=[r'Epoch\[\d+\] Train[- ](?:cost|mse)=(\S+)']),
    # DistilledSGLD on MNIST (-d 1 -l 2: the teacher, SGLD, is a NumpyOp-free MLP; the student
    # ends in the LogSoftmax NumpyOp whose softmax_label input MXNet creates), up to its first
    # report at iteration 2000 (the script has no iteration flag): the SGLD optimizer's noise
    # is drawn from numpy on both sides ("random": "numpy"), the data order from the script's
    # seeded numpy; 40% random labels keep the accuracies below 1. -l 0 (SGD) prints no
    # metric (it discards the test accuracy it computes), -l 1 (SGLD) first reports at
    # iteration 100000; -d 0 -l 2 fails on MXNet 1.9.1 (mx.random.uniform(-6, 6, shape,
    # mx.cpu()) passes the context as dtype), -d 0 -l 1 and -l 3 and -d 2 report after 10**5
    # iterations or more. 2000 iterations took 73-163 s under MXNet, 139-434 s under mxcompat
    # on a shared 2-core machine (a quarter of it numpy drawing the SGLD noise)
    dict(name='bayesian-methods_bdk_demo_mnist', script='example/bayesian-methods/bdk_demo.py',
         args=['-d', '1', '-l', '2', '-t', '500'], random='numpy',
         data=[dict(gen='mnist_npz', dest='mnist.npz', label_noise=0.4)],
         compare=[r'^(?:Student|Teacher): (.*)$'], stop='^Teacher: Test ACC', timeout=900),
    dict(name='gluon_word_language_model', script='example/gluon/word_language_model/train.py',
         args=['--emsize', '16', '--nhid', '16', '--nlayers', '1', '--epochs', '2',
               '--batch_size', '4', '--bptt', '5', '--dropout', '0', '--log-interval', '20'],
         data=[dict(gen='text', dest='data', files=[('wiki.train.tokens', 200),
                                                       ('wiki.valid.tokens', 40),
                                                       ('wiki.test.tokens', 40)])],
         compare=[r'loss (\S+), (?:valid |test )?ppl (\S+)']),
    dict(name='gluon_super_resolution', script='example/gluon/super_resolution/super_resolution.py',
         files=['example/gluon/super_resolution', 'example/gluon/data.py'], requires=['PIL'],
         args=['--epochs', '2', '--batch_size', '2', '--test_batch_size', '2'],
         data=[dict(gen='images', dest='{home}/datasets/BSDS500/images')],
         compare=[r'validation avg psnr: (\S+)', r'training mse at epoch \d+: \w+=(\S+)']),
    # scripts that work
    dict(name='numpy-ops_weighted_logistic_regression',
         script='example/numpy-ops/weighted_logistic_regression.py', compare=[ARRAY]),
    dict(name='rbm_binary_rbm_module',
         script='example/restricted-boltzmann-machine/binary_rbm_module.py',
         args=['--num-hidden', '20', '--k', '2', '--batch-size', '50', '--num-epoch', '2',
               '--ais-batch-size', '10', '--ais-num-batch', '2', '--ais-intermediate-steps', '2',
               '--ais-burn-in-steps', '2', '--no-cuda'],
         random='numpy', data=[dict(gen='mnist', dest='.', gz=True)],
         compare=[r'Epoch \d+ completed with (.*)'], stop='Preparing showcase'),
    dict(name='svrg_module_example_inference',
         script='example/svrg_module/api_usage_example/example_inference.py',
         args=['-e', '3', '-bs', '100', '-f', '2'],
         compare=[FIT, r'Validation Set is (\S+)']),
    dict(name='gluon_mnist', script='example/gluon/mnist/mnist.py',
         args=['--epochs', '2', '--log-interval', '1000'],
         data=[dict(gen='mnist', dest='data', gz=True)],
         compare=[r'\[Epoch \d+\] (?:Training|Validation): \w+=(\S+)']),
    gluon_image_classification('hybrid'),
    gluon_image_classification('imperative'),
    dict(name='module_mnist_mlp', script='example/module/mnist_mlp.py',
         data=[dict(gen='mnist', dest='data')],
         compare=[FIT, r'^(?:epoch \d+: \w+|batch \d+ acc:|validation Accuracy:|\w+)[=:] ?(\S+)$']),
    dict(name='stochastic-depth_sd_mnist', script='example/stochastic-depth/sd_mnist.py',
         data=[dict(gen='mnist', dest='data')], compare=[FIT]),
    dict(name='dsd_mlp', script='example/dsd/mlp.py',
         args=['--pruning_switch_epoch', '1,2', '--weight_sparsity', '0,50',
               '--bias_sparsity', '0,50'],
         data=[dict(gen='mnist', dest='data')], compare=[FIT]),
    dict(name='rnn_bucketing_lstm_bucketing', script='example/rnn/bucketing/lstm_bucketing.py',
         args=RNN_ARGS, data=[SHERLOCK], compare=[FIT]),
    dict(name='sparse_matrix_factorization_dense',
         script='example/sparse/matrix_factorization/train.py',
         args=MF_ARGS + ['--dense'],
         data=[MOVIELENS], compare=[r'eval MSE = (\S+)']),
    dict(name='rnn_bucketing_cudnn_rnn_bucketing',
         script='example/rnn/bucketing/cudnn_rnn_bucketing.py',
         args=RNN_ARGS, data=[SHERLOCK], compare=[FIT]),
    dict(name='gluon_dc_gan', script='example/gluon/dc_gan/dcgan.py',
         args=['--dataset', 'mnist', '--batch-size', '50', '--nz', '8', '--ngf', '8',
               '--ndf', '8', '--nepoch', '1', '--niter', '3', '--inception_score', '',
               '--check-point', ''],
         random='numpy', data=[dict(gen='mnist', dest='data', gz=True)], requires=['cv2'],
         compare=[r'discriminator loss = (.*)'],
         # the first iterations agree to 1e-4; the adversarial updates then drift (0.4% by the
         # tenth iteration)
         rtol=1e-2),
    # 300 epochs and no flag: its prediction before training and its first 30 epochs (the
    # LSTM's initial state is drawn with nd.random.normal)
    dict(name='gluon_lstm_crf', script='example/gluon/lstm_crf/lstm_crf.py', random='numpy',
         compare=[ALL], stream='stdout', stop=r'^Epoch \[30\]'),
    # 20 epochs of 100000 generated samples and no flag: the first epoch
    dict(name='nce-loss_toy_softmax', script='example/nce-loss/toy_softmax.py',
         compare=[r'accuracy=(\S+)'], stop=r'Epoch\[1\]', timeout=400),
    dict(name='nce-loss_toy_nce', script='example/nce-loss/toy_nce.py',
         compare=[r'accuracy=(\S+)'], stop=r'Epoch\[1\]', timeout=400),
    dict(name='nce-loss_wordvec', script='example/nce-loss/wordvec.py',
         data=[dict(gen='text', dest='data', files=[('text8', 300)])], compare=[FIT]),
    train_mnist('mlp'),
    train_mnist('lenet'),
    # ------------------------------------------------------------------ tutorials
    tutorial('packages/gluon/blocks/parameters.md'),
    tutorial('packages/gluon/training/fit_api_tutorial.md',
             data=[dict(FASHION_HOME, n_train=16, n_test=16)],  # resnet-18 on 224x224
             # float32 rounding: on the 8x-upscaled images the first step's gradients are 8%
             # from their float64 values under MXNet and 2% under mxcompat (in float64 the two
             # agree to 1e-8), and after one step one of the 16 validation images, whose two
             # top scores are 1.5e-4 apart, flips: atol is that one image (1/16)
             atol=0.0625,
             replace=[('metrics=train_acc', 'train_metrics=train_acc',
                       "the tutorial at 1.9.1 passes Estimator a keyword MXNet 1.9.1's Estimator "
                       "does not take (it fails on MXNet 1.9.1 itself); 1.9.1 names it "
                       "train_metrics")]),
    tutorial('getting-started/crash-course/1-ndarray.md'),
    tutorial('getting-started/crash-course/2-nn.md'),
    tutorial('getting-started/crash-course/3-autograd.md'),
    # float32 rounding amplified by training: the gradients of the first 4 steps agree to
    # 7e-6, then SGD at lr 0.1 (loss swinging 0.7 to 1.8 between epochs) grows the difference
    # to 1.4e-3 at step 5 and 2.3e-2 at step 8; the printed losses and accuracies of epochs
    # 0-2 agree to the printed digits, the later ones within 5%
    tutorial('getting-started/crash-course/4-train.md', data=[FASHION_HOME], rtol=5e-2),
    tutorial('getting-started/logistic_regression_explained.md'),
    tutorial('extend/customop.md',
             skip={9: 'os.fork() after an unfinished custom op: shows that the child blocks',
                   10: 'os.fork() again (the child runs the rest of the tutorial a second time)'}),
    tutorial('packages/gluon/blocks/custom-layer.md'),
    tutorial('packages/gluon/blocks/custom_layer_beginners.md',
             skip=dict.fromkeys((4, 6, 9), 'printed output marked as a python block')),
    tutorial('packages/gluon/blocks/hybridize.md',
             skip={17: 'uses mx, which the tutorial never imports (fails on MXNet too)'}),
    tutorial('packages/gluon/blocks/init.md',
             skip={7: 'uses MyInit before block 12 defines it (fails on MXNet too)',
                   8: 'uses MyInit before block 12 defines it (fails on MXNet too)'}),
    tutorial('packages/gluon/blocks/naming.md',
             skip={9: 'downloads pretrained alexnet weights', 13: 'downloads pretrained alexnet '
                   'weights', 14: "changes block 13's pretrained alexnet"}),
    tutorial('packages/gluon/blocks/nn.md'),
    tutorial('packages/gluon/blocks/save_load_params.md', data=[MNIST_HOME]),
    tutorial('packages/gluon/data/datasets.md', data=[MNIST_HOME, FASHION_HOME],
             skip=dict.fromkeys((8, 9, 10, 11), 'downloads and reads Caltech-101')),
    tutorial('packages/gluon/image/mnist.md', data=[dict(gen='mnist', dest='.', gz=True)]),
    tutorial('packages/gluon/loss/loss.md'),
    tutorial('packages/gluon/training/learning_rates/learning_rate_schedules.md',
             data=[MNIST_HOME]),
    tutorial('packages/gluon/training/normalization/index.md'),
    tutorial('packages/gluon/training/trainer.md'),
    tutorial('packages/kvstore/kvstore.md'),
    tutorial('packages/ndarray/01-ndarray-intro.md',
             skip={3: 'prints nd.empty, uninitialized memory'}),
    tutorial('packages/ndarray/02-ndarray-operations.md',
             skip={13: 'reshapes 6 values to (3, 1) (fails on MXNet too)'}),
    tutorial('packages/ndarray/gotchas_numpy_in_mxnet.md'),
]

# Considered and left out (each fails on MXNet 1.9.1 itself, needs what no flag or generated
# file provides, or is outside mxcompat's scope):
# - example/nce-loss/lstm_word.py: text8 in batches of 1024, 20 epochs, no flags;
#   example/rnn/old/gru_bucketing.py fails on MXNet 1.9.1 with numpy 1.23;
# - example/numpy-ops/custom_sparse_sqr.py fails on MXNet 1.9.1 (custom op backward);
# - example/module/sequential_module.py, rnn/word_lm, rnn/old/lstm_bucketing.py,
#   model-parallel/*, numpy-ops/custom_softmax_rtc.py: hard-coded GPUs;
# - example/gluon/image_classification.py --mode symbolic: fails on MXNet (Module has no
#   save_parameters);
# - example/sparse/{factorization_machine,linear_classification}, sparse/matrix_factorization
#   without --dense, tutorials packages/ndarray/sparse/*: sparse operators, sparse gradients,
#   LibSVMIter and row_sparse kvstore pulls (mxcompat keeps sparse arrays densely and has none
#   of these: mxcompat/ndarray/sparse.py);
# - example/profiler/*: print timings and profiler tables (profiler_ndarray.py only asserts);
#   example/autoencoder/variational_autoencoder/VAE.py, recommenders/*.py: helpers of
#   notebooks, no script; adversary, bi-lstm-sort, multi-task: notebooks only; captcha, gan:
#   R; caffe (Caffe plugin), extensions, multi_threaded_inference (C++ libraries),
#   distributed_training* (dist kvstore and Horovod launchers), fcn-xs (VOC and pretrained
#   VGG16);
# - example/cnn_text_classification, cnn_chinese_text_classification (word2vec), capsnet
#   (mxboard), module/python_loss.py (numba), svm_mnist, deep-embedded-clustering,
#   svrg_module/linear_regression (sklearn), multivariate_time_series, named_entity_recognition,
#   neural_collaborative_filtering (pandas, scipy),
#   gluon/house_prices (pandas), gluon/audio (librosa), gluon/actor_critic,
#   reinforcement-learning (gym): packages absent from both environments;
# - example/gluon/{embedding_learning,style_transfer,tree_lstm,lipnet,sn_gan}, ssd, rcnn,
#   speech_recognition, neural-style, quantization*, automatic-mixed-precision, ctc,
#   kaggle-*, vae-gan: real data sets or pretrained models, or hours of training;
# - tutorials: extend/custom_layer.md (fails on MXNet 1.9.1: Constant(list).dumps), getting-
#   started/to-mxnet/pytorch.md (needs torch beside MXNet), 5-predict.md, 6-use_gpus.md,
#   03-ndarray-contexts.md (GPU), gluon_from_experiment_to_deployment.md, pretrained_models.md,
#   onnx/*, deploy/*, amp.md, mkldnn/*, tensorrt.md (downloads, GPUs), activations.md,
#   learning_rate_schedules_advanced.md, optimizer/index.md, data_augmentation.md,
#   image-augmentation.md (print nothing: plots only), learning_rate_finder.md (over 180 s),
#   custom-loss.md (Omniglot images), info_gan.md (LFW), kl_divergence.md and
#   autograd/index.md (no python blocks), performance/backend/profiler.md (prints timing tables
#   and MXNet's C API calls).
