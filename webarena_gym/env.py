"""``WebArenaLite-v0``: the Gymnasium environment.

One episode = one WebArena task: the agent reads a text observation of the page and
answers with an action string until it calls ``exit(message=...)`` (terminated) or runs
out of steps (truncated); the task's evaluators then give a reward of exactly 0 or 1.

Agent mistakes never raise: the step counts, the page stays, and
``info["last_action_error"]`` (and the top of the next observation) says what was wrong.
Infrastructure faults raise :class:`~webarena_gym.errors.InfrastructureError`.

Lifecycle: ``close()`` releases the env's session and world for good (calling it again does
nothing); ``reset``, ``step`` and ``end_episode`` on a closed env raise
:class:`~webarena_gym.errors.EnvClosedError`.
"""

from __future__ import annotations

import base64
import copy
import difflib
import logging
import numbers
import os
import time
import warnings
from collections.abc import Mapping
from typing import Any

import gymnasium as gym

from .actions import MAX_ACTION_CHARS, SCROLL_STEPS, Action, ActionName, describe_actions, parse_action
from .arguments import check_flag, check_number, is_flag, is_whole
from .backends import check_backend
from .backends.base import Backend, check_action
from .errors import ConfigurationError, EnvClosedError, InvalidActionError, UnknownTaskError
from .observation import PageObservation
from .settings import DEFAULT_MAX_CHARS, DEFAULT_MAX_STEPS, MAX_CHARS_RANGE, MAX_STEPS_RANGE, AgentSettings  # noqa: F401
from .spaces import ActionText, UnicodeText
from .suites import SUITES, resolve_suite
from .suites.loading import drawable_tasks, load_tasks, unconfigured_sites
from .suites.verified import ANSWER_FORMAT as VERIFIED_ANSWER_FORMAT
from .tasks.task import Task
from .webarena_sites import PLACEHOLDERS, SITE_VARIABLES, site_urls_from_environment

logger = logging.getLogger(__name__)

#: The step limit and observation budget, their defaults and accepted ranges, are the agent settings'
#: (webarena_gym.settings, re-exported here). Past its range a value is a mistake, refused with a
#: ConfigurationError rather than clamped: no browser call needs an hour.
MAX_STEP_TIMEOUT_S = 3_600.0
#: The keys of ``reset(options=...)`` the env reads; others are warned about, never an error, since
#: RL libraries may pass keys of their own.
RESET_OPTIONS = ("task_id", "keep_task")
_embedded_default_announced = False


class Timings(Mapping):
    """Wall-clock seconds of the parts of a step (``action_s``, ``observation_s``, ``evaluation_s``, ``reset_s``).

    A read-only mapping (equal to another with the same seconds) that prints in milliseconds.
    Only an env made with ``record_timings=True`` puts them in its infos: no two runs measure the
    same seconds, and by default two runs of the same seed and actions give equal infos.
    """

    def __init__(self, seconds: dict[str, float]):
        self._seconds = dict(seconds)

    def __getitem__(self, key: str) -> float:
        return self._seconds[key]

    def __iter__(self):
        return iter(self._seconds)

    def __len__(self) -> int:
        return len(self._seconds)

    def __repr__(self) -> str:
        return "Timings(" + ", ".join(f"{k}={v * 1e3:.1f}ms" for k, v in self._seconds.items()) + ")"


