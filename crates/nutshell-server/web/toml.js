// toml.js: reading the TOML files the table shows and edits (a sheet, a
// battle map), so the page can draw them as a sheet and a map. The server
// reads and checks every file it is sent; this reader only shows.

// Reads the TOML the table writes for a sheet (docs/mls/characters.md)
// and a battle map (docs/mls/map.md): tables and arrays of tables, dotted
// keys, strings (a map's rows a multi-line literal), numbers, booleans,
// arrays and inline tables. Anything beyond (dates, multi-line basic
// strings) throws, and the sheet is shown as its text. Tables have no prototype, so
// a key named `__proto__` is a key like any other.
export function readToml(text) {
  let i = 0;
  const table = () => Object.create(null);
  const root = table();
  let here = root;
  const fail = () => { throw new Error(`not a sheet this page reads (at character ${i})`); };
  const ws = () => { while (text[i] === " " || text[i] === "\t") i++; };
  const comment = () => { if (text[i] === "#") while (i < text.length && text[i] !== "\n") i++; };
  const blank = () => { for (;;) { ws(); comment(); if (text[i] === "\n" || text[i] === "\r") { i++; continue; } return; } };
  const basic = () => {
    if (text.startsWith('"""', i)) fail();
    const m = /^"(?:[^"\\\n]|\\.)*"/.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    return JSON.parse(m[0].replace(/\\U([0-9a-fA-F]{8})/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\e/g, "\\u001b"));
  };
  const literal = () => {
    // A multi-line literal string (a map's rows): a line feed right after
    // the opening quotes is not part of it.
    if (text.startsWith("'''", i)) {
      const end = text.indexOf("'''", i + 3);
      if (end < 0) fail();
      const v = text.slice(i + 3, end).replace(/^\r?\n/, "");
      i = end + 3;
      return v;
    }
    const end = text.indexOf("'", i + 1);
    if (end < 0 || text.slice(i, end).includes("\n")) fail();
    const v = text.slice(i + 1, end);
    i = end + 1;
    return v;
  };
  const key = () => {
    ws();
    if (text[i] === '"') return basic();
    if (text[i] === "'") return literal();
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    return m[0];
  };
  const dotted = () => { const path = [key()]; ws(); while (text[i] === ".") { i++; path.push(key()); ws(); } return path; };
  const walk = (node, path) => {
    for (const k of path) {
      let next = node[k];
      if (Array.isArray(next)) next = next[next.length - 1];
      else if (next === undefined) next = node[k] = table();
      if (typeof next !== "object" || next === null) fail();
      node = next;
    }
    return node;
  };
  const set = (node, path, v) => { walk(node, path.slice(0, -1))[path[path.length - 1]] = v; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '"') return basic();
    if (c === "'") return literal();
    if (c === "[") {
      i++;
      const out = [];
      for (;;) {
        blank();
        if (text[i] === "]") { i++; return out; }
        out.push(value());
        blank();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return out; }
        fail();
      }
    }
    if (c === "{") {
      i++;
      const out = table();
      ws();
      if (text[i] === "}") { i++; return out; }
      for (;;) {
        const path = dotted();
        if (text[i] !== "=") fail();
        i++;
        set(out, path, value());
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return out; }
        fail();
      }
    }
    const m = /^(?:true|false|[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9_]+)?)(?=[\s,\]}#]|$)/.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    if (m[0] === "true" || m[0] === "false") return m[0] === "true";
    return Number(m[0].replace(/_/g, ""));
  };
  for (;;) {
    blank();
    if (i >= text.length) return root;
    if (text[i] === "[") {
      const many = text[i + 1] === "[";
      i += many ? 2 : 1;
      const path = dotted();
      if (!text.startsWith(many ? "]]" : "]", i)) fail();
      i += many ? 2 : 1;
      const parent = walk(root, path.slice(0, -1));
      const last = path[path.length - 1];
      if (many) {
        parent[last] ??= [];
        if (!Array.isArray(parent[last])) fail();
        here = table();
        parent[last].push(here);
      } else {
        parent[last] ??= table();
        here = parent[last];
        if (typeof here !== "object" || Array.isArray(here)) fail();
      }
    } else {
      const path = dotted();
      if (text[i] !== "=") fail();
      i++;
      set(here, path, value());
    }
    ws();
    comment();
    if (i < text.length && text[i] !== "\n" && text[i] !== "\r") fail();
  }
}
// For the browser test: the reader, checked against the server's sheets.
window.nutshellReadToml = readToml;

// Writing TOML for what the page sets up (a side, a map): a key bare when
// it may be, a string as a basic string (JSON's escapes are TOML's, and
// DEL is escaped too), tables and arrays inline.
export const tomlKey = (key) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));
export const tomlString = (text) => JSON.stringify(String(text)).replace(/\x7f/g, "\\u007f");

export function tomlValue(value) {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "nan";
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  if (value && typeof value === "object") return `{ ${Object.keys(value).map((k) => `${tomlKey(k)} = ${tomlValue(value[k])}`).join(", ")} }`;
  throw new Error("no TOML for this value");
}

// A table's keys, one a line (`key = value`).
export function tomlLines(table) {
  return Object.keys(table).map((k) => `${tomlKey(k)} = ${tomlValue(table[k])}`).join("\n");
}
