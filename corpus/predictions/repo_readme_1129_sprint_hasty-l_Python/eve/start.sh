#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PORT="${PORT:-5001}"
exec python run.py
