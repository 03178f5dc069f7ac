// Discord's markdown, rendered into DOM nodes. Text only ever becomes text nodes, never HTML:
// whatever the bot (or anyone) writes, "<b>" is shown as the characters "<b>".

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

const FENCE = /```(?:([\w+#.-]+)\n)?([\s\S]*?)```/g;

// The whole of a message's text: code blocks first (nothing inside them is markdown), then the
// blocks of the text between them.
export function markdown(text, ctx) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    if (match.index > last) out.append(blocks(text.slice(last, match.index), ctx));
    const pre = el("pre", "md-codeblock");
    const code = el("code", null, match[2].replace(/^\n/, "").replace(/\n$/, ""));
    if (match[1]) code.dataset.lang = match[1];
    pre.append(code);
    out.append(pre);
    last = match.index + match[0].length;
  }
  if (last < text.length) out.append(blocks(text.slice(last), ctx));
  return out;
}

const HEADING = /^(#{1,3}) +(\S.*)$/;
const SUBTEXT = /^-# +(\S.*)$/;
const QUOTE_REST = /^>>> ?([\s\S]*)$/;
const QUOTE = /^> ?(.*)$/;
const ITEM = /^( *)([-*]|\d{1,9}\.) +(\S.*)$/;

function blocks(text, ctx) {
  const out = document.createDocumentFragment();
  const lines = text.split("\n");
  let para = [];
  const flush = () => {
    if (!para.length) return;
    const joined = para.join("\n");
    if (joined.trim()) out.append(paragraph(joined, ctx));
    para = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    let m;
    if ((m = QUOTE_REST.exec(line)) && line.startsWith(">>> ")) {
      flush();
      const quote = el("blockquote", "md-quote");
      quote.append(blocks([m[1], ...lines.slice(i + 1)].join("\n"), ctx));
      out.append(quote);
      return out;
    }
    if ((m = HEADING.exec(line))) {
      flush();
      const heading = el(`h${m[1].length}`, "md-heading");
      heading.append(inline(m[2], ctx));
      out.append(heading);
    } else if ((m = SUBTEXT.exec(line))) {
      flush();
      const small = el("small", "md-subtext");
      small.append(inline(m[1], ctx));
      out.append(small);
    } else if (line.startsWith("> ") || line === ">") {
      flush();
      const quoted = [];
      while (i < lines.length && (lines[i].startsWith("> ") || lines[i] === ">")) {
        quoted.push(QUOTE.exec(lines[i])[1]);
        i += 1;
      }
      i -= 1;
      const quote = el("blockquote", "md-quote");
      quote.append(blocks(quoted.join("\n"), ctx));
      out.append(quote);
    } else if (ITEM.test(line)) {
      flush();
      const items = [];
      while (i < lines.length && ITEM.test(lines[i])) {
        const [, indent, marker, body] = ITEM.exec(lines[i]);
        const item = { depth: Math.floor(indent.length / 2), ordered: /\d/.test(marker), marker, body };
        // A top-level item of the other kind starts a list of its own.
        if (items.length && !item.depth && item.ordered !== items[0].ordered) break;
        items.push(item);
        i += 1;
      }
      i -= 1;
      out.append(list(items, 0, ctx));
    } else {
      para.push(line);
    }
  }
  flush();
  return out;
}

function paragraph(text, ctx) {
  const p = el("div", "md-p");
  p.append(inline(text.replace(/^\n+|\n+$/g, ""), ctx));
  return p;
}

// Items of one depth become one list; deeper items nest in the item before them.
function list(items, depth, ctx) {
  const first = items[0];
  const node = el(first.ordered ? "ol" : "ul", "md-list");
  if (first.ordered) node.start = parseInt(first.marker, 10);
  let current = null;
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    if (item.depth > depth && current) {
      let j = i;
      while (j < items.length && items[j].depth > depth) j += 1;
      current.append(list(items.slice(i, j), depth + 1, ctx));
      i = j - 1;
      continue;
    }
    current = el("li");
    current.append(inline(item.body, ctx));
    node.append(current);
  }
  return node;
}

function wrap(tag, className) {
  return (m, ctx) => {
    const node = el(tag, className);
    node.append(inline(m[1], ctx));
    return node;
  };
}

