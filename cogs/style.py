"""The look every Components V2 message of the bot shares."""

import discord

COLOUR = discord.Colour(0x8E5A3C)
"""The containers' accent colour (a felt-hat brown)."""
