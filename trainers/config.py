"""Configs of the trainers: TRL's configs plus what a web agent run needs, validated up front.

:class:`BCConfig` extends TRL's ``SFTConfig`` and :class:`MultiTurnGRPOConfig` extends its
``GRPOConfig``; every TRL option keeps working. Defaults that would break a CPU run are
resolved from the machine instead of TRL's (``bf16`` only where CUDA supports it; the
tensorboard writer only where tensorboard is installed).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import warnings
from dataclasses import dataclass, field
from typing import Any

from trl import GRPOConfig, SFTConfig

from webarena_gym.backends import check_backend
from webarena_gym.errors import ConfigurationError
from webarena_gym.settings import (
    DEFAULT_KEEP_LAST,
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_STEPS,
    RENAMED,
    AgentSettings,
)
from webarena_gym.suites import check_split, check_suite

logger = logging.getLogger(__name__)

LAYOUTS = ("turn", "trajectory")
TASK_SAMPLING = ("uniform", "learnable", "learnable_distinct")


def cuda_bf16_available() -> bool:
    """Whether this machine trains in bf16 (a CUDA device that supports it)."""
    import torch

    return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())


def cpu_bf16_native() -> bool:
    """Whether this CPU multiplies bf16 matrices natively (AVX512-BF16 or AMX), where bf16 autocast trains faster.

    Elsewhere torch emulates bf16 on a CPU, which is slower than float32.
    """
    from .cpu import cpu_bf16_hardware

    return any(cpu_bf16_hardware().values())


def native_bf16_available() -> bool:
    """Whether this machine multiplies bf16 natively: CUDA with bf16, or, without CUDA, :func:`cpu_bf16_native`."""
    import torch

    return cuda_bf16_available() if torch.cuda.is_available() else cpu_bf16_native()


def training_attention(bf16: bool) -> str | None:
    """The attention a model trains with: ``"eager"`` in bf16 on CUDA, else None (the model's own, SDPA).

    On an H200, PyTorch's memory-efficient SDPA kernel returned NaN gradients in bf16 from a finite loss
    (pytorch/pytorch#178251): the small model's copy pretraining on seeds 0 and 1 at steps 255 and 205, its
    GRPO from BC on seed 2 at step 2; eager attention and float32 stayed finite (README, "The cause: SDPA's
    backward in bf16 on CUDA").
    """
    import torch

    return "eager" if bf16 and torch.cuda.is_available() else None


def default_report_to() -> str:
    """TRL's tensorboard logging where tensorboard is installed, else TRL's default (no tracker)."""
    return "tensorboard" if importlib.util.find_spec("tensorboard") is not None else "none"


def distributed_launch() -> bool:
    """Whether this process is one of several started by ``accelerate launch`` or ``torchrun``."""
    return int(os.environ.get("WORLD_SIZE", "1")) > 1


@dataclass
class AgentArguments:
    """What the agent sees and how long it may act; shared by BC, GRPO and evaluation.

    BC must render demonstrations with the same values that rollouts use, since the
    prompt shows the step budget ("step 3 of 15") and the observation budget.
    """

    suite: str = field(default="embedded", metadata={"help": "Task suite: 'embedded' or 'webarena-lite'."})
    split: str = field(default="train", metadata={"help": "Task split: 'train' or 'test'."})
    task_ids: list[int] | None = field(default=None, metadata={"help": "Train on these task ids only (default: all)."})
    backend: str | None = field(
        default=None, metadata={"help": "Env backend: 'direct' (in-process, embedded only) or 'playwright'."}
    )
    max_turns: int = field(
        default=DEFAULT_MAX_STEPS,
        metadata={"help": "Interaction limit per episode (the env's max_steps, a name TRL's optimizer steps hold "
                          "here); raise it for test-time scaling."},
    )
    max_chars: int = field(
        default=DEFAULT_MAX_CHARS, metadata={"help": "Character budget of one page observation (longer pages scroll)."}
    )
    thinking: bool = field(
        default=False, metadata={"help": "Thinking format: <think>...</think><answer>action</answer>."}
    )
    keep_last: int = field(
        default=DEFAULT_KEEP_LAST,
        metadata={"help": "Past observations kept in full in the context (0 = WebAgent-R1's compression)."},
    )
    task_after_page: bool = field(
        default=False,
        metadata={"help": "Restate the task after the page on every turn (WebArena's prompts) instead of once first."},
    )
    max_observation_chars: int | None = field(
        default=None, metadata={"help": "Deprecated: the former name of max_chars (warns)."}
    )
    keep_last_observations: int | None = field(
        default=None, metadata={"help": "Deprecated: the former name of keep_last (warns)."}
    )

    def __post_init__(self) -> None:
        self.validate_agent()
        parent = getattr(super(), "__post_init__", None)  # TRL's, in a config
        if parent is not None:
            parent()

    def validate_agent(self) -> None:
        """Reject settings no env accepts (a :class:`ValueError` that says what is expected); the deprecated names
        (``max_observation_chars``, ``keep_last_observations``) are moved to today's, with a :class:`FutureWarning`."""
        for old, new in RENAMED.items():
            value = getattr(self, old)
            if value is None:
                continue
            defaulted = getattr(self, new) == type(self).__dataclass_fields__[new].default
            if not defaulted and getattr(self, new) != value:
                raise ValueError(f"{old}={value!r} and {new}={getattr(self, new)!r} name one setting; give only {new}.")
            warnings.warn(f"{old} is now called {new}; the old name will stop working in a later release.",
                          FutureWarning, stacklevel=4)
            setattr(self, new, value)
            setattr(self, old, None)
        check_suite(self.suite)
        check_split(self.split)
        if self.backend is not None:
            check_backend(self.backend)
        try:
            self.agent_settings()
        except ConfigurationError as exc:  # the env's names, said as this config's
            raise ValueError(str(exc).replace("max_steps must", "max_turns must", 1)) from None
        if self.task_ids is not None and not self.task_ids:
            raise ValueError("task_ids is empty; pass None to use every task of the split.")

    def agent_settings(self) -> AgentSettings:
        """These settings as the env and its context wrapper take them (validated)."""
        return AgentSettings(max_steps=self.max_turns, max_chars=self.max_chars, keep_last=self.keep_last,
                             thinking=self.thinking, task_after_page=self.task_after_page)

    def context_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`webarena_gym.wrappers.CompressedHistory`: how the context is laid out."""
        return self.agent_settings().context_kwargs()

    def env_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`webarena_gym.env.WebArenaEnv` for these settings."""
        return {
            "suite": self.suite,
            "split": self.split,
            "backend": self.backend,
            "task_ids": list(self.task_ids) if self.task_ids is not None else None,
            **self.agent_settings().env_kwargs(),
        }


@dataclass
class LoraArguments:
    """LoRA through peft (``lora_r > 0``) or full fine-tuning (``lora_r = 0``)."""

    lora_r: int = field(default=0, metadata={"help": "LoRA rank; 0 trains every weight (full fine-tuning)."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA scaling numerator."})
    lora_dropout: float = field(default=0.05, metadata={"help": "Dropout on the LoRA path."})
    lora_target_modules: list[str] | None = field(
        default=None, metadata={"help": "Modules that get adapters (default: every linear layer)."}
    )

    def _validate_lora(self) -> None:
        if not isinstance(self.lora_r, int) or self.lora_r < 0:
            raise ValueError(f"lora_r must be a non-negative integer (0 = full fine-tuning), got {self.lora_r!r}.")
        if not 0.0 <= self.lora_dropout < 1.0:
            raise ValueError(f"lora_dropout must be in [0, 1), got {self.lora_dropout!r}.")

    def peft_config(self) -> Any:
        """A ``peft.LoraConfig`` for these settings, or None for full fine-tuning."""
        if self.lora_r == 0:
            return None
        from peft import LoraConfig

        return LoraConfig(
            r=self.lora_r, lora_alpha=self.lora_alpha, lora_dropout=self.lora_dropout,
            target_modules=self.lora_target_modules or "all-linear", task_type="CAUSAL_LM",
        )


@dataclass
class MachineDefaults:
    """TRL defaults that would break or slow a CPU run, resolved from the machine instead."""

    bf16: bool | None = field(
        default=None,
        metadata={"help": "Default: True where CUDA supports bf16, else False. True on a CPU trains with bf16 autocast "
                          "(float32 weights), faster where the CPU multiplies bf16 natively (AVX512-BF16, AMX)."},
    )
    gradient_checkpointing: bool | None = field(
        default=None, metadata={"help": "Default: True on CUDA (saves memory on long pages), False on CPU."}
    )
    dataloader_pin_memory: bool | None = field(default=None, metadata={"help": "Default: True on CUDA."})
    report_to: None | str | list[str] = field(
        default=None, metadata={"help": "Default: 'tensorboard' when installed, else 'none'."}
    )
    logging_steps: float = field(default=1, metadata={"help": "Log every this many steps."})
    use_cpu: bool | None = field(
        default=None,
        metadata={"help": "Default: True with no CUDA device when launched as several processes (accelerate launch), "
                          "so that they train on CPU over gloo, or in bf16; else False."},
    )
    attn_implementation: str | None = field(
        default=None,
        metadata={"help": "Attention of a model loaded from a path (model_init_kwargs). Default: 'eager' in bf16 on "
                          "CUDA, where SDPA's memory-efficient backward returned NaN gradients; else the model's own."},
    )
    score_every_position: bool = field(
        default=False,
        metadata={"help": "Run the output layer on every position of a row, as TRL does off CUDA, instead of only on "
                          "those that carry loss (the same log-probs, less work: trainers.scoring)."},
    )

    def _resolve_machine_defaults(self) -> None:
        import torch

        # TRL turns bf16 on by default, which fails (or crawls) on CPU: decide from the machine.
        if self.bf16 is None:
            self.bf16 = cuda_bf16_available()
        if self.dataloader_pin_memory is None:
            self.dataloader_pin_memory = torch.cuda.is_available()  # pinning means nothing without a GPU
        # Checkpointing saves GPU memory on long pages; on CPU it only costs time.
        if self.activation_checkpointing is None:
            if self.gradient_checkpointing is None:
                self.gradient_checkpointing = cuda_bf16_available()
            # Set the new name ourselves so transformers does not warn about the deprecated one.
            self.activation_checkpointing = self.gradient_checkpointing
        if self.report_to is None:
            self.report_to = default_report_to()
        if self.use_cpu is None:
            # Without it, transformers sets up a multi-process launch on a machine without GPUs as one lone process,
            # and refuses bf16 there ("Your setup doesn't support bf16/gpu").
            self.use_cpu = (distributed_launch() or bool(self.bf16)) and not torch.cuda.is_available()
        if self.bf16 and not torch.cuda.is_available() and not cpu_bf16_native():
            logger.warning("bf16 on a CPU without native bf16 (AVX512-BF16, AMX) is emulated and slower than float32")
        if self.attn_implementation is None:
            self.attn_implementation = training_attention(self.bf16)
        if self.attn_implementation is not None:
            self.model_init_kwargs = {"attn_implementation": self.attn_implementation, **(self.model_init_kwargs or {})}


@dataclass
class BCConfig(AgentArguments, LoraArguments, MachineDefaults, SFTConfig):
    """Behaviour cloning: SFT on demonstrations in the compressed-history chat format.

    One training row per demonstration turn: the prompt is exactly the context the agent
    sees at that turn (system prompt, intent, past actions, past pages compressed to a
    placeholder, the current page in full) and the completion is the expert's action;
    the loss covers the completion's tokens only.
    """

    demonstrations: str | None = field(
        default=None, metadata={"help": "Demonstrations JSONL (`webarena-gym demos --out demos.jsonl`)."}
    )
    min_demo_reward: float = field(
        default=1.0, metadata={"help": "Keep only demonstrations whose reward is at least this."}
    )
    entity_swaps: int = field(
        default=0,
        metadata={"help": "Copies of each demonstration with the strings its expert copied replaced by fresh ones "
                          "(trainers.augment): the rows to fit grow that many times; 0 trains on the originals."},
    )
    # -- TRL defaults changed for web agents --
    max_length: int | None = field(
        default=None,
        metadata={"help": "Truncate rows to this many tokens (None: never). TRL cuts the end, i.e. the action."},
    )
    completion_only_loss: bool | None = field(default=True, metadata={"help": "Loss on the action tokens only."})

    def __post_init__(self) -> None:
        self.validate_agent()
        self._validate_lora()
        if self.completion_only_loss is False:
            raise ValueError(
                "BC trains on the policy's tokens only; completion_only_loss=False would also train on pages. "
                "Leave it True (or None)."
            )
        if self.max_length is not None and self.max_length < 64:
            raise ValueError(f"max_length must be None or at least 64 tokens, got {self.max_length!r}.")
        if not isinstance(self.entity_swaps, int) or isinstance(self.entity_swaps, bool) or self.entity_swaps < 0:
            raise ValueError(f"entity_swaps must be a whole number of copies, at least 0, got {self.entity_swaps!r}.")
        if not 0.0 <= self.min_demo_reward <= 1.0:
            raise ValueError(f"min_demo_reward must be in [0, 1], got {self.min_demo_reward!r}.")
        self._resolve_machine_defaults()
        super().__post_init__()


@dataclass
class MultiTurnGRPOConfig(AgentArguments, LoraArguments, MachineDefaults, GRPOConfig):
    """Multi-turn GRPO (WebAgent-R1): G rollouts per task, binary rewards, group-relative advantages.

    ``num_generations`` is G; ``max_completion_length`` bounds one turn's output;
    ``beta`` weights the KL to the reference (the BC model); ``epsilon`` clips the ratio.
    """

    layout: str = field(
        default="turn",
        metadata={
            "help": "How trajectories become training rows. 'turn': one row per turn with the exact context its "
            "action was sampled from (exactly on-policy). 'trajectory': one sequence per trajectory with past "
            "observations compressed, environment tokens masked out (as WebAgent-R1 does)."
        },
    )
    rollout_workers: int | None = field(
        default=None,
        metadata={"help": "Env worker processes of this training process (default: for the direct backend with two "
                          "or more envs and more than one core, the machine's cores shared among its training "
                          "processes, else 0; 0: the envs stay in this process, on threads)."},
    )
    rollout_envs: int | None = field(
        default=None,
        metadata={"help": "Envs (episodes played at once) of this training process (default: its generation batch)."},
    )
    env_executor: str = field(
        default="process",
        metadata={"help": "Where the rollout env workers run: 'process' (worker processes on this machine) or 'ray' "
                          "(rollout_workers Ray actors across a cluster; the `ray` extra)."},
    )
    ray_address: str | None = field(
        default=None,
        metadata={"help": "With env_executor='ray': the cluster to join (host:port or 'auto'; default: the running "
                          "one, else a local one)."},
    )
    ray_num_cpus: float = field(default=1.0, metadata={"help": "With env_executor='ray': CPUs each env worker asks for."})
    ray_resources: str | None = field(
        default=None,
        metadata={"help": 'With env_executor=\'ray\': custom resources each env worker asks for, as JSON, e.g. '
                          '\'{"browser": 1}\' (to keep browsers off GPU nodes).'},
    )
    rollout_overlap: bool = field(
        default=False,
        metadata={"help": "Step half of the envs while generating for the other half (see benchmarks/vector_throughput.py)."},
    )
    task_sampling: str = field(
        default="uniform",
        metadata={"help": "Which tasks each batch practises. 'uniform': TRL's shuffle. 'learnable': a curriculum over "
                          "task families (intent templates) that favours those whose groups' rewards differ "
                          "(trainers.curriculum). 'learnable_distinct': the same, each task of a batch from "
                          "a different family."},
    )
    curriculum_memory: float = field(
        default=0.98,
        metadata={"help": "With a learnable task_sampling: how much of a family's counts each batch keeps "
                          "(lower forgets faster, so a family that starts to give informative groups is found sooner)."},
    )
    bc_replay_coef: float = field(
        default=0.0,
        metadata={"help": "Weight of a BC loss on demonstrations added to every step (trainers.replay, as "
                          "InstructGPT's PPO-ptx), against unlearning what BC taught; 0: pure GRPO (WebAgent-R1)."},
    )
    bc_replay_demonstrations: str | None = field(
        default=None,
        metadata={"help": "With bc_replay_coef > 0: demonstrations JSONL to replay (or pass them to the trainer)."},
    )
    bc_replay_batch_size: int = field(default=8, metadata={"help": "Demonstration turns per replayed batch."})
    plot_metrics: bool = field(default=True, metadata={"help": "Write training_dynamics.png at the end of training."})
    # -- TRL defaults changed for web agents --
    loss_type: str = field(
        default="dapo",
        metadata={"help": "Token-level objective: every action token of the batch weighs the same ('dapo')."},
    )
    beta: float = field(default=0.001, metadata={"help": "KL coefficient to the reference model."})
    max_completion_length: int | None = field(default=128, metadata={"help": "Tokens per turn."})

    def __post_init__(self) -> None:
        self.validate_agent()
        self._validate_lora()
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {self.layout!r}.")
        if self.task_sampling not in TASK_SAMPLING:
            raise ValueError(f"task_sampling must be one of {TASK_SAMPLING}, got {self.task_sampling!r}.")
        if not 0.0 < self.curriculum_memory <= 1.0:
            raise ValueError(f"curriculum_memory must be in (0, 1], got {self.curriculum_memory!r}.")
        if self.env_executor not in ("process", "ray"):
            raise ValueError(f"env_executor must be 'process' or 'ray', got {self.env_executor!r}.")
        for name, least in (("rollout_workers", 0), ("rollout_envs", 1)):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < least):
                raise ValueError(f"{name} must be an integer >= {least} or None (automatic), got {value!r}.")
        if not self.bc_replay_coef >= 0:  # NaN included
            raise ValueError(f"bc_replay_coef must be >= 0 (0: no demonstration replay), got {self.bc_replay_coef!r}.")
        if not isinstance(self.bc_replay_batch_size, int) or self.bc_replay_batch_size < 1:
            raise ValueError(f"bc_replay_batch_size must be an integer >= 1, got {self.bc_replay_batch_size!r}.")
        if self.beta < 0:
            raise ValueError(f"beta must be >= 0 (0 disables the KL term and the reference model), got {self.beta!r}.")
        if self.use_transformers_continuous_batching:
            raise ValueError(
                "use_transformers_continuous_batching is not supported: each turn's batch is generated with "
                "generate() or vLLM. Set it to False."
            )
        self._resolve_machine_defaults()
        super().__post_init__()
