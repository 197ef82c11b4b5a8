"""The vocabulary of a real site: container settings, configuration steps, login form.

Plain frozen data, so that the lifecycle code, the compose file's tests and the
documentation all read the same facts (the definitions themselves are in registry.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ..errors import ConfigurationError

#: Label keys put on everything this tooling creates, so it can find (and only touch) its own.
LABEL_SITE = "webarena-gym.site"
LABEL_DEPLOYMENT = "webarena-gym.deployment"
LABEL_TOPOLOGY = "webarena-gym.topology"
LABEL_STANDBY = "webarena-gym.standby"
LABEL_FINGERPRINT = "webarena-gym.fingerprint"


@dataclass(frozen=True)
class Locator:
    """How a person finds a form control: by its label, placeholder, test id, role or CSS.

    ``by`` is one of ``label``, ``placeholder``, ``test_id``, ``button`` (a button by its
    accessible name) or ``css``.
    """

    by: str
    target: str
    exact: bool = False

    def __post_init__(self) -> None:
        if self.by not in ("label", "placeholder", "test_id", "button", "css"):
            raise ConfigurationError(
                f"Locator.by must be label, placeholder, test_id, button or css; got {self.by!r}."
            )


@dataclass(frozen=True)
class LoginForm:
    """The real login form of a site and how to tell that the login worked.

    Attributes:
        path: Path of the login page, relative to the site URL.
        username / password: The form's fields.
        submit: The button that sends the form.
        account: WebArena's (username, password) for the site.
        check_path: A page only a logged-in user can see (relative to the site URL).
        check_text: Text that page shows when logged in; "" means "the browser stays on
            check_path" (anonymous users are redirected to the login page).
    """

    path: str
    username: Locator
    password: Locator
    submit: Locator
    account: tuple[str, str]
    check_path: str
    check_text: str = ""


@dataclass(frozen=True)
class ConfigStep:
    """One idempotent configuration command run inside a site's container.

    ``command`` and ``check`` are ``sh -c`` scripts; ``{base_url}`` (the site's public
    root URL, no trailing slash) and ``{host}`` are substituted. When ``check`` exits 0 and
    its output contains ``expect``, the step is already done and is skipped. Steps with
    ``after_change=True`` (cache flushes, service reconfiguration) run only when an
    earlier step of the same site ran.
    """

    description: str
    command: str
    check: str | None = None
    expect: str = ""
    after_change: bool = False

    def render(self, base_url: str, host: str) -> ConfigStep:
        values = {"base_url": base_url, "host": host}
        return replace(
            self,
            command=self.command.format(**values),
            check=self.check.format(**values) if self.check else None,
            expect=self.expect.format(**values),
        )


@dataclass(frozen=True)
class Companion:
    """A helper container a site needs (the map's database). Started before the site, never reset."""

    suffix: str
    image: str
    aliases: tuple[str, ...] = ()
    command: tuple[str, ...] | None = None
    environment: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    volumes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    obtain: str = ""


@dataclass(frozen=True)
class DockerSite:
    """One real WebArena site run as a docker container.

    Attributes:
        name: WebArena's site name (``shopping``, ``shopping_admin``, ``reddit``, ``gitlab``,
            ``wikipedia``, ``map``, ``homepage``).
        container: Container name (WebArena's own: the forum runs as ``forum``).
        image: Image name as WebArena distributes it.
        host_port / container_port: Published port on the host, and the port inside.
        env_var: Environment variable the gym env reads for this site's URL.
        url_path: Appended to ``http://host:port`` to give the site's URL (``/admin``).
        health_path: Path that answers with a status below 400 once the site is ready
            (redirects are not followed: a redirect means the web server is up).
        start_timeout: Seconds a cold start may take before the site counts as unhealthy.
        stop_timeout: Seconds a clean shutdown may take (before committing its configuration).
        command: Container command, when the image's default is not the right one.
        environment / volumes / tmpfs: Container settings; a volume source containing
            ``{data_dir}`` is resolved against :attr:`Deployment.data_dir`.
        configure: One-time configuration steps (base URLs, password policy).
        login: The login form, for sites whose tasks start logged in.
        companions: Helper containers (started first, left alone by resets).
        obtain: How to get the image (shown when it is missing).
        memory / disk: Rough resource needs, for the documentation and error messages.
        env_ctrl_port / host_env_ctrl_port: WebArena-Verified's images: the port of their
            environment-control API inside the container, and where it is published (None:
            the image has none). An ``environment`` value may hold ``{base_url}``.
    """

    name: str
    container: str
    image: str
    host_port: int
    container_port: int
    env_var: str
    title: str = ""
    url_path: str = ""
    health_path: str = "/"
    start_timeout: float = 300.0
    stop_timeout: int = 120
    command: tuple[str, ...] | None = None
    environment: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    volumes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tmpfs: tuple[str, ...] = ()
    configure: tuple[ConfigStep, ...] = ()
    login: LoginForm | None = None
    companions: tuple[Companion, ...] = ()
    obtain: str = ""
    memory: str = ""
    disk: str = ""
    env_ctrl_port: int | None = None
    host_env_ctrl_port: int | None = None


