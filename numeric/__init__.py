"""The NumPy forward model of both chapters (never imports sympy).

float64 by default; float32 in gives float32 out. Every public function
validates its arguments and raises ValueError or TypeError naming the
argument, what was expected and what came; an array it would allocate beyond
the machine's memory is refused before allocation. The `*_kernel` functions
(and project_heads, merge_heads) take validated arrays and check nothing: they
are the pieces the block, the model and the decoder compose. Modules, in
dependency order:

validation   as_array, as_tokens, require_shape, require_finite_result, require_allocation,
             require_one_float_dtype: the shared argument checks
chunks       row_chunks: cache-sized pieces of elementwise work
softmax      softmax, masked_softmax (sigma^U), softmax_jacobian; shifted_exponentials
             (e = exp(z - max z) and its row sums) for the kernels
layer_norm   layer_norm, layer_norm_jacobian
activations  relu, gelu (exact t Phi(t)), gelu_tanh, ACTIVATIONS, activation_function
contraction  contract(c, *operands), count_multiplications(), record
parameters   parameter_count, sub_parameters, check_parameters
attention    causal_mask, attention, multi_head_attention (cross-attention via context);
             causal attention skips the masked blocks (CAUSAL_BLOCK query rows at a time)
mlp          mlp
block        pre_ln_block, post_ln_block
model        init_parameters, parameter_shapes, embed, forward, check_model_parameters
kv_cache     Decoder: incremental decoding with a key/value cache
gpt2         load_gpt2, config_from_gpt2, to_gpt2_state_dict, to_gpt2_config, save_gpt2
error_bounds first-order rounding-error bounds of every building block (the tolerances of
             the checks and tests come from here)
running_error those bounds carried through the exact Jacobians of the later stages to a
             block's output (block_rounding_bound) and the model's logits
             (model_rounding_bound)
"""
