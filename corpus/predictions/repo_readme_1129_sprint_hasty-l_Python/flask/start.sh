#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PORT="${PORT:-5000}"
exec python wsgi.py