class WebArenaEnv(gym.Env[str, str]):
    """Web tasks of WebArena-Lite (or the embedded suite) as a Gymnasium env.

    Args:
        suite: ``"embedded"`` (offline sites in this package) or ``"webarena-lite"`` (the
            official tasks on real WebArena sites, configured with ``WA_*`` variables).
            Default: webarena-lite when those variables are set, else embedded.
        split: ``"test"`` or ``"train"``.
        backend: ``"direct"`` (in-process, embedded sites only) or ``"playwright"``
            (real Chromium). Default: direct for embedded, playwright otherwise.
        task_ids: Restrict the env to these task ids (reset picks among them). A task id is
            matched by value and type: an int (numpy's too, never a bool) names a task whose id
            is that int, a str one whose id is that str (``"7"`` is not task 7); floats are refused.
        max_steps: Step limit, a whole number from 1 to 10,000; reaching it truncates the
            episode (15 for training, 30 is the usual evaluation budget).
        max_chars: Character budget of one observation, a whole number from 200 to 10,000,000;
            longer pages are cut with a marker and read with Scroll Down / Scroll Up.
        strict_actions: Accept only a bare action call (no ``<answer>`` tags, fences or prose).
            Every flag (this one, ``record_screenshots``, ``record_timings``) must be a bool:
            ``"no"`` or ``1`` is refused, not read as true.
        judge: Optional fuzzy-match judge ``(intent, answer, reference) -> bool``.
        evaluation: ``"vab"`` (default): VisualAgentBench's WebArena-Lite evaluators exactly,
            so success rates compare with published ones; ``"lenient"``: with the
            normalisations listed in the README (Evaluators).
        tasks: Explicit task dicts or :class:`Task` objects (overrides suite/split loading).
        site_urls: Base URL per site for the real sites (overrides ``WA_*`` variables).
        render_mode: ``"ansi"`` returns the current observation from :meth:`render`.
        step_timeout: Playwright backend: seconds one browser call may take (above 0, at most
            3,600). An action that
            outlasts it is an agent error and the episode goes on; a page that cannot even be
            read within it is hung, and the step raises :class:`BrowserUnavailableError` (a
            vector env ends that episode). The direct backend runs in-process and needs none.
        browser_endpoint: Playwright backend: a browser running elsewhere, the ``ws://`` endpoint of a
            Playwright browser server (``python -m playwright launch-server --browser chromium``) or the
            ``http://`` endpoint of a Chromium with ``--remote-debugging-port``. Default: ``$WA_BROWSER_WS``,
            else Chromium is launched on this machine.
        leases: Real sites: a lease service (``http://host:port``, from ``webarena-gym sites
            lease-service``; default ``$WA_LEASES``). Every episode then runs on replicas of the
            sites leased for it alone (reading tasks may share one), ``info["replicas"]`` names
            them, and a replica a writing episode used is recycled before anyone leases it again.
        record_screenshots: Playwright backend: a PNG of the viewport (base64) in every info.
        site_apps: Direct backend: WSGI apps that serve sites by name (a stand-in for a real site:
            ``suite="webarena-verified"`` on the direct backend needs them, with ``site_urls``).
        run_dir: ``webarena-verified``: a folder where every episode leaves
            ``<task_id>/agent_response.json`` and ``<task_id>/network.har`` (the package's layout).
        reset_sites: ``webarena-verified`` on the real sites: before an episode whose task writes
            (a MUTATE task), restart the task's sites on their pristine data through the verified
            images' env-control endpoints (``WA_<SITE>_ENV_CTRL``, else beside the site's port; see
            :mod:`webarena_gym.backends.verified_control`) and wait until they are ready;
            ``info["sites_reset"]`` names the sites reset. An endpoint that fails raises
            :class:`SiteUnavailableError` naming its URL. Default: on for the playwright backend
            without a lease service (whose replicas are pristine already); False turns it off.
        record_timings: Wall-clock seconds of each step's parts in ``info["timings"]`` (a
            :class:`Timings`), for profiling. Off by default: no two runs measure the same seconds,
            and without them two runs of the same seed and actions give equal infos (what
            Gymnasium's ``check_env`` compares, and what a replay or a cached rollout expects).

    >>> env = WebArenaEnv(suite="embedded", split="test")  # doctest: +SKIP
    >>> observation, info = env.reset(seed=0)               # doctest: +SKIP
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        suite: str | None = None,
        split: str = "test",
        backend: str | None = None,
        task_ids: list[int] | tuple[int, ...] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        max_chars: int = DEFAULT_MAX_CHARS,
        strict_actions: bool = False,
        judge: Any = None,
        evaluation: str = "vab",
        tasks: list[Any] | None = None,
        site_urls: dict[str, str] | None = None,
        render_mode: str | None = None,
        step_timeout: float = 60.0,
        record_screenshots: bool = False,
        record_timings: bool = False,
        browser_endpoint: str | None = None,
        leases: str | None = None,
        site_apps: Mapping[str, Any] | None = None,
        run_dir: str | os.PathLike[str] | None = None,
        reset_sites: bool | None = None,
    ):
        chosen_by_default = suite is None and tasks is None
        suite = resolve_suite(suite)
        if suite == "webarena-verified":
            from .suites.verified import require_verified

            require_verified()  # before any browser starts: the error names the extra to install
        if chosen_by_default and suite == "embedded":
            _announce_embedded_default()
        if backend is None:
            backend = "direct" if suite == "embedded" or site_apps else "playwright"
        check_backend(backend)
        if site_apps is not None and backend != "direct":
            raise ConfigurationError(f"site_apps (WSGI apps) need backend='direct'; the {backend} backend browses "
                                     "servers: serve the apps on a port and pass site_urls instead.")
        if backend == "direct" and suite != "embedded" and not site_apps:
            raise ConfigurationError(
                "The direct backend only runs the embedded sites; the real WebArena sites need "
                "backend='playwright'."
            )
        strict_actions = check_flag("strict_actions", strict_actions)
        record_screenshots = check_flag("record_screenshots", record_screenshots)
        record_timings = check_flag("record_timings", record_timings)
        limits = AgentSettings(max_steps=max_steps, max_chars=max_chars)  # validated there, as everywhere
        max_steps, max_chars = limits.max_steps, limits.max_chars
        step_timeout = check_number("step_timeout", step_timeout, 0, MAX_STEP_TIMEOUT_S, above=True,
                                    hint="It is in seconds (default 60).")
        if browser_endpoint is not None and not isinstance(browser_endpoint, str):
            raise ConfigurationError(f"browser_endpoint must be a ws:// or http:// URL or None, got {browser_endpoint!r:.80}.")
        if record_screenshots and backend != "playwright":
            raise ConfigurationError(
                f"record_screenshots=True needs backend='playwright' (the {backend} backend renders no pixels); "
                "pass backend='playwright' or leave screenshots off."
            )
        if browser_endpoint is not None and backend != "playwright":
            raise ConfigurationError(
                f"browser_endpoint={browser_endpoint!r} needs backend='playwright'; the {backend} backend uses no browser."
            )
        if judge is not None and not callable(judge):
            raise ConfigurationError(f"judge must be a function (intent, answer, reference) -> bool or None, got {judge!r:.80}.")
        if site_urls is not None and not isinstance(site_urls, Mapping):
            raise ConfigurationError(f"site_urls must map site names to base URLs, got {site_urls!r:.80}.")
        if render_mode not in (None, "ansi"):
            raise ConfigurationError(f"render_mode must be None or 'ansi', got {render_mode!r}.")
        self.suite, self.split, self.backend_name = suite, split, backend
        self.max_steps, self.max_chars = max_steps, max_chars
        self.strict_actions, self.judge, self.render_mode = strict_actions, judge, render_mode
        from .evaluators.modes import check_evaluation_mode

        self.evaluation = check_evaluation_mode(evaluation)
        self.record_screenshots = record_screenshots
        self.record_timings = record_timings
        self._screenshot: str | None = None
        self._closed = False

        if leases is not None and (not isinstance(leases, str) or backend != "playwright"):
            raise ConfigurationError(f"leases must be a lease service URL (http://host:port) on the playwright backend, "
                                     f"got {leases!r:.80} on the {backend} backend.")
        if suite != "embedded" and not (site_urls or site_apps or site_urls_from_environment() or leases
                                        or os.environ.get("WA_LEASES")):
            raise ConfigurationError(
                f"suite={suite!r} needs the real WebArena sites, and none is configured. Set WA_SHOPPING, "
                "WA_SHOPPING_ADMIN, WA_REDDIT, WA_GITLAB, WA_MAP, WA_WIKIPEDIA and WA_HOMEPAGE (after "
                "`webarena-gym sites up`, `webarena-gym sites env` prints them), pass site_urls=..., or use "
                "suite='embedded' for the offline sites."
            )
        self.world = None
        self.run_dir = run_dir
        reset_sites = _check_reset_sites(reset_sites, suite, backend, leases)
        self._sites_reset: list[str] = []  # webarena-verified: the sites restarted before this episode
        self._evaluation_details: dict[str, Any] = {}  # webarena-verified: the package's verdict, in infos
        if suite == "embedded" or backend == "direct":
            from .sites.world import World

            self.world = World()
        self.backend: Backend = _make_backend(backend, suite, self.world, site_urls, step_timeout, browser_endpoint,
                                              leases, site_apps)
        try:
            all_tasks = load_tasks(suite, split, site_urls=self.backend.sites.urls, tasks=tasks)
            self.tasks = _select_tasks(all_tasks, task_ids, suite, split)
        except BaseException:
            self.close()  # the backend (a browser context) and the world were made: release them
            raise
        self.tasks_by_id = {t.task_id: t for t in self.tasks}
        self._site_resetter = None
        if reset_sites:
            from .backends.verified_control import SiteResetter, env_ctrl_urls

            self._site_resetter = SiteResetter(env_ctrl_urls(self.backend.sites.urls))
        # with only some real sites configured, draws skip the tasks of the others (said once)
        self._drawable_tasks = drawable_tasks(self.tasks, source=f"{suite} {split}" if tasks is None else "given",
                                              site_urls=self.backend.sites.urls)

        self.observation_space = UnicodeText(max_length=max_chars + 2_000)
        self.action_space = ActionText(max_length=MAX_ACTION_CHARS)  # sample(): a random action of the grammar
        self.task: Task | None = None
        self._steps = 0
        self._scroll = 0
        self._done = True
        self._final_reward = 0.0
        self._kept_task_id: Any = None
        self._observation = ""
        self._page: PageObservation | None = None
        self._info: dict[str, Any] = {}
        self._episode_info: dict[str, Any] = {}  # the last episode's replicas, kept in infos after its lease ends

    # -- Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start a task: ``options={"task_id": ...}`` picks one, else one is drawn with ``np_random``.

        ``options={"keep_task": True}`` keeps the task of this reset for the resets that
        follow without a ``task_id`` (a vector env's autoresets call ``reset()`` bare);
        a reset with options that do not say ``keep_task`` forgets it. ``task_id`` follows
        the rule of the ``task_ids`` argument (an int or a str, matched by type; no float);
        ``keep_task`` must be True or False.

        Raises:
            EnvClosedError: The env is closed.
            UnknownTaskError: ``task_id`` names no task of the env.
        """
        self._require_open("reset")
        if options is not None and not isinstance(options, Mapping):
            raise ConfigurationError(f"options must be a dict such as {{'task_id': 7}} or None, got {options!r:.80}.")
        keep_task = check_flag("options['keep_task']", options["keep_task"]) if options and "keep_task" in options else False
        super().reset(seed=seed)
        if options is not None:
            self._kept_task_id = None
        options = options or {}
        if unread := [key for key in options if key not in RESET_OPTIONS]:
            warnings.warn(_unread_options_message(unread), UserWarning, stacklevel=2)
        if "task_id" in options and options["task_id"] is not None:
            task = _task_by_id(self.tasks_by_id, options["task_id"])
            if task is None:
                raise UnknownTaskError(_unknown_task_message(options["task_id"], self.tasks, self.suite, self.split))
        elif self._kept_task_id is not None:
            task = self.tasks_by_id[self._kept_task_id]
        else:
            task = self._drawable_tasks[int(self.np_random.integers(len(self._drawable_tasks)))]
        unconfigured = unconfigured_sites(task, self.backend.sites.urls)  # its sites, and any its data names
        if unconfigured:
            raise ConfigurationError(_unconfigured_sites_message(task, {PLACEHOLDERS[site] for site in unconfigured}))
        if keep_task:
            self._kept_task_id = task.task_id
        started = time.perf_counter()
        sites_reset: list[str] = []
        if self._site_resetter is not None and str(task.extra.get("task_type", "")).upper() == "MUTATE":
            # a task that writes starts on pristine sites (an earlier episode's writes would change its answer)
            sites_reset = self._site_resetter.reset(task.sites)
        # with a lease service (the real sites' replicas) the episode runs on replicas of its own
        begin_episode = getattr(self.backend, "begin_episode", None)
        self.task = task = begin_episode(task) if begin_episode is not None else task
        self._sites_reset = sites_reset
        if self.world is not None:
            self.world.reset()
        self.backend.start(task.start_url, allowed_sites=tuple(task.sites),
                           logged_in=tuple(task.sites) if task.require_login else (), storage_state=task.storage_state)
        self._steps, self._scroll, self._done, self._final_reward = 0, 0, False, 0.0
        self._evaluation_details = {}
        self._page = self.backend.observe()
        self._capture()
        observation = self._render_observation(None)
        info = self._base_info()
        info.update(last_action="", last_action_error="", parsed_action="",
                    **self._timings({"reset_s": time.perf_counter() - started}))
        self._info = info
        return observation, dict(info)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Carry out one action (see the module docstring for what an agent mistake does).

        Raises:
            EnvClosedError: The env is closed.
            gymnasium.error.ResetNeeded: No episode was started.
        """
        self._require_open("step")
        if self.task is None:
            raise gym.error.ResetNeeded("Call reset() before step().")
        if self._done:
            # A fresh copy each time: an info is never shared with an earlier or later step's.
            info = dict(copy.deepcopy(self._info), last_action=str(action), parsed_action="",
                        last_action_error="The episode is over; call reset().")
            return self._observation, 0.0, False, True, info
        timings: dict[str, float] = {}
        started = time.perf_counter()
        self._steps += 1
        error = parsed_action = ""  # parsed_action: the action as parsed, canonical ("" if none parsed)
        answer: str | None = None
        terminated = False
        try:
            parsed = parse_action(action, strict=self.strict_actions)
            parsed_action = parsed.to_string()
            if parsed.name is ActionName.EXIT:
                if self.suite == "webarena-verified":  # the structured response must fit the schema
                    from .suites.verified import parse_answer

                    parse_answer(parsed.message or "")
                terminated, answer = True, parsed.message or ""
            else:
                self._apply(parsed)
        except InvalidActionError as exc:
            error = str(exc)
        timings["action_s"] = time.perf_counter() - started
        observe_started = time.perf_counter()
        if not terminated:
            self._page = self.backend.observe()
            self._capture()
        timings["observation_s"] = time.perf_counter() - observe_started
        truncated = not terminated and self._steps >= self.max_steps
        reward, components = 0.0, {}
        if terminated or truncated:
            self._done = True
            evaluate_started = time.perf_counter()
            reward, components = self._evaluate(answer)
            self._final_reward = reward
            self._end_lease()
            timings["evaluation_s"] = time.perf_counter() - evaluate_started
        observation = self._render_observation(error)
        info = self._base_info()
        info.update(
            last_action=str(action),
            last_action_error=error,
            parsed_action=parsed_action,
            reward_components=components,
            answer=answer,
            **self._timings(timings),
        )
        self._info = info
        return observation, reward, terminated, truncated, dict(info)

    def end_episode(self, reason: str = "ended from outside") -> tuple[float, dict[str, Any]]:
        """End the running episode without an answer and score it, as reaching the step limit would.

        For libraries that end episodes themselves (a turn limit, a context limit, a
        closed session): the episode is evaluated with no answer, never left open.
        Calling it on an episode that is already over changes nothing.

        Args:
            reason: Why it ended, recorded in ``info["episode_end_reason"]``.

        Returns:
            The episode's reward (0 or 1) and its final info.
        """
        self._require_open("end_episode")
        if self.task is None:
            raise gym.error.ResetNeeded("Call reset() before end_episode().")
        if not self._done:
            self._done = True
            self._final_reward, components = self._evaluate(None)
            self._end_lease()
            self._info = dict(self._base_info(), last_action="", last_action_error="", reward_components=components,
                              answer=None, episode_end_reason=reason, **self._timings({}))
        return self._final_reward, copy.deepcopy(self._info)

    @property
    def episode_over(self) -> bool:
        """Whether the current episode has ended (or none has started)."""
        return self._done

    @property
    def page(self) -> PageObservation | None:
        """The current page with all its numbered elements (scripted agents, debugging)."""
        return self._page

    def render(self) -> str | None:
        return self._observation if self.render_mode == "ansi" else None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called: the env is spent and a new one must be made."""
        return self._closed

    def close(self) -> None:
        """Release the env's browser session and world; calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        backend = getattr(self, "backend", None)  # absent when __init__ failed before making it
        if backend is not None:
            self._end_lease()
            backend.close()
        if self.world is not None:
            self.world.close()
            self.world = None
        super().close()

    def _require_open(self, what: str) -> None:
        if self._closed:
            env_id = self.spec.id if self.spec is not None else "WebArenaLite-v0"
            raise EnvClosedError(
                f"{what}() on a closed env: close() released its session and world for good. "
                f"Make a new env with gym.make({env_id!r}, ...)."
            )

    # -- internals --------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if action.name in SCROLL_STEPS:
            self._scroll_page(SCROLL_STEPS[action.name])
            self.backend.execute(action, None)  # the browser scrolls too (lazy-loading pages)
            return
        element = None
        if action.element is not None:
            element = self._page.element(action.element) if self._page else None
            if element is None:
                count = len(self._page.elements) if self._page else 0
                raise InvalidActionError(
                    f"There is no element {action.element} on this page (ids go from 0 to {count - 1})."
                    if count
                    else f"There is no element {action.element}: this page has no interactive elements."
                )
        before = self.backend.url
        self.backend.execute(check_action(action, element), element)
        if self.backend.url != before:
            self._scroll = 0

    def _scroll_page(self, direction: int) -> None:
        """Move the observation window by most of a screen, keeping lines whole."""
        text = self._page.text if self._page else ""
        step = max(self.max_chars - 500, self.max_chars // 2)
        if direction > 0:
            if len(text) - self._scroll <= self.max_chars:
                raise InvalidActionError("Already at the bottom of the page.")
            target = self._scroll + step
            line_start = text.rfind("\n", self._scroll + 1, target) + 1
            self._scroll = line_start if line_start > self._scroll else target
        else:
            if self._scroll == 0:
                raise InvalidActionError("Already at the top of the page.")
            target = max(0, self._scroll - step)
            self._scroll = text.rfind("\n", 0, target) + 1 if target else 0

    def _render_observation(self, error: str | None) -> str:
        page = self._page or PageObservation(text="")
        body = page.window(self._scroll, self.max_chars)
        header = f"[Error: {error}]\n" if error else ""
        self._observation = header + body
        return self._observation

    def _evaluate(self, answer: str | None) -> tuple[float, dict[str, float]]:
        if self.suite == "webarena-verified":
            return self._evaluate_verified(answer)
        from .evaluators import evaluate

        result = evaluate(
            self.task,
            answer=answer,
            url=self.backend.url,
            page=self.backend.evaluation_page(),
            judge=self.judge,
            evaluation=self.evaluation,
        )
        return float(result.reward), dict(result.components)

    def _evaluate_verified(self, answer: str | None) -> tuple[float, dict[str, float]]:
        """The webarena-verified package's score for the structured answer and the episode's network trace."""
        from .suites.verified import evaluate_verified, parse_answer, write_run_files

        response = parse_answer(answer) if answer is not None else None
        settle = getattr(self.backend, "settle_network_trace", None)
        entries = settle() if settle is not None else list(self.backend.network_trace.entries)
        if self.run_dir is not None:
            write_run_files(self.run_dir, self.task.task_id, response, self.backend.network_trace.har())
        result = evaluate_verified(self.task, response, entries, site_urls=self.backend.sites.urls)
        self._evaluation_details = {"evaluation": result.details}
        return result.reward, result.components

    def _end_lease(self) -> None:
        """Return the episode's replicas (evaluated already: the evaluators read them)."""
        end_episode = getattr(self.backend, "end_episode", None)
        if end_episode is not None:
            self._episode_info = dict(self.backend.episode_info)
            end_episode()

    def _capture(self) -> None:
        if self.record_screenshots:
            png = self.backend.screenshot()
            self._screenshot = base64.b64encode(png).decode("ascii") if png else None

    def _timings(self, seconds: dict[str, float]) -> dict[str, Timings]:
        return {"timings": Timings(seconds)} if self.record_timings else {}

    def _base_info(self) -> dict[str, Any]:
        task = self.task
        screenshot = {"screenshot": self._screenshot} if self.record_screenshots else {}
        # A task given without a template has no key (a vector env's info arrays cannot mix None and ints).
        template = {} if task.intent_template_id is None else {"intent_template_id": task.intent_template_id}
        return {
            "task_id": task.task_id,
            "intent": task.intent,
            "url": self.backend.url,
            "sites": list(task.sites),
            "suite": self.suite,
            "backend": self.backend_name,
            "step": self._steps,
            "max_steps": self.max_steps,
            "action_description": describe_actions(),
            # the suite's answer format: CompressedHistory states it with the task
            **({"answer_format": VERIFIED_ANSWER_FORMAT, "sites_reset": list(self._sites_reset)}
               if self.suite == "webarena-verified" else {}),
            **template,
            **self._evaluation_details,
            **screenshot,
            **(getattr(self.backend, "episode_info", None) or self._episode_info),
        }


