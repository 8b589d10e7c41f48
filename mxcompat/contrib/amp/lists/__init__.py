"""MXNet's AMP lists under their MXNet module names (``amp.lists.symbol_fp16``,
``amp.lists.symbol_bf16``); the lists themselves live beside the operator table
(``mxcompat.ops.amp_lists``)."""
from . import symbol_bf16, symbol_fp16
