"""The nbgrader pipeline: preprocessors, exporters and plugins that nbgrader_config.py names
(rebuild on the release, static rules, variants, truncation, inert outputs, fail-safe export,
feedback pieces). See autograder/README.md.
"""
