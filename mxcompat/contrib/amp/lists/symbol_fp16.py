"""The float16 AMP lists under MXNet's names (``mx.contrib.amp.lists.symbol_fp16``):
FP16_FUNCS, FP16_FP32_FUNCS, FP32_FUNCS, CONDITIONAL_FP32_FUNCS, WIDEST_TYPE_CASTS,
LOSS_OUTPUT_FUNCTIONS."""
from . import _mxnet_names

globals().update(_mxnet_names('float16', 'FP16'))
