"""Building print files: card contexts, sheets per deck, previews."""
