"""Stands in for the original service's `app` package (bench/original-tests): app.main and
app.limiter are the shim's own; every other app.* module is the original's Python code, which the
harness cannot run, and comes from natprod_shim's finder."""
import natprod_shim  # noqa: F401  (installs the finder for app.* and starlette)
