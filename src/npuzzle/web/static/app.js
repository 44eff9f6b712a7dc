// The npuzzle web game. Moves are played here, in the browser, for any board up to 8×8; the server is
// asked only for new boards (/api/generate), goal layouts (/api/layouts), hints and solutions.
// Arrow keys move the tile in the arrow's direction (the tile convention used across npuzzle).

import {
  BLANK,
  DIRECTION_WORDS,
  applyMove,
  classicGoal,
  directionOf,
  formatTime,
  isSolved,
  randomWalk,
  segment,
  tileForDirection,
} from "./game.js";
import { BUILT_IN, adoptFile, croppedPicture, forgetPicture, storedPicture } from "./picture.js";
import { addRecord, recordKey, records, summary, toCsv } from "./records.js";

const STATE_KEY = "npuzzle.game.v1";
const MIN_SIDE = 3;
const MAX_SIDE = 8;
const SOLVE_SECONDS = 5;
const LAYOUT_NAMES = {
  classic: "Classic (1, 2, 3 … blank last)",
  "blank-first": "Blank first",
  snake: "Snake",
  spiral: "Spiral",
  column: "Columns",
  "blank-at:0": "Missing first piece",
  "random:1": "Scrambled goal (seed 1)",
};

const $ = (id) => document.getElementById(id);
const el = {
  board: $("board"),
  moves: $("moves"),
  timer: $("timer"),
  status: $("status"),
  win: $("win"),
  winTitle: $("win-title"),
  winDetail: $("win-detail"),
  winAgain: $("win-again"),
  undo: $("undo"),
  redo: $("redo"),
  hint: $("hint"),
  solve: $("solve"),
  solveLabel: document.querySelector("#solve .solve-label"),
  newGame: $("new-game"),
  width: $("width"),
  height: $("height"),
  layout: $("layout"),
  preview: $("goal-preview"),
  difficulty: $("difficulty"),
  modeNumbers: $("mode-numbers"),
  modePicture: $("mode-picture"),
  pictureOptions: $("picture-options"),
  showNumbers: $("show-numbers"),
  pictureFile: $("picture-file"),
  pictureReset: $("picture-reset"),
  records: $("records"),
  recordsKey: $("records-key"),
  exportCsv: $("export"),
  announce: $("announce"),
};

/** The whole game, saved to localStorage after every change. */
let state = null;
let layouts = []; // [{name, board}] for the current size
let tileEls = new Map(); // label -> button
let inner = null;
let startedAt = null; // performance.now() while the clock runs
let version = 0; // bumps on every board change, so late server answers are dropped
let solving = null; // {stop: bool} while auto-solve runs
let hintTimer = null;
let pending = 0; // new games being dealt; the board is aria-busy meanwhile

function busy(delta) {
  pending += delta;
  el.board.setAttribute("aria-busy", String(pending > 0));
}

function freshState(width, height) {
  const goal = classicGoal(width, height);
  return {
    width,
    height,
    layout: "classic",
    goal,
    tiles: goal.slice(),
    history: [],
    redo: [],
    elapsed: 0,
    solved: true,
    assisted: false,
    difficulty: "hard",
    mode: "numbers",
    showNumbers: false,
    picture: "builtin",
    seed: null,
  };
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STATE_KEY) || "null");
    if (saved && Array.isArray(saved.tiles) && saved.tiles.length === saved.width * saved.height) {
      return { ...freshState(saved.width, saved.height), ...saved };
    }
  } catch {
    /* corrupt or unavailable storage: start afresh */
  }
  return null;
}

function save() {
  try {
    localStorage.setItem(STATE_KEY, JSON.stringify({ ...state, elapsed: elapsed() }));
  } catch {
    /* storage full or disabled */
  }
}

// -- server -----------------------------------------------------------------------------------------------
async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || `the server answered ${response.status}`);
  return data;
}

function position() {
  return { board: state.tiles, width: state.width, height: state.height, goal: state.goal, blank: BLANK };
}

// -- clock ------------------------------------------------------------------------------------------------
function elapsed() {
  return state.elapsed + (startedAt === null ? 0 : performance.now() - startedAt);
}

function startClock() {
  if (startedAt === null && !state.solved) startedAt = performance.now();
}

function stopClock() {
  state.elapsed = elapsed();
  startedAt = null;
}

