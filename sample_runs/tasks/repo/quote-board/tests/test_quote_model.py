"""Unit tests for the Quote model.

NOTE: these tests import the service's internal model class directly.
"""
from app.models import Quote


def test_quote_defaults_to_zero_votes():
    quote = Quote(id=1, text="Hello", author="World")
    assert quote.votes == 0


def test_quote_upvote():
    quote = Quote(id=1, text="Hello", author="World")
    quote.upvote()
    quote.upvote()
    assert quote.votes == 2


def test_quote_to_dict():
    quote = Quote(id=7, text="Hello", author="World")
    assert quote.to_dict() == {"id": 7, "text": "Hello", "author": "World", "votes": 0}


def test_quote_str_contains_author():
    quote = Quote(id=1, text="Hello", author="World")
    assert "World" in str(quote)
