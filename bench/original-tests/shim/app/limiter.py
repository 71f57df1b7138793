"""`app.limiter` of the original: its tests reset the rate limiter's counters before each test
(`limiter.reset()`, `limiter._limiter.reset()`, `limiter._limiter.storage.reset()`). natprod's
counters cannot be reset from outside; the harness's natprod (or any natprod called from its own
machine) exempts loopback clients (RATE_LIMIT_EXEMPT), so there is nothing to reset and the calls
return at once. Any other name of the module (the key functions, `_is_authenticated`) is the
original's Python code and marks the test as not an HTTP test."""
import natprod_shim


class _Counters:
    def reset(self) -> None:
        """Nothing to reset: see the module's docstring."""

    @property
    def storage(self) -> "_Counters":
        return self


class _Limiter(_Counters):
    _limiter = _Counters()


limiter = _Limiter()


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    natprod_shim.mark_internal(f"app.limiter.{attr}")
    return natprod_shim._Internal(f"app.limiter.{attr}")
