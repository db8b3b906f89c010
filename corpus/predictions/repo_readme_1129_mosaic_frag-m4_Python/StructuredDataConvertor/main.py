"""Entry point for the StructuredDataConvertor service."""
import uvicorn

from converter import create_app

app = create_app()


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8000)
