"""A tiny local image that stands in for a WebArena site in the docker tests.

No registry can be reached in CI, so the image is made with ``docker import`` from a
root filesystem holding only a static busybox: ``busybox httpd`` serves a home page, a
health URL, a login form backed by CGI scripts (a cookie session, like the real sites),
and whatever the configuration step writes. About 2 MB; imported in a fraction of a second.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import socket
import tarfile
from pathlib import Path

from webarena_gym.docker_sites import ConfigStep, DockerSite, Locator, LoginForm

BUSYBOX_CANDIDATES = ("/usr/bin/busybox", "/bin/busybox", "/usr/lib/busybox/busybox")

LOGIN_PAGE = """<!doctype html><html><body><h1>Log in</h1>
<form method="post" action="/cgi-bin/login">
<label for="username">Username</label><input id="username" name="username">
<label for="password">Password</label><input id="password" name="password" type="password">
<button type="submit">Log in</button></form></body></html>
"""

# busybox httpd sends a CGI's output as is when it starts with a status line.
LOGIN_CGI = r"""#!/bin/sh
body=$(head -c "${CONTENT_LENGTH:-0}")
if [ "$body" = "username=MarvelsGrantMan136&password=test1234" ]; then
  printf 'HTTP/1.1 302 Found\r\nSet-Cookie: standin_session=MarvelsGrantMan136; Path=/\r\n'
  printf 'Location: /cgi-bin/account\r\nContent-Length: 0\r\n\r\n'
else
  printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Wrong username or password.</p>\n'
fi
"""

ACCOUNT_CGI = r"""#!/bin/sh
case "$HTTP_COOKIE" in
  *standin_session=MarvelsGrantMan136*)
    printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Welcome back, MarvelsGrantMan136</p>\n' ;;
  *)
    printf 'HTTP/1.1 302 Found\r\nLocation: /login.html\r\nContent-Length: 0\r\n\r\n' ;;
esac
"""


# A writable store, like a real site's database: POST /cgi-bin/notes adds a note (kept in the
# container's own filesystem), GET lists them with their count. Each replica has its own.
NOTES_CGI = r"""#!/bin/sh
if [ "$REQUEST_METHOD" = "POST" ]; then
  body=$(head -c "${CONTENT_LENGTH:-0}")
  echo "${body#note=}" >> /www/data/notes
  printf 'HTTP/1.1 303 See Other\r\nLocation: /cgi-bin/notes\r\nContent-Length: 0\r\n\r\n'
  exit 0
fi
count=0
items=""
if [ -f /www/data/notes ]; then
  while read -r line; do count=$((count + 1)); items="$items<li>note: $line</li>"; done < /www/data/notes
fi
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n'
echo "<!doctype html><html><body><h1>Notes</h1><p>notes stored: $count</p><ul>$items</ul>"
echo '<form method="post" action="/cgi-bin/notes"><label for="note">Note</label><input id="note" name="note">'
echo '<button type="submit">Save</button></form></body></html>'
"""


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def find_busybox() -> Path:
    for candidate in BUSYBOX_CANDIDATES:
        path = Path(candidate)
        if path.exists():
            return path
    found = shutil.which("busybox")
    if found:
        return Path(found)
    raise FileNotFoundError(
        "A static busybox is needed to build the stand-in site image: `apt-get install busybox-static` "
        "(scripts/ensure_dockerd.sh installs it when run as root)."
    )


def rootfs_tar(busybox: Path) -> bytes:
    """The stand-in's root filesystem as a tar archive (deterministic bytes)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:

        def add(name: str, data: bytes = b"", mode: int = 0o644, kind: bytes = tarfile.REGTYPE, link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.mode, info.type, info.mtime, info.linkname = mode, kind, 0, link
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

        for folder in ("bin", "tmp", "www", "www/cgi-bin", "www/config", "www/data"):
            add(folder, mode=0o1777 if folder in ("tmp", "www/data") else 0o755, kind=tarfile.DIRTYPE)
        add("bin/busybox", busybox.read_bytes(), mode=0o755)
        for applet in ("sh", "nc", "cat", "head", "mkdir", "echo", "httpd", "false"):
            add(f"bin/{applet}", kind=tarfile.SYMTYPE, link="busybox")
        add("www/index.html", b"<!doctype html><title>Stand-in</title><h1>Stand-in site</h1>\n")
        add("www/health", b"ok\n")
        add("www/login.html", LOGIN_PAGE.encode())
        add("www/cgi-bin/login", LOGIN_CGI.encode(), mode=0o755)
        add("www/cgi-bin/account", ACCOUNT_CGI.encode(), mode=0o755)
        add("www/cgi-bin/notes", NOTES_CGI.encode(), mode=0o755)
    return buffer.getvalue()


def import_standin(client, *, volume: bool = False) -> str:
    """Import the stand-in image (once per content) and return its tag.

    With ``volume=True`` the image declares /www/config a volume, like GitLab's image does
    for /etc/gitlab, so ``docker commit`` cannot keep the configuration.
    """
    data = rootfs_tar(find_busybox())
    # A shell as PID 1 that stops on SIGTERM, like the real images' init scripts do (a bare
    # httpd as PID 1 would ignore it and every `docker stop` would wait for the kill).
    serve = "/bin/busybox httpd -f -p 80 -h /www & pid=$!; trap 'kill $pid; exit 0' TERM; wait $pid"
    changes = [f'CMD ["/bin/sh", "-c", "{serve}"]']
    if volume:
        changes.append('VOLUME ["/www/config"]')
    digest = hashlib.sha256(data + "\n".join(changes).encode()).hexdigest()[:12]
    tag = f"wagymtest/standin:{'vol-' if volume else ''}{digest}"
    repository, _, version = tag.partition(":")
    for old in client.images.list(name=repository):  # earlier versions of the stand-in
        for old_tag in old.tags:
            if old_tag != tag and old_tag.split(":")[1].startswith("vol-") == volume:
                client.images.remove(old_tag, force=True)
    if not client.images.list(name=tag):
        client.api.import_image_from_data(data, repository=repository, tag=version, changes=changes)
    return tag


def standin_site(name: str, image: str, port: int, **overrides) -> DockerSite:
    """A site definition served by the stand-in image on ``port``."""
    values = dict(
        name=name,
        container=name,
        image=image,
        host_port=port,
        container_port=80,
        env_var=f"WA_{name.upper()}",
        health_path="/health",
        start_timeout=30.0,
        configure=(
            ConfigStep(
                "base URL",
                "mkdir -p /www/config && echo '{base_url}' > /www/config/base_url",
                check="cat /www/config/base_url",
                expect="{base_url}",
            ),
            ConfigStep("flush", "echo flushed >> /www/config/flushes", after_change=True),
        ),
        login=LoginForm(
            path="/login.html",
            username=Locator("label", "Username"),
            password=Locator("label", "Password"),
            submit=Locator("button", "Log in"),
            account=("MarvelsGrantMan136", "test1234"),
            check_path="/cgi-bin/account",
            check_text="Welcome back",
        ),
        obtain="It is built by the docker tests' fixtures.",
    )
    values.update(overrides)
    return DockerSite(**values)