def _announce_embedded_default() -> None:
    """Say once per process that a bare make() fell back to the embedded sites."""
    global _embedded_default_announced
    if not _embedded_default_announced:
        _embedded_default_announced = True
        warnings.warn(
            "No WebArena sites are configured (WA_SHOPPING, WA_REDDIT, ... are unset): "
            "WebArenaLite-v0 runs the embedded offline sites and tasks (info['suite'] == 'embedded'). "
            "Pass suite='embedded' to silence this, or see docker/README.md for the real sites.",
            stacklevel=4,
        )


def _make_backend(name: str, suite: str, world: Any, site_urls: dict[str, str] | None,
                  step_timeout: float, browser_endpoint: str | None, leases: str | None = None,
                  site_apps: Mapping[str, Any] | None = None) -> Backend:
    if name == "direct":
        from .backends.direct import DirectBackend

        if site_apps:
            return DirectBackend(world, site_urls=site_urls, apps=site_apps)
        return DirectBackend(world)
    from .backends.playwright import PlaywrightBackend

    return PlaywrightBackend(world=world, site_urls=site_urls if suite != "embedded" else None,
                             step_timeout=step_timeout, browser_endpoint=browser_endpoint, leases=leases,
                             record_network=suite == "webarena-verified")


def _check_reset_sites(reset_sites: Any, suite: str, backend: str, leases: str | None) -> bool:
    """Whether episodes of writing tasks restart their sites first (see ``reset_sites``)."""
    if reset_sites is not None:
        reset_sites = check_flag("reset_sites", reset_sites)
    leased = bool(leases or os.environ.get("WA_LEASES"))
    if reset_sites and suite != "webarena-verified":
        raise ConfigurationError(f"reset_sites=True restarts WebArena-Verified's images through their env-control "
                                 f"endpoints: it needs suite='webarena-verified', got suite={suite!r}.")
    if reset_sites and leased:
        raise ConfigurationError("reset_sites=True with a lease service: its replicas are recycled to pristine "
                                 "copies already, and restarting one would break the episodes that hold it. "
                                 "Leave reset_sites unset (or False) with leases.")
    if reset_sites is None:
        return suite == "webarena-verified" and backend == "playwright" and not leased
    return reset_sites


