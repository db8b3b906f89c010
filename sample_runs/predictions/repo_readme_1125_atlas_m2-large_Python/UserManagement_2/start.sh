#!/usr/bin/env bash
# Start the user management service in the foreground on 0.0.0.0:8080.
set -euo pipefail
cd "$(dirname "$0")"
export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-8080}"
exec python main.py
