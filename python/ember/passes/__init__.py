"""The exporter as a pipeline of small named passes (see pipeline.py):

    capture -> decompose -> lift -> strip_asserts -> to_dim_order_ops
      -> fuse_batch_norm -> fold_conv_padding -> fold_constants
      -> delegate(backends) -> to_out_variants
      -> emit -> plan_memory -> serialize

Every pass between lift and emit takes and returns a ProgramGraph (graph.py)
that still runs in eager PyTorch, which is what each pass is tested against.
"""