def _unconfigured_sites_message(task: Task, placeholders: set[str]) -> str:
    sites = sorted(site for site, placeholder in PLACEHOLDERS.items() if placeholder in placeholders)
    return (f"Task {task.task_id} needs the {', '.join(sites)} site(s), which have no URL: set "
            f"{', '.join(SITE_VARIABLES[site] for site in sites)} (`webarena-gym sites env` prints them) "
            "or pass site_urls with them.")


def _select_tasks(tasks: list[Task], task_ids: Any, suite: str, split: str) -> list[Task]:
    if task_ids is not None and (isinstance(task_ids, (str, bytes, Mapping)) or not hasattr(task_ids, "__iter__")):
        raise ConfigurationError(f"task_ids must be a list of task ids, got {task_ids!r:.80}.")
    if task_ids is None:
        if not tasks:
            raise ConfigurationError(f"The {suite} suite has no {split} tasks.")
        return tasks
    by_id = {t.task_id: t for t in tasks}
    task_ids = list(task_ids)
    selected = [_task_by_id(by_id, i) for i in task_ids]
    if None in selected:
        raise UnknownTaskError(_unknown_task_message(task_ids[selected.index(None)], tasks, suite, split))
    if not task_ids:
        raise ConfigurationError("task_ids is empty; pass None for all tasks.")
    return selected


