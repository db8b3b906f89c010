import os
import uvicorn
from fastapi import FastAPI

from routes import router

app = FastAPI(title="Synapse Message Service (Benchmark Version)")
app.include_router(router)


if __name__ == "__main__":
    port = int(os.environ.get("PORT", 8080))
    uvicorn.run(app, host="0.0.0.0", port=port)
