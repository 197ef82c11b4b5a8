"""Write a small model directory as a GGUF file, the way llama.cpp lays one out, for the GGUF tests.

Only what the tests need: float32 tensors of a Llama or Qwen2 model, llama.cpp's tensor names
(from the ``gguf`` package's own name map), its rotary row order for Llama's query and key
projections, and a byte-level BPE tokenizer (vocabulary, merges, token types, special token ids,
chat template) under llama.cpp's metadata keys.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

#: llama.cpp's token types.
NORMAL, CONTROL = 1, 3


def write_gguf(model_dir: Path, path: Path) -> Path:
    """``model_dir`` (a saved ``LlamaForCausalLM`` or ``Qwen2ForCausalLM``) as the GGUF file ``path``."""
    import gguf
    import torch
    from safetensors.torch import load_file

    config = json.loads((model_dir / "config.json").read_text())
    arch = {"llama": gguf.MODEL_ARCH.LLAMA, "qwen2": gguf.MODEL_ARCH.QWEN2}[config["model_type"]]
    writer = gguf.GGUFWriter(str(path), gguf.MODEL_ARCH_NAMES[arch])
    heads, kv_heads = config["num_attention_heads"], config["num_key_value_heads"]
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_block_count(config["num_hidden_layers"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_layer_norm_rms_eps(config["rms_norm_eps"])
    writer.add_rope_freq_base((config.get("rope_parameters") or {}).get("rope_theta", config.get("rope_theta")))
    writer.add_rope_dimension_count(config["hidden_size"] // heads)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    _add_tokenizer(writer, model_dir)

    names = gguf.get_tensor_name_map(arch, config["num_hidden_layers"])
    for name, tensor in load_file(str(model_dir / "model.safetensors")).items():
        data = tensor.to(torch.float32).numpy()
        if arch == gguf.MODEL_ARCH.LLAMA and name.endswith(("q_proj.weight", "k_proj.weight")):
            data = _rotary_rows(data, heads if "q_proj" in name else kv_heads)
        gguf_name = names.get_name(name, try_suffixes=(".weight", ".bias"))
        assert gguf_name is not None, name
        writer.add_tensor(gguf_name, np.ascontiguousarray(data))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _rotary_rows(weight: np.ndarray, heads: int) -> np.ndarray:
    """llama.cpp's row order for rotary heads: each head's two halves interleaved pair by pair."""
    half = weight.shape[0] // heads // 2
    return weight.reshape(heads, 2, half, *weight.shape[1:]).swapaxes(1, 2).reshape(weight.shape)


def _add_tokenizer(writer, model_dir: Path) -> None:
    tokenizer = json.loads((model_dir / "tokenizer.json").read_text())
    vocab = tokenizer["model"]["vocab"]
    specials = {added["content"]: added["id"] for added in tokenizer["added_tokens"]}
    tokens = [None] * (1 + max([*vocab.values(), *specials.values()]))
    for token, index in [*vocab.items(), *specials.items()]:
        tokens[index] = token
    assert None not in tokens
    merges = [m if isinstance(m, str) else " ".join(m) for m in tokenizer["model"]["merges"]]
    tokenizer_config = json.loads((model_dir / "tokenizer_config.json").read_text())
    template = tokenizer_config.get("chat_template")
    if template is None and (model_dir / "chat_template.jinja").is_file():
        template = (model_dir / "chat_template.jinja").read_text()
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types([CONTROL if token in specials else NORMAL for token in tokens])
    writer.add_token_merges(merges)
    for key, add in (("eos_token", writer.add_eos_token_id), ("bos_token", writer.add_bos_token_id),
                     ("pad_token", writer.add_pad_token_id)):
        if tokenizer_config.get(key) in specials:
            add(specials[tokenizer_config[key]])
    if template:
        writer.add_chat_template(template)
