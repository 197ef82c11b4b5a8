"""Adapters for the RL libraries people train web agents with, one module per library.

Each is an optional extra and is imported only by its users (``import webarena_gym``
imports none of them):

- :mod:`.trl`: an environment class for TRL's ``GRPOTrainer(environment_factory=...)``
  (``pip install webarena-gym[trl]``);
- :mod:`.openenv`: the env as an OpenEnv environment and server, one world per session
  (``[openenv]``; ``webarena-gym serve-env``);
- :mod:`.skyrl`: a SkyRL-gym ``BaseTextEnv`` registered as ``"webarena"`` (``[skyrl]``);
- :mod:`.verifiers`: a verifiers taskset module for ``vf-eval`` (``[verifiers]``).

:mod:`.text_episode` and :mod:`.tools` are what they share: an episode driven by text
(the libraries keep their own chat history) and tool functions generated from the action
definitions.
"""
