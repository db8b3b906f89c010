import uvicorn
from fastapi import FastAPI
from routes import router

app = FastAPI(title="StructuredDataConvertor", version="1.0.0")
app.include_router(router, prefix="/api/v1")


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8000)
