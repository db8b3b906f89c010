#!/usr/bin/env bash
# Make the Docker sandbox usable on this machine: a Docker engine and the base image.
#  - installs docker.io and debootstrap from the machine's Debian sources when missing (root);
#  - starts `dockerd --storage-driver=vfs` in the background when no engine answers (root);
#  - builds the base image with `inspector sandbox init` (debootstrap from the apt mirror +
#    docker import; Docker Hub is never contacted). Idempotent: quick when all is in place.
set -euo pipefail

log() { echo "sandbox-setup: $*" >&2; }

if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        log "docker.io and debootstrap are needed; as root: apt-get install -y docker.io debootstrap"
        exit 1
    fi
    log "installing docker.io and debootstrap"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq docker.io debootstrap iptables >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        log "no Docker engine answers and starting one needs root (dockerd --storage-driver=vfs)"
        exit 1
    fi
    log "starting dockerd --storage-driver=vfs (log: /tmp/genesis-dockerd.log)"
    nohup dockerd --storage-driver=vfs >/tmp/genesis-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        sleep 1
    done
    docker info >/dev/null 2>&1 || { log "dockerd did not come up:"; tail -20 /tmp/genesis-dockerd.log >&2; exit 1; }
fi

# Java tasks: JDK 17 and Maven, and Debian's Maven repository layout (/usr/share/maven-repo:
# JUnit 5, Jackson, Jetty, the compiler and Surefire plugins), the offline source the tests use
JAVA_PACKAGES="openjdk-17-jdk-headless maven junit5 libjackson2-databind-java libjetty9-java libmaven-compiler-plugin-java libsurefire-java"
missing=""
for p in $JAVA_PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        log "Java packages missing:$missing; as root: apt-get install -y$missing"
        exit 1
    fi
    log "installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq $missing >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq $missing >/dev/null; }
fi

inspector sandbox init --java