def task_id_key(task_id: Any) -> int | str | None:
    """The id ``task_id`` names under the one rule for task ids, or None when it names none.

    An int (numpy's too) names the task whose id is that int, a str the task whose id is that
    str; nothing else names a task: not a bool (True is not task 1), not a float (0.0 is not
    task 0), not ``"7"`` for task 7 (the official and embedded ids are ints, a task of one's
    own may have a str id).

    >>> import numpy as np
    >>> [task_id_key(v) for v in (7, np.int64(7), "shop-7", "7", 7.0, True, [7])]
    [7, 7, 'shop-7', '7', None, None, None]
    """
    if is_whole(task_id):
        return int(task_id)
    return task_id if isinstance(task_id, str) else None


def _task_by_id(tasks_by_id: dict[Any, Task], task_id: Any) -> Task | None:
    """The task of an id (see :func:`task_id_key`), or None for an id that names none."""
    key = task_id_key(task_id)
    task = tasks_by_id.get(key) if key is not None else None
    # an int key must not find a str id nor a str key an int one (dict lookup would not mix them anyway)
    return task if task is not None and type(task.task_id) is type(key) else None


def _unread_options_message(keys: list[Any]) -> str:
    """What a reset option the env does not read means, with the read key a typo was likely meant as."""
    guesses = [close[0] for key in keys if isinstance(key, str)
               for close in [difflib.get_close_matches(key.replace("-", "_").lower(), RESET_OPTIONS, n=1)] if close]
    hint = f"; did you mean {' or '.join(map(repr, dict.fromkeys(guesses)))}?" if guesses else "."
    shown = ", ".join(f"{key!r:.60}" for key in keys[:5]) + (", ..." if len(keys) > 5 else "")
    subject = f"reset options {shown} are" if len(keys) > 1 else f"reset option {shown} is"
    return f"{subject} not read by WebArenaEnv, which reads {' and '.join(map(repr, RESET_OPTIONS))}{hint}"


