#!/usr/bin/env python3
"""Time from `stop` to `bestmove`, and from `newgame` to `readyok`, through a pipe.

    python3 apps/engine/bench/stop_latency.py target/release/tns-engine [EVALUATOR] [TRIES]

Each try sends `go infinite`, waits 50 ms, sends `stop` and times the engine's `bestmove`; then
`setoption name Hash value 4096`, `newgame` and `isready` are timed once. Prints the median,
the 99th percentile and the worst, in milliseconds (docs/benchmarking.md).
"""

import statistics
import subprocess
import sys
import time

engine_path = sys.argv[1]
evaluator = sys.argv[2] if len(sys.argv) > 2 else "network"
tries = int(sys.argv[3]) if len(sys.argv) > 3 else 100

engine = subprocess.Popen([engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine stopped answering")
        if line.startswith(prefix):
            return line


send("setoption name Evaluator value " + evaluator)
send("position startpos moves c3 a5b4")
send("isready")
until("readyok")
waits = []
for _ in range(tries):
    send("go infinite")
    time.sleep(0.05)
    asked = time.perf_counter()
    send("stop")
    until("bestmove")
    waits.append(1000 * (time.perf_counter() - asked))
waits.sort()
p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
print(f"{evaluator}: stop to bestmove over {tries} tries: median {statistics.median(waits):.2f} ms, "
      f"p99 {p99:.2f} ms, worst {waits[-1]:.2f} ms")
send("setoption name Hash value 4096")
send("isready")
until("readyok")
asked = time.perf_counter()
send("newgame")
send("isready")
until("readyok")
print(f"newgame with Hash 4096 to readyok: {1000 * (time.perf_counter() - asked):.2f} ms")
send("quit")
engine.wait(timeout=30)
