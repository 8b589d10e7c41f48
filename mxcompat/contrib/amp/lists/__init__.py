"""MXNet's AMP lists under their MXNet module names (``amp.lists.symbol_fp16``,
``amp.lists.symbol_bf16``); the lists themselves live beside the operator table
(``mxcompat.ops.amp_lists``)."""
from ....ops.amp_lists import LISTS


def _mxnet_names(target, low):
    """One target type's lists under the names MXNet's list module gives them."""
    lists = LISTS[target]
    return {low + '_FUNCS': lists['lp16'], low + '_FP32_FUNCS': lists['lp16_fp32'],
            'FP32_FUNCS': lists['fp32'], 'CONDITIONAL_FP32_FUNCS': lists['conditional_fp32'],
            'WIDEST_TYPE_CASTS': lists['widest'], 'LOSS_OUTPUT_FUNCTIONS': lists['loss_output']}


from . import symbol_bf16, symbol_fp16  # noqa: E402
