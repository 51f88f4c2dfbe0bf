"""Tiny PaddleFormers 1.2.0 models: shared by tools/record_paddleformers.py (real Paddle) and
tests/test_paddleformers.py (the shim), with the inputs, training loop and helpers of tests/paddlenlp_cases.py.

PaddleFormers 1.2.0 imports HF transformers 5.x and huggingface_hub 1.x, which cannot share an environment with
PaddleNLP 3.0.0b4's hub 0.23: tests/requirements-paddleformers.txt is installed apart, with
`pip install --no-deps --target tests/.lanes/paddleformers`, and put first on PYTHONPATH of the process that runs
these cases (LANE below).
"""
import os

from tests.paddlenlp_cases import _LLAMA, Case

LANE = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".lanes", "paddleformers")

# PaddleFormers' RMSNorm calls paddle.incubate.nn.functional.fused_rms_norm_ext unless fuse_rms_norm=False: a
# CUDA-only kernel in Paddle, so the plain cases turn it off and llama_fused_rms_norm checks the fused path
_PLAIN = dict(_LLAMA, fuse_rms_norm=False)
_MOE = dict(num_experts=4, num_experts_per_tok=2, moe_intermediate_size=16)

CASES = {
    "llama": Case("LlamaForCausalLM", _PLAIN, "causal", "llama"),
    "llama_gqa": Case("LlamaForCausalLM", dict(_PLAIN, num_key_value_heads=2), "causal", "llama_gqa"),
    # PaddleFormers' attention implementations: eager (the default), sdpa (Paddle's flash-attention path:
    # scaled_dot_product_attention) and flashmask
    "llama_sdpa": Case("LlamaForCausalLM", dict(_PLAIN, _attn_implementation="sdpa"), "causal", "llama"),
    "llama_gqa_sdpa": Case("LlamaForCausalLM", dict(_PLAIN, num_key_value_heads=2, _attn_implementation="sdpa"),
                           "causal", "llama_gqa"),
    "llama_flashmask": Case("LlamaForCausalLM", dict(_PLAIN, _attn_implementation="flashmask"), "causal", "llama",
                            reference="llama"),
    "llama_fused_rms_norm": Case("LlamaForCausalLM", dict(_PLAIN, fuse_rms_norm=True), "causal", "llama",
                                 reference="llama"),
    "llama_fuse_swiglu": Case("LlamaForCausalLM", dict(_PLAIN, fuse_swiglu=True), "causal", "llama"),
    # 1.2.0's Qwen modeling imports paddlefleet at the top (gpt_provider), which is not on the package index
    "qwen2": Case("Qwen2ForCausalLM", dict(_PLAIN, num_key_value_heads=2), "causal", "qwen2"),
    "qwen2_moe": Case("Qwen2MoeForCausalLM", dict(_PLAIN, num_key_value_heads=2, shared_expert_intermediate_size=16,
                                                  **_MOE), "causal", "qwen2_moe"),
    "qwen3": Case("Qwen3ForCausalLM", dict(_PLAIN, num_key_value_heads=2), "causal", "qwen3"),
    "ernie4_5": Case("Ernie4_5ForCausalLM", dict(_PLAIN, num_key_value_heads=2), "causal", "ernie4_5"),
    "gemma3": Case("Gemma3ForCausalLM", dict(_PLAIN, num_key_value_heads=2, head_dim=4, sliding_window=4,
                                             query_pre_attn_scalar=4), "causal", "gemma3"),
    "phi3": Case("Phi3ForCausalLM", dict(_PLAIN, num_key_value_heads=2), "causal", "phi3"),
    "gpt_oss": Case("GptOssForCausalLM", dict(_PLAIN, num_key_value_heads=2, head_dim=4, num_local_experts=4,
                                              num_experts_per_tok=2, sliding_window=4, rope_scaling=None),
                    "causal", "gpt_oss"),
}


def _shim_worker(out_dir):
    """Every case under the shim, in a process of its own (tests/test_paddleformers.py): PaddleFormers' transformers
    and hub come from LANE, and importing it patches paddle's modules."""
    import paddle

    import paddleformers.transformers

    from tests.paddlenlp_cases import run_cases

    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddleformers")
    paddle.set_device("cpu")
    run_cases(paddle, paddleformers.transformers, CASES, data, out_dir)


if __name__ == "__main__":
    import sys

    _shim_worker(sys.argv[1])
