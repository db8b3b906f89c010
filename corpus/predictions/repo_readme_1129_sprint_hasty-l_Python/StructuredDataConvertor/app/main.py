"""FastAPI application."""
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.api.routes import router
from app.core.config import settings

app = FastAPI(title=settings.app_name, version=settings.version)
app.include_router(router, prefix=settings.api_prefix)
# also expose health at the root for convenience
app.add_api_route("/health", router.routes[0].endpoint, methods=["GET"])


@app.exception_handler(RequestValidationError)
async def validation_handler(request: Request, exc: RequestValidationError):
    return JSONResponse(
        status_code=422,
        content={"success": False, "message": "Invalid request", "detail": exc.errors()},
    )
