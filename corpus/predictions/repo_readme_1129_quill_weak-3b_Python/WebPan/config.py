import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
SECRET_KEY = os.getenv("SECRET_KEY", "webpan-secret-key")
UPLOAD_FOLDER = os.path.join(BASE_DIR, "uploads")
DATABASE_URI = "sqlite:///" + os.path.join(BASE_DIR, "webpan.db")
MAX_FILE_SIZE = 100 * 1024 * 1024
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024
TOKEN_EXPIRES = 3600
