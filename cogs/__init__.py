"""The Discord surface of the Hats bot: one cog per feature, plus their shared helpers."""
