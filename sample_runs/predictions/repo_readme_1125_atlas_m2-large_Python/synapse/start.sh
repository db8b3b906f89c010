#!/usr/bin/env bash
# Start the Synapse benchmark message service in the foreground.
# Port: SYNAPSE_PORT or PORT (default 8080); host: HOST (default 0.0.0.0).
set -euo pipefail
cd "$(dirname "$0")"
exec python run.py
