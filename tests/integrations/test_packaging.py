"""Packaging: the core import stays what an env user needs; integrations load only when asked."""

from __future__ import annotations

import subprocess
import sys


def test_import_webarena_gym_loads_no_integration_nor_optional_library():
    script = (
        "import sys, gymnasium as gym, webarena_gym, webarena_gym.cli as cli\n"
        "cli.build_parser()\n"
        "env = gym.make('WebArenaLite-v0', suite='embedded'); env.reset(seed=0); env.close()\n"
        "heavy = ('torch', 'trl', 'transformers', 'openenv', 'skyrl_gym', 'verifiers', 'docker', 'matplotlib')\n"
        "print(sorted(m for m in sys.modules if m.startswith('webarena_gym.integrations') or m.split('.')[0] in heavy))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_serve_env_and_sites_say_which_extra_is_missing(tmp_path):
    """With the optional library hidden, the command names the extra to install."""
    (tmp_path / "openenv.py").write_text("raise ModuleNotFoundError('hidden', name='openenv')\n")
    (tmp_path / "docker.py").write_text("raise ModuleNotFoundError('hidden', name='docker')\n")
    env = {"PYTHONPATH": str(tmp_path)}
    serve = subprocess.run([sys.executable, "-m", "webarena_gym.cli", "serve-env"], capture_output=True, text=True,
                           timeout=300, env=env)
    assert serve.returncode == 1 and "pip install 'webarena-gym[openenv]'" in serve.stderr
    sites = subprocess.run([sys.executable, "-m", "webarena_gym.cli", "sites", "status"], capture_output=True,
                           text=True, timeout=300, env=env)
    assert sites.returncode == 1 and "pip install 'webarena-gym[docker]'" in sites.stderr
