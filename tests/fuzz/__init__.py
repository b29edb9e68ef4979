"""Fuzzing the readers under a time and memory budget per input (``python -m tests.fuzz`` or tests/fuzz/run.py)."""
