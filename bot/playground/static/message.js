// One message as Discord's client draws it: author line, content and embeds, or Components V2
// (containers, text displays, sections, separators, media, buttons and select menus).
import { el, markdown } from "./markdown.js";

const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };
const SELECTS = new Set([3, 5, 6, 7, 8]);

function colour(value) {
  return typeof value === "number" ? `#${value.toString(16).padStart(6, "0")}` : null;
}

function emoji(data) {
  if (!data) return null;
  if (data.id) return el("span", "emoji custom", `:${data.name}:`);
  return el("span", "emoji", data.name);
}

// Only pictures the playground itself serves (the bot's uploads) are loaded; the page never
// fetches anything from elsewhere.
function localUrl(url) {
  return typeof url === "string" && url.startsWith("/attachments/") ? url : null;
}

function image(media, alt, className) {
  const url = localUrl(media && media.url);
  if (!url) return el("span", `${className} missing`, alt || "");
  const img = el("img", className);
  img.src = url;
  img.alt = alt || "";
  img.loading = "lazy";
  if (media.width && media.height) {
    img.width = media.width;
    img.height = media.height;
  }
  return img;
}

function button(comp, ctx, message) {
  const style = BUTTON_STYLES[comp.style] || "secondary";
  let node;
  if (comp.style === 5) {
    node = el("a", `btn btn-${style}`);
    try {
      const url = new URL(comp.url);
      if (url.protocol === "https:" || url.protocol === "http:") node.href = url.href;
    } catch {
      /* a link the page will not follow */
    }
    node.target = "_blank";
    node.rel = "noopener noreferrer";
  } else {
    node = el("button", `btn btn-${style}`);
    node.type = "button";
    if (comp.custom_id) node.dataset.customId = comp.custom_id;
    node.addEventListener("click", () => ctx.click(message, comp.custom_id, node));
  }
  if (comp.disabled) {
    node.setAttribute("aria-disabled", "true");
    if (node.tagName === "BUTTON") node.disabled = true;
  }
  const icon = emoji(comp.emoji);
  if (icon) node.append(icon);
  if (comp.label) node.append(el("span", "btn-label", comp.label));
  if (comp.style === 5) node.append(el("span", "btn-external", "↗"));
  return node;
}

function selectOptions(comp, ctx) {
  if (comp.type === 3) return comp.options || [];
  const people = ctx.world.users.map((u) => ({ value: u.id, label: u.name }));
  const roles = ctx.world.roles.map((r) => ({ value: r.id, label: `@${r.name}` }));
  const channels = ctx.world.channels.filter((c) => !c.dm).map((c) => ({ value: c.id, label: `#${c.name}` }));
  return { 5: people, 6: roles, 7: [...people, ...roles], 8: channels }[comp.type] || [];
}

