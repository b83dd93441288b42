// Tigers and Sheep, solved: the page. It keeps the game (a start position and the moves
// played), asks /api/v1/position for the verdicts after every change, and draws the board.
// A plain JavaScript module: no build step, nothing but this file and the page.

const START = "T3T/5/5/5/T3T s 20";
const FILES = "abcde";
const SPACING = 100;
const state = {
  start: START,
  moves: [],
  redo: [],
  answer: null,
  selected: null,
  busy: false,
  players: [],
  clicked: 0,
  // The puzzle on the board: the API's puzzle, the move to find (from 0), whether it is over.
  puzzle: null,
  // The next puzzle, fetched when the last one was judged (with the rating it moved).
  pending: null,
  solver: JSON.parse(localStorage.getItem("tns-solver") || "null"),
  review: null,
};

const $ = (id) => document.getElementById(id);

function pointName(x, y) { return FILES[x] + String(5 - y); }
function pointXY(name) { return [FILES.indexOf(name[0]), 5 - Number(name[1])]; }

// The ranks of a position: a 5x5 array of "T", "S" or "".
function parseBoard(position) {
  const ranks = position.split(" ")[0].split("/");
  return ranks.map((rank) => {
    const row = [];
    for (const c of rank) {
      if (c >= "1" && c <= "5") { for (let i = 0; i < Number(c); i++) row.push(""); }
      else row.push(c);
    }
    return row;
  });
}

// Where the game stands, in the address bar, so a position can be shared and reloaded.
function saveHash() {
  const params = new URLSearchParams();
  if (state.start !== START) params.set("pos", state.start);
  if (state.moves.length) params.set("moves", state.moves.join(","));
  const hash = params.toString();
  history.replaceState(null, "", hash ? "#" + hash : location.pathname);
}

function loadHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.start = params.get("pos") || START;
  state.moves = (params.get("moves") || "").split(",").filter((m) => m);
}

async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/v1/${path}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// The side to move after the first `n` moves of the game: the sides take turns.
function sideAfter(n) {
  const first = state.start.trim().split(/\s+/)[1] === "t" ? "tigers" : "sheep";
  return n % 2 === 0 ? first : first === "tigers" ? "sheep" : "tigers";
}

// How many moves an undo keeps: back past the computer's moves to the last position where the
// person was to move, as the terminal game's `u` does (else the computer would only play its
// reply again); null when there is none.
function undoTarget() {
  const computer = $("computer-side").value;
  for (let n = state.moves.length - 1; n >= 0; n--) {
    if (sideAfter(n) !== computer) return n;
  }
  return null;
}

function gameParams() {
  const p = { pos: state.start };
  if (state.moves.length) p.moves = state.moves.join(",");
  return p;
}

async function refresh() {
  saveHash();
  try {
    state.answer = await api("position", gameParams());
    $("status").textContent = "";
  } catch (e) {
    if (state.moves.length) {
      // The last move was refused (typed, or from a shared address): back to before it.
      state.moves.pop();
      await refresh();
      $("status").textContent = e.message;
      return;
    }
    $("status").textContent = e.message;
    state.answer = null;
  }
  state.selected = null;
  render();
  refreshReview();
  if (state.clicked) {
    document.body.dataset.verdictsMs = String(Math.round(performance.now() - state.clicked));
    state.clicked = 0;
  }
  maybeComputer();
}

// A move's points: a placement is its point (c3); a step a5b4 and a kill a5xc3 start at the
// first point and end at the last.
function fromOf(move) { return move.length > 2 ? move.slice(0, 2) : null; }
function toOf(move) { return move.slice(-2); }

function verdictClass(v) { return v ? v.result : "unknown"; }

