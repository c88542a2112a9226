#!/usr/bin/env python3
"""The browser page tested in a real browser (headless Chromium through
Selenium and chromedriver): serves web/dist with `jungle serve`, plays
whole games by clicking, and checks the page against the Rust code.

Checks, each an assertion:
  * a game against random clicks (moves chosen among the page's shown
    targets) ends, the page shows the end, and the game's moves replayed
    by `jungle analyze --server` are all legal and end the same way;
  * on fixed positions the page's agent picks the same move as
    `jungle analyze` with the same network, position and simulations;
  * a broken model (bad ONNX bytes, an unknown encoding) gives a message;
  * with --opponent SPEC --games N: N games against a `jungle engine`
    player through the page (sides alternate), the score printed and
    written with --json;
  * with --screenshot FILE: the board mid-game saved as a PNG.

Usage: scripts/check_web.py --jungle target/release/jungle [--dist web/dist]
       [--opponent alphabeta:4 --games 20] [--screenshot docs/web.png] [--json OUT]
"""
import argparse
import json
import os
import random
import subprocess
import signal
import sys
import tempfile
import threading
import time

import urllib3

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By

NETWORK = "networks/default/checkpoint"
PLAYER = f"net:{NETWORK}:{{sims}}:material=0.6:qsearch=0.5"
MAX_PLIES = 400
# Seconds chromedriver waits for the page's renderer to answer a command.
RENDERER_TIMEOUT = 120
# Seconds a fresh page has to load its model and become idle.
READY_TIMEOUT = 180


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Server:
    """`jungle serve` on a free port."""

    def __init__(self, jungle, dist):
        self.proc = subprocess.Popen([jungle, "serve", "--port", "0", "--dir", dist],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "http://127.0.0.1:" not in line:
            fail(f"jungle serve did not start: {line!r}")
        self.url = line.split("on ", 1)[1].split(" ", 1)[0]

    def close(self):
        self.proc.kill()
        self.proc.wait()


class Analyzer:
    """`jungle analyze --server`, one query at a time."""

    def __init__(self, jungle):
        self.proc = subprocess.Popen([jungle, "analyze", "--server", "--threads", "1"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, query):
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


class Engine:
    """A `jungle engine` player through JCEI."""

    def __init__(self, jungle, player):
        self.proc = subprocess.Popen([jungle, "engine", "--player", player],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("jcei")
        self.wait_for("jceiok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                fail(f"the engine ended before `{prefix}`")
            if line.startswith(prefix):
                return line.strip()

    def best(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go")
        return self.wait_for("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # `get` returns once the document is parsed; the page's own `ready`
    # flag (set when the model is loaded) is what the checks wait for.
    options.page_load_strategy = "eager"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1100,760",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='jungle-chromium-')}"]:
        options.add_argument(flag)
    # chromedriver and its Chromium in a process group of their own, so a
    # browser that hangs can be killed whole.
    service = Service("/usr/bin/chromedriver", popen_kw={"start_new_session": True})
    driver = webdriver.Chrome(service=service, options=options)
    # chromedriver also waits this long for an answer from the page's
    # renderer to any command (its "Timed out receiving message from
    # renderer"); the page compiles onnxruntime's 15 MB of WebAssembly on
    # start, which on two busy cores can take a while.
    driver.set_page_load_timeout(RENDERER_TIMEOUT)
    driver.set_script_timeout(RENDERER_TIMEOUT)
    # and this client waits a little longer for chromedriver itself.
    driver.command_executor._client_config.timeout = RENDERER_TIMEOUT + 30
    return driver


def wait(driver, script, what, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.05)
    fail(f"timed out waiting for {what}; page error: {page_error(driver)}")


def quit_quietly(driver):
    """Closes the browser; one that does not close in 30 s is killed."""
    closer = threading.Thread(target=driver.quit, daemon=True)
    closer.start()
    closer.join(30)
    process = driver.service.process
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def console(driver):
    """The browser console's lines so far (for a failure's report)."""
    try:
        return [entry["message"] for entry in driver.get_log("browser")]
    except WebDriverException:
        return []


def start(url, attempts=3):
    """A browser with the page open, its model loaded and idle. A start that
    stalls (seen once in a while in CI: chromedriver gets no answer from the
    renderer for minutes right after Chromium starts) is given up and tried
    again in a fresh browser, `attempts` times at most."""
    reasons = []
    for attempt in range(1, attempts + 1):
        driver = browser()
        try:
            driver.get(url)
            wait_ready = time.time() + READY_TIMEOUT
            while not driver.execute_script(
                    "return !!(window.junglePage && window.junglePage.ready && !window.junglePage.thinking)"):
                if time.time() > wait_ready:
                    raise TimeoutException(f"the page was not ready in {READY_TIMEOUT} s")
                time.sleep(0.05)
            error = page_error(driver)
            if error:
                quit_quietly(driver)
                fail(f"the page shows an error: {error}")
            return driver
        except (WebDriverException, OSError, urllib3.exceptions.HTTPError) as e:
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            reasons.append(reason)
            # A chromedriver that still answers tells what the page printed.
            lines = console(driver) if isinstance(e, WebDriverException) else []
            print(f"start {attempt} of {attempts} failed: {reason}; console: {lines}", file=sys.stderr)
            quit_quietly(driver)
    fail(f"the page at {url} did not start in {attempts} fresh browsers: {reasons}")


def page_error(driver):
    return driver.execute_script("return window.junglePage ? window.junglePage.error : 'no page object'")


def idle(driver):
    wait(driver, "return window.junglePage && window.junglePage.ready && !window.junglePage.thinking",
         "the page to be idle")
    error = page_error(driver)
    if error:
        fail(f"the page shows an error: {error}")


def state(driver):
    return driver.execute_script("return window.junglePage.state()")


def click(driver, square):
    driver.find_element(By.CSS_SELECTOR, f'.square[data-square="{square}"]').click()


def targets(driver):
    return [e.get_attribute("data-square") for e in driver.find_elements(By.CSS_SELECTOR, ".square.target")]


def play_click(driver, move):
    """Plays `move` by clicking its two squares; the target must be shown."""
    click(driver, move[:2])
    shown = targets(driver)
    if move[2:] not in shown:
        fail(f"after clicking {move[:2]} the page shows targets {shown}, not {move[2:]}")
    click(driver, move[2:])


def random_click_move(driver, rng):
    """Clicks one of our animals with targets, then a random target; the move."""
    side = state(driver)["side"]
    squares = [e.get_attribute("data-square") for e in driver.find_elements(
        By.CSS_SELECTOR, f".square:has(.piece.{side})")]
    rng.shuffle(squares)
    for square in squares:
        click(driver, square)
        shown = targets(driver)
        if shown:
            to = rng.choice(shown)
            click(driver, to)
            return square + to
    fail("none of our animals shows a target")


def new_game(driver, side):
    select = driver.find_element(By.ID, "side")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", select, side)
    idle(driver)


def check_replay(analyzer, st):
    """The page's moves replayed by the Rust rules: legal, same end."""
    answer = analyzer.ask({"id": "replay", "moves": st["moves"], "player": "greedy"})
    if st["over"]:
        error = answer.get("error", "")
        if "already over" not in error:
            fail(f"the page says the game is over ({st['result']}, {st['reason']}), jungle says: {answer}")
        if st["reason"] not in error.replace(" ", "_"):
            fail(f"the page's reason {st['reason']} is not jungle's: {error}")
    elif "error" in answer:
        fail(f"jungle refuses the page's moves: {answer['error']}")


def random_game(driver, analyzer, rng, screenshot):
    new_game(driver, "south")
    while True:
        st = state(driver)
        if st["over"] or len(st["moves"]) >= MAX_PLIES:
            break
        random_click_move(driver, rng)
        idle(driver)
        if screenshot and len(state(driver)["moves"]) >= 12:
            driver.save_screenshot(screenshot)
            print(f"screenshot: {screenshot}")
            screenshot = None
        check_replay(analyzer, state(driver))
    if screenshot:  # a game shorter than 12 plies: its last position
        driver.save_screenshot(screenshot)
        print(f"screenshot: {screenshot}")
    st = state(driver)
    if not st["over"]:
        fail(f"a game of random clicks did not end in {MAX_PLIES} plies")
    status = driver.find_element(By.ID, "status")
    if status.get_attribute("data-over") != "true" or not status.text:
        fail(f"the page does not show the end: {status.text!r}")
    check_replay(analyzer, st)
    print(f"random game: {len(st['moves'])} plies, {st['result']} by {st['reason']}; page: {status.text!r}")


def same_moves_as_analyze(driver, analyzer, sims):
    """A few positions of a fixed line; the page's move == jungle analyze's."""
    line = ["g3g4", "a7b7", "g4f4", "b7b6", "a1a2", "a9a8", "g1g2", "g9f9"]
    checked = 0
    for k in (0, 3, 6, 8):
        replay = analyzer.ask({"id": "fen", "moves": line[:k], "player": "greedy"})
        if "error" in replay:
            fail(f"the fixed line is not legal: {replay}")
        fen = replay["position"]
        want = analyzer.ask({"id": k, "position": fen, "player": PLAYER.format(sims=sims), "simulations": sims})
        got = driver.execute_script(
            "return window.junglePage.analyze(arguments[0], arguments[1])", fen, sims)
        if got["best"] != want["best"]:
            fail(f"position {fen}: the page plays {got['best']}, jungle analyze {want['best']}")
        checked += 1
    print(f"same move as jungle analyze at {sims} simulations: {checked} positions of {checked}")


def broken_models(driver, dist):
    tmp = tempfile.mkdtemp(prefix="jungle-broken-")
    good_json = json.load(open(os.path.join(dist, "model", "model.json")))
    unrecorded = {k: v for k, v in good_json.items() if k != "files"}
    cases = [
        ("model.onnx could not be loaded", b"not an onnx file", dict(unrecorded, format_version=1)),
        ("from two exports", b"not an onnx file", good_json),
        ("encoding_version 9", open(os.path.join(dist, "model", "model.onnx"), "rb").read(),
         dict(good_json, encoding_version=9)),
    ]
    for i, (expect, onnx, desc) in enumerate(cases):
        folder = os.path.join(tmp, str(i))
        os.makedirs(folder)
        open(os.path.join(folder, "model.onnx"), "wb").write(onnx)
        json.dump(desc, open(os.path.join(folder, "model.json"), "w"))
        picker = driver.find_element(By.ID, "model-files")
        picker.send_keys(os.path.join(folder, "model.onnx") + "\n" + os.path.join(folder, "model.json"))
        wait(driver, "return !!window.junglePage.error", "a message for a broken model", 30)
        message = driver.find_element(By.ID, "message")
        if expect not in message.text or not message.is_displayed():
            fail(f"broken model {i}: expected a message with {expect!r}, the page shows {message.text!r}")
        driver.execute_script("document.getElementById('model-files').value = ''")
    print(f"broken models: all {len(cases)} get a message")


def opening(driver, rng, plies):
    """`plies` random legal moves from the start, as `jungle arena` opens."""
    moves = []
    for _ in range(plies):
        legal = driver.execute_script("return window.junglePage.legalAfter(arguments[0])", moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    return moves


def match(driver, jungle, opponent, games, rng, opening_plies):
    """Games in pairs: one random opening, the agent on each side of it."""
    engine = Engine(jungle, opponent)
    wins = draws = losses = 0
    moves_of_pair = []
    for g in range(games):
        side = "south" if g % 2 == 0 else "north"
        if g % 2 == 0:
            moves_of_pair = opening(driver, rng, opening_plies)
        driver.execute_script("window.junglePage.newGame(arguments[0], arguments[1])", side, moves_of_pair)
        idle(driver)
        while True:
            st = state(driver)
            if st["over"]:
                break
            if len(st["moves"]) >= MAX_PLIES:
                fail("a match game went past the ply cap")
            play_click(driver, engine.best(st["moves"]))
            idle(driver)
        result = st["result"]
        if result == "draw":
            draws += 1
        elif result == side:
            losses += 1  # the page's player (the opponent engine) won
        else:
            wins += 1
    engine.close()
    times = driver.execute_script("return window.junglePage.thinkMs")
    score = (wins + draws / 2) / games
    print(f"page agent vs {opponent}: {wins}-{losses}-{draws} (score {score:.3f}) over {games} games; "
          f"{sum(times) / len(times):.0f} ms a move on average ({len(times)} moves)")
    return {"opponent": opponent, "games": games, "wins": wins, "losses": losses, "draws": draws,
            "score": score, "mean_ms": sum(times) / len(times), "moves": len(times)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jungle", required=True)
    ap.add_argument("--dist", default="web/dist")
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--opponent")
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--screenshot")
    ap.add_argument("--json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opening-plies", type=int, default=4,
                    help="random plies before the players take over, one opening per pair of games")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    server = Server(args.jungle, args.dist)
    analyzer = Analyzer(args.jungle)
    report = {}
    driver = None
    try:
        driver = start(server.url + f"?seed={args.seed}")
        if args.opponent:
            report = match(driver, args.jungle, args.opponent, args.games, rng, args.opening_plies)
        else:
            random_game(driver, analyzer, rng, args.screenshot)
            same_moves_as_analyze(driver, analyzer, args.simulations)
            broken_models(driver, args.dist)
            report = {"think_ms": driver.execute_script("return window.junglePage.thinkMs")}
    finally:
        if driver is not None:
            quit_quietly(driver)
        analyzer.close()
        server.close()
    if args.json:
        json.dump(report, open(args.json, "w"), indent=1)
    print("web check: OK")


if __name__ == "__main__":
    main()
