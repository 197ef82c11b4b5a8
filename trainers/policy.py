"""The policy outside a trainer: sampling turns from it in batches, evaluating it, and saving it.

:class:`Sampler` is the ``generate`` callable of :func:`trainers.rollout.collect_rollouts`
(training uses TRL's own generation path instead); :class:`LocalModelPolicy` is a model as
webarena_gym's evaluation :class:`~webarena_gym.evaluation.Policy` (what
``webarena-gym eval --model PATH`` loads).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from webarena_gym.evaluation import PolicyOutput

#: What ``tokenizer_config.json`` says for a tokenizer defined entirely by its ``tokenizer.json``.
GENERIC_TOKENIZER_CLASSES = ("TokenizersBackend", "PreTrainedTokenizerFast")
#: Fewer tokens than a byte-level vocabulary's 256 bytes: no tokenizer a model was trained with.
MIN_TOKENIZER_SIZE = 256


def pick_device() -> torch.device:
    """CUDA when there is one, else CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_tokenizer(path: str) -> Any:
    """The tokenizer of a model directory or hub id, exactly as it was saved.

    ``AutoTokenizer`` rebuilds the pre-tokenizer of some model types from its own rules
    (every ``qwen2`` model gets Qwen's word-splitting regex), which would silently change
    how a tiny model's tokenizer (trained without word splitting) cuts text. A directory
    whose ``tokenizer_config.json`` declares the generic backend is therefore loaded as
    saved; everything else goes through ``AutoTokenizer``.
    """
    from transformers import AutoTokenizer, PreTrainedTokenizerFast

    config = Path(path) / "tokenizer_config.json"
    if config.is_file():
        declared = json.loads(config.read_text(encoding="utf-8")).get("tokenizer_class")
        if declared in GENERIC_TOKENIZER_CLASSES:
            return PreTrainedTokenizerFast.from_pretrained(path)
    return AutoTokenizer.from_pretrained(path)


def check_pretrained(name: str) -> None:
    """Fail early, saying what is wrong, unless ``name`` (a directory or hub id) is a causal LM whose tokenizer renders chats."""
    from transformers import MODEL_FOR_CAUSAL_LM_MAPPING, AutoConfig

    from .chat import require_chat_template

    if not Path(name).exists() and (Path(name).is_absolute() or name.startswith((".", "~")) or name.count("/") > 1):
        raise ValueError(f"there is no model directory {name!r}")
    try:
        config = AutoConfig.from_pretrained(name)
        tokenizer = load_tokenizer(name)
    except (OSError, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if not Path(name).exists():
            raise ValueError(f"there is no model directory {name!r} here, and as a hub id it does not load "
                             f"({reason})") from exc
        raise ValueError(f"{name!r} does not load as a model directory or hub id ({reason})") from exc
    if type(config) not in MODEL_FOR_CAUSAL_LM_MAPPING:
        raise ValueError(f"{name!r} is a {config.model_type!r} model, not a causal language model")
    # Without tokenizer files, transformers builds an empty tokenizer of the model's type rather than failing.
    embeddings = getattr(config.get_text_config(), "vocab_size", None)
    if len(tokenizer) < MIN_TOKENIZER_SIZE:
        raise ValueError(f"{name!r} has a tokenizer of {len(tokenizer)} tokens: are its tokenizer files missing?")
    if embeddings is not None and len(tokenizer) > embeddings:
        raise ValueError(f"{name!r} has a tokenizer of {len(tokenizer)} tokens for {embeddings} embeddings")
    require_chat_template(tokenizer)


def load_policy(path: str, *, device: torch.device | None = None, dtype: torch.dtype | None = None,
                attn_implementation: str | None = None) -> tuple[Any, Any]:
    """A saved model and its tokenizer; by default in bf16 on CUDA (where supported), float32 on CPU, with the
    model's own attention unless ``attn_implementation`` names one."""
    from transformers import AutoModelForCausalLM

    from .config import cuda_bf16_available

    device = device or pick_device()
    if dtype is None:
        dtype = torch.bfloat16 if device.type == "cuda" and cuda_bf16_available() else torch.float32
    chosen = {"attn_implementation": attn_implementation} if attn_implementation else {}
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype, **chosen).to(device)
    return model, load_tokenizer(path)


