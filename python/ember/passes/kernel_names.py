"""The names a program calls some kernels by, where Ember declares the op in
a namespace of its own: ops whose schemas ExecuTorch's runtime defines but
torch does not ship. Their names in torch stay Ember's, so a process that also
imports ExecuTorch (whose Python libraries declare some of them) sees no
clash; the emitter writes the names both runtimes know."""

KERNEL_NAMES = {
    "ember::_clone_dim_order.out": "dim_order_ops::_clone_dim_order.out",
    "ember::_to_dim_order_copy.out": "dim_order_ops::_to_dim_order_copy.out",
    "ember_quant::embedding_byte.out": "quantized_decomposed::embedding_byte.out",
    "ember_quant::embedding_4bit.out": "quantized_decomposed::embedding_4bit.out",
}