// A menu left open stays open when its message is redrawn (the bot edits hands often): it is
// known by its message and its place among the message's selects.
function select(comp, ctx, message) {
  const key = `${message.id}/${ctx.selectSlot()}`;
  const box = el("div", "select");
  box.dataset.customId = comp.custom_id;
  const options = selectOptions(comp, ctx);
  const min = comp.min_values ?? 1;
  const max = comp.max_values ?? 1;
  const multi = max > 1;
  const chosen = new Set(options.filter((o) => o.default).map((o) => o.value));
  const face = el("button", "select-face");
  face.type = "button";
  face.setAttribute("aria-haspopup", "listbox");
  face.setAttribute("aria-expanded", "false");
  face.disabled = Boolean(comp.disabled);
  const faceText = el("span", "select-text");
  const showChoice = () => {
    const labels = options.filter((o) => chosen.has(o.value)).map((o) => o.label);
    faceText.textContent = labels.length ? labels.join(", ") : comp.placeholder || ctx.t("playground.choose");
    faceText.classList.toggle("placeholder", !labels.length);
  };
  showChoice();
  face.append(faceText, el("span", "select-chevron", "⌄"));
  const menu = el("div", "select-menu");
  menu.setAttribute("role", "listbox");
  menu.hidden = true;
  if (multi) menu.setAttribute("aria-multiselectable", "true");
  let changed = false;
  const close = (submit) => {
    if (menu.hidden) return;
    menu.hidden = true;
    face.setAttribute("aria-expanded", "false");
    ctx.forgetMenu(key);
    if (submit && changed && chosen.size >= min && chosen.size <= max) {
      ctx.select(message, comp.custom_id, [...chosen], face);
    }
    changed = false;
  };
  for (const option of options) {
    const row = el("div", "select-option");
    row.setAttribute("role", "option");
    row.dataset.value = option.value;
    row.setAttribute("aria-selected", String(chosen.has(option.value)));
    const icon = emoji(option.emoji);
    if (icon) row.append(icon);
    const words = el("span", "select-words");
    words.append(el("span", "select-label", option.label));
    if (option.description) words.append(el("span", "select-description", option.description));
    row.append(words);
    row.addEventListener("click", () => {
      changed = true;
      if (!multi) {
        chosen.clear();
        chosen.add(option.value);
        showChoice();
        close(true);
        return;
      }
      if (chosen.has(option.value)) chosen.delete(option.value);
      else if (chosen.size < max) chosen.add(option.value);
      row.setAttribute("aria-selected", String(chosen.has(option.value)));
      showChoice();
    });
    menu.append(row);
  }
  if (multi) {
    const done = el("button", "select-done", ctx.t("playground.done"));
    done.type = "button";
    done.addEventListener("click", () => close(true));
    menu.append(done);
  }
  // The menu opens upwards when the channel has no room for it below, as Discord's does.
  const place = () => {
    const list = box.closest("#messages");
    if (!list || menu.hidden) return;
    const room = list.getBoundingClientRect();
    const at = face.getBoundingClientRect();
    const below = room.bottom - at.bottom;
    menu.classList.toggle("up", below < menu.offsetHeight + 8 && at.top - room.top > below);
  };
  const open = () => {
    menu.hidden = false;
    face.setAttribute("aria-expanded", "true");
    ctx.openMenu(key, () => close(multi));
    requestAnimationFrame(place);
  };
  face.addEventListener("click", () => {
    const opening = menu.hidden;
    ctx.closeMenus();
    if (opening) open();
  });
  if (ctx.menuOpen(key) && !comp.disabled) open();
  box.append(face, menu);
  return box;
}

function gallery(comp) {
  const items = comp.items || [];
  const node = el("div", `gallery gallery-${Math.min(items.length, 4)}`);
  for (const item of items) node.append(image(item.media, item.description, "gallery-item"));
  return node;
}

function separator(comp) {
  const node = el("div", `separator spacing-${comp.spacing || 1}`);
  if (comp.divider !== false) node.append(el("hr"));
  return node;
}

function file(comp, ctx) {
  const url = localUrl(comp.file && comp.file.url);
  const name = (url || "").split("/").pop() || "file";
  const node = el("a", "file", name);
  if (url) {
    node.href = url;
    node.download = name;
    node.title = ctx.t("playground.download", { name });
  }
  return node;
}

export function component(comp, ctx, message) {
  switch (comp.type) {
    case 1: {
      const row = el("div", "row");
      for (const child of comp.components || []) row.append(component(child, ctx, message));
      return row;
    }
    case 2:
      return button(comp, ctx, message);
    case 9: {
      const section = el("div", "section");
      const texts = el("div", "section-text");
      for (const child of comp.components || []) texts.append(component(child, ctx, message));
      section.append(texts);
      if (comp.accessory) {
        const side = el("div", "section-accessory");
        side.append(component(comp.accessory, ctx, message));
        section.append(side);
      }
      return section;
    }
    case 10: {
      const text = el("div", "text-display");
      text.append(markdown(comp.content || "", ctx));
      return text;
    }
    case 11:
      return image(comp.media, comp.description, "thumbnail");
    case 12:
      return gallery(comp);
    case 13:
      return file(comp, ctx);
    case 14:
      return separator(comp);
    case 17: {
      const box = el("div", "container");
      const accent = colour(comp.accent_color);
      if (accent) box.style.borderLeftColor = accent;
      else box.classList.add("no-accent");
      if (comp.spoiler) box.classList.add("spoiler");
      for (const child of comp.components || []) box.append(component(child, ctx, message));
      return box;
    }
    default:
      if (SELECTS.has(comp.type)) return select(comp, ctx, message);
      return el("div", "unknown-component", `[component ${comp.type}]`);
  }
}

