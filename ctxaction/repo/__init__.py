"""Adapters over the repository: git, tracked files, history, symbols, imports."""
