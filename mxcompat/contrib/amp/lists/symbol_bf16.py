"""The bfloat16 AMP lists under MXNet's names (``mx.contrib.amp.lists.symbol_bf16``)."""
from ....ops.amp_lists import LISTS

_L = LISTS['bfloat16']
BF16_FUNCS = _L['lp16']
BF16_FP32_FUNCS = _L['lp16_fp32']
FP32_FUNCS = _L['fp32']
CONDITIONAL_FP32_FUNCS = _L['conditional_fp32']
WIDEST_TYPE_CASTS = _L['widest']
LOSS_OUTPUT_FUNCTIONS = _L['loss_output']
BF16_USE_FP32_PARAMS = _L['lp16_use_fp32_params']
