"""Presentation: figures, tables and sentence templates. It reads analysis results and claims and
never decides a verdict itself, so wording can change without touching a rule."""
