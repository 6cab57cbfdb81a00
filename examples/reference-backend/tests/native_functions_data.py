"""Test data about the ATen operators of the ref backend."""

# ATen ops that the ref backend does not register for PrivateUse1, by schema
# name ("op" or "op.overload"). Tests that sweep ATen ops skip these.
#
# TODO: This is a temporary list and it should be emptied: register the op, or
# confirm that PyTorch serves it from ops that are registered, then delete its
# line. Not every entry fails today (see the composite group below).
UNREGISTERED_OPS = frozenset([
    # Internal helpers, called by other kernels rather than by user code.
    "_amp_foreach_non_finite_check_and_unscale_",
    "_amp_update_scale_",
    "_assert_async",
    "_cdist_forward",
    "_cummax_helper",
    "_cummin_helper",
    "_embedding_bag",
    "_embedding_bag_forward_only",
    "_fused_moving_avg_obs_fq_helper",
    "_index_put_impl_",
    "_masked_softmax",
    "_native_multi_head_attention",
    "_pdist_forward",
    "_transformer_encoder_layer_fwd",
    "_unique2",
    # Sparse and coalesced-tensor helpers: the backend stores dense tensors only.
    "_coalesce",
    "_coalesced_",
    "_indices",
    "_nnz",
    "_sparse_coo_tensor_with_dims_and_tensors",
    "_to_dense",
    "_values",
    "indices",
    "sparse_mask",
    "sparse_resize_",
    "to_sparse.sparse_dim",
    "to_sparse_csr",
    "values",
    # Served by PyTorch's composite kernels, which call other ops: each works
    # here once everything it calls is registered (relu.out already does).
    "_convolution",
    "convolution",
    "embedding",
    "logsumexp",
    "native_group_norm",
    "native_layer_norm",
    "relu.out",
    # Forward kernels that common models need.
    "clamp",
    "elu",
    "gelu",
    "hardsigmoid",
    "hardswish",
    "index_select",
    "leaky_relu",
    "native_batch_norm",
    "native_dropout",
    "pow.Tensor_Scalar",
    "silu",
    "softplus",
    "std.correction",
    "var_mean.correction",
    "where.self",
    # Comparisons: torch 2.x samples (randn) and formats (repr) a tensor on its
    # own device with lt.Scalar_out.
    "lt.Scalar_out",
    # out= variants whose functional form is registered.
    "addmm.out",
    "cat.out",
    "div.out",
    "exp.out",
    "mean.out",
    "neg.out",
    "sub.out",
    "sum.IntList_out",
    # Backward kernels.
    "_adaptive_avg_pool2d_backward",
    "_log_softmax_backward_data",
    "_softmax_backward_data",
    "convolution_backward",
    "embedding_dense_backward",
    "gelu_backward",
    "max_pool2d_with_indices_backward",
    "native_batch_norm_backward",
    "native_layer_norm_backward",
    "sigmoid_backward",
    "silu_backward",
    "tanh_backward",
])
