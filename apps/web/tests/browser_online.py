#!/usr/bin/env python3
"""Play a friend, in real browsers.

Starts `tns-web` on a free loopback port with a database in a temporary directory, and drives
three headless Chromium windows (Debian's `chromium` and `chromium-driver`, by Selenium):
A creates a game through the page's form (the sheep, against a friend, 5+3) and reads the
friend's link from the page; B opens it and plays the tigers, on a board turned round; C opens
the watch link. They play a whole game by clicking the board (seven moves each, the tigers
killing their fifth sheep), with a draw offered and declined by a move on the way; B reloads in
the middle and must find the same position and clocks; C sees every move and no control, and
no page shows a verdict while the game goes on. At the end the result shows, the review link
opens the explorer with the game's moves, and Rematch (asked by A, accepted by B) takes both
to the new game with the sides swapped, where A resigns (confirmed). Everything is checked
from the DOM. Stops the server with SIGTERM, which must end it with exit 0.

    python3 apps/web/tests/browser_online.py target/release/tns-web [more tns-web options]
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# A whole game: the sheep feed the tigers five sheep (found with the page's own rules, and
# checked by the server as it is played).
GAME = ["c3", "a1b1", "d2", "e1e2", "b5", "a5xc5", "a5", "e2xc2",
        "b5", "c2xc4", "b4", "c5xa3", "d5", "e5xc5"]
RELOAD_AFTER = 8  # B reloads once this many moves are played
RESTART_AFTER = 10  # the server is stopped and started again: the pages reconnect
DRAW_AFTER = 5  # A (the sheep, having played) offers a draw; B declines it by moving


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, args, database, port=None):
    port = port or free_port()
    server = subprocess.Popen(
        [binary, "--listen", f"127.0.0.1:{port}", "--database", database, *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline()
    if "http://" not in line:
        server.kill()
        sys.exit(f"tns-web did not start: {line!r}")
    return server, f"http://127.0.0.1:{port}/"


def browser():
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900"]:
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def wait(driver, condition, what, timeout=15):
    try:
        return WebDriverWait(driver, timeout).until(lambda d: condition(d))
    except Exception as e:
        raise AssertionError(f"timed out waiting for {what}") from e


def text(driver, id_):
    return driver.find_element(By.ID, id_).text


def shown(driver, id_):
    return driver.find_element(By.ID, id_).is_displayed()


def moves(driver):
    """The game's moves as the page lists them, read in one script."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#online-moves li')].map((li) => li.dataset.move);")


def pieces(driver):
    """The board as drawn: each occupied point and its piece."""
    return driver.execute_script("""
        const out = {};
        for (const g of document.querySelectorAll('#board g[data-point]')) {
          const p = g.querySelector('.piece');
          if (p) out[g.dataset.point] = p.classList.contains('tiger') ? 'T' : 'S';
        }
        return out;""")


def clocks(driver):
    """Each side's time left in ms, as the page counts it now."""
    return driver.execute_script("""
        const out = {};
        for (const id of ['clock-top', 'clock-bottom']) {
          const c = document.getElementById(id);
          out[c.dataset.side] = Number(c.dataset.ms);
        }
        return out;""")


def bottom_side(driver):
    return driver.find_element(By.ID, "clock-bottom").get_attribute("data-side")


def click_point(driver, name):
    target = driver.find_element(By.CSS_SELECTOR, f'g[data-point="{name}"] circle.point')
    ActionChains(driver).move_to_element(target).click().perform()


def click_move(driver, move):
    """A move by clicks: a placement's point, or the piece and then where it goes."""
    points = move.replace("x", "")
    if len(points) == 2:
        click_point(driver, points)
    else:
        click_point(driver, points[:2])
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .selected"), f"{move}'s piece selected")
        click_point(driver, points[2:])


def no_verdicts(driver, who):
    """No verdict anywhere on a page of a live game: no marks on the board, no explorer."""
    labels = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#board .target-label")]
    check(not labels, f"{who}: no verdict on the board, not {labels}")
    marks = driver.find_elements(By.CSS_SELECTOR, "#board circle.target:not(.plain)")
    check(not marks, f"{who}: only plain targets on the board")
    check(not shown(driver, "verdict") and not shown(driver, "moves"), f"{who}: the explorer's verdicts hidden")
    asked = driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => n.includes('/api/v1/position') || n.includes('/api/v1/review'));")
    check(not asked, f"{who}: no verdict asked of the server, yet {asked}")


def flipped(driver):
    """Whether the board is drawn upside down: a5 at the bottom right."""
    c = driver.find_element(By.CSS_SELECTOR, 'g[data-point="a5"] circle.point')
    return c.get_attribute("cx") == "400" and c.get_attribute("cy") == "400"


