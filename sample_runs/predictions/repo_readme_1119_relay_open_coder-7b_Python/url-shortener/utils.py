import random
import string


def make_code(length=6):
    chars = string.ascii_letters + string.digits
    return "".join(random.choice(chars) for _ in range(length))


def valid_url(url):
    if not isinstance(url, str):
        return False
    return (url.startswith("http://") or url.startswith("https://")) and len(url) > 8