// A move's mark: what it does to the position's result where the table says (its `effect`, by
// the rule the terminal game's marks follow: in a lost position the longest defence keeps and
// the rest lose sooner, nothing is thrown away that was not held), else its result.
function markClass(m) {
  switch (m.effect) {
    case "keeps": return m.verdict.result === "loss" ? "defence" : verdictClass(m.verdict);
    case "loses_sooner": return "sooner";
    case "gives_up_win": return "gives-up";
    case "loses": return "loss";
    default: return verdictClass(m.verdict);
  }
}

// Whether a puzzle is being solved: then no verdict is shown, of the position or of any move
// (they would give the answers away), until it is solved or given up.
function puzzleOpen() { return Boolean(state.puzzle && !state.puzzle.done); }

function shortVerdict(v) {
  if (!v) return "";
  if (v.result === "draw") return "=";
  if (v.result === "unknown") return "?";
  const sign = v.result === "win" ? "+" : "−";
  return v.plies != null ? sign + v.plies : sign;
}

// The board, drawn into `svg` from `view`: the `position`, the legal `moves` (each with its
// verdict, or none), the `selected` point, the `last` move marked, `flip` (upside down, for the
// tigers' player), `secret` (where the moves go, without their verdicts) and `onPoint(name,
// piece)` for a click. Shared with the online game (online.js).
export function drawBoard(svg, view) {
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const el = (name, attrs, parent = svg) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  };
  // Where a point is drawn: turned half round when flipped (the lines are symmetric).
  const at = (i) => (view.flip ? 4 - i : i) * SPACING;
  const grid = el("g", { class: "grid" });
  for (let i = 0; i < 5; i++) {
    el("line", { x1: 0, y1: i * SPACING, x2: 400, y2: i * SPACING }, grid);
    el("line", { x1: i * SPACING, y1: 0, x2: i * SPACING, y2: 400 }, grid);
  }
  el("line", { x1: 0, y1: 0, x2: 400, y2: 400 }, grid);
  el("line", { x1: 400, y1: 0, x2: 0, y2: 400 }, grid);
  el("line", { x1: 200, y1: 0, x2: 400, y2: 200 }, grid);
  el("line", { x1: 400, y1: 200, x2: 200, y2: 400 }, grid);
  el("line", { x1: 200, y1: 400, x2: 0, y2: 200 }, grid);
  el("line", { x1: 0, y1: 200, x2: 200, y2: 0 }, grid);
  for (let x = 0; x < 5; x++) {
    const t = el("text", { x: at(x), y: 445, "text-anchor": "middle" });
    t.textContent = FILES[x];
    const r = el("text", { x: -40, y: at(x) + 6, "text-anchor": "middle" });
    r.textContent = String(5 - x);
  }
  if (!view.position) return;
  const board = parseBoard(view.position);
  const inHand = Number(view.position.trim().split(/\s+/)[2]);
  if (view.last) {
    const [lx, ly] = pointXY(toOf(view.last));
    el("circle", { class: "last", cx: at(lx), cy: at(ly), r: 44 });
    const from = fromOf(view.last);
    if (from) { const [fx, fy] = pointXY(from); el("circle", { class: "last-from", cx: at(fx), cy: at(fy), r: 44 }); }
  }
  const placing = view.position.split(" ")[1] === "s" && inHand > 0;
  const targets = new Map();
  for (const m of view.moves) {
    const from = fromOf(m.move);
    if (from === view.selected || (from === null && placing)) targets.set(toOf(m.move), m);
  }
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      const name = pointName(x, y);
      const piece = board[y][x];
      const cx = at(x), cy = at(y);
      const g = el("g", { "data-point": name, class: "point-group" });
      el("circle", { class: "point", cx, cy, r: 40 }, g);
      if (piece) {
        const p = el("g", { class: `piece ${piece === "T" ? "tiger" : "sheep"}${view.selected === name ? " selected" : ""}` }, g);
        el("circle", { cx, cy, r: 32 }, p);
        const t = el("text", { x: cx, y: cy }, p);
        t.textContent = piece === "T" ? "T" : "S";
      }
      const target = targets.get(name);
      if (target && !piece && (view.secret || !target.verdict)) {
        // Where the move goes, without its verdict.
        el("circle", { class: "target plain", cx, cy, r: 22, "data-move": target.move }, g);
      } else if (target && !piece) {
        el("circle", { class: `target ${markClass(target)}`, cx, cy, r: 22, "data-move": target.move }, g);
        const label = el("text", { class: "target-label", x: cx, y: cy });
        label.textContent = shortVerdict(target.verdict);
      }
      g.addEventListener("click", () => view.onPoint(name, piece));
    }
  }
}

