"""Only `fastapi.testclient` (bench/original-tests): the original's tests reach natprod over HTTP."""
