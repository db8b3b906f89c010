import os

import pytest


@pytest.fixture
def base_url():
    return os.environ.get("API_BASE_URL", "http://127.0.0.1:18081").rstrip("/")
