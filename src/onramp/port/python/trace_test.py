"""Unit tests of trace.py's pure parts: the profile hook's stack of builtins,
and a composite's call rebuilt by argument name from the op run inside it."""
from types import SimpleNamespace

import trace as tr


def argument(name, kwarg_only=False, default=False):
    return SimpleNamespace(name=name, kwarg_only=kwarg_only, has_default_value=lambda: default)


# _scaled_dot_product_flash_attention_for_cpu's schema, and scaled_dot_product_attention's.
FOR_CPU = [argument("query"), argument("key"), argument("value"), argument("dropout_p", default=True),
           argument("is_causal", default=True), argument("attn_mask", True, True), argument("scale", True, True)]
SDPA = [argument("query"), argument("key"), argument("value"), argument("attn_mask", default=True),
        argument("dropout_p", default=True), argument("is_causal", default=True),
        argument("scale", True, True), argument("enable_gqa", True, True)]


def test_a_call_binds_its_positional_arguments_then_its_keywords():
    named = tr.named_arguments(FOR_CPU, ("q", "k", "v", 0.0, True), {"scale": 0.5})
    assert named == {"query": "q", "key": "k", "value": "v", "dropout_p": 0.0, "is_causal": True, "scale": 0.5}


def test_the_composite_call_takes_the_values_of_the_same_names_and_leaves_defaults_out():
    named = tr.named_arguments(FOR_CPU, ("q", "k", "v", 0.0, True), {})
    assert tr.call_by_name(SDPA, named) == {"query": "q", "key": "k", "value": "v", "dropout_p": 0.0,
                                           "is_causal": True}


def test_a_required_argument_of_no_value_means_no_call():
    # addmm's arguments (self, mat1, mat2) do not make linear's (input, weight).
    named = tr.named_arguments([argument("self"), argument("mat1"), argument("mat2")], ("b", "x", "w"), {})
    assert tr.call_by_name([argument("input"), argument("weight"), argument("bias", default=True)], named) is None


def test_the_stack_holds_the_builtins_being_called_innermost_last():
    stack = tr.CallStack()
    sdpa = SimpleNamespace(__name__="scaled_dot_product_attention")
    stack.hook(None, "c_call", SimpleNamespace(__name__="linear"))
    stack.hook(None, "c_return", None)
    stack.hook(None, "c_call", sdpa)
    stack.hook(None, "call", None)  # a Python function called back from C changes nothing
    assert stack.innermost() == "scaled_dot_product_attention"
    stack.hook(None, "c_exception", None)
    assert stack.innermost() is None
    stack.hook(None, "c_return", None)  # more returns than calls (the hook set mid-call) are ignored
    assert stack.innermost() is None
