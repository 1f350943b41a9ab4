"""Game-independent parts: the game protocol, reference searches, jitted kernels."""
