#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
export PORT=5000
exec python app.py
