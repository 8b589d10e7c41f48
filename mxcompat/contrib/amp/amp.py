"""MXNet's automatic mixed precision API (``mx.contrib.amp.amp``).

mxcompat does not implement it yet: every function raises NotImplementedError naming itself.
torch.autocast and torch.amp.GradScaler provide mixed precision for the torch side of a model.
"""

__all__ = ['init', 'init_trainer', 'scale_loss', 'unscale', 'convert_symbol', 'convert_model',
           'convert_hybrid_block', 'convert_bucketing_module', 'list_lp16_ops', 'list_fp32_ops',
           'list_lp16_fp32_ops', 'list_conditional_fp32_ops', 'list_widest_type_cast',
           'list_loss_output_functions', 'list_lp16_use_fp32_params']


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError('mx.contrib.amp.%s is not supported by mxcompat yet; use '
                                  'torch.autocast / torch.amp.GradScaler for mixed precision'
                                  % name)
    fn.__name__ = name
    fn.__doc__ = 'mx.contrib.amp.%s (not supported by mxcompat yet).' % name
    return fn


for _name in __all__:
    globals()[_name] = _unsupported(_name)
del _name