function safeUrl(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

const MESSAGE_LINK = /^https:\/\/(?:canary\.|ptb\.)?discord(?:app)?\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?$/;

// A link to a message or channel of this Discord jumps there in the page, as Discord's own
// client does, drawn as Discord draws it: "#channel ›", or a masked link's own words.
function jumpLink(label, url, ctx) {
  const m = MESSAGE_LINK.exec(url);
  if (!m || !ctx.channels[m[1]]) return null;
  const a = el("a", "md-mention md-jump");
  a.href = "#";
  a.dataset.channel = m[1];
  if (m[2]) a.dataset.message = m[2];
  if (typeof label !== "string") a.append(label); // a masked link shows its own words
  else a.textContent = label !== url ? label : `#${ctx.channels[m[1]]}${m[2] ? " › 💬" : ""}`;
  a.addEventListener("click", (event) => {
    event.preventDefault();
    ctx.jump(m[1], m[2]);
  });
  return a;
}

function link(label, url, ctx) {
  const jump = jumpLink(label, url, ctx);
  if (jump) return jump;
  const href = safeUrl(url);
  if (!href) return document.createTextNode(label);
  const a = el("a", "md-link");
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  a.append(typeof label === "string" ? document.createTextNode(label) : label);
  return a;
}

function mention(text, className) {
  return el("span", `md-mention ${className || ""}`.trim(), text);
}

const STYLES = {
  t: { timeStyle: "short" },
  T: { timeStyle: "medium" },
  d: { dateStyle: "short" },
  D: { dateStyle: "long" },
  f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

const UNITS = [
  ["year", 31536000],
  ["month", 2592000],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

export function relative(seconds, lang) {
  const diff = seconds - Date.now() / 1000;
  const [unit, size] = UNITS.find(([, s]) => Math.abs(diff) >= s) || UNITS[UNITS.length - 1];
  return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(Math.round(diff / size), unit);
}

export function timestamp(seconds, style, lang) {
  const node = el("time", "md-time");
  const date = new Date(seconds * 1000);
  node.dateTime = date.toISOString();
  node.title = new Intl.DateTimeFormat(lang, STYLES.F).format(date);
  if (style === "R") {
    node.dataset.relative = String(seconds);
    node.textContent = relative(seconds, lang);
  } else {
    node.textContent = new Intl.DateTimeFormat(lang, STYLES[style] || STYLES.f).format(date);
  }
  return node;
}

function wordStart(src, pos) {
  return pos === 0 || !/[\p{L}\p{N}_]/u.test(src[pos - 1]);
}

// Tried in order at each position; `when` narrows where a rule may start.
const RULES = [
  { re: /\\([^\p{L}\p{N}\s])/uy, make: (m) => document.createTextNode(m[1]) },
  { re: /``([\s\S]+?)``/y, make: (m) => el("code", "md-code", m[1].trim()) },
  { re: /`([^`]+)`/y, make: (m) => el("code", "md-code", m[1]) },
  { re: /\|\|([\s\S]+?)\|\|/y, make: wrap("span", "md-spoiler") },
  {
    re: /\*\*\*(?=\S)([\s\S]+?)\*\*\*(?!\*)/y,
    make: (m, ctx) => {
      const strong = el("strong");
      strong.append(wrap("em")(m, ctx));
      return strong;
    },
  },
  { re: /\*\*(?=\S)([\s\S]+?)\*\*(?!\*)/y, make: wrap("strong") },
  { re: /__(?=\S)([\s\S]+?)__(?!_)/y, make: wrap("u") },
  { re: /\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)/y, make: wrap("em") },
  { re: /\*([^\s*])\*(?!\*)/y, make: wrap("em") },
  { re: /_(?=\S)([\s\S]+?)_(?![\p{L}\p{N}_])/uy, make: wrap("em"), when: wordStart },
  { re: /~~(?=\S)([\s\S]+?)~~/y, make: wrap("s") },
  {
    re: /\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)/y,
    make: (m, ctx) => link(inline(m[1], ctx), m[2], ctx),
  },
  { re: /<(https?:\/\/[^\s>]+)>/y, make: (m, ctx) => link(m[1], m[1], ctx) },
  {
    re: /https?:\/\/[^\s<]+[^\s<.,:;"')\]!?]/y,
    make: (m, ctx) => link(m[0], m[0], ctx),
    when: wordStart,
  },
  {
    re: /<@!?(\d+)>/y,
    make: (m, ctx) => mention(`@${ctx.names[m[1]] || "unknown-user"}`, "md-user"),
  },
  { re: /<@&(\d+)>/y, make: (m, ctx) => mention(`@${ctx.roles[m[1]] || "deleted-role"}`) },
  { re: /<#(\d+)>/y, make: (m, ctx) => mention(`#${ctx.channels[m[1]] || "unknown"}`) },
  { re: /<a?:(\w+):(\d+)>/y, make: (m) => el("span", "md-emoji", `:${m[1]}:`) },
  {
    re: /<t:(-?\d{1,13})(?::([tTdDfFR]))?>/y,
    make: (m, ctx) => timestamp(Number(m[1]), m[2] || "f", ctx.lang),
  },
];

const PLAIN = /[^\\`|*_~[<h]+/y;

export function inline(src, ctx) {
  const out = document.createDocumentFragment();
  let pos = 0;
  let text = "";
  const flush = () => {
    if (text) out.append(document.createTextNode(text));
    text = "";
  };
  scan: while (pos < src.length) {
    for (const rule of RULES) {
      if (rule.when && !rule.when(src, pos)) continue;
      rule.re.lastIndex = pos;
      const m = rule.re.exec(src);
      if (m) {
        // Read the end before `make`: it parses the inside with these same (sticky) rules.
        pos = rule.re.lastIndex;
        flush();
        out.append(rule.make(m, ctx));
        continue scan;
      }
    }
    PLAIN.lastIndex = pos;
    const plain = PLAIN.exec(src);
    const length = plain ? plain[0].length : 1;
    text += src.slice(pos, pos + length);
    pos += length;
  }
  flush();
  return out;
}
