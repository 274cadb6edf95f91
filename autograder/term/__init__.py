"""The instructor's term: roster, students, inbox, collect, generate, late penalty, feedback,
export, report, misconceptions, the instructor's lab. See autograder/README.md.
"""