setInterval(() => {
  if (state && startedAt !== null) el.timer.textContent = formatTime(elapsed());
}, 100);

// -- announcements ----------------------------------------------------------------------------------------
function announce(text) {
  el.announce.textContent = "";
  requestAnimationFrame(() => {
    el.announce.textContent = text;
  });
}

function setStatus(text) {
  el.status.textContent = text;
  el.status.title = text;
}

// -- drawing ----------------------------------------------------------------------------------------------
function buildBoard() {
  const { width, height } = state;
  el.board.style.setProperty("--w", width);
  el.board.style.setProperty("--h", height);
  el.board.parentElement.style.setProperty("--w", width);
  el.board.parentElement.style.setProperty("--h", height);
  el.board.setAttribute("aria-label", `Puzzle board, ${width} by ${height}`);
  el.board.replaceChildren();
  inner = document.createElement("div");
  inner.className = "board-inner";
  el.board.append(inner);
  tileEls = new Map();
  for (const label of [...state.goal].sort((a, b) => a - b)) {
    const tile = document.createElement(label === BLANK ? "div" : "button");
    tile.className = "tile";
    tile.dataset.tile = String(label);
    if (label === BLANK) {
      tile.setAttribute("aria-hidden", "true");
    } else {
      tile.type = "button";
      tile.tabIndex = -1;
      tile.addEventListener("click", () => play(label));
    }
    const face = document.createElement("span");
    face.className = "face";
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = label === BLANK ? "" : String(label);
    face.append(num);
    tile.append(face);
    // the picture piece this tile carries: its home cell in the goal
    const home = state.goal.indexOf(label);
    const hr = Math.floor(home / width);
    const hc = home % width;
    face.style.backgroundPosition = `${(hc / (width - 1)) * 100}% ${(hr / (height - 1)) * 100}%`;
    inner.append(tile);
    tileEls.set(label, tile);
  }
  drawPreview();
  applyLook();
}

function draw() {
  const { width, tiles, goal } = state;
  tiles.forEach((label, cell) => {
    const tile = tileEls.get(label);
    if (!tile) return;
    const r = Math.floor(cell / width);
    const c = cell % width;
    tile.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
    tile.dataset.cell = String(cell);
    tile.classList.toggle("home", label !== BLANK && goal[cell] === label);
    if (label !== BLANK) tile.setAttribute("aria-label", `${label}, row ${r + 1}, column ${c + 1}`);
  });
  const solved = isSolved(tiles, goal);
  el.board.dataset.solved = String(solved);
  el.board.classList.toggle("solved", solved);
  el.moves.textContent = String(moveCount());
  el.timer.textContent = formatTime(elapsed());
  el.undo.disabled = state.history.length === 0 || solving !== null;
  el.redo.disabled = state.redo.length === 0 || solving !== null;
  el.hint.disabled = solved || solving !== null;
  el.solve.disabled = solved && solving === null;
}

function moveCount() {
  return state.history.reduce((n, action) => n + action.length, 0);
}

function drawPreview() {
  el.preview.style.gridTemplateColumns = `repeat(${state.width}, 1fr)`;
  el.preview.style.width = `${Math.min(150, 22 * state.width)}px`;
  el.preview.replaceChildren(
    ...state.goal.map((label) => {
      const s = document.createElement("span");
      s.textContent = label === BLANK ? "" : String(label);
      if (label === BLANK) s.className = "blank";
      return s;
    }),
  );
}

async function applyLook() {
  const picture = state.mode === "picture";
  el.modePicture.checked = picture;
  el.modeNumbers.checked = !picture;
  el.pictureOptions.hidden = !picture;
  el.showNumbers.checked = state.showNumbers;
  el.board.classList.toggle("numbers", state.showNumbers);
  if (!picture) {
    el.board.classList.remove("picture");
    return;
  }
  const source = (state.picture === "own" && storedPicture()) || BUILT_IN;
  try {
    const url = await croppedPicture(source, state.width, state.height);
    el.board.style.setProperty("--pic", `url("${url}")`);
    el.board.classList.toggle("picture", state.mode === "picture");
  } catch {
    setStatus("Could not load the picture; showing numbers");
    el.board.classList.remove("picture");
  }
}

