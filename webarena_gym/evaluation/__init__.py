"""Evaluating agents: success per site, trajectories as resumable run files.

- :mod:`.policy`: the :class:`Policy` protocol (a batch of contexts in, one output each);
- :mod:`.envs`: :func:`make_agent_envs`, the vector env an agent plays in (shared with the trainer);
- :mod:`.runner`: :func:`run_evaluation`, many episodes in flight, resumable;
- :mod:`.chat_completions`: a policy for any OpenAI-compatible endpoint;
- :mod:`.results` and :mod:`.run_file`: episode records, success tables, JSONL run files;
- :mod:`.baselines`: the scripted experts, a random agent and a fixed answer (``AnswerAtOnce``);
- :mod:`.bootstrap`: how far the difference between two agents would move on another draw of tasks.

Local transformers models plug in through ``trainers.policy.LocalModelPolicy``.
"""

from __future__ import annotations

from .baselines import AnswerAtOnce, RandomPolicy, StepPolicy, run_oracle_suite, run_policy
from .bootstrap import (
    bootstrap_interval,
    episode_difference,
    format_difference,
    format_units,
    paired_difference,
)
from .envs import make_agent_envs
from .policy import Policy, PolicyOutput
from .results import (
    EpisodeResult,
    StepRecord,
    canonical_action,
    format_success_table,
    success_by,
    success_by_site,
    success_rate,
)
from .run_file import RunFile, RunWriter, read_run, write_results
from .runner import run_evaluation

__all__ = [
    "AnswerAtOnce", "EpisodeResult", "Policy", "PolicyOutput", "RandomPolicy", "RunFile", "RunWriter", "StepPolicy",
    "StepRecord", "bootstrap_interval", "canonical_action", "episode_difference", "format_difference",
    "format_success_table", "format_units", "make_agent_envs", "paired_difference", "read_run", "run_evaluation",
    "run_oracle_suite", "run_policy", "success_by", "success_by_site", "success_rate", "write_results",
]
