"""`from app.main import app`: the service under test is natprod at NATPROD_URL, reached over
HTTP by fastapi.testclient.TestClient (the shim's); this object only names it."""
import os

app = os.environ.get("NATPROD_URL", "http://127.0.0.1:8000").rstrip("/")
