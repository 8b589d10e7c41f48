"""gluon.nn layers from real MXNet: reprs, parameter names/shapes, outputs, input and
parameter gradients in train and predict mode (machinery: _layer_cases.py)."""
from scripts.fixture_writers._layer_cases import inp, write_cases

TRAIN_PREDICT = (True, False)
PREDICT = (False,)
# The oracle's (MKL-DNN) max pooling backward is wrong in predict mode: train mode only.
TRAIN = (True,)

def _c(ctor, inputs, modes=PREDICT):
    return (ctor, inputs, modes)

X1 = [inp('x1', (2, 3, 7))]
X1L = [inp('x1l', (2, 7, 3))]
X2 = [inp('x2', (2, 4, 6, 5))]
X2L = [inp('x2l', (2, 6, 5, 4))]
X3 = [inp('x3', (1, 2, 4, 5, 3))]
X3L = [inp('x3l', (1, 4, 5, 3, 2))]

CASES = {
    'conv1d': _c(lambda mx: mx.gluon.nn.Conv1D(5, 3, in_channels=3), X1),
    'conv1d_opts': _c(lambda mx: mx.gluon.nn.Conv1D(6, 2, strides=2, padding=1, dilation=2,
                                                    groups=3, activation='relu'), X1),
    'conv2d': _c(lambda mx: mx.gluon.nn.Conv2D(16, (3, 3), in_channels=4), X2),
    'conv2d_opts': _c(lambda mx: mx.gluon.nn.Conv2D(4, (2, 3), strides=(2, 1), padding=(1, 0),
                                                    dilation=(1, 2), groups=2,
                                                    use_bias=False, activation='tanh'), X2),
    'conv3d': _c(lambda mx: mx.gluon.nn.Conv3D(3, (2, 2, 2), padding=(1, 0, 1)), X3),
    'deconv1d': _c(lambda mx: mx.gluon.nn.Conv1DTranspose(4, 3, strides=2, padding=1,
                                                          output_padding=1), X1),
    'deconv2d': _c(lambda mx: mx.gluon.nn.Conv2DTranspose(6, (3, 2), strides=(2, 2),
                                                          output_padding=(1, 0), groups=2,
                                                          in_channels=4), X2),
    'deconv2d_plain': _c(lambda mx: mx.gluon.nn.Conv2DTranspose(3, 3, use_bias=False,
                                                                activation='sigmoid'), X2),
    'deconv3d': _c(lambda mx: mx.gluon.nn.Conv3DTranspose(2, 2, strides=2, padding=1), X3),
    'maxpool1d': _c(lambda mx: mx.gluon.nn.MaxPool1D(3, 2, ceil_mode=True), X1, TRAIN),
    'maxpool1d_nwc': _c(lambda mx: mx.gluon.nn.MaxPool1D(2, layout='NWC'), X1L, TRAIN),
    'maxpool2d': _c(lambda mx: mx.gluon.nn.MaxPool2D(), X2, TRAIN),
    'maxpool2d_opts': _c(lambda mx: mx.gluon.nn.MaxPool2D((3, 2), (2, 1), (1, 0),
                                                          ceil_mode=True), X2, TRAIN),
    'maxpool2d_nhwc': _c(lambda mx: mx.gluon.nn.MaxPool2D(2, 1, layout='NHWC'), X2L, TRAIN),
    'maxpool3d': _c(lambda mx: mx.gluon.nn.MaxPool3D((2, 2, 1)), X3, TRAIN),
    'avgpool1d': _c(lambda mx: mx.gluon.nn.AvgPool1D(3, 2, 1, count_include_pad=False), X1),
    'avgpool2d': _c(lambda mx: mx.gluon.nn.AvgPool2D(), X2),
    'avgpool2d_pad': _c(lambda mx: mx.gluon.nn.AvgPool2D(3, 2, 1, ceil_mode=True), X2),
    'avgpool2d_nopad': _c(lambda mx: mx.gluon.nn.AvgPool2D(3, 2, 1, count_include_pad=False),
                          X2),
    'avgpool2d_nhwc': _c(lambda mx: mx.gluon.nn.AvgPool2D(2, layout='NHWC'), X2L),
    'avgpool3d': _c(lambda mx: mx.gluon.nn.AvgPool3D(2, 1, (1, 0, 0)), X3),
    'avgpool3d_ndhwc': _c(lambda mx: mx.gluon.nn.AvgPool3D(2, layout='NDHWC'), X3L),
    # ceil_mode windows that start past the (padded) input: MXNet's 3-D kernels give NaN
    'avgpool3d_ceil_empty': _c(lambda mx: mx.gluon.nn.AvgPool3D((1, 2, 2), 2, ceil_mode=True),
                               X3, TRAIN_PREDICT),
    'avgpool3d_ceil_empty_nopad': _c(lambda mx: mx.gluon.nn.AvgPool3D(
        (1, 3, 3), 2, (0, 1, 1), ceil_mode=True, count_include_pad=False), X3, TRAIN_PREDICT),
    'gmaxpool1d': _c(lambda mx: mx.gluon.nn.GlobalMaxPool1D(), X1, TRAIN),
    'gmaxpool2d': _c(lambda mx: mx.gluon.nn.GlobalMaxPool2D(), X2, TRAIN),
    'gmaxpool2d_nhwc': _c(lambda mx: mx.gluon.nn.GlobalMaxPool2D(layout='NHWC'), X2L, TRAIN),
    'gmaxpool3d': _c(lambda mx: mx.gluon.nn.GlobalMaxPool3D(), X3, TRAIN),
    'gavgpool1d': _c(lambda mx: mx.gluon.nn.GlobalAvgPool1D(), X1),
    'gavgpool1d_nwc': _c(lambda mx: mx.gluon.nn.GlobalAvgPool1D(layout='NWC'), X1L),
    'gavgpool2d': _c(lambda mx: mx.gluon.nn.GlobalAvgPool2D(), X2),
    'gavgpool3d': _c(lambda mx: mx.gluon.nn.GlobalAvgPool3D(), X3),
    'gavgpool3d_ndhwc': _c(lambda mx: mx.gluon.nn.GlobalAvgPool3D(layout='NDHWC'), X3L),
    'reflectionpad2d': _c(lambda mx: mx.gluon.nn.ReflectionPad2D(2), X2),
    'reflectionpad2d_tuple': _c(lambda mx: mx.gluon.nn.ReflectionPad2D((0, 0, 0, 0, 1, 2, 2, 1)),
                                X2),
    'activation': _c(lambda mx: mx.gluon.nn.Activation('softsign'), X1),
    'leakyrelu': _c(lambda mx: mx.gluon.nn.LeakyReLU(0.1), X1),
    'prelu': _c(lambda mx: mx.gluon.nn.PReLU(), X2),
    'prelu_channels': _c(lambda mx: mx.gluon.nn.PReLU(mx.init.Constant(0.1), in_channels=4),
                         X2),
    'elu': _c(lambda mx: mx.gluon.nn.ELU(0.5), X1),
    'selu': _c(lambda mx: mx.gluon.nn.SELU(), X1),
    'swish': _c(lambda mx: mx.gluon.nn.Swish(1.5), X1),
    'gelu': _c(lambda mx: mx.gluon.nn.GELU(), X1),
    'instancenorm': _c(lambda mx: mx.gluon.nn.InstanceNorm(), X2, TRAIN_PREDICT),
    'instancenorm_opts': _c(lambda mx: mx.gluon.nn.InstanceNorm(axis=2, epsilon=1e-3,
                                                                scale=True, in_channels=6),
                            X2, TRAIN_PREDICT),
    'layernorm': _c(lambda mx: mx.gluon.nn.LayerNorm(), X2, TRAIN_PREDICT),
    'layernorm_opts': _c(lambda mx: mx.gluon.nn.LayerNorm(axis=1, epsilon=1e-3, center=False,
                                                          in_channels=4), X2, TRAIN_PREDICT),
    'groupnorm': _c(lambda mx: mx.gluon.nn.GroupNorm(), X2, TRAIN_PREDICT),
    'groupnorm_opts': _c(lambda mx: mx.gluon.nn.GroupNorm(2, epsilon=1e-3, scale=False), X2,
                         TRAIN_PREDICT),
}

# Reprs only: the oracle's CPU build runs neither BatchNormWithReLU nor channel-last
# convolutions.
REPR_ONLY = {
    'conv2d_nhwc': lambda mx: mx.gluon.nn.Conv2D(3, 3, layout='NHWC', padding=1, in_channels=4),
    'conv3d_ndhwc': lambda mx: mx.gluon.nn.Conv3D(3, 2, layout='NDHWC'),
    'batchnormrelu': lambda mx: mx.gluon.nn.BatchNormReLU(),
    'batchnormrelu_opts': lambda mx: mx.gluon.nn.BatchNormReLU(axis=-1, momentum=0.8,
                                                               center=False, in_channels=5),
    'conv2d_all': lambda mx: mx.gluon.nn.Conv2D(16, 3, 2, 1, 2, 4, in_channels=8,
                                                activation='relu', use_bias=False),
}

def write(mx, outdir):
    write_cases(mx, outdir, CASES, 'gluon_nn',
                {k: repr(f(mx)) for k, f in REPR_ONLY.items()})
