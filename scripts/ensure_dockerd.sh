#!/bin/sh
# Make sure a docker engine answers; install and start one when we can.
#
# Idempotent: does nothing when an engine already answers. As root on Debian/Ubuntu it
# installs docker.io (and the docker tests' helpers busybox-static and docker-compose)
# when missing, then starts dockerd in the background with flags that work inside CI
# containers and VMs without iptables: `--iptables=false --bridge=none` (the sites use
# their own bridge network with published ports, which needs neither). Waits up to
# $DOCKERD_WAIT seconds (60). Always exits 0: the docker tests skip, saying why, when no
# engine could be started; this script's last line tells them the reason.
#
# Environment: DOCKERD_LOG (default /tmp/dockerd.log), DOCKERD_WAIT (default 60),
# DOCKERD_FLAGS (default "--iptables=false --bridge=none").
set -u

LOG=${DOCKERD_LOG:-/tmp/dockerd.log}
WAIT=${DOCKERD_WAIT:-60}
FLAGS=${DOCKERD_FLAGS:---iptables=false --bridge=none}

say() { echo "ensure_dockerd: $*"; }

answers() {
    command -v docker >/dev/null 2>&1 && docker version --format '{{.Server.Version}}' 2>/dev/null
}

is_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
    # $@: packages. Quiet, non-interactive; output goes to the log.
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ ! -f /tmp/.ensure_dockerd_apt_updated ]; then
        apt-get update -qq >>"$LOG" 2>&1 && touch /tmp/.ensure_dockerd_apt_updated
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >>"$LOG" 2>&1
}

if version=$(answers); then
    say "docker engine $version already answers"
    exit 0
fi

if is_root; then
    if ! command -v dockerd >/dev/null 2>&1; then
        say "installing docker.io with apt-get (log: $LOG)"
        apt_install docker.io || { say "could not install docker.io (see $LOG); no engine"; exit 0; }
    fi
    # The docker tests build their stand-in site image from a static busybox and validate
    # the compose file with docker-compose; both are small.
    command -v busybox >/dev/null 2>&1 || apt_install busybox-static || say "could not install busybox-static"
    if ! command -v docker-compose >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1; then
        apt_install docker-compose || say "could not install docker-compose"
    fi
else
    command -v dockerd >/dev/null 2>&1 || { say "docker is not installed and we are not root; no engine"; exit 0; }
    say "no engine answers and we are not root: start it with \`sudo $0\` or \`sudo systemctl start docker\`"
    exit 0
fi

if pgrep -x dockerd >/dev/null 2>&1; then
    say "dockerd is running but does not answer yet; waiting"
else
    say "starting dockerd $FLAGS (log: $LOG)"
    # shellcheck disable=SC2086  # FLAGS is a list of flags
    nohup dockerd $FLAGS >>"$LOG" 2>&1 &
fi

waited=0
while [ "$waited" -lt "$WAIT" ]; do
    if version=$(answers); then
        say "docker engine $version answers after ${waited} s"
        exit 0
    fi
    sleep 1
    waited=$((waited + 1))
done

say "dockerd did not answer within ${WAIT} s; last log lines:"
tail -n 5 "$LOG" 2>/dev/null | sed 's/^/  /'
say "no engine answers${DOCKER_HOST:+ at $DOCKER_HOST} (dockerd log: $LOG; a kernel without overlayfs or cgroups cannot run containers)"
exit 0
