"""What runs a reader's functions for `proofs check` (saved as `_proofs_check_harness.py` and
called by a two-line program the listings' bootstrap runs in their sandbox: `main(settings)`
with the reader's file and its import's seconds): it imports that file, then answers requests on the
channel (descriptor 4) until it closes: which of the expected names FILE defines, and
with which parameters; and a call of one of them on arguments the judge sends.

Every call runs under a time limit (an interval timer that raises inside the reader's
code), with what it prints through Python counted and dropped past a limit, and with
its arguments compared before and after (a function that changes its input is told).
Messages are length-prefixed JSON (`wire.py` reads them on the judge's side, strictly);
arrays travel as their dtype, shape and bytes in base64. A script, not a module the
package imports: it runs where the package may not be installed, with NumPy only.
"""

from __future__ import annotations

import base64
import importlib.util
import inspect
import io
import json
import math
import os
import signal
import socket
import struct
import sys
import time
import types

CHANNEL = 4  # supervisor.CHANNEL
PRINTED = 2**20  # bytes a call may print through Python before it is stopped


class OutOfTime(BaseException):  # noqa: N818 - raised inside the reader's code, like KeyboardInterrupt
    """The call's time is up."""


class PrintedTooMuch(BaseException):  # noqa: N818
    """The call printed more than PRINTED bytes."""


class Counted(io.TextIOBase):
    """sys.stdout and sys.stderr while a call runs: counts what it prints, keeps nothing."""

    def __init__(self) -> None:
        self.count = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.count += len(text.encode("utf-8", "replace"))
        if self.count > PRINTED:
            raise PrintedTooMuch()
        return len(text)


def encode(value: object, depth: int = 0) -> object:
    """A value as JSON-able data the judge reads strictly."""
    import numpy as np

    if depth > 20:
        return {"other": "nested more than 20 deep"}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            return {"other": f"an array of dtype {value.dtype}"}
        data = np.ascontiguousarray(value)
        return {
            "array": {
                "dtype": data.dtype.str,
                "shape": list(data.shape),
                "data": base64.b64encode(data.tobytes()).decode(),
            }
        }
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return encode(np.asarray(value), depth + 1)
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):
        return {"float": repr(value) if math.isfinite(value) else str(value)}
    if value is None:
        return {"none": None}
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        return {kind: [encode(v, depth + 1) for v in value[:100_000]]}
    return {"other": type(value).__name__}


def decode(data: object) -> object:
    """The judge's arguments (its own data: arrays, numbers, dicts, a configuration)."""
    import numpy as np

    assert isinstance(data, dict) and len(data) == 1
    ((kind, value),) = data.items()
    if kind == "array":
        raw = base64.b64decode(value["data"])
        return np.frombuffer(raw, dtype=np.dtype(value["dtype"])).reshape(value["shape"]).copy()
    if kind == "float":
        return float(value)
    if kind == "int":
        return int(value)
    if kind in ("bool", "str", "none"):
        return value
    if kind == "list":
        return [decode(v) for v in value]
    if kind == "tuple":
        return tuple(decode(v) for v in value)
    if kind == "dict":
        return {k: decode(v) for k, v in value.items()}
    if kind == "config":
        return types.SimpleNamespace(**{k: decode(v) for k, v in value.items()})
    raise ValueError(kind)


