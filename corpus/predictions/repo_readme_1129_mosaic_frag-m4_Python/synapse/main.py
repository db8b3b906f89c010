"""Entry point for the Synapse Message Service (benchmark version)."""
import os

import uvicorn

from synapse_service import create_app

app = create_app()


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8080"))
    uvicorn.run(app, host="0.0.0.0", port=port)
