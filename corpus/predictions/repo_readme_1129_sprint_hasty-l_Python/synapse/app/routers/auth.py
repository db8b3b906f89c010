from fastapi import APIRouter

from app.errors import MatrixError
from app.schemas import LoginRequest, LoginResponse, RegisterRequest, RegisterResponse
from app.services import store

router = APIRouter()


@router.post("/register", response_model=RegisterResponse, status_code=200)
def register(body: RegisterRequest):
    rec = store.create_user(body.username, body.password, body.display_name)
    if rec is None:
        raise MatrixError(409, "M_USER_IN_USE", "User ID already taken")
    return RegisterResponse(user_id=rec.user_id)


@router.post("/login", response_model=LoginResponse)
def login(body: LoginRequest):
    rec = store.check_credentials(body.username, body.password)
    if rec is None:
        raise MatrixError(401, "M_FORBIDDEN", "Invalid username or password")
    token, ttl = store.issue_token(rec.user_id)
    return LoginResponse(access_token=token, token_type="Bearer", expires_in=ttl)
