"""Whole Llama-family decoders as users export them (issue 40's held-out check): transformers
`*ForCausalLM` models built from configs with random init (nothing downloaded), `input_ids ->
logits`, batch 1, seq 64. Imported by bench/export_models.py (`DECODER_MODELS`, exported with
`--forms inline`, which also writes `M.dynamic.onnx` with a symbolic `seq` axis and `M.f16.onnx`
in f16).

One size for every family: hidden 256, 4 layers, 8 heads (head dim 32), 2 KV heads where the
family has grouped-query attention, vocab 1000. Each family brings its own norm, rotary and
attention variant, which the passes were not written against (the suite's block models are
plain Llama):

- llama: RMSNorm, rotary on the whole head, GQA, SwiGLU (the reference family);
- qwen2: Llama with q/k/v projection biases;
- mistral: Llama with a sliding-window causal mask (window 32 of the 64 tokens);
- phi3: fused qkv and gate/up projections (sliced in the graph), no GQA;
- gemma: (1 + w) RMSNorm, GeGLU (tanh GELU), embeddings scaled by sqrt(hidden), tied head;
- gpt_neox: LayerNorm, partial rotary (8 of 32 head dims), parallel attention and MLP, GELU.

`MORE_DECODERS`, the build sweep's further families at the same size: learned positions (gpt2,
opt, gpt_bigcode with one KV head), ALiBi biases (bloom, mpt), rotary variants (gptj and codegen's
interleaved pairs, phi's partial rotary with a parallel block, falcon's multi-query parallel block,
stablelm, starcoder2, olmo's parameter-free LayerNorm, cohere's parallel block with a bias-free
LayerNorm), query/key RMSNorms (qwen3, olmo2, gemma3_text), gemma2's tanh soft-capped logits and
alternating sliding windows, granite's scaling multipliers; the second sweep's gpt_neo
(alternating global and 32-token local attention, unscaled scores), xglm (sinusoidal positions,
scaled embeddings), nemotron (squared-ReLU MLP, LayerNorm with (1 + w)), mamba (no attention: a
selective state-space scan, a causal depthwise 1-D conv, Softplus; exported static only).
Mixtral is not among them: torch.export cannot trace its expert
routing statically (the default grouped-matmul kernel is a custom op the ONNX exporter lacks; the
eager experts loop over data-dependent token counts).
"""

from __future__ import annotations

import torch
from torch import nn

SEQ = 64
VOCAB = 1000
SIZE = {"vocab_size": VOCAB, "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8,
        "max_position_embeddings": 128}
GQA = {"num_key_value_heads": 2}


class Logits(nn.Module):
    """A causal LM's `logits` for `input_ids` alone (no cache; the attribute `m` gives the
    `m.` names). transformers builds the causal (or sliding-window) mask and positions itself."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, input_ids):
        return self.m(input_ids=input_ids, use_cache=False).logits


def _inputs() -> dict[str, torch.Tensor]:
    return {"input_ids": torch.randint(0, VOCAB, (1, SEQ), dtype=torch.int64)}


def causal_lm(family: str, **options):
    """A builder for bench/export_models.py: transformers' `AutoConfig.for_model(family)` with
    `SIZE` (or `options` where they name the same field), as `AutoModelForCausalLM.from_config`
    (random init)."""
    def build():
        from transformers import AutoConfig, AutoModelForCausalLM

        config = AutoConfig.for_model(family, **{**SIZE, **options})  # options override SIZE
        model = AutoModelForCausalLM.from_config(config)
        return Logits(model), _inputs(), config.to_dict()
    return build


# Symbolic axes of the dynamic export (`M.dynamic.onnx`), per input: axis -> name.
DYNAMIC_AXES = {"input_ids": {1: "seq"}}

# name -> (builder, definition, keep BatchNormalization nodes), as bench/export_models.py's tables.
DECODER_MODELS = {
    "decoder/llama": (causal_lm("llama", **GQA, intermediate_size=688),
                      "LlamaForCausalLM: RMSNorm, RoPE, GQA 8/2 heads, SwiGLU 688", False),
    "decoder/qwen2": (causal_lm("qwen2", **GQA, intermediate_size=688),
                      "Qwen2ForCausalLM: Llama with q/k/v biases", False),
    "decoder/mistral": (causal_lm("mistral", **GQA, intermediate_size=688, sliding_window=32),
                        "MistralForCausalLM: Llama with a 32-token sliding-window mask", False),
    "decoder/phi3": (causal_lm("phi3", intermediate_size=688, pad_token_id=0, bos_token_id=1,
                                     eos_token_id=2),
                     "Phi3ForCausalLM: fused qkv and gate/up projections, 8 KV heads", False),
    "decoder/gemma": (causal_lm("gemma", **GQA, head_dim=32, intermediate_size=688),
                      "GemmaForCausalLM: (1 + w) RMSNorm, GeGLU, scaled embeddings, tied head", False),
    "decoder/gpt_neox": (causal_lm("gpt_neox", intermediate_size=1024, rotary_pct=0.25),
                         "GPTNeoXForCausalLM: LayerNorm, rotary on 8 of 32 head dims, parallel "
                         "attention and MLP", False),
}

TOKENS = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}
FFN = {"intermediate_size": 688}

MORE_DECODERS = {
    f"decoder/{family}": (causal_lm(family, **TOKENS, **options), f"{family} causal LM at the decoders' size", False)
    for family, options in (
        ("gpt2", {}), ("opt", {"ffn_dim": 1024, "word_embed_proj_dim": 256}), ("gpt_bigcode", {"multi_query": True}),
        ("bloom", {}), ("mpt", {}), ("gptj", {"rotary_dim": 16}), ("codegen", {"rotary_dim": 16}),
        ("phi", {**FFN, "partial_rotary_factor": 0.5}), ("falcon", {}), ("stablelm", {**FFN, **GQA}),
        ("starcoder2", {**FFN, **GQA}), ("olmo", FFN), ("cohere", {**FFN, **GQA}), ("qwen3", {**FFN, **GQA}),
        ("olmo2", FFN), ("gemma3_text", {**FFN, **GQA, "head_dim": 32, "sliding_window": 32}),
        ("gemma2", {**FFN, **GQA, "head_dim": 32, "sliding_window": 32}), ("granite", {**FFN, **GQA}),
        ("gpt_neo", {"attention_types": [[["global", "local"], 2]], "window_size": 32}),
        ("xglm", {"ffn_dim": 1024}), ("nemotron", {**FFN, **GQA}), ("mamba", {"state_size": 16}),
    )
}