def _unknown_task_message(task_id: Any, tasks: list[Task], suite: str, split: str) -> str:
    ids = sorted((t.task_id for t in tasks), key=lambda i: (isinstance(i, str), i))
    shown = ", ".join(map(repr, ids[:10])) + (f", ... {ids[-1]!r}" if len(ids) > 10 else "")
    known = set(ids)
    if task_id_key(task_id) is None:
        kind = "a bool" if is_flag(task_id) else f"a {type(task_id).__name__}"
        why = f" A task id is an int such as 7 (or a str, for tasks whose ids are strings), not {kind}."
        if isinstance(task_id, numbers.Real) and not is_flag(task_id) and float(task_id).is_integer() \
                and int(task_id) in known:
            why += f" Pass {int(task_id)}."
    elif isinstance(task_id, str) and task_id.isascii() and task_id.isdigit() and int(task_id) in known:
        why = f" Ids are matched by type: pass the int {int(task_id)}, not the string {task_id!r}."
    else:
        why = ""
    return (
        f"Unknown task id {_preview(task_id)} in the {suite} {split} split ({len(ids)} tasks; valid ids: {shown}).{why} "
        "`webarena-gym tasks list` prints them all."
    )


def _preview(value: Any) -> str:
    """``repr(value)`` cut to 80 characters; an int too long for Python to print is described instead."""
    try:
        return f"{value!r:.80}"
    except ValueError:  # CPython refuses to print an int of more than 4,300 digits
        return f"<an int of about {int(value.bit_length() * 0.30103) + 1} digits>"


__all__ = ["WebArenaEnv", "SUITES"]
