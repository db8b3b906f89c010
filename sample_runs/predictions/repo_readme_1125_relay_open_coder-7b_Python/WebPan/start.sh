#!/bin/bash
mkdir -p uploads
python main.py
