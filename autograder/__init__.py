"""Grading tools: see autograder/README.md."""
