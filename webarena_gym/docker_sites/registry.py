"""WebArena's sites as docker containers: images, ports, health URLs, configuration, login.

The facts come from WebArena's own setup instructions (environment_docker/README.md of
web-arena-x/webarena and its AMI notes); docker/README.md explains them for people.

>>> SITES["reddit"].container, SITES["reddit"].host_port
('forum', 9999)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ..errors import ConfigurationError
from ..webarena_sites import SITE_ADDRESSES, SITE_VARIABLES
from .definitions import Companion, ConfigStep, DockerSite, Locator, LoginForm

_MAGENTO = "/var/www/magento2/bin/magento"
_MYSQL = "mysql -u magentouser -pMyPassword magentodb -N -B"


def _magento_steps(admin: bool) -> tuple[ConfigStep, ...]:
    """Magento keeps its own URL in the database and redirects every other host name to it."""
    steps = [
        ConfigStep(
            "store base URL",
            f"{_MAGENTO} setup:store-config:set --base-url='{{base_url}}'",
            check=f"{_MYSQL} -e \"SELECT value FROM core_config_data WHERE path='web/unsecure/base_url'\"",
            expect="{base_url}",
        ),
        ConfigStep(
            "secure base URL",
            f"{_MYSQL} -e \"UPDATE core_config_data SET value='{{base_url}}/' WHERE path='web/secure/base_url'\"",
            check=f"{_MYSQL} -e \"SELECT value FROM core_config_data WHERE path='web/secure/base_url'\"",
            expect="{base_url}/",
        ),
    ]
    if admin:
        # Without these the admin account is forced to change its password on first login,
        # which no task expects.
        for key in ("password_is_forced", "password_lifetime"):
            steps.append(
                ConfigStep(
                    f"admin {key.replace('_', ' ')} off",
                    f"php {_MAGENTO} config:set admin/security/{key} 0",
                    check=f"{_MYSQL} -e \"SELECT value FROM core_config_data WHERE path='admin/security/{key}'\"",
                    expect="0",
                )
            )
    steps.append(ConfigStep("cache flush", f"{_MAGENTO} cache:flush", after_change=True))
    return tuple(steps)


_LOAD = "Download {tar} from one of WebArena's mirrors, then `docker load --input {tar}`:\n{mirrors}"


def _load_hint(image: str, drive: str, archive: str) -> str:
    mirrors = (
        f"  http://metis.lti.cs.cmu.edu/webarena-images/{image}.tar\n"
        f"  https://archive.org/download/{archive}\n"
        f"  https://drive.google.com/file/d/{drive}/view"
    )
    return _LOAD.format(tar=f"{image}.tar", mirrors=mirrors)


WIKIPEDIA_ZIM = "wikipedia_en_all_maxi_2022-05"

#: WebArena's sites, in the order they are started (the slow ones first).
SITES: Mapping[str, DockerSite] = MappingProxyType(
    {
        site.name: site
        for site in (
            DockerSite(
                name="gitlab",
                title="GitLab",
                container="gitlab",
                image="gitlab-populated-final-port8023",
                host_port=SITE_ADDRESSES["gitlab"][0],
                container_port=8023,
                env_var=SITE_VARIABLES["gitlab"],
                health_path="/users/sign_in",
                start_timeout=900.0,
                command=("/opt/gitlab/embedded/bin/runsvdir-start",),
                configure=(
                    ConfigStep(
                        "external URL",
                        "sed -i \"s|^external_url.*|external_url '{base_url}'|\" /etc/gitlab/gitlab.rb",
                        check="grep -x \"external_url '{base_url}'\" /etc/gitlab/gitlab.rb",
                        expect="{base_url}",
                    ),
                    ConfigStep("reconfigure", "gitlab-ctl reconfigure", after_change=True),
                ),
                login=LoginForm(
                    path="/users/sign_in",
                    username=Locator("test_id", "username-field"),
                    password=Locator("test_id", "password-field"),
                    submit=Locator("test_id", "sign-in-button"),
                    account=("byteblaze", "hello1234"),
                    check_path="/-/profile",
                ),
                obtain=_load_hint("gitlab-populated-final-port8023", "19W8qM0DPyRvWCLyQe0qtnCWAHGruolMR", "webarena-env-gitlab-image"),
                memory="8 GB (GitLab alone; puma and sidekiq)",
                disk="~155 GB unpacked",
            ),
            DockerSite(
                name="shopping",
                title="OneStopShop",
                container="shopping",
                image="shopping_final_0712",
                host_port=SITE_ADDRESSES["shopping"][0],
                container_port=80,
                env_var=SITE_VARIABLES["shopping"],
                configure=_magento_steps(admin=False),
                login=LoginForm(
                    path="/customer/account/login/",
                    username=Locator("label", "Email", exact=True),
                    password=Locator("label", "Password", exact=True),
                    submit=Locator("button", "Sign In"),
                    account=("emma.lopez@hotmail.com", "Password.123"),
                    check_path="/wishlist/",
                ),
                obtain=_load_hint("shopping_final_0712", "1gxXalk9O0p9eu1YkIJcmZta1nvvyAJpA", "webarena-env-shopping-image"),
                memory="4 GB (Magento, MySQL, Elasticsearch)",
                disk="~117 GB unpacked",
            ),
            DockerSite(
                name="shopping_admin",
                title="Shopping admin",
                container="shopping_admin",
                image="shopping_admin_final_0719",
                host_port=SITE_ADDRESSES["shopping_admin"][0],
                container_port=80,
                env_var=SITE_VARIABLES["shopping_admin"],
                url_path=SITE_ADDRESSES["shopping_admin"][1],
                health_path="/admin",
                configure=_magento_steps(admin=True),
                login=LoginForm(
                    path="",
                    username=Locator("placeholder", "user name"),
                    password=Locator("placeholder", "password"),
                    submit=Locator("button", "Sign in"),
                    account=("admin", "admin1234"),
                    check_path="/dashboard",
                    check_text="Dashboard",
                ),
                obtain=_load_hint("shopping_admin_final_0719", "1See0ZhJRw0WTTL9y8hFlgaduwPZ_nGfd", "webarena-env-shopping-admin-image"),
                memory="4 GB",
                disk="~20 GB unpacked",
            ),
            DockerSite(
                name="reddit",
                title="Postmill forum",
                container="forum",
                image="postmill-populated-exposed-withimg",
                host_port=SITE_ADDRESSES["reddit"][0],
                container_port=80,
                env_var=SITE_VARIABLES["reddit"],
                login=LoginForm(
                    path="/login",
                    username=Locator("label", "Username"),
                    password=Locator("label", "Password"),
                    submit=Locator("button", "Log in"),
                    account=("MarvelsGrantMan136", "test1234"),
                    check_path="/user/MarvelsGrantMan136/account",
                    check_text="Delete",
                ),
                obtain=_load_hint("postmill-populated-exposed-withimg", "17Qpp1iu_mPqzgO_73Z9BnFjHrzmX9DGf", "webarena-env-forum-image"),
                memory="2 GB",
                disk="~107 GB unpacked",
            ),
            DockerSite(
                name="wikipedia",
                title="Wikipedia (Kiwix)",
                container="wikipedia",
                image="ghcr.io/kiwix/kiwix-serve:3.3.0",
                host_port=SITE_ADDRESSES["wikipedia"][0],
                container_port=80,
                env_var=SITE_VARIABLES["wikipedia"],
                url_path=f"/{WIKIPEDIA_ZIM}/A/User:The_other_Kiwix_guy/Landing",
                health_path=f"/{WIKIPEDIA_ZIM}/A/User:The_other_Kiwix_guy/Landing",
                command=(f"{WIKIPEDIA_ZIM}.zim",),
                volumes=MappingProxyType({"{data_dir}/wikipedia": "/data"}),
                obtain=(
                    "`docker pull ghcr.io/kiwix/kiwix-serve:3.3.0`, and put "
                    f"{WIKIPEDIA_ZIM}.zim (http://metis.lti.cs.cmu.edu/webarena-images/{WIKIPEDIA_ZIM}.zim, "
                    "or https://archive.org/download/webarena-env-wiki-image) in <data-dir>/wikipedia/."
                ),
                memory="1 GB",
                disk="~90 GB (the ZIM file)",
            ),
            DockerSite(
                name="map",
                title="OpenStreetMap",
                container="map",
                image="openstreetmap-website-web",
                host_port=SITE_ADDRESSES["map"][0],
                container_port=3000,
                env_var=SITE_VARIABLES["map"],
                command=("bundle", "exec", "rails", "s", "-p", "3000", "-b", "0.0.0.0"),
                environment=MappingProxyType({"PIDFILE": "/tmp/pids/server.pid"}),
                volumes=MappingProxyType({"{data_dir}/openstreetmap-website": "/app"}),
                tmpfs=("/tmp/pids",),
                companions=(
                    Companion(
                        suffix="_db",
                        image="openstreetmap-website-db",
                        aliases=("db",),
                        environment=MappingProxyType(
                            {"POSTGRES_HOST_AUTH_METHOD": "trust", "POSTGRES_DB": "openstreetmap"}
                        ),
                        volumes=MappingProxyType({"openstreetmap-website_db-data": "/var/lib/postgresql/data"}),
                        obtain="Build it with `docker compose build db` in WebArena's openstreetmap-website checkout.",
                    ),
                ),
                obtain=(
                    "Check out WebArena's openstreetmap-website (on the WebArena AMI: "
                    "/home/ubuntu/openstreetmap-website) into <data-dir>/openstreetmap-website and run "
                    "`docker compose build` there; compose names the images openstreetmap-website-web "
                    "and openstreetmap-website-db. The tile, geocoding and routing servers are separate "
                    "(docker/README.md)."
                ),
                memory="2 GB (frontend and database; the backends need 8 GB more)",
                disk="~5 GB frontend; ~200 GB with tile, geocoding and routing data",
            ),
            DockerSite(
                name="homepage",
                title="Homepage",
                container="homepage",
                image="webarena-gym/embedded:latest",
                host_port=SITE_ADDRESSES["homepage"][0],
                container_port=4399,
                env_var=SITE_VARIABLES["homepage"],
                command=("webarena-gym", "serve", "--sites", "homepage", "--host", "0.0.0.0"),
                obtain=(
                    "Build it from this repository: "
                    "`docker build -f docker/embedded/Dockerfile -t webarena-gym/embedded:latest .`"
                ),
                memory="200 MB",
                disk="~500 MB",
            ),
        )
    }
)

#: Other names people use for a site.
ALIASES = {"forum": "reddit", "postmill": "reddit", "wiki": "wikipedia", "kiwix": "wikipedia"}

#: The image sets ``webarena-gym sites --image-set`` runs: WebArena's own images, or WebArena-Verified's.
IMAGE_SETS = ("webarena", "verified")
#: Sizes published with WebArena-Verified (its images are 85-92% smaller than WebArena's).
VERIFIED_DISK = MappingProxyType({"shopping": "~13.3 GB (WebArena's image: ~117 GB)",
                                  "gitlab": "~31.6 GB (WebArena's image: ~155 GB)"})
#: The variable WebArena-Verified's images read at start to configure their own base URL (no configure step).
VERIFIED_SITE_URL_VARIABLE = "WA_ENV_CTRL_EXTERNAL_SITE_URL"


def verified_sites() -> Mapping[str, DockerSite]:
    """WebArena-Verified's images, read from the installed package's ``DEFAULT_CONTAINER_CONFIGS``.

    Image names, ports, env-control ports and health paths are the package's; the container
    names, site URLs, login forms and variables stay WebArena's (the same applications). The
    images configure themselves from the URL they are given, and the homepage (which the
    package does not ship) is this repository's, as in the WebArena set.

    Raises:
        ConfigurationError: the ``webarena-verified`` package is not installed (names the extra).
    """
    from ..backends.verified_control import package_container_configs
    from ..suites.verified import require_verified

    require_verified()
    configs = package_container_configs()
    sites = {}
    for name, site in SITES.items():
        config = configs.get(name)
        if config is None:
            sites[name] = site
            continue
        if config.data_dir_mount:
            volumes = {f"{{data_dir}}/{name}": config.data_dir_mount}
        else:
            volumes = dict(config.volumes)
        obtain = f"`docker pull {config.docker_img}`"
        if config.setup is not None and config.setup.data_urls:
            if config.data_dir_mount:
                obtain += f", and put {', '.join(config.setup.data_urls)} in <data-dir>/{name}/"
            else:
                obtain += (f", and fill its data volumes once with `webarena-verified env setup init --site {name} "
                           "--data-dir DIR` (the webarena-verified package's command)")
        sites[name] = replace(
            site,
            image=config.docker_img,
            container_port=config.container_port,
            host_port=config.host_port or config.container_port,
            health_path=config.health_check_path,
            command=None,
            environment=MappingProxyType({VERIFIED_SITE_URL_VARIABLE: "{base_url}"}),
            volumes=MappingProxyType(volumes),
            tmpfs=(),
            configure=(),
            companions=(),
            obtain=obtain + ".",
            disk=VERIFIED_DISK.get(name, ""),
            env_ctrl_port=config.env_ctrl_port,
            host_env_ctrl_port=config.host_env_ctrl_port or config.env_ctrl_port,
        )
    return MappingProxyType(sites)


def image_set_sites(image_set: str) -> Mapping[str, DockerSite]:
    """The site definitions of an image set (``webarena`` or ``verified``)."""
    if image_set == "webarena":
        return SITES
    if image_set == "verified":
        return verified_sites()
    raise ConfigurationError(f"Unknown image set {image_set!r}; expected one of {', '.join(IMAGE_SETS)}.")