def create_game(driver, base):
    driver.get(base)
    wait(driver, lambda d: len(Select(d.find_element(By.ID, "friend-opponent")).options) > 1, "the players")
    Select(driver.find_element(By.ID, "friend-side")).select_by_value("sheep")
    Select(driver.find_element(By.ID, "friend-opponent")).select_by_value("friend")
    Select(driver.find_element(By.ID, "friend-clock")).select_by_value("5+3")
    driver.find_element(By.ID, "friend-create").click()
    wait(driver, lambda d: "/play/" in d.current_url, "the creator taken to the game")
    wait(driver, lambda d: d.find_element(By.ID, "friend-link").get_attribute("value"), "the friend's link")
    return driver.find_element(By.ID, "friend-link").get_attribute("value")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary, extra = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        database = os.path.join(tmp, "games.sqlite")
        server, base = start_server(binary, extra, database)
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        servers = [server]

        def restart():
            stop(servers[-1])
            servers.append(start_server(binary, extra, database, port)[0])

        drivers = []
        try:
            a, b, c = browser(), browser(), browser()
            drivers = [a, b, c]
            play(base, a, b, c, restart)
        finally:
            for d in drivers:
                d.quit()
            code = stop(servers[-1])
        check(code == 0, f"tns-web ended with {code} on SIGTERM")
    print("online browser test: passed; screenshot of the tigers' page target/web-online.png")


def stop(server):
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=30)
    check(code == 0, f"tns-web ended with {code} on SIGTERM")
    return code


