"""Kalah (mancala), classic and Etudes rules (RULES.md sections 1-3)."""
