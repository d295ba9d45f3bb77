"""What the toolkit adapters' test scripts share (gtk/tests, qt/tests): checks, running an app
under preview-compositor replaying a recording or under weston, the scripted hostile server,
comparing screenshots, and the latency scripts' shape.

Every wait is on an event (a line of a process, a process exit, a file appearing), never a sleep.
"""
import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def finish():
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)


def lines_of(output, prefix):
    return [line.split() for line in output.splitlines() if line.startswith(prefix + " ")]


@contextlib.contextmanager
def runtime_directory(prefix):
    """A private XDG_RUNTIME_DIR for one scenario, removed afterwards."""
    runtime = tempfile.mkdtemp(prefix=prefix)
    os.chmod(runtime, 0o700)
    try:
        yield runtime
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


def wait_until(ready, process, failure):
    """Waits for `ready()` while `process` runs; exits with `failure()` if it ends first."""
    while not ready():
        try:
            process.wait(0.05)
            sys.exit(failure())
        except subprocess.TimeoutExpired:
            pass


def replay(compositor, socket, recording, runtime, app_argv, app_env, server_env=None, kill_at=None, fast=True,
           extra=(), more=(), on_line=None, through=None):
    """preview-compositor (headless) replays `recording` (and the files in `more`) into the app
    on `socket`, ending the replay once the app handled the last input (--exit-when-done).
    `on_line(line, server)` sees each line the app prints; the compositor is killed at the first
    line that starts with `kill_at`; `through(socket)` may put a proxy in between and return its
    socket. Returns the app's output and errors, both statuses and the compositor's log."""
    log = open(os.path.join(runtime, "compositor.log"), "w+")
    server = subprocess.Popen(
        [compositor, "--backend", "headless", "--socket", socket, "--replay", recording, *more,
         *(["--fast"] if fast else []), "--exit-when-done", "--should-begin-timeout", "10000", *extra],
        env=server_env or dict(os.environ, XDG_RUNTIME_DIR=runtime), stdout=log, stderr=subprocess.STDOUT)

    def listening():
        log.seek(0)
        return "listening on" in log.read()

    # The socket exists once the compositor listens: wait for its "listening" line.
    wait_until(listening, server, lambda: f"the compositor did not start:\n{open(log.name).read()}")
    if through:
        socket = through(socket)
    app = subprocess.Popen(app_argv, env=dict(app_env, WAYLAND_DISPLAY=socket), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    output = []
    for line in app.stdout:
        output.append(line)
        if on_line:
            on_line(line, server)
        if kill_at and line.startswith(kill_at):
            server.kill()  # the compositor goes away mid-interaction
            break
    server.wait(120)
    if app.poll() is None:
        app.send_signal(signal.SIGTERM)
    rest, errors = app.communicate(timeout=60)
    output.append(rest)
    log.seek(0)
    return "".join(output), errors, app.returncode, server.returncode, log.read()


@contextlib.contextmanager
def weston(runtime, env):
    """weston (headless, a compositor without the preview interaction global) on the socket
    "weston"; yields `env` with WAYLAND_DISPLAY set to it."""
    env = dict(env, WAYLAND_DISPLAY="weston")
    server = subprocess.Popen(["weston", "--backend=headless-backend.so", "--use-pixman", "--socket=weston",
                               "--idle-time=0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # weston says nothing when it listens: its socket's lock file appears.
        wait_until(lambda: os.path.exists(os.path.join(runtime, "weston.lock")), server,
                   lambda: "weston did not start")
        yield env
    finally:
        server.kill()
        server.wait()


def hostile(server_binary, socket, name, point, runtime, app_argv, env, options=()):
    """The scripted server as a hostile compositor (preview-protocol-test-server --hostile NAME X Y,
    with `options` such as --configure W H or --output-scale S) with the app on it, until the
    fresh press after the hostile sequence is answered (or the app is gone). Returns what the
    server printed (the app's answers), the app's output and errors and its status."""
    server = subprocess.Popen([server_binary, socket, "--hostile", name, *(str(v) for v in point), *options],
                              env=dict(os.environ, XDG_RUNTIME_DIR=runtime), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if not line.startswith("WAYLAND_DISPLAY="):
        sys.exit(f"the hostile compositor did not start: {line} {server.stderr.read()}")
    # Its output goes to files: 10,000 should-begin lines would fill a pipe no one reads meanwhile.
    app_out = open(os.path.join(runtime, "app.out"), "w+")
    app_err = open(os.path.join(runtime, "app.err"), "w+")
    app = subprocess.Popen(app_argv, env=dict(env, WAYLAND_DISPLAY=line.strip().split("=", 1)[1]), stdout=app_out,
                           stderr=app_err, text=True)
    fresh = fresh_answer(name)
    said = []
    # Until the fresh press is answered, or the app is gone (the server then ends), or an app that
    # stopped answering has had two minutes: a failure, said as such.
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(read) for read in server.stdout] + [lines.put("")],
                     daemon=True).start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            said_line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if not said_line:
            break
        said.append(said_line.strip())
        if said_line.strip() in (fresh, "declined 10001", "declined 2", "declined 1"):
            break
    if server.poll() is None and not said[-1:] == [fresh]:
        said.append("(no answer: the app answered no further press)")
    status = app.poll()
    if status is None:
        app.terminate()
        status = app.wait(60)
    if server.poll() is None:
        server.terminate()
    server.wait(60)
    app_out.seek(0)
    app_err.seek(0)
    output, errors = app_out.read(), app_err.read()
    print("\n".join(said[-12:]))
    print(output[-2000:])
    check(fresh in said, f"the fresh press after the hostile sequence is accepted: {said[-3:]}")
    check(not any(line.startswith("declined") for line in said), "no press was declined")
    return said, output, errors, status


def fresh_answer(name):
    """The server's line for the app's answer to the fresh press after the hostile sequence."""
    return {"flood": "accepted 10001", "press": "accepted 1"}.get(name, "accepted 2")


def interactions_in(trace):
    """The compositor's interactions (a press inside the window's region), from its trace."""
    found = set()
    if os.path.exists(trace):
        with open(trace) as records:
            for line in records:
                record = json.loads(line)
                if record.get("interaction") is not None:
                    found.add(record["interaction"])
    return found


def _pictures(a, b):
    import cairo
    one, two = cairo.ImageSurface.create_from_png(a), cairo.ImageSurface.create_from_png(b)
    return one.get_width(), one.get_height(), one.get_stride(), one.get_data(), two.get_data()


def difference(a, b, box=(0.0, 0.0, 1.0, 1.0)):
    """Mean absolute difference of two PNGs of one size, 0…255, on a coarse grid, inside `box`
    (left, top, right, bottom as fractions of the picture)."""
    w, h, stride, p, q = _pictures(a, b)
    total = count = 0
    for y in range(int(box[1] * h), int(box[3] * h), 8):
        for x in range(int(box[0] * w) * 4, int(box[2] * w) * 4, 32):
            total += abs(p[y * stride + x] - q[y * stride + x])
            count += 1
    return total / count


def changed_points(a, b):
    """How many points of an 8-pixel grid differ clearly (by more than 48 of 255 in a colour)
    between two PNGs of one size: a small drawing anywhere."""
    w, h, stride, p, q = _pictures(a, b)
    return sum(1 for y in range(0, h, 8) for x in range(0, w * 4, 32)
               if max(abs(p[y * stride + x + c] - q[y * stride + x + c]) for c in range(3)) > 48)


def shot(shots, files, moment, interaction):
    """The screenshot of `moment` of `interaction` among `files` in `shots`, or None."""
    return next((os.path.join(shots, f) for f in files if f.endswith(f"-interaction{interaction}-{moment}.png")),
                None)


# The latency scripts: the adapter's preview signal vs the toolkit's own tablet event, for the
# same hardware frame, at the app.

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def replay_pen_into(root, runtime, compositor, socket, app, env):
    """preview-compositor (headless) replays the Wacom DTH2242 pen (7 strokes, 1,200 frames) into
    `app`, which it runs (--run); the app's output."""
    recording = os.path.join(root, "Tests", "Fixtures", "recordings", "wacom-dth2242-pen.yml")
    result = subprocess.run(
        [compositor, "--backend", "headless", "--socket", socket, "--replay", recording, "--exit-when-done",
         "--should-begin-timeout", "10000", "--run", app],
        env=env, capture_output=True, text=True, timeout=600)
    return result.stdout


def pair_by_millisecond(signals, peer):
    """Latencies of the frames both saw: `signals` maps a frame's hardware time (µs) to when the
    app got the adapter's signal, `peer` its millisecond to when the app got the toolkit's event."""
    ours, theirs = [], []
    for hardware, now in signals.items():
        millisecond = (hardware // 1000) & 0xFFFFFFFF
        if millisecond in peer:
            ours.append(now - hardware)
            theirs.append(peer[millisecond] - hardware)
    return ours, theirs


def latency_runs(root, prefix, run_once):
    """`run_once(runtime, compositor)` for each of argv[1] (default 3) runs, with this build's compositor."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True,
                             check=True).stdout.strip()
    compositor = os.path.join(bin_dir, "preview-compositor")
    with runtime_directory(prefix) as runtime:
        for run in range(1, runs + 1):
            run_once(run, runtime, compositor)
