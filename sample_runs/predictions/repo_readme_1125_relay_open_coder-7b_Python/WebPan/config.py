import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
UPLOAD_FOLDER = os.environ.get('UPLOAD_FOLDER', os.path.join(BASE_DIR, 'uploads'))
MAX_FILE_SIZE = 100 * 1024 * 1024  # 100MB
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024  # 10GB
TOKEN_EXPIRES_IN = 3600
PORT = int(os.environ.get('PORT', 8080))
