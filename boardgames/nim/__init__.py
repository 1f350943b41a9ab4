"""Nim with Bouton's strategy (RULES.md section 4)."""
