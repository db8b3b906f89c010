#!/bin/bash
export PORT=${PORT:-8080}
python main.py
