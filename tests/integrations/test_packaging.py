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


def test_docker_sites_functions_stay_functions_once_every_submodule_is_loaded():
    """``docker_sites.configure`` and ``.login`` are the functions, even after the modules that define them load
    (Python binds a submodule as an attribute of its package, which would shadow a same-named export)."""
    import importlib
    import pkgutil

    import pytest

    pytest.importorskip("docker")
    import webarena_gym.docker_sites as docker_sites

    for module in pkgutil.iter_modules(docker_sites.__path__):
        if module.name != "__main__":
            importlib.import_module(f"webarena_gym.docker_sites.{module.name}")
    for name in docker_sites.__all__:
        exported = getattr(docker_sites, name)
        assert not isinstance(exported, type(docker_sites)), f"docker_sites.{name} is a module"
    assert docker_sites.configure.__module__ == "webarena_gym.docker_sites.lifecycle"
    assert docker_sites.login.__module__ == "webarena_gym.docker_sites.login_states"
