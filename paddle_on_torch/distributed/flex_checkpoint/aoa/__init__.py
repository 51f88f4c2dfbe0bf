"""paddle.distributed.flex_checkpoint.aoa: Paddle's "AOA" language for renaming, splitting and fusing checkpoint
tensors while flex checkpoints are loaded (lexer, parser, macros, engine).  Not built here: flex checkpoints load
through torch DCP (dcp.load_state_dict), without AOA rewrites.  An ImportError too, so PaddleFormers' guarded
`from paddle.distributed.flex_checkpoint.aoa... import` takes its fallback."""
from ...._report import unsupported_module

raise unsupported_module("paddle.distributed.flex_checkpoint.aoa",
                         ": the AOA checkpoint-rewrite language (its lexer, parser, macros and engine) is not built")
