"""Checks used by the exercise notebooks\x27 test cells."""
