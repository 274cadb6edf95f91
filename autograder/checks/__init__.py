"""Checks used by the exercise notebooks' test cells."""