def play(base, a, b, c, restart):
    friend = create_game(a, base)
    game_url = a.current_url.split("#")[0]
    token_a = a.current_url.split("#")[1]
    check(len(token_a) == 32 and friend.startswith(game_url + "#"), f"seat links: {a.current_url}, {friend}")
    check(friend.split("#")[1] != token_a, "the friend's token is not the creator's")
    watch = a.find_element(By.ID, "watch-link").get_attribute("href")
    check(watch == game_url, f"the watch link {watch} is the game's address {game_url}")
    b.get(friend)
    c.get(watch)
    for d, side in [(a, "sheep"), (b, "tigers")]:
        wait(d, lambda d: bottom_side(d) == side and "you play" in text(d, "online-turn"), f"{side}: its seat")
    wait(c, lambda d: "watching" in text(d, "online-turn"), "the watcher's page")
    check(not flipped(a) and flipped(b) and not flipped(c), "only the tigers' board is turned round")
    check("Your move" in text(a, "online-turn"), f"A to move: {text(a, 'online-turn')}")
    check("Sheep to move" in text(b, "online-turn"), f"B waits: {text(b, 'online-turn')}")
    check(not shown(c, "online-controls") and not shown(c, "invite"), "no control for the watcher")
    check(shown(a, "resign") and shown(b, "resign"), "the players can resign")
    check(not shown(b, "invite"), "the friend is not asked to invite anyone")
    check(clocks(a) == {"sheep": 300000, "tigers": 300000}, f"the clocks wait for the first move: {clocks(a)}")

    for i, move in enumerate(GAME):
        mover, waiter = (a, b) if i % 2 == 0 else (b, a)
        wait(mover, lambda d: "Your move" in text(d, "online-turn"), f"move {i + 1}: its turn")
        no_verdicts(mover, f"move {i + 1}'s player")
        click_move(mover, move)
        for d in (a, b, c):
            wait(d, lambda d: moves(d) == GAME[: i + 1], f"move {i + 1} {move} on every page")
        if i + 1 < len(GAME):
            waiter_side = "tigers" if i % 2 == 0 else "sheep"
            for d in (a, b):
                turn = d.find_element(By.CSS_SELECTOR, ".clock.to-move").get_attribute("data-side")
                check(turn == waiter_side, f"after {move} the {waiter_side}' clock is highlighted, not {turn}")
                running = d.find_element(By.CSS_SELECTOR, ".clock.running").get_attribute("data-side")
                check(running == waiter_side, f"after {move} the {waiter_side}' clock runs, not {running}")
        last = a.find_elements(By.CSS_SELECTOR, "#board circle.last")
        check(len(last) == 1, "the last move is marked")
        if i + 1 == DRAW_AFTER:
            a.find_element(By.ID, "draw").click()
            wait(b, lambda d: d.find_element(By.ID, "draw").text == "Accept the draw", "the offer on B's page")
            check("offer a draw" in text(b, "online-offer"), f"B told: {text(b, 'online-offer')}")
            check(a.find_element(By.ID, "draw").text == "Draw offered", "A's button says it is offered")
        if i + 1 == DRAW_AFTER + 1:
            wait(a, lambda d: not shown(d, "online-offer"), "the offer declined by B's move")
            check(b.find_element(By.ID, "draw").text == "Offer a draw", "B's button back to an offer")
        if i + 1 == RELOAD_AFTER:
            reload_in_the_middle(a, b, c)
            os.makedirs("target", exist_ok=True)
            b.save_screenshot("target/web-online.png")
        if i + 1 == RESTART_AFTER:
            # The server gone and back with the same database: every page follows on, from the
            # last event it saw (its socket closed, it tries again, waiting longer each time).
            connections = lambda d: int(d.execute_script("return document.body.dataset.connections || '0'"))
            before = [connections(d) for d in (a, b, c)]
            restart()
            for d, n in zip((a, b, c), before):
                wait(d, lambda d: connections(d) > n and d.execute_script("return document.body.dataset.live") == "true",
                     "the socket again after the restart", timeout=30)

    for d in (a, b, c):
        wait(d, lambda d: shown(d, "online-result"), "the result")
        result = text(d, "online-result")
        check("Tigers win" in result and "five sheep dead" in result, f"the result: {result}")
    check("You won" in text(b, "online-result") and "You lost" in text(a, "online-result"), "who won, to each")
    check(pieces(a) == pieces(b) == pieces(c), "the same board on every page")
    for d in (a, b):
        check(shown(d, "rematch") and not shown(d, "resign"), "rematch, no resign, after the end")

    # Review: the explorer, one click away, with the game's moves and its verdicts.
    review = c.find_element(By.ID, "review")
    check(review.is_displayed(), "the review link after the end")
    review.click()
    wait(c, lambda d: d.find_element(By.ID, "verdict").is_displayed(), "the explorer")
    wait(c, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#played li")) == len(GAME), "the game in the explorer")
    wait(c, lambda d: "Tigers win" in text(d, "verdict"), "the explorer's verdict of the end")

    # Rematch: asked by A, accepted by B; both go to the new game, the sides swapped.
    a.find_element(By.ID, "rematch").click()
    wait(b, lambda d: d.find_element(By.ID, "rematch").text == "Accept the rematch", "the rematch asked")
    b.find_element(By.ID, "rematch").click()
    for d, side, token in [(a, "tigers", token_a), (b, "sheep", friend.split("#")[1])]:
        wait(d, lambda d: "/play/" in d.current_url and not d.current_url.startswith(game_url + "#"), "the rematch's page")
        check(d.current_url.endswith("#" + token), f"the same token in the rematch: {d.current_url}")
        wait(d, lambda d: bottom_side(d) == side and "you play" in text(d, "online-turn"), f"now {side}")
        wait(d, lambda d: moves(d) == [], "a new game")
    check(a.current_url.split("#")[0] == b.current_url.split("#")[0], "both in the same rematch")
    check(flipped(a) and not flipped(b), "A's board turned round now")
    check(clocks(a) == {"sheep": 300000, "tigers": 300000}, f"the same clock: {clocks(a)}")
    click_move(b, "c3")
    wait(a, lambda d: moves(d) == ["c3"] and "Your move" in text(d, "online-turn"), "A's turn in the rematch")
    a.find_element(By.ID, "resign").click()
    a.switch_to.alert.accept()
    for d in (a, b):
        wait(d, lambda d: "resignation" in text(d, "online-result"), "the resignation")
    check("Sheep win" in text(b, "online-result") and "You won" in text(b, "online-result"), "B won the rematch")


def reload_in_the_middle(a, b, c):
    """B reloads: the same moves, board and clocks (within a second) as A and C see."""
    before = clocks(b)
    started = time.monotonic()
    b.refresh()
    wait(b, lambda d: moves(d) == moves(a) and d.find_elements(By.CSS_SELECTOR, ".clock.running"),
         "the game after the reload")
    gone = (time.monotonic() - started) * 1000
    after, theirs = clocks(b), clocks(a)
    check(pieces(b) == pieces(a) == pieces(c), "the same board after the reload")
    for side in ("sheep", "tigers"):
        check(abs(after[side] - theirs[side]) < 1000, f"{side}' clock after the reload: {after} against A's {theirs}")
        check(before[side] - gone - 1000 <= after[side] <= before[side] + 1000,
              f"{side}' clock across the reload: {before} then {after}, {gone:.0f} ms later")
    check(flipped(b) and bottom_side(b) == "tigers", "B still the tigers after the reload")
    check(moves(c) == moves(a), "the watcher has the same moves")


if __name__ == "__main__":
    main()
