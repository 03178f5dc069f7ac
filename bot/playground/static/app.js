// The playground page: one user's view of the emulated Discord, kept live over a WebSocket.
// Every action (a command, a click, a pick) is sent to the playground, which carries it out as
// this user through the emulator; what the bot answers comes back through the feed.
import { el, relative } from "./markdown.js";
import { renderMessage } from "./message.js";
import { commandForm, commandList } from "./slash.js";

const query = new URLSearchParams(location.search);
const state = {
  user: query.get("user") || "alice",
  world: null,
  messages: new Map(),
  channel: null,
  unread: new Map(),
  dismissed: new Set(),
  socket: null,
  commands: Promise.resolve([]),
  menu: null,
  noticeTimer: null,
};

const $ = (selector) => document.querySelector(selector);

function t(key, params = {}) {
  let text = (state.world && state.world.strings[key]) || key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

function me() {
  return state.world.users.find((u) => u.id === state.world.me);
}

function byId(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function context() {
  const world = state.world;
  return {
    world,
    t,
    lang: world.lang,
    locale: me().locale,
    names: world.names,
    roles: Object.fromEntries(world.roles.map((r) => [r.id, r.name])),
    channels: Object.fromEntries(world.channels.map((c) => [c.id, c.name])),
    click,
    select,
    dismiss,
    closeMenus,
    jump,
    openMenu: (key, close) => {
      state.menu = { key, close };
    },
    menuOpen: (key) => Boolean(state.menu && state.menu.key === key),
    forgetMenu: (key) => {
      if (state.menu && state.menu.key === key) state.menu = null;
    },
  };
}

// -- the feed --------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws?user=${encodeURIComponent(state.user)}`);
  state.socket = socket;
  document.body.dataset.connected = "false";
  socket.addEventListener("message", (event) => {
    if (socket !== state.socket) return;
    const frame = JSON.parse(event.data);
    if (frame.op === "hello") hello(frame);
    else if (frame.op === "update") update(frame);
  });
  socket.addEventListener("close", () => {
    if (socket !== state.socket) return;
    document.body.dataset.connected = "false";
    status(t("playground.reconnecting"));
    setTimeout(connect, 1000);
  });
}

function hello(frame) {
  state.world = frame.world;
  state.messages = new Map(frame.messages.map((m) => [m.id, m]));
  if (!state.world.channels.some((c) => c.id === state.channel)) state.channel = state.world.channels[0].id;
  status("");
  drawChrome();
  drawMessages();
  loadCommands();
  document.body.dataset.user = state.user;
  document.body.dataset.connected = "true";
}

function update(frame) {
  if (frame.world) {
    state.world = frame.world;
    drawChrome();
    drawMessages();
    loadCommands();
  }
  for (const message of frame.messages) {
    const known = state.messages.has(message.id);
    state.messages.set(message.id, message);
    if (message.channel_id === state.channel) drawMessage(message);
    else if (!known) state.unread.set(message.channel_id, (state.unread.get(message.channel_id) || 0) + 1);
  }
  for (const id of frame.deleted) {
    state.messages.delete(id);
    const node = document.querySelector(`#messages > li[data-id="${id}"]`);
    if (node) node.remove();
  }
  if (frame.messages.some((m) => m.channel_id !== state.channel)) drawChannels();
}

// -- drawing ---------------------------------------------------------------------------------

function status(text) {
  const node = $("#status");
  node.textContent = text;
  node.hidden = !text;
}

function notice(text) {
  const node = $("#notice");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(state.noticeTimer);
  state.noticeTimer = setTimeout(() => {
    node.hidden = true;
  }, 8000);
}

function drawChrome() {
  const world = state.world;
  document.documentElement.lang = world.lang;
  document.title = t("playground.title");
  document.body.dataset.lang = world.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("#guild-name").textContent = world.guild.name;
  $("#channels").setAttribute("aria-label", t("playground.channels"));
  const users = $("#user-select");
  users.replaceChildren(
    ...world.users.map((u) => new Option(u.admin ? `${u.name} (${t("playground.admin")})` : u.name, u.name)),
  );
  users.value = state.user;
  $("#user-locale").value = me().locale.startsWith("ja") ? "ja" : "en";
  $("#guild-locale").value = world.guild.locale.startsWith("ja") ? "ja" : "en";
  drawChannels();
}

function drawChannels() {
  const nav = $("#channels");
  nav.replaceChildren();
  for (const channel of state.world.channels) {
    const tab = el("button", `channel${channel.dm ? " dm" : ""}`);
    tab.type = "button";
    tab.dataset.channel = channel.dm ? "dm" : channel.name;
    tab.append(el("span", "channel-mark", channel.dm ? "✉" : "#"));
    tab.append(el("span", "channel-name", channel.dm ? state.world.bot.name : channel.name));
    if (channel.dm) tab.title = t("playground.dms");
    const unread = state.unread.get(channel.id);
    if (unread) tab.append(el("span", "unread", String(unread)));
    if (channel.id === state.channel) tab.setAttribute("aria-current", "page");
    tab.addEventListener("click", () => openChannel(channel.id));
    nav.append(tab);
  }
}

function nearBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
}