function embed(data, ctx) {
  const node = el("div", "embed");
  const accent = colour(data.color);
  if (accent) node.style.borderLeftColor = accent;
  if (data.author && data.author.name) node.append(el("div", "embed-author", data.author.name));
  if (data.title) {
    const title = el("div", "embed-title");
    title.append(markdown(data.title, ctx));
    node.append(title);
  }
  if (data.description) {
    const description = el("div", "embed-description");
    description.append(markdown(data.description, ctx));
    node.append(description);
  }
  if (data.fields && data.fields.length) {
    const fields = el("div", "embed-fields");
    for (const field of data.fields) {
      const f = el("div", field.inline ? "embed-field inline" : "embed-field");
      const name = el("div", "embed-field-name");
      name.append(markdown(field.name || "", ctx));
      const value = el("div", "embed-field-value");
      value.append(markdown(field.value || "", ctx));
      f.append(name, value);
      fields.append(f);
    }
    node.append(fields);
  }
  if (data.image) node.append(image(data.image, "", "embed-image"));
  if (data.footer && data.footer.text) node.append(el("div", "embed-footer", data.footer.text));
  return node;
}

function attachments(list, ctx) {
  const node = el("div", "attachments");
  for (const a of list) {
    if ((a.content_type || "").startsWith("image/")) node.append(image(a, a.description, "attachment-image"));
    else node.append(file({ file: a }, ctx));
  }
  return node;
}

function clock(iso, lang) {
  const date = new Date(iso);
  const time = el("time", "message-time", new Intl.DateTimeFormat(lang, { timeStyle: "short" }).format(date));
  time.dateTime = date.toISOString();
  time.title = new Intl.DateTimeFormat(lang, { dateStyle: "full", timeStyle: "short" }).format(date);
  return time;
}

export function renderMessage(message, shared) {
  let slots = 0;
  const ctx = { ...shared, selectSlot: () => slots++ };
  const item = el("li", "message");
  item.dataset.id = message.id;
  item.dataset.author = message.author.name;
  if (message.ephemeral) item.classList.add("ephemeral");
  if (message.used) {
    const used = el("div", "message-used");
    const who = ctx.world.names[message.used.user_id] || "?";
    used.textContent = ctx.t("playground.used", { user: who, command: `/${message.used.command}` });
    item.append(used);
  }
  const avatar = el("div", `avatar${message.author.bot ? " bot" : ""}`, message.author.name.slice(0, 1).toUpperCase());
  avatar.setAttribute("aria-hidden", "true");
  const body = el("div", "message-body");
  const head = el("div", "message-head");
  head.append(el("span", "message-author", message.author.name));
  if (message.author.bot) head.append(el("span", "app-tag", ctx.t("playground.app")));
  head.append(clock(message.timestamp, ctx.lang));
  if (message.edited) head.append(el("span", "message-edited", ctx.t("playground.edited")));
  body.append(head);
  if (message.loading) {
    body.append(el("div", "message-thinking", ctx.t("playground.thinking", { bot: message.author.name })));
  } else {
    if (message.content && !message.v2) {
      const content = el("div", "message-content");
      content.append(markdown(message.content, ctx));
      body.append(content);
    }
    for (const data of message.embeds || []) body.append(embed(data, ctx));
    const parts = el("div", "components");
    for (const comp of message.components || []) parts.append(component(comp, ctx, message));
    if (parts.childElementCount) body.append(parts);
    if (!message.v2 && message.attachments && message.attachments.length) body.append(attachments(message.attachments, ctx));
  }
  if (message.ephemeral) {
    const note = el("div", "only-you");
    note.append(el("span", "only-you-eye", "👁"), el("span", null, ctx.t("playground.only_you")), " · ");
    const dismiss = el("button", "dismiss", ctx.t("playground.dismiss"));
    dismiss.type = "button";
    dismiss.addEventListener("click", () => ctx.dismiss(message.id));
    note.append(dismiss);
    body.append(note);
  }
  item.append(avatar, body);
  return item;
}
