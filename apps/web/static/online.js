// Tigers and Sheep online: a game on the server between two people (or one and a server's
// player), at /play/ID; the hash holds the seat's token (32 hex digits), or nothing for a
// watcher. The game is read from GET /api/v1/games/ID, then followed live over the WebSocket
// .../socket?since=VERSION (docs/online.md). No verdict is shown while the game goes on: the
// explorer, with every verdict, is one click away once it is over.
// Every text from the server is set with textContent, never parsed as HTML.

const START = "T3T/5/5/5/T3T s 20";
const FILES = "abcde";
const SIDES = ["sheep", "tigers"];
const other = (side) => (side === "sheep" ? "tigers" : "sheep");
const title = (side) => side[0].toUpperCase() + side.slice(1);
const $ = (id) => document.getElementById(id);

let board = null; // drawBoard and entryClick, from app.js
const game = {
  id: "",
  token: null,
  seat: null, // the side this page plays, null for a watcher (or not known yet)
  players: { sheep: "friend", tigers: "friend" },
  moves: [],
  position: START,
  result: null,
  version: 0,
  // The clocks as last told: ms left, the side running, and when (performance.now()) that was.
  clock: null,
  control: null,
  drawOffer: null,
  rematchOffer: null,
  selected: null,
  busy: false,
  socket: null,
  retry: 0,
  skew: null, // the least (local time - event's `at`) seen: the server's clock against ours
};

// --- The rules, for the moves a click may make: the board's lines and the sheep's placing
// (docs/board.md). The server judges every move again; this only lists them.

function parse(position) {
  const [ranks, side, hand] = position.trim().split(/\s+/);
  const cells = ranks.split("/").map((rank) => {
    const row = [];
    for (const c of rank) {
      if (c >= "1" && c <= "5") for (let i = 0; i < Number(c); i++) row.push("");
      else row.push(c);
    }
    return row;
  });
  return { cells, side: side === "t" ? "tigers" : "sheep", inHand: Number(hand) };
}

function unparse({ cells, side, inHand }) {
  const ranks = cells.map((row) => {
    let out = "", empty = 0;
    for (const c of row) {
      if (c) { out += (empty ? String(empty) : "") + c; empty = 0; } else empty += 1;
    }
    return out + (empty ? String(empty) : "");
  });
  return `${ranks.join("/")} ${side === "tigers" ? "t" : "s"} ${inHand}`;
}

const name = (x, y) => FILES[x] + String(5 - y);
const xy = (point) => [FILES.indexOf(point[0]), 5 - Number(point[1])];
const onBoard = (x, y) => x >= 0 && x < 5 && y >= 0 && y < 5;
// The lines from a point: orthogonal everywhere, diagonal where x + y is even.
function directions(x, y) {
  const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  if ((x + y) % 2 === 0) dirs.push([1, 1], [1, -1], [-1, 1], [-1, -1]);
  return dirs;
}

export function legalMoves(position) {
  const p = parse(position);
  const onBoardSheep = p.cells.flat().filter((c) => c === "S").length;
  if (20 - onBoardSheep - p.inHand >= 5) return [];
  const moves = [];
  const empty = (x, y) => onBoard(x, y) && !p.cells[y][x];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      const c = p.cells[y][x];
      if (p.side === "sheep" && p.inHand > 0) { if (!c) moves.push(name(x, y)); continue; }
      if (c !== (p.side === "tigers" ? "T" : "S")) continue;
      for (const [dx, dy] of directions(x, y)) {
        if (empty(x + dx, y + dy)) moves.push(name(x, y) + name(x + dx, y + dy));
        else if (c === "T" && onBoard(x + dx, y + dy) && p.cells[y + dy][x + dx] === "S" && empty(x + 2 * dx, y + 2 * dy)) {
          moves.push(`${name(x, y)}x${name(x + 2 * dx, y + 2 * dy)}`);
        }
      }
    }
  }
  return moves.map((move) => ({ move }));
}