// -- playing ----------------------------------------------------------------------------------------------
/** The player clicked/tapped/keyed tile `label`: slide it (and the tiles between it and the blank). */
function play(label) {
  if (solving) stopSolving("Stopped");
  if (state.solved && isSolved(state.tiles, state.goal)) return;
  const moves = segment(state.tiles, state.width, label);
  if (moves.length === 0) {
    announce(`Tile ${label} is not in the blank's row or column`);
    return;
  }
  const direction = directionOf(state.tiles, state.width, label);
  commit(moves);
  state.redo = [];
  const count = moves.length === 1 ? `${label}` : `${moves.length} tiles up to ${label}`;
  afterMove(`Moved ${count} ${DIRECTION_WORDS[direction]}.`);
}

/** Apply single-tile moves as one undoable action. */
function commit(moves) {
  clearHint();
  let tiles = state.tiles;
  for (const m of moves) tiles = applyMove(tiles, state.width, m);
  state.tiles = tiles;
  state.history.push(moves);
  version += 1;
  startClock();
}

function afterMove(sentence, { quiet = false } = {}) {
  const solved = isSolved(state.tiles, state.goal);
  draw();
  if (solved && !state.solved) {
    win();
  } else {
    if (!quiet) announce(`${sentence} ${moveCount()} moves.`);
    setStatus(solving ? "Solving…" : "Playing");
  }
  save();
}

function win() {
  stopClock();
  state.solved = true;
  const moves = moveCount();
  const time = state.elapsed < 60_000 ? `${formatTime(state.elapsed)} s` : formatTime(state.elapsed);
  let detail = `${moves} moves in ${time}`;
  if (state.assisted) {
    detail += " · with help, so not recorded";
  } else {
    const broke = addRecord(recordKey(state.width, state.height, state.layout), state.elapsed, moves);
    if (broke.time && broke.moves) detail += " · new best time and fewest moves!";
    else if (broke.time) detail += " · new best time!";
    else if (broke.moves) detail += " · fewest moves yet!";
  }
  el.winTitle.textContent = "Solved!";
  el.winDetail.textContent = detail;
  el.win.hidden = false;
  setStatus("Solved");
  announce(`Solved! ${detail}.`);
  drawRecords();
  draw();
}

function undo() {
  if (solving || state.history.length === 0) return;
  const action = state.history.pop();
  let tiles = state.tiles;
  for (const m of [...action].reverse()) tiles = applyMove(tiles, state.width, m);
  state.tiles = tiles;
  state.redo.push(action);
  version += 1;
  clearHint();
  reopenIfUnsolved();
  draw();
  announce(`Undone. ${moveCount()} moves.`);
  save();
}

function redo() {
  if (solving || state.redo.length === 0) return;
  const action = state.redo.pop();
  commit(action);
  afterMove("Redone.");
}

/** Undo after a win reopens the game (it was already recorded; further solves are not). */
function reopenIfUnsolved() {
  if (state.solved && !isSolved(state.tiles, state.goal)) {
    state.solved = false;
    state.assisted = true;
    el.win.hidden = true;
    setStatus("Playing");
  }
}

function onKey(event) {
  const target = event.target;
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
  if (event.ctrlKey || event.metaKey) {
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) undo();
    else if (key === "y" || (key === "z" && event.shiftKey)) redo();
    else return;
    event.preventDefault();
    return;
  }
  const direction = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (direction) {
    event.preventDefault();
    const label = tileForDirection(state.tiles, state.width, state.height, direction);
    if (label === null) announce(`No tile can move ${DIRECTION_WORDS[direction]}`);
    else play(label);
  } else if ((event.key === "h" || event.key === "H") && !(target instanceof HTMLButtonElement && target.id === "hint")) {
    hint();
  }
}

// -- help from the server ---------------------------------------------------------------------------------
function clearHint() {
  if (hintTimer) clearTimeout(hintTimer);
  hintTimer = null;
  for (const t of tileEls.values()) t.classList.remove("hint");
}

