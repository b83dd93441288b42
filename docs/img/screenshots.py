#!/usr/bin/env python3
"""Makes the README's pictures again: the terminal game and the web page.

    python3 docs/img/screenshots.py [OUT_DIR]

Builds nothing itself: it runs target/release/tigers-and-sheep and target/release/tns-web (build
them first with `cargo build --release -p tigers-and-sheep -p tns-web`). The game is played in a
tmux session of 100x32 and its screen, colours and all, is written as an SVG (game.svg); the page
is opened in headless Chromium through Selenium and saved as a PNG (web.png). Needs tmux, and for
the page Chromium, chromedriver and the selenium module (what CI installs for its browser test).
OUT_DIR is docs/img by default. With TNS_TABLEBASE_DIR set to a table, the page shows its exact
verdicts; without, the engine's.
"""

import html
import os
import re
import shutil
import socket
import subprocess
import sys
import time

WIDTH, HEIGHT = 100, 32
CELL_W, CELL_H = 8.4, 17
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"

# The 16 colours of xterm's default palette, as most terminals draw them.
PALETTE = [
    "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
    "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
]
FOREGROUND, BACKGROUND = "#d0d0d0", "#1c1c1c"


def colour_256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    grey = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (grey, grey, grey)


class Style:
    def __init__(self):
        self.fg = None
        self.bg = None
        self.bold = False
        self.reverse = False
        self.underline = False

    def key(self):
        return (self.fg, self.bg, self.bold, self.reverse, self.underline)


def apply_sgr(style, params):
    """Applies one SGR sequence's parameters to the style."""
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            style.__init__()
        elif c == 1:
            style.bold = True
        elif c == 4:
            style.underline = True
        elif c == 7:
            style.reverse = True
        elif c == 22:
            style.bold = False
        elif c == 24:
            style.underline = False
        elif c == 27:
            style.reverse = False
        elif 30 <= c <= 37:
            style.fg = PALETTE[c - 30]
        elif 90 <= c <= 97:
            style.fg = PALETTE[c - 90 + 8]
        elif 40 <= c <= 47:
            style.bg = PALETTE[c - 40]
        elif 100 <= c <= 107:
            style.bg = PALETTE[c - 100 + 8]
        elif c == 39:
            style.fg = None
        elif c == 49:
            style.bg = None
        elif c in (38, 48) and i + 1 < len(codes):
            if codes[i + 1] == 5 and i + 2 < len(codes):
                value = colour_256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                value = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                i += 4
            else:
                value = None
            if c == 38:
                style.fg = value
            else:
                style.bg = value
            i += 1
        i += 1


def parse_screen(text):
    """The screen as rows of (character, style key) cells, from tmux's capture with escapes."""
    rows = []
    style = Style()
    for line in text.split("\n")[:HEIGHT]:
        cells = []
        for token in re.split(r"(\x1b\[[0-9;]*m)", line):
            if token.startswith("\x1b["):
                apply_sgr(style, token[2:-1])
                continue
            for ch in token:
                cells.append((ch, style.key()))
        rows.append(cells[:WIDTH])
    return rows


def to_svg(rows):
    """An SVG of the screen: a rectangle for each run of one background, a text for each run of
    one style, stretched to its cells so that the columns stay true in any monospace font."""
    width, height = WIDTH * CELL_W, HEIGHT * CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}">',
        f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
        f'<g font-family="{FONT}" font-size="14">',
    ]
    for y, cells in enumerate(rows):
        x = 0
        while x < len(cells):
            key = cells[x][1]
            end = x
            while end < len(cells) and cells[end][1] == key:
                end += 1
            fg, bg, bold, reverse, underline = key
            fg, bg = fg or FOREGROUND, bg
            if reverse:
                fg, bg = bg or BACKGROUND, fg
            run = "".join(ch for ch, _ in cells[x:end])
            if bg:
                out.append(
                    f'<rect x="{x * CELL_W:.1f}" y="{y * CELL_H:.1f}" width="{(end - x) * CELL_W:.1f}" '
                    f'height="{CELL_H}" fill="{bg}"/>'
                )
            if run.strip():
                attrs = f'fill="{fg}"'
                if bold:
                    attrs += ' font-weight="bold"'
                if underline:
                    attrs += ' text-decoration="underline"'
                out.append(
                    f'<text x="{x * CELL_W:.1f}" y="{y * CELL_H + 13:.1f}" {attrs} '
                    f'textLength="{(end - x) * CELL_W:.1f}" lengthAdjust="spacingAndGlyphs" '
                    f'xml:space="preserve">{html.escape(run)}</text>'
                )
            x = end
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def wait_for(session, text, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise RuntimeError(f"{text!r} never showed:\n{screen}")


def game_picture(out_dir):
    """The game a few moves in: you the sheep against the strongest, its last turn shown. The
    game is started with both sides named, so that it opens on the board, not the start screen."""
    binary = os.path.abspath("target/release/tigers-and-sheep")
    session = f"tns-screenshot-{os.getpid()}"
    save_dir = f"/tmp/{session}"
    command = f"{binary} --save-dir {save_dir} --sheep human --tiger strongest --time 0.5; sleep 5"
    tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", session, command)
    try:
        wait_for(session, "Your move")
        # Three sheep placed, each on the first of these points still empty, and the replies.
        candidates = ["c3", "c2", "b3", "d3", "c4", "b2", "d2", "b4", "d4"]
        for in_hand in (19, 18, 17):
            while True:
                point = candidates.pop(0)
                tmux("send-keys", "-t", session, "Escape", point[0], point[1])
                try:
                    wait_for(session, f"in hand {in_hand}", timeout=2)
                    break
                except RuntimeError:
                    continue
            wait_for(session, "Your move")
        screen = tmux("capture-pane", "-p", "-e", "-t", session)
    finally:
        tmux("kill-session", "-t", session)
        shutil.rmtree(save_dir, ignore_errors=True)
    path = os.path.join(out_dir, "game.svg")
    with open(path, "w", encoding="utf-8") as f:
        f.write(to_svg(parse_screen(screen)))
    print(f"wrote {path}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def web_picture(out_dir):
    """The page in a movement position, a tiger selected: its moves marked by their verdicts."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    port = free_port()
    args = ["target/release/tns-web", "--listen", f"127.0.0.1:{port}"]
    table = os.environ.get("TNS_TABLEBASE_DIR")
    if table:
        args += ["--tablebase", table]
    server = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        options = Options()
        options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")
        options.add_argument("--window-size=1100,900")
        options.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        position = "SSSSS%2FSSSSS%2FSSSS1%2FS1TTS%2FTSSST+t+0"
        driver.get(f"http://127.0.0.1:{port}/#pos={position}")
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) > 0)
        tiger = driver.find_element(By.CSS_SELECTOR, 'g[data-point="d2"] circle.point')
        ActionChains(driver).move_to_element(tiger).click().perform()
        time.sleep(0.3)
        path = os.path.join(out_dir, "web.png")
        driver.save_screenshot(path)
        print(f"wrote {path}")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait()


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "docs/img"
    os.makedirs(out_dir, exist_ok=True)
    game_picture(out_dir)
    web_picture(out_dir)


if __name__ == "__main__":
    main()
