"""The bfloat16 AMP lists under MXNet's names (``mx.contrib.amp.lists.symbol_bf16``):
BF16_FUNCS, BF16_FP32_FUNCS, FP32_FUNCS, CONDITIONAL_FP32_FUNCS, WIDEST_TYPE_CASTS,
LOSS_OUTPUT_FUNCTIONS, BF16_USE_FP32_PARAMS."""
from ....ops.amp_lists import LISTS
from . import _mxnet_names

globals().update(_mxnet_names('bfloat16', 'BF16'))
BF16_USE_FP32_PARAMS = LISTS['bfloat16']['lp16_use_fp32_params']
