"""Tiny offline models for tests and the CPU demo: a tokenizer trained on the embedded sites' text
and a small Qwen2-style causal LM built from a config.

No model hub is needed: the byte-level BPE tokenizer is trained on the fly (seconds) on the
text an agent will read and write (the system prompt, task intents, page observations and
action strings), wrapped in :class:`~transformers.PreTrainedTokenizerFast` with a ChatML
chat template, and saved next to a randomly initialised ``Qwen2ForCausalLM``. The result is
an ordinary model directory: every trainer and example takes it exactly like a hub id.

>>> from trainers.tiny import build_tiny_model                   # doctest: +SKIP
>>> path = build_tiny_model("runs/tiny", texts=["Task: find the cheapest product", ...])  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

#: ChatML, as Qwen models use it, with tool calling in Qwen's format. ``{% generation %}`` marks
#: the assistant's tokens (tool calls included) so that ``return_assistant_tokens_mask`` (and TRL's
#: ``assistant_only_loss``) work with it. Without ``tools``, tool calls and tool messages, it renders
#: plain ChatML, exactly as the template before tools did. With ``tools``, the tools' JSON schemas
#: follow the system message (or open one); an assistant's tool calls are JSON objects in
#: ``<tool_call>`` tags after its content; a tool's result is a user turn in ``<tool_response>`` tags.
TOOLS_PREAMBLE = (
    "\n\n# Tools\n\nCall a tool by writing a JSON object with its name and arguments inside "
    "<tool_call></tool_call> tags, for example:\n<tool_call>\n{\"name\": \"click\", \"arguments\": "
    "{\"element\": 12}}\n</tool_call>\n\nThe tools:"
)
CHAT_TEMPLATE = (
    "{% set tool_text = namespace(value='') %}"
    "{% if tools %}"
    "{% set tool_text.value = '" + TOOLS_PREAMBLE.replace("\n", "\\n") + "' %}"
    "{% for tool in tools %}{% set tool_text.value = tool_text.value + '\\n' + (tool | tojson) %}{% endfor %}"
    "{% if messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\\n' + tool_text.value.lstrip() + '<|im_end|>\\n' }}"
    "{% endif %}"
    "{% endif %}"
    "{% for message in messages %}"
    "{% if message['role'] == 'assistant' %}"
    "{{ '<|im_start|>assistant\\n' }}{% generation %}{{ message['content'] or '' }}"
    "{% for call in (message['tool_calls'] or []) %}"
    "{% if message['content'] or not loop.first %}{{ '\\n' }}{% endif %}"
    "{% set arguments = call['function']['arguments'] %}"
    "{{ '<tool_call>\\n{\"name\": ' + (call['function']['name'] | tojson) + ', \"arguments\": ' }}"
    "{{ arguments if arguments is string else (arguments | tojson) }}{{ '}\\n</tool_call>' }}"
    "{% endfor %}"
    "{{ '<|im_end|>' }}{% endgeneration %}{{ '\\n' }}"
    "{% elif message['role'] == 'tool' %}"
    "{{ '<|im_start|>user\\n<tool_response>\\n' + message['content'] + '\\n</tool_response><|im_end|>\\n' }}"
    "{% else %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] }}"
    "{% if loop.first and message['role'] == 'system' %}{{ tool_text.value }}{% endif %}"
    "{{ '<|im_end|>\\n' }}"
    "{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
#: How ``tokenizer.parse_response`` reads a reply of this template back into content and tool calls
#: (transformers' response-template format; TRL uses it to find the tool calls in a completion).
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            "open": "<tool_call>",
            "close_pattern": r"</tool_call>\s*",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}
SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
#: Message headers as single tokens. The prompt ends with the assistant header, so no merge can
#: span the boundary between prompt and action: a training row is tokenised exactly like the
#: context the model generates from.
HEADER_TOKENS = tuple(f"<|im_start|>{role}\n" for role in ("system", "user", "assistant"))


@dataclass(frozen=True)
class TinyModelSpec:
    """Size of the tiny model (a few hundred thousand parameters by default).

    Attributes:
        vocab_size: Target size of the BPE vocabulary (special tokens included).
        max_token_length: Longest merge in characters.
        split_words: Split text at spaces and punctuation before merging (GPT-2 style). Off by
            default: merges may then span spaces and lines, so the long, repetitive
            system prompt and page markup become a few hundred tokens instead of a thousand,
            which is what makes CPU training of a tiny model take minutes.
        split_digits: Keep every run of digits a token sequence of its own, never merged with the
            text around it, so that element ids, prices and counts read on a page are the same
            tokens the action or answer writes (a tiny model can copy them to a page it never saw).
        hidden_size: Width of the residual stream.
        intermediate_size: Width of the MLP.
        num_hidden_layers: Transformer blocks.
        num_attention_heads: Query heads.
        num_key_value_heads: Key/value heads (grouped-query attention, as in Qwen2).
        max_position_embeddings: Longest context in tokens.
        seed: Seed of the weight initialisation.
    """

    vocab_size: int = 8000
    max_token_length: int = 16
    split_words: bool = False
    split_digits: bool = False
    hidden_size: int = 96
    intermediate_size: int = 256
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    max_position_embeddings: int = 16384
    seed: int = 0

    def __post_init__(self) -> None:
        if self.vocab_size < 300:
            raise ValueError(f"vocab_size must be at least 300 (256 bytes + merges), got {self.vocab_size}.")
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"hidden_size ({self.hidden_size}) must be divisible by num_attention_heads ({self.num_attention_heads})."
            )
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError(
                f"num_attention_heads ({self.num_attention_heads}) must be a multiple of num_key_value_heads "
                f"({self.num_key_value_heads})."
            )


def train_tokenizer(texts: Iterable[str], vocab_size: int = 8000, *, max_token_length: int = 16,
                    split_words: bool = False, split_digits: bool = False):
    """A byte-level BPE tokenizer trained on ``texts``, with ChatML special tokens and template.

    Byte-level means any unicode string round-trips, even characters never seen in training.
    See :class:`TinyModelSpec` for ``max_token_length``, ``split_words`` and ``split_digits``.

    >>> tok = train_tokenizer(["do(action=\\"Click\\", element=\\"12\\")"] * 20, vocab_size=300)
    >>> tok.decode(tok("exit(message=\\"ünïcode\\")")["input_ids"])
    'exit(message="ünïcode")'
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=split_words)
    backend.pre_tokenizer = (pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=False), byte_level])
                             if split_digits else byte_level)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[*SPECIAL_TOKENS, *HEADER_TOKENS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        max_token_length=max_token_length,
        show_progress=False,
    )
    backend.train_from_iterator(texts, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        bos_token=None,
        unk_token=None,
        additional_special_tokens=["<|im_start|>", *HEADER_TOKENS],
        chat_template=CHAT_TEMPLATE,
        response_template=RESPONSE_TEMPLATE,
        clean_up_tokenization_spaces=False,
        padding_side="left",  # generation pads on the left
    )
    return tokenizer