export function applyMove(position, move) {
  const p = parse(position);
  const points = move.replace("x", "").match(/[a-e][1-5]/g);
  const [tx, ty] = xy(points[points.length - 1]);
  if (points.length === 1) {
    p.cells[ty][tx] = "S";
    p.inHand -= 1;
  } else {
    const [fx, fy] = xy(points[0]);
    p.cells[ty][tx] = p.cells[fy][fx];
    p.cells[fy][fx] = "";
    if (Math.abs(tx - fx) === 2 || Math.abs(ty - fy) === 2) p.cells[(fy + ty) / 2][(fx + tx) / 2] = "";
  }
  p.side = other(p.side);
  return unparse(p);
}

// --- The server.

async function request(method, path, body) {
  const headers = {};
  if (game.token) headers.Authorization = `Bearer ${game.token}`;
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(`/api/v1/games/${encodeURIComponent(game.id)}${path}`, {
    method, headers, body: body ? JSON.stringify(body) : undefined, cache: "no-store",
  });
  let answer = {};
  try { answer = await response.json(); } catch (e) { answer = {}; }
  if (!response.ok) {
    const error = new Error(answer.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return answer;
}

function status(text) { $("status").textContent = text; }

// The game as GET (or an action) answers it: the whole of it, newer than what the events said.
function adopt(answer) {
  if (answer.version < game.version) return;
  game.version = answer.version;
  game.players = { sheep: answer.sheep, tigers: answer.tigers };
  game.moves = answer.moves;
  game.position = answer.position;
  game.result = answer.result;
  game.drawOffer = answer.draw_offer;
  game.rematchOffer = answer.rematch_offer;
  if (answer.clock) {
    game.control = answer.clock.control;
    game.clock = { sheep: answer.clock.sheep, tigers: answer.clock.tigers, running: answer.clock.running, at: performance.now() };
  } else game.clock = null;
  if (answer.rematch) followRematch(answer.rematch);
}

// An event from the socket: applied in order; one out of order (or of a kind this page does
// not know) has the game read again.
function onEvent(ev) {
  if (ev.version === undefined) return; // {}: the keep-alive
  if (ev.version <= game.version) return;
  if (ev.version !== game.version + 1) { resync(); return; }
  const lag = Date.now() - ev.at;
  game.skew = game.skew === null ? lag : Math.min(game.skew, lag);
  // How long ago it happened, by the server's clock: an event replayed on a reconnection is old.
  const ago = Math.max(0, lag - game.skew);
  switch (ev.type) {
    case "created": break;
    case "move":
      game.moves.push(ev.move);
      game.position = applyMove(game.position, ev.move);
      if (game.drawOffer && game.drawOffer !== ev.side) game.drawOffer = null; // declined
      if (ev.clock) game.clock = { ...ev.clock, running: other(ev.side), at: performance.now() - ago };
      game.selected = null;
      break;
    case "draw_offer": game.drawOffer = ev.side; break;
    case "end":
      game.result = ev.result;
      game.drawOffer = null;
      if (ev.clock) game.clock = { ...ev.clock, running: null, at: performance.now() };
      else if (game.clock) game.clock = { ...clockNow(), running: null };
      break;
    case "resumed":
      // The server started again: the times as charged up to its last heartbeat, the running
      // clock going on from this event.
      if (game.clock && !game.result) game.clock = { ...ev.clock, running: game.clock.running, at: performance.now() - ago };
      break;
    case "rematch_offer": game.rematchOffer = ev.side; break;
    case "rematch": game.version = ev.version; followRematch(ev.game); return;
    default: resync(); return;
  }
  game.version = ev.version;
  render();
}

async function resync() {
  try { adopt(await request("GET", "")); render(); } catch (e) { status(e.message); }
}

// Live: the socket from the last version seen; when it closes, again after a wait that grows
// (half a second, doubling to eight), from wherever the page got to.
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/api/v1/games/${encodeURIComponent(game.id)}/socket?since=${game.version}`;
  const socket = new WebSocket(url);
  game.socket = socket;
  socket.addEventListener("open", () => {
    // A player's socket says its token first, so that the seat counts as here (not gone).
    if (game.token) socket.send(JSON.stringify({ token: game.token }));
    document.body.dataset.live = "true";
    document.body.dataset.connections = String(Number(document.body.dataset.connections || 0) + 1);
  });
  socket.addEventListener("message", (m) => {
    game.retry = 0;
    try { onEvent(JSON.parse(m.data)); } catch (e) { status(`a bad event: ${e.message}`); }
  });
  socket.addEventListener("close", () => {
    document.body.dataset.live = "false";
    if (game.socket !== socket || game.leaving) return;
    const wait = Math.min(8000, 500 * 2 ** game.retry);
    game.retry += 1;
    setTimeout(connect, wait);
  });
}

function followRematch(id) {
  if (game.leaving) return;
  game.leaving = true;
  // Each seat plays the other side in the rematch, with the same token.
  if (game.seat) remember(id, { side: other(game.seat), token: game.token });
  location.assign(`/play/${encodeURIComponent(id)}${game.token ? "#" + game.token : ""}`);
}

// --- What this page remembers of a game (the creator's side and the friend's link).

function remembered(id) {
  try { return JSON.parse(localStorage.getItem(`tns-game-${id}`) || "null"); } catch (e) { return null; }
}
function remember(id, facts) {
  localStorage.setItem(`tns-game-${id}`, JSON.stringify({ ...(remembered(id) || {}), ...facts }));
}

// Which side the token holds: the server says so (`you`) when the game is read with it.
async function findSeat() {
  if (!game.token) return null;
  try {
    const answer = await request("GET", "");
    return SIDES.includes(answer.you) ? answer.you : null;
  } catch (e) {
    if (e.status === 401) { status(`this link holds no seat: ${e.message}`); game.token = null; }
    else status(e.message);
    return null;
  }
}

// --- Drawing.

function clockNow() {
  const c = game.clock;
  const left = (side) => Math.max(0, c[side] - (c.running === side ? performance.now() - c.at : 0));
  return { sheep: left("sheep"), tigers: left("tigers") };
}

function formatClock(ms) {
  const tenths = Math.ceil(ms / 100);
  const s = Math.ceil(ms / 1000);
  if (tenths < 100) return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clocks: the opponent's above the board, this page's side below (a watcher: tigers above).
function drawClocks() {
  const bottom = game.seat || "sheep";
  const turn = parse(game.position).side;
  for (const [id, side] of [["clock-top", other(bottom)], ["clock-bottom", bottom]]) {
    const el = $(id);
    el.dataset.side = side;
    if (!game.clock) { el.textContent = `${title(side)}: no clock`; el.dataset.ms = ""; }
    else {
      const ms = clockNow()[side];
      el.textContent = `${title(side)} ${formatClock(ms)}`;
      el.dataset.ms = String(Math.round(ms));
      el.classList.toggle("running", game.clock.running === side);
      el.classList.toggle("low", ms < 20000);
    }
    el.classList.toggle("to-move", !game.result && turn === side);
  }
}

function who(side) {
  const player = game.players[side];
  if (side === game.seat) return "you";
  if (player !== "friend") return `the computer (${player})`;
  return game.seat ? "your friend" : "a friend";
}

function resultText(r) {
  const how = r.winner ? `${title(r.winner)} win` : "Draw";
  const mine = game.seat && r.winner ? (r.winner === game.seat ? " You won." : " You lost.") : "";
  return `${how}: ${r.reason}.${mine}`;
}

function render() {
  const turn = parse(game.position).side;
  const myTurn = Boolean(game.seat) && !game.result && turn === game.seat;
  board.drawBoard($("board"), {
    position: game.position,
    moves: myTurn ? legalMoves(game.position) : [],
    selected: game.selected,
    last: game.moves[game.moves.length - 1],
    flip: game.seat === "tigers",
    secret: true,
    onPoint: clickPoint,
  });
  const p = parse(game.position);
  const dead = 20 - p.inHand - p.cells.flat().filter((c) => c === "S").length;
  $("counts").textContent = `Sheep in hand ${p.inHand} · dead ${dead} of 5`;
  const seatText = game.seat ? ` (you play the ${game.seat})` : game.token ? "" : " (watching)";
  $("online-turn").textContent = game.result ? resultText(game.result)
    : myTurn ? `Your move${seatText}`
    : `${title(turn)} to move: ${who(turn)}${seatText}`;
  $("online-turn").dataset.turn = game.result ? "" : turn;
  $("online-result").hidden = !game.result;
  $("online-result").textContent = game.result ? resultText(game.result) : "";
  drawOffers();
  drawControls();
  drawMoves();
  drawClocks();
  document.body.dataset.version = String(game.version);
}

function drawOffers() {
  const offer = $("online-offer");
  const by = (side) => (side === game.seat ? "You" : `${title(side)} (${who(side)})`);
  const text = game.result
    ? game.rematchOffer && `${by(game.rematchOffer)} ask for a rematch.`
    : game.drawOffer && `${by(game.drawOffer)} offer a draw.`;
  offer.hidden = !text;
  offer.textContent = text || "";
}

function drawControls() {
  const seated = Boolean(game.token);
  const over = Boolean(game.result);
  $("online-controls").hidden = !seated;
  $("resign").hidden = over;
  $("draw").hidden = over;
  const opponent = game.seat ? game.players[other(game.seat)] : "friend";
  $("claim").hidden = over || opponent !== "friend";
  $("rematch").hidden = !over;
  const mineOffer = (offer) => offer && offer === game.seat;
  const theirOffer = (offer) => offer && game.seat && offer !== game.seat;
  $("draw").textContent = theirOffer(game.drawOffer) ? "Accept the draw" : mineOffer(game.drawOffer) ? "Draw offered" : "Offer a draw";
  $("draw").disabled = Boolean(mineOffer(game.drawOffer));
  $("rematch").textContent = theirOffer(game.rematchOffer) ? "Accept the rematch" : mineOffer(game.rematchOffer) ? "Rematch asked" : "Rematch";
  $("rematch").disabled = Boolean(mineOffer(game.rematchOffer));
  $("review-line").hidden = !over;
  $("invite").hidden = !game.invite || over;
  $("review").href = `/#moves=${game.moves.join(",")}`;
}

function drawMoves() {
  const list = $("online-moves");
  list.replaceChildren();
  game.moves.forEach((move, i) => {
    const li = document.createElement("li");
    li.dataset.move = move;
    li.textContent = `${Math.floor(i / 2) + 1}${i % 2 ? "…" : "."} ${move}`;
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

// --- Playing.

function clickPoint(point, piece) {
  const p = parse(game.position);
  if (!game.seat || game.result || game.busy || p.side !== game.seat) return;
  const own = piece === (game.seat === "tigers" ? "T" : "S");
  const chosen = board.entryClick(legalMoves(game.position), p.side === "sheep" && p.inHand > 0, game.selected, point, own);
  if (chosen.move) send(chosen.move);
  else if (chosen.selected !== undefined) { game.selected = chosen.selected; render(); }
}

async function send(move) {
  game.busy = true;
  game.selected = null;
  try {
    adopt(await request("POST", "/move", { move }));
    status("");
  } catch (e) { status(e.message); }
  game.busy = false;
  render();
}

async function act(path) {
  try {
    adopt(await request("POST", path, {}));
    status("");
  } catch (e) { status(e.message); }
  render();
}

function showLinks() {
  const watch = `${location.origin}/play/${game.id}`;
  $("watch-link").href = watch;
  $("watch-link").textContent = watch;
  const known = remembered(game.id);
  // The friend's link, on the creator's page only.
  game.invite = (known && known.token === game.token && known.invite) || null;
  if (game.invite) $("friend-link").value = game.invite;
}

export async function startOnline(shared) {
  board = shared;
  game.id = decodeURIComponent(location.pathname.slice("/play/".length));
  const hash = location.hash.slice(1).toLowerCase();
  game.token = /^[0-9a-f]{32}$/.test(hash) ? hash : null;
  if (hash && !game.token) status("the link's token is not 32 hexadecimal digits: watching only");
  document.title = `Tigers and Sheep: game ${game.id}`;
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("/resign"); });
  $("draw").addEventListener("click", () => act("/draw"));
  $("claim").addEventListener("click", () => act("/claim"));
  $("rematch").addEventListener("click", () => act("/rematch"));
  $("friend-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("friend-link").value); status("the link is copied: send it to your friend"); }
    catch (e) { $("friend-link").select(); status("the link is selected: copy it with Ctrl+C"); }
  });
  // Another token typed into the address (or none) is another seat: read the game afresh.
  window.addEventListener("hashchange", () => location.reload());
  setInterval(drawClocks, 100);
  try {
    adopt(await request("GET", ""));
  } catch (e) { status(e.message); render(); return; }
  game.seat = await findSeat();
  showLinks();
  render();
  connect();
  // The game read again now and then puts the clocks right against any drift.
  setInterval(() => { if (!game.result) resync(); }, 30000);
}
