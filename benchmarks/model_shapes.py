"""The shapes of the models the GPU measurements stand in for, and a builder of a model of such a shape.

No model hub is reachable from a lent GPU machine, so a "Qwen2.5-0.5B-shaped" model is a
``Qwen2ForCausalLM`` built from the numbers of that model's published ``config.json``, with random
weights and this project's tokenizer (learnt on the embedded sites' text, :mod:`trainers.tiny`). Its
vocabulary is Qwen2.5's (151,936 rows of embedding and output layer, what dominates the memory of the
log-probs at long contexts): ids past the project tokenizer's decode to nothing. Random weights sample
long, invalid actions, the worst case for generation time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The published ``config.json`` of Qwen/Qwen2.5-0.5B(-Instruct) and Qwen/Qwen2.5-3B(-Instruct): the numbers that
#: decide time and memory. Both tie the output layer to the input embedding. "tiny" is the CPU dry run's stand-in
#: (its vocabulary is the tokenizer's own).
SHAPES: dict[str, dict[str, Any]] = {
    "qwen2.5-0.5b": {"hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24, "num_attention_heads": 14,
                     "num_key_value_heads": 2, "vocab_size": 151_936, "tie_word_embeddings": True,
                     "max_position_embeddings": 32_768, "rope_theta": 1_000_000.0, "rms_norm_eps": 1e-6},
    "qwen2.5-3b": {"hidden_size": 2048, "intermediate_size": 11008, "num_hidden_layers": 36, "num_attention_heads": 16,
                   "num_key_value_heads": 2, "vocab_size": 151_936, "tie_word_embeddings": True,
                   "max_position_embeddings": 32_768, "rope_theta": 1_000_000.0, "rms_norm_eps": 1e-6},
    "tiny": {"hidden_size": 64, "intermediate_size": 192, "num_hidden_layers": 2, "num_attention_heads": 4,
             "num_key_value_heads": 2, "vocab_size": None, "tie_word_embeddings": True,
             "max_position_embeddings": 32_768, "rope_theta": 1_000_000.0, "rms_norm_eps": 1e-6},
}

#: Families whose oracle demonstrations teach the tokenizer (the step-time benchmark's own).
TOKENIZER_FAMILIES = ("map.missing_information", "map.zip_code", "shopping_admin.preview_theme")


def project_tokenizer(task_ids: list[int] | None = None) -> Any:
    """This project's tokenizer, learnt from the oracle's demonstrations of ``task_ids`` (default: a few families)."""
    from trainers.tiny import demonstration_texts, train_tokenizer
    from webarena_gym.demos import record_oracle_demonstrations
    from webarena_gym.suites.embedded import family_task_ids

    task_ids = task_ids if task_ids is not None else family_task_ids("train", TOKENIZER_FAMILIES)
    demos = list(record_oracle_demonstrations("train", task_ids=task_ids, progress=False))
    return train_tokenizer(demonstration_texts(demos))


def shaped_config(shape: str, tokenizer: Any) -> Any:
    """A ``Qwen2Config`` of ``shape`` (a key of :data:`SHAPES`) whose special tokens are ``tokenizer``'s."""
    from transformers import Qwen2Config

    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {sorted(SHAPES)}, got {shape!r}.")
    numbers = dict(SHAPES[shape])
    numbers["vocab_size"] = numbers["vocab_size"] or len(tokenizer)
    if numbers["vocab_size"] < len(tokenizer):
        raise ValueError(f"the {shape} vocabulary ({numbers['vocab_size']}) is smaller than the tokenizer's "
                         f"({len(tokenizer)}): learn a smaller tokenizer.")
    return Qwen2Config(**numbers, bos_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id)


def build_shaped_model(shape: str, tokenizer: Any, *, device: str = "cpu", dtype: Any = None, seed: int = 0) -> Any:
    """A randomly initialised ``Qwen2ForCausalLM`` of ``shape``, built directly on ``device`` in ``dtype``."""
    import torch
    from transformers import GenerationConfig, Qwen2ForCausalLM

    config = shaped_config(shape, tokenizer)
    previous = torch.get_default_dtype()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torch.set_default_dtype(dtype or torch.float32)
        try:
            with torch.device(device):
                model = Qwen2ForCausalLM(config)
        finally:
            torch.set_default_dtype(previous)
    model.generation_config = GenerationConfig(eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                                               bos_token_id=tokenizer.pad_token_id)
    return model


def save_shaped_model(directory: str | Path, shape: str, tokenizer: Any, *, device: str = "cpu") -> Path:
    """:func:`build_shaped_model` in float32, saved with ``tokenizer`` to ``directory`` (a model directory any
    trainer takes like a hub id)."""
    directory = Path(directory)
    model = build_shaped_model(shape, tokenizer, device=device)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