// What a click on the point `name` does, by the legal `moves`: a placement is the point
// itself; a piece of the side to move (`own`) is selected, or let go; a point where the
// selected piece can go is that move. Answers `{move}`, `{selected}` or nothing to do.
export function entryClick(moves, placing, selected, name, own) {
  if (placing) return moves.some((m) => m.move === name) ? { move: name } : {};
  if (own) return { selected: selected === name ? null : name };
  if (!selected) return {};
  const mv = moves.find((m) => fromOf(m.move) === selected && toOf(m.move) === name);
  return mv ? { move: mv.move } : {};
}

function render() {
  const a = state.answer;
  const secret = puzzleOpen();
  drawBoard($("board"), {
    position: a && a.position,
    moves: a ? a.moves : [],
    selected: state.selected,
    last: state.moves[state.moves.length - 1],
    secret,
    onPoint: (name, piece) => clickPoint(name, piece === (a.side_to_move === "tigers" ? "T" : "S")),
  });
  if (!a) return;
  const mover = a.side_to_move === "tigers" ? "Tigers" : "Sheep";
  $("verdict").textContent = a.outcome ? a.outcome.text
    : secret ? `${mover} to move`
    : `${mover} to move: ${a.verdict ? a.verdict.text : "…"}`;
  $("verdict").className = "verdict " + (a.verdict && !secret ? verdictClass(a.verdict) : "");
  $("source").textContent = a.source === "table" ? "the tablebase (exact)" : "the engine's search (no table for this position)";
  const list = $("moves");
  list.replaceChildren();
  $("moves-note").hidden = !secret;
  // During a puzzle the moves are listed by name: best first would put the answers first.
  const listed = secret ? [...a.moves].sort((x, y) => (x.move < y.move ? -1 : x.move > y.move ? 1 : 0)) : a.moves;
  listed.forEach((m, i) => {
    const li = document.createElement("li");
    if (!secret) li.className = markClass(m);
    li.dataset.move = m.move;
    li.textContent = `${i + 1}. ` + (secret ? m.move : `${m.move}: ${m.verdict.text}`);
    li.addEventListener("click", () => play(m.move));
    list.appendChild(li);
  });
  // The grey marks ("?": no result proven, only the search's estimate) are explained where shown.
  $("legend-unknown").hidden = secret || !a.moves.some((m) => verdictClass(m.verdict) === "unknown");
  // The marks of a lost position and of a win given up are explained where they are shown.
  const marked = new Set(a.moves.map(markClass));
  $("legend-lost").hidden = secret || !(marked.has("defence") || marked.has("sooner"));
  $("legend-gives-up").hidden = secret || !marked.has("gives-up");
  const played = $("played");
  played.replaceChildren();
  let thrown = false;
  // Numbered by turns, as the game's move list: 1. the sheep's move, 1… the tigers' reply; a
  // game from a position with the tigers to move starts at 1….
  const tigersFirst = state.start.split(" ")[1] === "t";
  a.played.forEach((p, i) => {
    const li = document.createElement("li");
    const ply = i + (tigersFirst ? 1 : 0);
    const number = `${Math.floor(ply / 2) + 1}${ply % 2 ? "…" : "."}`;
    const shown = p.verdict && !secret;
    const text = shown ? `${p.move} (${p.verdict.text})` : p.move;
    li.textContent = `${number} ${text}`;
    if (p.kept === false && !thrown && !secret) { thrown = true; li.classList.add("thrown"); li.title = "the game was first thrown away here"; }
    if (shown) li.classList.add(verdictClass(p.verdict));
    li.addEventListener("click", () => { state.redo = state.moves.splice(i + 1).concat(state.redo); refresh(); });
    played.appendChild(li);
  });
  $("counts").textContent = `Sheep in hand ${a.in_hand} · dead ${a.dead} of 5`;
  $("position-input").value = a.position;
  $("undo").disabled = undoTarget() === null;
  $("redo").disabled = state.redo.length === 0;
}

