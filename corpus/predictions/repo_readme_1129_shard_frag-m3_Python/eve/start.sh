#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
export PORT=5001
exec python app.py
