// Pure game logic over flat row-major tile arrays: cell = row * width + col; 0 is the blank.
// Words as in the Python package: a *move* is the label of the tile that slides, a *direction*
// is where that tile travels (U/D/L/R).

export const BLANK = 0;

export const DELTAS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

/** True when the tiles equal the goal. */
export function isSolved(tiles, goal) {
  return tiles.length === goal.length && tiles.every((t, i) => t === goal[i]);
}

/** Direction tile `label` travels when slid toward the blank, or null if not in the blank's row/column. */
export function directionOf(tiles, width, label) {
  const cell = tiles.indexOf(label);
  const blank = tiles.indexOf(BLANK);
  if (cell < 0 || label === BLANK) return null;
  const [tr, tc] = [Math.floor(cell / width), cell % width];
  const [br, bc] = [Math.floor(blank / width), blank % width];
  if (tr === br) return tc < bc ? "R" : "L";
  if (tc === bc) return tr < br ? "D" : "U";
  return null;
}

/**
 * The single-tile moves that a click on `label` makes: the tiles between it and the blank, nearest to
 * the blank first, ending with `label`. Empty when the tile is not in the blank's row or column.
 */
export function segment(tiles, width, label) {
  const dir = directionOf(tiles, width, label);
  if (dir === null) return [];
  const [dr, dc] = DELTAS[dir];
  const blank = tiles.indexOf(BLANK);
  let [r, c] = [Math.floor(blank / width), blank % width];
  const out = [];
  for (;;) {
    r -= dr;
    c -= dc;
    const t = tiles[r * width + c];
    out.push(t);
    if (t === label) return out;
  }
}

/** New tiles after sliding the adjacent tile `label` into the blank (throws if not adjacent). */
export function applyMove(tiles, width, label) {
  const cell = tiles.indexOf(label);
  const blank = tiles.indexOf(BLANK);
  const adjacent =
    (Math.abs(cell - blank) === 1 && Math.floor(cell / width) === Math.floor(blank / width)) ||
    Math.abs(cell - blank) === width;
  if (cell < 0 || label === BLANK || !adjacent) throw new Error(`tile ${label} is not next to the blank`);
  const next = tiles.slice();
  next[blank] = label;
  next[cell] = BLANK;
  return next;
}

/** The tile that travels `dir` (tile convention) on a width × height board, or null at an edge. */
export function tileForDirection(tiles, width, height, dir) {
  const [dr, dc] = DELTAS[dir];
  const blank = tiles.indexOf(BLANK);
  const r = Math.floor(blank / width) - dr;
  const c = (blank % width) - dc;
  if (r < 0 || r >= height || c < 0 || c >= width) return null;
  return tiles[r * width + c];
}

/** A small seeded PRNG (mulberry32): returns floats in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Offline fallback for a new game: `n` random moves from the goal, never straight back (always solvable). */
export function randomWalk(goal, width, height, n, seed = Date.now()) {
  const random = rng(seed);
  let tiles = goal.slice();
  let previous = null;
  for (let i = 0; i < n; i += 1) {
    const options = Object.keys(DELTAS)
      .map((d) => tileForDirection(tiles, width, height, d))
      .filter((t) => t !== null && t !== previous);
    const label = options[Math.floor(random() * options.length)];
    tiles = applyMove(tiles, width, label);
    previous = label;
  }
  return tiles;
}

/** Classic goal 1..N-1 then the blank, for when the server's layouts are unavailable. */
export function classicGoal(width, height) {
  const n = width * height;
  return [...Array.from({ length: n - 1 }, (_, i) => i + 1), BLANK];
}

/** "m:ss" or "h:mm:ss" from milliseconds; tenths under a minute. */
export function formatTime(ms) {
  const total = Math.max(0, ms) / 1000;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const sec = h === 0 && m === 0 ? s.toFixed(1) : Math.floor(s).toString();
  const pad = (v, k = 2) => String(v).padStart(k, "0");
  if (h > 0) return `${h}:${pad(m)}:${pad(sec)}`;
  if (m > 0) return `${m}:${pad(sec)}`;
  return sec;
}

export const DIRECTION_WORDS = { U: "up", D: "down", L: "left", R: "right" };