function clickPoint(name, own) {
  const a = state.answer;
  if (!a || a.outcome || state.busy || computerToMove()) return;
  const placing = a.side_to_move === "sheep" && a.in_hand > 0;
  const chosen = entryClick(a.moves, placing, state.selected, name, own);
  if (chosen.move) { state.clicked = performance.now(); play(chosen.move); }
  else if (chosen.selected !== undefined) { state.selected = chosen.selected; render(); }
}

function play(move) {
  if (state.puzzle && !state.puzzle.done) { puzzleMove(move); return; }
  state.moves.push(move);
  state.redo = [];
  refresh();
}

// --- Puzzles: one near the solver's rating, the move judged against its exact answers; the
// rating (Glicko-2, moved by the server) kept in the browser.

const bare = (m) => m.replace("x", "");

function puzzleTask(p) {
  const side = p.position.split(" ")[1] === "s" ? "Sheep" : "Tigers";
  const value = p.themes.includes("win") ? "win" : "draw";
  const task = p.line.length ? `${1 + p.line.length / 2} moves in a row that keep the ${value}`
    : `the move that keeps the ${value}`;
  return `Puzzle ${p.number} (rated ${p.rating}): ${side} to move, find ${task}.`;
}

function showPuzzle(message) {
  const el = $("puzzle");
  if (!state.puzzle) { el.hidden = true; return; }
  const r = state.solver ? Math.round(state.solver.rating) : 1500;
  el.hidden = false;
  el.textContent = `${message || puzzleTask(state.puzzle.data)} Your rating: ${r}.`;
}

async function startPuzzle() {
  try {
    let next = state.pending;
    if (!next) {
      const params = { seed: Math.floor(Math.random() * 1e9) };
      if (state.solver) Object.assign(params, state.solver);
      next = (await api("puzzle", params)).puzzle;
    }
    state.pending = null;
    state.puzzle = { data: next, step: 0, done: false };
    // For the browser test: the puzzle's number (its answers are the API's).
    document.body.dataset.puzzle = String(next.number);
    state.start = next.position; state.moves = []; state.redo = [];
    $("computer-side").value = "none";
    showPuzzle();
    refresh();
  } catch (e) { $("status").textContent = e.message; }
}

async function judgePuzzle(solved) {
  const params = { after: state.puzzle.data.number, solved, seed: Math.floor(Math.random() * 1e9) };
  if (state.solver) Object.assign(params, state.solver);
  try {
    const answer = await api("puzzle", params);
    state.solver = answer.solver;
    localStorage.setItem("tns-solver", JSON.stringify(answer.solver));
    state.pending = answer.puzzle;
  } catch (e) { $("status").textContent = e.message; }
}

