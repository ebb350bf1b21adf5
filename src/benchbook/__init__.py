"""benchbook: re-analyse published LLM-inference benchmarks from their raw outputs."""

__version__ = "0.1.0"
