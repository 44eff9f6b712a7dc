// Personal records kept in localStorage, per board size and goal layout.
// A record is {date: ISO string, ms: solve time, moves: single-tile moves}. Solves helped by a hint or
// auto-solve are not recorded.

const KEY = "npuzzle.records.v1";

export function recordKey(width, height, layout) {
  return `${width}x${height} ${layout}`;
}

function loadAll() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

function saveAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* storage full or disabled: records stay for this session only */
  }
}

/** Add a solve; returns which records it broke ({time: bool, moves: bool}). */
export function addRecord(key, ms, moves) {
  const all = loadAll();
  const list = all[key] || [];
  const before = summary(list);
  list.push({ date: new Date().toISOString(), ms, moves });
  all[key] = list;
  saveAll(all);
  return {
    time: before.count > 0 && ms < before.bestMs,
    moves: before.count > 0 && moves < before.fewestMoves,
  };
}

export function records(key) {
  return loadAll()[key] || [];
}

/**
 * Average of the last `n` times, speed-cubing style: drop the best and the worst, mean of the rest.
 * Null until there are `n` solves.
 */
export function averageOf(list, n) {
  if (list.length < n) return null;
  const times = list.slice(-n).map((r) => r.ms).sort((a, b) => a - b);
  const kept = times.slice(1, -1);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

export function summary(list) {
  return {
    count: list.length,
    bestMs: list.length ? Math.min(...list.map((r) => r.ms)) : null,
    fewestMoves: list.length ? Math.min(...list.map((r) => r.moves)) : null,
    ao5: averageOf(list, 5),
    ao12: averageOf(list, 12),
  };
}

/** Every record of every size and layout as CSV text. */
export function toCsv() {
  const all = loadAll();
  const rows = ["size,layout,date,seconds,moves"];
  for (const [key, list] of Object.entries(all)) {
    const [size, ...layout] = key.split(" ");
    for (const r of list) rows.push(`${size},${layout.join(" ")},${r.date},${(r.ms / 1000).toFixed(2)},${r.moves}`);
  }
  return rows.join("\n") + "\n";
}