def snapshot(value: object) -> object:
    """A copy of the arrays in an argument, to tell afterwards whether the call changed it."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    return value


def changed(before: object, after: object) -> bool:
    import numpy as np

    if isinstance(before, np.ndarray):
        return not (
            isinstance(after, np.ndarray)
            and after.shape == before.shape
            and bool(np.array_equal(before, after, equal_nan=True))
        )
    if isinstance(before, dict):
        return not isinstance(after, dict) or any(
            changed(v, after.get(k)) for k, v in before.items()
        )
    if isinstance(before, list):
        return not isinstance(after, (list, tuple)) or any(
            changed(b, a) for b, a in zip(before, after, strict=False)
        )
    return False


def parameters(function: object) -> object:
    """[[name, kind, has a default], ...] of a callable, or why there are none."""
    if not callable(function):
        return {"not_callable": type(function).__name__}
    try:
        found = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return {"unknown": True}
    return [[p.name, p.kind.name, p.default is not inspect.Parameter.empty] for p in found]


def send(channel: socket.socket, message: object) -> None:
    data = json.dumps(message).encode()
    channel.sendall(struct.pack(">Q", len(data)) + data)


def receive(channel: socket.socket) -> object | None:
    head = b""
    while len(head) < 8:
        chunk = channel.recv(8 - len(head))
        if not chunk:
            return None
        head += chunk
    (size,) = struct.unpack(">Q", head)
    body = bytearray()
    while len(body) < size:
        chunk = channel.recv(min(1 << 20, size - len(body)))
        if not chunk:
            return None
        body += chunk
    return json.loads(body)


def first_line(exc: BaseException) -> str:
    try:
        return (str(exc).strip().splitlines() or [""])[0][:300]
    except Exception:
        return ""


def where(exc: BaseException, folder: str) -> list:
    """(file, line) of the deepest frames of the reader's files in a traceback."""
    import traceback

    frames = [
        [os.path.basename(f.filename), f.lineno]
        for f in traceback.extract_tb(exc.__traceback__)
        if os.path.dirname(os.path.abspath(f.filename)) == folder
        and os.path.basename(f.filename) != "harness.py"
    ]
    return frames[-3:]


def call(module: types.ModuleType, request: dict, folder: str) -> dict:
    """Run one of the reader's functions on the request's arguments, within its time."""
    function = getattr(module, request["name"])
    args = [decode(a) for a in request["args"]]
    kwargs = {k: decode(v) for k, v in request["kwargs"].items()}
    before = [snapshot(a) for a in args], {k: snapshot(v) for k, v in kwargs.items()}
    printed = Counted()
    streams = sys.stdout, sys.stderr
    signal.setitimer(signal.ITIMER_REAL, float(request["seconds"]))
    began = time.perf_counter()
    try:
        sys.stdout = sys.stderr = printed
        result = function(*args, **kwargs)
        spent = time.perf_counter() - began
    except OutOfTime:
        return {"timeout": float(request["seconds"])}
    except PrintedTooMuch:
        return {"printed": printed.count}
    except RecursionError as exc:
        return {"raised": {"type": "RecursionError", "message": first_line(exc), "at": []}}
    except BaseException as exc:
        if isinstance(exc, (SystemExit, KeyboardInterrupt)):
            return {"raised": {"type": type(exc).__name__, "message": "", "at": []}}
        message = first_line(exc)
        return {
            "raised": {"type": type(exc).__name__, "message": message, "at": where(exc, folder)}
        }
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = streams
    mutated = [
        str(i) for i, (b, a) in enumerate(zip(before[0], args, strict=True)) if changed(b, a)
    ]
    mutated += [k for k, b in before[1].items() if changed(b, kwargs[k])]
    return {"ok": encode(result), "seconds": spent, "mutated": mutated}


def main(settings: dict) -> None:
    file = settings["file"]
    folder = os.path.dirname(os.path.abspath(file))
    channel = socket.socket(fileno=CHANNEL)

    def out_of_time(signum: int, frame: object) -> None:
        raise OutOfTime()

    signal.signal(signal.SIGALRM, out_of_time)
    name = os.path.splitext(os.path.basename(file))[0]
    module = None
    try:
        spec = importlib.util.spec_from_file_location(name, file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        streams = sys.stdout, sys.stderr
        printed = Counted()
        signal.setitimer(signal.ITIMER_REAL, float(settings["seconds"]))
        try:
            sys.stdout = sys.stderr = printed
            spec.loader.exec_module(module)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = streams
        send(channel, {"imported": True})
    except BaseException as exc:
        kind = {OutOfTime: "timeout", PrintedTooMuch: "printed"}.get(type(exc))
        at = where(exc, folder)
        if isinstance(exc, SyntaxError) and exc.lineno:
            at.append([os.path.basename(exc.filename or file), exc.lineno])
        send(
            channel,
            {
                "import_failed": {
                    "type": kind or type(exc).__name__,
                    "message": first_line(exc),
                    "at": at,
                }
            },
        )
        return
    while (request := receive(channel)) is not None:
        assert isinstance(request, dict)
        if "probe" in request:
            found = {
                n: parameters(getattr(module, n)) if hasattr(module, n) else {"missing": True}
                for n in request["probe"]
            }
            send(channel, {"functions": found})
        else:
            send(channel, call(module, request, folder))
