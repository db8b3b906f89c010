"""Python import names and the distributions that provide them, where the two differ.

``import yaml`` needs the distribution ``PyYAML``; pip knows nothing of ``yaml``. The table is
read in both directions: the distribution a missing import needs, and whether a name pip could
not find is an import name rather than a distribution. Keys are import names (top level);
values are distribution names as PyPI spells them, the usual one first. A name absent from the
table is provided by the distribution of the same name.
"""

from __future__ import annotations

IMPORT_ALIASES: dict[str, tuple[str, ...]] = {
    "yaml": ("pyyaml",), "PIL": ("pillow",), "cv2": ("opencv-python", "opencv-python-headless"),
    "sklearn": ("scikit-learn",), "skimage": ("scikit-image",), "bs4": ("beautifulsoup4",),
    "dateutil": ("python-dateutil",), "jwt": ("pyjwt",), "dotenv": ("python-dotenv",),
    "jose": ("python-jose",), "multipart": ("python-multipart",), "magic": ("python-magic",),
    "MySQLdb": ("mysqlclient",), "mysql": ("mysql-connector-python",),
    "psycopg2": ("psycopg2", "psycopg2-binary"), "attr": ("attrs",), "Crypto": ("pycryptodome",),
    "Cryptodome": ("pycryptodomex",), "OpenSSL": ("pyopenssl",), "nacl": ("pynacl",),
    "serial": ("pyserial",), "google": ("protobuf",), "dns": ("dnspython",),
    "websocket": ("websocket-client",), "docx": ("python-docx",), "pptx": ("python-pptx",),
    "pkg_resources": ("setuptools",), "email_validator": ("email-validator",),
    "pytest_jsonreport": ("pytest-json-report",), "rest_framework": ("djangorestframework",),
    "rest_framework_simplejwt": ("djangorestframework-simplejwt",), "flask_cors": ("flask-cors",),
    "flask_sqlalchemy": ("flask-sqlalchemy",), "jsonschema": ("jsonschema",),
    "slugify": ("python-slugify",), "decouple": ("python-decouple",), "fitz": ("pymupdf",),
    "Levenshtein": ("python-levenshtein", "levenshtein"), "zmq": ("pyzmq",),
    "git": ("gitpython",), "github": ("pygithub",), "kafka": ("kafka-python",),
    "socks": ("pysocks",), "Bio": ("biopython",), "barcode": ("python-barcode",),
    "memcache": ("python-memcached",), "ldap": ("python-ldap",), "ruamel": ("ruamel.yaml",),
    "telegram": ("python-telegram-bot",), "socketio": ("python-socketio",),
    "engineio": ("python-engineio",), "jsonpath_ng": ("jsonpath-ng",),
}
"""Import names whose distribution is named differently (the rest: the same name)."""
