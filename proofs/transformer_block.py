"""Checks of the chapter (registered on import)."""
