"""Quote storage kept in process memory."""
import random
import threading
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional


@dataclass
class Quote:
    id: int
    text: str
    author: str
    votes: int = 0


class QuoteStore:
    def __init__(self) -> None:
        self._quotes: Dict[int, Quote] = {}
        self._next_id = 1
        self._lock = threading.Lock()

    def add(self, text: str, author: str) -> dict:
        with self._lock:
            quote = Quote(id=self._next_id, text=text, author=author)
            self._quotes[quote.id] = quote
            self._next_id += 1
            return asdict(quote)

    def ranked(self) -> List[dict]:
        quotes = sorted(self._quotes.values(), key=lambda q: (-q.votes, q.id))
        return [asdict(q) for q in quotes]

    def vote(self, quote_id: int) -> Optional[dict]:
        with self._lock:
            quote = self._quotes.get(quote_id)
            if quote is None:
                return None
            quote.votes += 1
            return {"id": quote.id, "votes": quote.votes}

    def random(self) -> Optional[dict]:
        if not self._quotes:
            return None
        return asdict(random.choice(list(self._quotes.values())))


store = QuoteStore()