async function hint() {
  if (solving || isSolved(state.tiles, state.goal)) return;
  const asked = version;
  el.hint.disabled = true;
  setStatus("Thinking…");
  try {
    const answer = await api("/api/hint", position());
    if (asked !== version || answer.move === null) return;
    state.assisted = true;
    clearHint();
    const tile = tileEls.get(answer.move);
    tile.classList.add("hint");
    hintTimer = setTimeout(clearHint, 4000);
    const quality = answer.optimal ? "optimal" : "best found in time";
    const text = `Hint: move ${answer.move} ${DIRECTION_WORDS[answer.direction]} (${answer.remaining} moves to go, ${quality}).`;
    setStatus(`Hint: ${answer.move} ${DIRECTION_WORDS[answer.direction]} · ${answer.remaining} to go`);
    announce(text);
    save();
  } catch (error) {
    setStatus(`No hint: ${error.message}`);
    announce(`No hint: ${error.message}`);
  } finally {
    draw();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function stopSolving(message) {
  if (!solving) return;
  solving.stop = true;
  if (message) setStatus(message);
}

async function solve() {
  if (solving) {
    stopSolving("Stopped");
    return;
  }
  if (isSolved(state.tiles, state.goal)) return;
  const asked = version;
  const run = { stop: false };
  solving = run;
  el.solve.setAttribute("aria-pressed", "true");
  el.solveLabel.textContent = "Stop";
  setStatus("Thinking…");
  draw();
  try {
    const answer = await api("/api/solve", { ...position(), max_seconds: SOLVE_SECONDS });
    if (asked !== version || run.stop) return;
    state.assisted = true;
    const pace = Math.max(40, Math.min(260, 6000 / Math.max(1, answer.length)));
    el.board.style.setProperty("--speed", `${Math.round(pace * 0.8)}ms`);
    const quality = answer.optimal ? "shortest" : "found in time, not necessarily shortest";
    setStatus(`Solving: ${answer.length} moves (${quality})`);
    announce(`Solving in ${answer.length} moves.`);
    for (const label of answer.moves) {
      if (run.stop) break;
      const direction = directionOf(state.tiles, state.width, label);
      commit([label]);
      state.redo = [];
      afterMove(`Moved ${label} ${DIRECTION_WORDS[direction]}.`, { quiet: true });
      await sleep(pace);
    }
  } catch (error) {
    setStatus(`Could not solve: ${error.message}`);
    announce(`Could not solve: ${error.message}`);
  } finally {
    if (solving === run) solving = null;
    el.board.style.removeProperty("--speed");
    el.solve.setAttribute("aria-pressed", "false");
    el.solveLabel.textContent = "Solve";
    draw();
    save();
  }
}

// -- new games and settings -------------------------------------------------------------------------------
function difficultyRequest(cells) {
  if (state.difficulty === "easy") return { method: "walk", moves: Math.max(10, 2 * cells) };
  if (state.difficulty === "medium") return { method: "walk", moves: 6 * cells };
  return { method: "shuffle" };
}

async function newGame() {
  if (solving) stopSolving();
  const asked = ++version;
  busy(+1);
  try {
    await dealNewGame(asked);
  } finally {
    busy(-1);
  }
}

async function dealNewGame(asked) {
  // the size comes from the selects: a game dealt meanwhile may have replaced `state`
  const width = Number(el.width.value);
  const height = Number(el.height.value);
  const { layout } = state;
  const cells = width * height;
  setStatus("Shuffling…");
  let goal;
  let tiles;
  let seed = null;
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await api("/api/generate", { width, height, goal: layout, ...difficultyRequest(cells) });
      ({ goal, seed } = answer);
      tiles = answer.board;
      if (!isSolved(tiles, goal)) break;
    }
  } catch (error) {
    // offline or server trouble: a random walk here is always solvable too
    const known = layouts.find((l) => l.name === layout && l.board.length === cells);
    goal = known?.board ?? classicGoal(width, height);
    tiles = randomWalk(goal, width, height, cells * 8);
    setStatus(`Offline game (${error.message})`);
  }
  if (asked !== version) return;
  const look = { mode: state.mode, showNumbers: state.showNumbers, picture: state.picture, difficulty: state.difficulty };
  state = { ...freshState(width, height), ...look, layout, goal, tiles, seed, solved: isSolved(tiles, goal) };
  version += 1;
  startedAt = null;
  el.win.hidden = true;
  clearHint();
  buildBoard();
  draw();
  drawRecords();
  save();
  if (!el.status.textContent.startsWith("Offline")) setStatus("New game: your move");
  announce(`New ${width} by ${height} game. Arrow keys move a tile in the arrow's direction.`);
}