async function puzzleMove(typed) {
  const pz = state.puzzle;
  const d = pz.data;
  // A move that is not legal here (typed) is no try at the puzzle.
  const legal = state.answer && state.answer.moves.find((m) => bare(m.move) === bare(typed));
  if (!legal) { $("status").textContent = `${typed} is not a legal move here`; return; }
  const move = legal.move;
  const wanted = pz.step === 0 ? d.solutions : [d.line[2 * pz.step - 1]];
  state.moves.push(move);
  state.redo = [];
  if (wanted.some((w) => bare(w) === bare(move))) {
    const reply = d.line[2 * pz.step];
    if (reply) {
      state.moves.push(reply);
      pz.step += 1;
      showPuzzle(`${move} is right; they answer ${reply}: and now?`);
    } else {
      pz.done = true;
      await judgePuzzle(true);
      showPuzzle(`Solved: ${move} keeps the ${d.value}. Puzzle: the next one.`);
    }
    refresh();
    return;
  }
  pz.done = true;
  await judgePuzzle(false);
  await refresh();
  // The puzzle's answers are exact (the set was made from the solved game), whatever this
  // server answers from; the verdicts on the page are the table's only where it has one.
  const why = state.answer && state.answer.source === "table"
    ? "the table's verdict is above"
    : "the puzzles' answers come from the solved game; with no table here, the verdicts shown are the search's estimates";
  showPuzzle(`${move} gives it up (${why}). The answer: ${wanted.join(" or ")}. Puzzle: the next one.`);
}

// --- The review: the value for the sheep along the game, from the table, under the board;
// the moves that threw a result away marked ?? (to a loss) and ? (a win to a draw).

async function refreshReview() {
  // No review while a puzzle is open: its values and marks would give the answers away.
  if (!state.moves.length || puzzleOpen()) { state.review = null; drawChart(); return; }
  const asked = JSON.stringify(gameParams());
  let review = null;
  try { review = await api("review", gameParams()); } catch (e) { review = null; }
  // The game changed (or a puzzle began) while the review was on its way: it is not this one's.
  if (asked !== JSON.stringify(gameParams()) || puzzleOpen()) return;
  state.review = review;
  drawChart();
  const played = $("played").children;
  (state.review ? state.review.plies : []).forEach((p, i) => {
    if (p.mark && played[i]) {
      played[i].dataset.mark = p.mark;
      played[i].title = p.better ? `${p.mark}: ${p.better} kept the result` : p.mark;
      played[i].firstChild.textContent = played[i].firstChild.textContent.replace(p.move, p.move + p.mark);
    }
  });
}

function drawChart() {
  const svg = $("chart");
  const r = state.review;
  const known = r ? r.values.filter((v) => v !== null).length : 0;
  // An <svg> has no `hidden` property (only HTML elements do): the attribute itself is set.
  svg.toggleAttribute("hidden", known < 2);
  svg.replaceChildren();
  if (known < 2) return;
  const ns = "http://www.w3.org/2000/svg";
  const el = (name, attrs) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  const n = r.values.length;
  const x = (i) => (n > 1 ? (i * 400) / (n - 1) : 0);
  const y = (v) => 25 - v * 24;
  el("line", { class: "mid", x1: 0, y1: 25, x2: 400, y2: 25 });
  const points = r.values.map((v, i) => (v === null ? null : `${x(i)},${y(v)}`)).filter((p) => p);
  el("polyline", { class: "value", points: points.join(" ") });
  r.plies.forEach((p, i) => {
    if (p.mark && r.values[i + 1] !== null) el("circle", { class: "mistake", cx: x(i + 1), cy: y(r.values[i + 1]), r: 4 });
  });
  el("line", { class: "now", x1: x(n - 1), y1: 0, x2: x(n - 1), y2: 50 });
}

function computerToMove() {
  const side = $("computer-side").value;
  return state.answer && !state.answer.outcome && state.answer.side_to_move === side;
}

async function maybeComputer() {
  if (!computerToMove() || state.busy) return;
  state.busy = true;
  const asked = JSON.stringify(gameParams());
  $("status").textContent = "the computer is thinking…";
  let answer = null;
  try {
    answer = await api("move", { ...gameParams(), player: $("computer-player").value });
  } catch (e) {
    if (asked === JSON.stringify(gameParams())) $("status").textContent = e.message;
  }
  state.busy = false;
  if (asked !== JSON.stringify(gameParams())) {
    // The game changed while it thought (an undo, a new game): that move is for another position.
    $("status").textContent = "";
    maybeComputer();
    return;
  }
  if (answer) play(answer.move);
}

