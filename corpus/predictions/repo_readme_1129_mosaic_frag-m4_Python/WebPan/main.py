"""Entry point for the WebPan file storage and sharing service."""
import uvicorn

from webpan import create_app

app = create_app()


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8080)
