"""Placeholder blueprint "players" so create_app can register it; its owner replaces this file."""

from flask import Blueprint

bp = Blueprint("players", __name__)