async function loadPlayers() {
  try {
    const answer = await api("players", {});
    const select = $("computer-player");
    for (const p of answer.players) {
      const o = document.createElement("option");
      o.value = p.name; o.textContent = p.name;
      o.title = p.spec === p.name ? p.description : `${p.description} (${p.spec})`;
      if (p.name === answer.default) o.selected = true;
      select.appendChild(o);
      // The same players as an online opponent, instead of a friend.
      const f = document.createElement("option");
      f.value = p.name; f.textContent = `the computer: ${p.name}`; f.title = o.title;
      $("friend-opponent").appendChild(f);
    }
  } catch (e) { $("status").textContent = e.message; }
}

// Taking moves back or on leaves the puzzle: the board is the player's again.
const leavePuzzle = () => { if (state.puzzle) { state.puzzle = null; showPuzzle(); } };
// Against the computer both take back, or play again, its reply with the person's move.
$("undo").addEventListener("click", () => {
  leavePuzzle();
  const keep = undoTarget();
  if (keep === null) return;
  state.redo = state.moves.splice(keep).concat(state.redo);
  refresh();
});
$("redo").addEventListener("click", () => {
  leavePuzzle();
  if (!state.redo.length) return;
  const computer = $("computer-side").value;
  do { state.moves.push(state.redo.shift()); } while (state.redo.length && sideAfter(state.moves.length) === computer);
  refresh();
});
$("new").addEventListener("click", () => { state.puzzle = null; showPuzzle(); state.start = START; state.moves = []; state.redo = []; refresh(); });
$("puzzle-next").addEventListener("click", () => startPuzzle());
$("computer-side").addEventListener("change", () => maybeComputer());
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const m = $("move-input").value.trim().toLowerCase();
  if (m) { $("move-input").value = ""; play(m); }
});
$("copy").addEventListener("click", async () => {
  const text = state.answer ? state.answer.position : "";
  try {
    await navigator.clipboard.writeText(text);
    $("status").textContent = `copied ${text}`;
  } catch (e) {
    // No clipboard (an insecure page, say): select it for the user to copy.
    $("position-input").select();
    $("status").textContent = "the position is selected: copy it with Ctrl+C";
  }
});
$("position-form").addEventListener("submit", (e) => {
  e.preventDefault();
  state.start = $("position-input").value.trim() || START;
  state.moves = []; state.redo = [];
  refresh();
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") $("undo").click();
  if (e.key === "ArrowRight") $("redo").click();
});

// --- Play a friend: a game on the server (docs/online.md), played at /play/ID#TOKEN.

async function createGame() {
  const side = $("friend-side").value;
  const other = side === "sheep" ? "tigers" : "sheep";
  const body = { [side]: "friend", [other]: $("friend-opponent").value };
  if ($("friend-clock").value) body.clock = $("friend-clock").value;
  try {
    const response = await fetch("/api/v1/games", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    const friend = answer.seats[other];
    // The creator's page remembers its side and the friend's link (the server's: its
    // --public-url may name it otherwise than this page's address), to show it there.
    const invite = friend ? friend.url : null;
    const token = answer.seats[side].token;
    localStorage.setItem(`tns-game-${answer.id}`, JSON.stringify({ side, token, invite }));
    location.assign(`/play/${answer.id}#${token}`);
  } catch (e) { $("status").textContent = e.message; }
}

function startExplorer() {
  $("friend-form").addEventListener("submit", (e) => { e.preventDefault(); createGame(); });
  window.addEventListener("hashchange", () => { loadHash(); refresh(); });
  loadHash();
  loadPlayers();
  refresh();
}

// /play/ID is an online game (its own module, loaded only there); anything else the explorer.
if (location.pathname.startsWith("/play/")) {
  document.body.classList.add("online");
  import("/online.js").then((online) => online.startOnline({ drawBoard, entryClick }))
    .catch((e) => { $("status").textContent = `the online game did not load: ${e.message}`; });
} else {
  startExplorer();
}