class Sampler:
    """Generates one turn for each context of a batch with ``model.generate``.

    Args:
        model: A causal LM.
        tokenizer: Its tokenizer (pad and EOS tokens are taken from it).
        max_new_tokens: Token limit of one turn.
        temperature: 0 decodes greedily; above 0 samples.
        top_p: Nucleus sampling mass.
        batch_size: Contexts per ``generate`` call (bounds memory for long pages).
    """

    def __init__(self, model: Any, tokenizer: Any, *, max_new_tokens: int = 128, temperature: float = 0.0,
                 top_p: float = 1.0, batch_size: int = 16):
        if max_new_tokens < 1 or batch_size < 1 or temperature < 0:
            raise ValueError(
                f"max_new_tokens and batch_size must be >= 1 and temperature >= 0, got {max_new_tokens}, "
                f"{batch_size}, {temperature}."
            )
        self.model, self.tokenizer = model, tokenizer
        self.max_new_tokens, self.temperature, self.top_p, self.batch_size = max_new_tokens, temperature, top_p, batch_size
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        self.pad_id, self.eos_id = pad, tokenizer.eos_token_id

    @torch.no_grad()
    def __call__(self, batch: list[list[int]]) -> list[list[int]]:
        was_training = self.model.training
        self.model.eval()
        try:
            out: list[list[int]] = []
            for start in range(0, len(batch), self.batch_size):
                out.extend(self._generate(batch[start : start + self.batch_size]))
            return out
        finally:
            self.model.train(was_training)

    def _generate(self, chunk: list[list[int]]) -> list[list[int]]:
        device = next(self.model.parameters()).device
        width = max(len(ids) for ids in chunk)
        input_ids = torch.full((len(chunk), width), self.pad_id, dtype=torch.long)
        attention_mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for i, ids in enumerate(chunk):  # left padding: every context ends where generation starts
            input_ids[i, width - len(ids) :] = torch.tensor(ids)
            attention_mask[i, width - len(ids) :] = 1
        sampling = {"do_sample": True, "temperature": self.temperature, "top_p": self.top_p, "top_k": 0}
        generated = self.model.generate(
            input_ids=input_ids.to(device), attention_mask=attention_mask.to(device),
            max_new_tokens=self.max_new_tokens, pad_token_id=self.pad_id, eos_token_id=self.eos_id,
            **(sampling if self.temperature > 0 else {"do_sample": False}),
        )
        completions = []
        for row in generated[:, width:].tolist():
            if self.eos_id in row:
                row = row[: row.index(self.eos_id) + 1]  # keep EOS: it is part of what was sampled
            completions.append(row)
        return completions


class LocalModelPolicy:
    """A transformers model answering a batch of agent contexts (one ``generate`` per batch).

    Each context is rendered with the model's chat template exactly as in training
    (:func:`trainers.chat.prompt_ids`); the answer is decoded without special tokens.

    Args:
        model: A causal LM.
        tokenizer: Its tokenizer, with a chat template.
        max_new_tokens: Token limit of one turn.
        temperature: 0 decodes greedily; above 0 samples.
        batch_size: Contexts per ``generate`` call.
        name: What the run file calls the model (default: its ``name_or_path``).
    """

    def __init__(self, model: Any, tokenizer: Any, *, max_new_tokens: int = 128, temperature: float = 0.0,
                 batch_size: int = 16, name: str = ""):
        from .chat import require_chat_template

        require_chat_template(tokenizer)
        self.tokenizer = tokenizer
        self.sampler = Sampler(model, tokenizer, max_new_tokens=max_new_tokens, temperature=temperature,
                               batch_size=batch_size)
        self.name = name or str(getattr(model, "name_or_path", "") or type(model).__name__)

    @classmethod
    def from_pretrained(cls, path: str, **kwargs: Any) -> LocalModelPolicy:
        """Load a model directory or hub id (see :func:`load_policy`)."""
        model, tokenizer = load_policy(path)
        return cls(model, tokenizer, name=kwargs.pop("name", "") or path, **kwargs)

    def describe(self) -> dict[str, Any]:
        return {"model": self.name, "temperature": self.sampler.temperature, "max_tokens": self.sampler.max_new_tokens}

    def act(self, contexts: Any) -> list[PolicyOutput]:
        from .chat import prompt_ids

        batch = [prompt_ids(self.tokenizer, messages) for messages in contexts]
        completions = self.sampler(batch)
        texts = self.tokenizer.batch_decode(completions, skip_special_tokens=True)
        return [PolicyOutput(text, len(ids), len(completion))
                for text, ids, completion in zip(texts, batch, completions, strict=True)]


def save_policy(trainer: Any, output_dir: str) -> bool:
    """Save a plain model directory (a LoRA adapter merged into the weights) with its tokenizer and the
    agent settings it was trained with (``agent_settings.json``).

    Under ``accelerate launch`` every process calls this, and only the main one writes (the
    others would write the same files at the same time); all wait until it has. Returns
    whether this process wrote the directory.
    """
    from .agent_record import write_agent_settings
    from .config import AgentArguments

    accelerator = trainer.accelerator
    accelerator.wait_for_everyone()
    writes = accelerator.is_main_process
    if writes:
        model = accelerator.unwrap_model(trainer.model)
        if hasattr(model, "merge_and_unload"):
            model = model.merge_and_unload()
        model.save_pretrained(output_dir)
        trainer.processing_class.save_pretrained(output_dir)
        if isinstance(trainer.args, AgentArguments):
            write_agent_settings(trainer.args, output_dir)
    accelerator.wait_for_everyone()
    return writes
