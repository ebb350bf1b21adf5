"""Presentation: figures, tables, descriptions of the data, and the renderer of the chapters' wording
files (notebooks/<chapter>.claims.yml). It reads analysis results and claims and never decides a
verdict itself, so wording can change without touching a rule."""