function drawMessages() {
  const list = $("#messages");
  const ctx = context();
  const shown = [...state.messages.values()]
    .filter((m) => m.channel_id === state.channel && !state.dismissed.has(m.id))
    .sort((a, b) => byId(a.id, b.id));
  list.replaceChildren(...shown.map((m) => renderMessage(m, ctx)));
  if (!shown.length) list.append(el("li", "empty", t("playground.empty")));
  list.scrollTop = list.scrollHeight;
}

function drawMessage(message) {
  if (state.dismissed.has(message.id)) return;
  const list = $("#messages");
  const stick = nearBottom(list);
  const node = renderMessage(message, context());
  const old = list.querySelector(`:scope > li[data-id="${message.id}"]`);
  if (old) {
    old.replaceWith(node);
  } else {
    const empty = list.querySelector(":scope > li.empty");
    if (empty) empty.remove();
    const after = [...list.children].find((li) => li.dataset.id && byId(li.dataset.id, message.id) > 0);
    list.insertBefore(node, after || null);
  }
  if (stick) list.scrollTop = list.scrollHeight;
}

// -- actions ---------------------------------------------------------------------------------

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: state.user, ...body }),
    });
    const data = await response.json();
    return response.ok ? data : { ok: false, refused: data.error };
  } catch (error) {
    return { ok: false, refused: String(error) };
  }
}

function answered(result) {
  if (result.ok) return true;
  notice(result.failed ? t("playground.failed") : t("playground.refused", { reason: result.refused }));
  return false;
}

async function busy(node, action) {
  if (node) node.setAttribute("aria-busy", "true");
  try {
    return answered(await action);
  } finally {
    if (node) node.removeAttribute("aria-busy");
  }
}

function click(message, customId, node) {
  return busy(node, post("/api/click", { message: message.id, custom_id: customId }));
}

function select(message, customId, values, node) {
  return busy(node, post("/api/select", { message: message.id, custom_id: customId, values }));
}

function dismiss(id) {
  state.dismissed.add(id);
  const node = document.querySelector(`#messages > li[data-id="${id}"]`);
  if (node) node.remove();
}

function closeMenus() {
  const menu = state.menu;
  state.menu = null;
  if (menu) menu.close();
}

function openChannel(id) {
  state.channel = id;
  state.unread.delete(id);
  closePanel();
  drawChannels();
  drawMessages();
  loadCommands();
}

// A link to a channel or message of this Discord: open the channel, show the message.
function jump(channelId, messageId) {
  if (channelId !== state.channel) openChannel(channelId);
  if (!messageId) return;
  const node = document.querySelector(`#messages > li[data-id="${messageId}"]`);
  if (!node) return;
  node.scrollIntoView({ block: "center" });
  node.classList.remove("highlight");
  void node.offsetWidth;
  node.classList.add("highlight");
}

function switchUser(name) {
  if (name === state.user) return;
  state.user = name;
  state.unread.clear();
  state.dismissed.clear();
  history.replaceState(null, "", `?user=${encodeURIComponent(name)}`);
  closePanel();
  const old = state.socket;
  connect();
  if (old) old.close();
}

// The commands this user may run in the channel shown; the list waits for them.
function loadCommands() {
  const url = `/api/commands?user=${encodeURIComponent(state.user)}&channel=${state.channel}`;
  state.commands = fetch(url).then((response) => (response.ok ? response.json() : []));
}

// -- slash commands --------------------------------------------------------------------------

function closePanel() {
  const panel = $("#slash-panel");
  panel.replaceChildren();
  panel.hidden = true;
  $("#slash-open").setAttribute("aria-expanded", "false");
}

async function openPanel() {
  const panel = $("#slash-panel");
  if (!panel.hidden) {
    closePanel();
    return;
  }
  const ctx = context();
  const commands = await state.commands;
  const { box, focus } = commandList(commands, ctx, (entry) => {
    panel.replaceChildren(
      commandForm(
        entry,
        ctx,
        async (command, options) => {
          const result = await post("/api/slash", { channel: state.channel, command, options });
          if (answered(result)) closePanel();
        },
        closePanel,
      ),
    );
    const first = panel.querySelector("input, select");
    if (first) first.focus();
  });
  panel.replaceChildren(box);
  panel.hidden = false;
  $("#slash-open").setAttribute("aria-expanded", "true");
  focus();
}

// -- theme -----------------------------------------------------------------------------------

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
}

function setUpTheme() {
  const saved = localStorage.getItem("playground-theme");
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  applyTheme(saved || (dark.matches ? "dark" : "light"));
  dark.addEventListener("change", (event) => {
    if (!localStorage.getItem("playground-theme")) applyTheme(event.matches ? "dark" : "light");
  });
  $("#theme-toggle").addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    localStorage.setItem("playground-theme", next);
    applyTheme(next);
  });
}

// -- start -----------------------------------------------------------------------------------

setUpTheme();
$("#user-select").addEventListener("change", (event) => switchUser(event.target.value));
$("#user-locale").addEventListener("change", (event) => post("/api/locale", { locale: event.target.value }));
$("#guild-locale").addEventListener("change", (event) =>
  post("/api/locale", { user: null, locale: event.target.value }),
);
$("#slash-open").addEventListener("click", openPanel);
document.addEventListener("click", (event) => {
  if (!event.target.closest(".select")) closeMenus();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  closeMenus();
  closePanel();
});
setInterval(() => {
  for (const node of document.querySelectorAll("[data-relative]")) {
    node.textContent = relative(Number(node.dataset.relative), state.world ? state.world.lang : "en");
  }
}, 1000);
connect();
