"""The Game (ザ・ゲーム): cooperative number cards, 1–5 players."""

from games.thegame.rules import TheGameRules

RULES = TheGameRules()
