#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
exec python app.py