def build_tiny_model(output_dir: str | Path, *, texts: Iterable[str], spec: TinyModelSpec | None = None) -> Path:
    """Train a tokenizer on ``texts``, build a Qwen2 model for it, and save both to ``output_dir``.

    Returns the directory, which loads with ``AutoModelForCausalLM.from_pretrained`` and
    ``AutoTokenizer.from_pretrained`` like any hub model.
    """
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    spec = spec or TinyModelSpec()
    output_dir = Path(output_dir)
    tokenizer = train_tokenizer(
        texts, spec.vocab_size, max_token_length=spec.max_token_length, split_words=spec.split_words,
        split_digits=spec.split_digits,
    )
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=spec.hidden_size,
        intermediate_size=spec.intermediate_size,
        num_hidden_layers=spec.num_hidden_layers,
        num_attention_heads=spec.num_attention_heads,
        num_key_value_heads=spec.num_key_value_heads,
        max_position_embeddings=spec.max_position_embeddings,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    # Seed a private generator so that building a model never disturbs the caller's RNG state.
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec.seed)
        model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.pad_token_id
    )
    output_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(output_dir)
    tokenizer.save_pretrained(output_dir)
    logger.info(
        "Tiny model: %d parameters, vocabulary %d, saved to %s",
        sum(p.numel() for p in model.parameters()), len(tokenizer), output_dir,
    )
    return output_dir


def demonstration_texts(demos: Iterable, *, thinking: bool = True) -> list[str]:
    """What a web agent reads and writes, from demonstrations: prompts, intents, pages and actions.

    Includes both answer formats' system prompts so one tokenizer serves plain and thinking runs.
    """
    from webarena_gym.prompts import system_prompt

    texts = [system_prompt(thinking=False), system_prompt(thinking=True)]
    for demo in demos:
        texts.append(f"Task: {demo.intent}")
        for turn in demo.turns:
            texts.extend((turn.observation, turn.url, turn.action))
            if thinking and turn.thought:
                texts.append(f"<think>{turn.thought}</think><answer>{turn.action}</answer>")
    return texts
