"""ctxaction: context packages for coding agents."""

__version__ = "0.1.0"
