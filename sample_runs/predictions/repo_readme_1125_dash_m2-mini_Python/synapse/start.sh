#!/bin/bash
cd "$(dirname "$0")"
python app.py