async function loadLayouts() {
  const width = Number(el.width.value);
  const height = Number(el.height.value);
  try {
    layouts = (await api(`/api/layouts?width=${width}&height=${height}`)).layouts;
  } catch {
    layouts = [{ name: "classic", board: classicGoal(width, height) }];
  }
  el.layout.replaceChildren(
    ...layouts.map((l) => {
      const option = document.createElement("option");
      option.value = l.name;
      option.textContent = LAYOUT_NAMES[l.name] ?? l.name;
      return option;
    }),
  );
  if (!layouts.some((l) => l.name === state.layout)) state.layout = "classic";
  el.layout.value = state.layout;
}

function fillSizes() {
  for (const select of [el.width, el.height]) {
    for (let n = MIN_SIDE; n <= MAX_SIDE; n += 1) select.append(new Option(String(n), String(n)));
  }
}

async function changeSize() {
  busy(+1);
  try {
    await loadLayouts();
    await newGame();
  } finally {
    busy(-1);
  }
}

function drawRecords() {
  const key = recordKey(state.width, state.height, state.layout);
  const s = summary(records(key));
  el.recordsKey.textContent = `· ${state.width}×${state.height} ${LAYOUT_NAMES[state.layout]?.split(" (")[0] ?? state.layout}`;
  const show = (v, f) => (v === null ? "—" : f(v));
  const rows = [
    ["Solves", String(s.count)],
    ["Best time", show(s.bestMs, formatTime)],
    ["Fewest moves", show(s.fewestMoves, String)],
    ["Average of 5", show(s.ao5, formatTime)],
    ["Average of 12", show(s.ao12, formatTime)],
  ];
  el.records.replaceChildren(
    ...rows.flatMap(([name, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.textContent = value;
      return [dt, dd];
    }),
  );
}

function exportCsv() {
  const blob = new Blob([toCsv()], { type: "text/csv" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "npuzzle-records.csv";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function wire() {
  document.addEventListener("keydown", onKey);
  el.undo.addEventListener("click", undo);
  el.redo.addEventListener("click", redo);
  el.hint.addEventListener("click", hint);
  el.solve.addEventListener("click", solve);
  el.newGame.addEventListener("click", newGame);
  el.winAgain.addEventListener("click", newGame);
  el.width.addEventListener("change", changeSize);
  el.height.addEventListener("change", changeSize);
  el.layout.addEventListener("change", () => {
    state.layout = el.layout.value;
    newGame();
  });
  el.difficulty.addEventListener("change", () => {
    state.difficulty = el.difficulty.value;
    newGame();
  });
  for (const radio of [el.modeNumbers, el.modePicture]) {
    radio.addEventListener("change", () => {
      state.mode = el.modePicture.checked ? "picture" : "numbers";
      applyLook();
      save();
      announce(state.mode === "picture" ? "Picture mode" : "Number mode");
    });
  }
  el.showNumbers.addEventListener("change", () => {
    state.showNumbers = el.showNumbers.checked;
    applyLook();
    save();
  });
  el.pictureFile.addEventListener("change", async () => {
    const file = el.pictureFile.files?.[0];
    if (!file) return;
    try {
      await adoptFile(file);
      state.picture = "own";
      state.mode = "picture";
      await applyLook();
      save();
      announce("Your picture is on the tiles");
    } catch (error) {
      setStatus(error.message);
    }
  });
  el.pictureReset.addEventListener("click", () => {
    forgetPicture();
    state.picture = "builtin";
    applyLook();
    save();
  });
  el.exportCsv.addEventListener("click", exportCsv);
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) save();
  });
}

async function start() {
  fillSizes();
  wire();
  const saved = load();
  state = saved ?? freshState(4, 4);
  el.width.value = String(state.width);
  el.height.value = String(state.height);
  el.difficulty.value = state.difficulty;
  await loadLayouts();
  if (!saved) {
    await newGame();
    return;
  }
  buildBoard();
  draw();
  drawRecords();
  if (isSolved(state.tiles, state.goal)) {
    setStatus("Solved · press New game");
  } else {
    setStatus(state.history.length ? "Welcome back: the clock restarts with your next move" : "Your move");
  }
  announce("Game restored.");
}

start();
