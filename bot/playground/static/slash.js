// Slash commands as the bot registered them: a list to pick from (subcommands spelled out),
// then a form of the command's options (types, choices, ranges, required ones marked).
import { el } from "./markdown.js";

const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;

function localized(node, field, ctx) {
  const localizations = node[`${field}_localizations`] || {};
  return localizations[ctx.locale] || node[field];
}

// Every runnable command: "cmd", "cmd sub" or "cmd group sub", with its leaf's options.
export function flatten(commands) {
  const out = [];
  const walk = (node, path) => {
    const subs = (node.options || []).filter((o) => o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP);
    if (!subs.length) {
      out.push({ path, leaf: node, options: node.options || [] });
      return;
    }
    for (const sub of subs) walk(sub, [...path, sub]);
  };
  for (const command of commands) walk(command, [command]);
  return out;
}

function label(entry, ctx) {
  return `/${entry.path.map((node) => localized(node, "name", ctx)).join(" ")}`;
}

export function commandList(commands, ctx, choose) {
  const box = el("div", "command-list");
  const search = el("input", "command-search");
  search.type = "search";
  search.placeholder = ctx.t("playground.search");
  search.setAttribute("aria-label", ctx.t("playground.search"));
  const list = el("ul", "commands");
  const entries = flatten(commands);
  const draw = () => {
    list.replaceChildren();
    const wanted = search.value.trim().replace(/^\//, "").toLowerCase();
    for (const entry of entries) {
      const name = label(entry, ctx);
      const canonical = entry.path.map((n) => n.name).join(" ");
      if (wanted && !name.toLowerCase().includes(wanted) && !canonical.includes(wanted)) continue;
      const item = el("li");
      const pick = el("button", "command");
      pick.type = "button";
      pick.dataset.command = canonical;
      pick.append(el("span", "command-name", name), el("span", "command-description", localized(entry.leaf, "description", ctx)));
      pick.addEventListener("click", () => choose(entry));
      item.append(pick);
      list.append(item);
    }
    if (!list.childElementCount) list.append(el("li", "command-none", ctx.t("playground.no_commands")));
  };
  search.addEventListener("input", draw);
  draw();
  box.append(search, list);
  return { box, focus: () => search.focus() };
}

function choiceField(option, ctx) {
  const field = el("select");
  if (!option.required) field.append(new Option(ctx.t("playground.not_set"), ""));
  option.choices.forEach((choice, index) => field.append(new Option(localized(choice, "name", ctx), String(index))));
  return { field, value: () => (field.value === "" ? undefined : option.choices[Number(field.value)].value) };
}

function entityField(option, ctx, items) {
  const field = el("select");
  if (!option.required) field.append(new Option(ctx.t("playground.not_set"), ""));
  for (const item of items) field.append(new Option(item.label, item.value));
  return { field, value: () => (field.value === "" ? undefined : field.value) };
}

function inputField(option, ctx) {
  const world = ctx.world;
  const people = world.users.map((u) => ({ value: u.id, label: `@${u.name}` }));
  const roles = world.roles.map((r) => ({ value: r.id, label: `@${r.name}` }));
  if (option.choices && option.choices.length) return choiceField(option, ctx);
  switch (option.type) {
    case 4:
    case 10: {
      const field = el("input");
      field.type = "number";
      field.step = option.type === 4 ? "1" : "any";
      if (option.min_value !== undefined && option.min_value !== null) field.min = String(option.min_value);
      if (option.max_value !== undefined && option.max_value !== null) field.max = String(option.max_value);
      return { field, value: () => (field.value === "" ? undefined : Number(field.value)) };
    }
    case 5: {
      const field = el("select");
      if (!option.required) field.append(new Option(ctx.t("playground.not_set"), ""));
      field.append(new Option(ctx.t("playground.yes"), "true"), new Option(ctx.t("playground.no"), "false"));
      return { field, value: () => (field.value === "" ? undefined : field.value === "true") };
    }
    case 6:
      return entityField(option, ctx, people);
    case 7:
      return entityField(option, ctx, world.channels.filter((c) => !c.dm).map((c) => ({ value: c.id, label: `#${c.name}` })));
    case 8:
      return entityField(option, ctx, roles);
    case 9:
      return entityField(option, ctx, [...people, ...roles]);
    case 11: {
      const field = el("input");
      field.disabled = true;
      field.placeholder = ctx.t("playground.no_attachments");
      return { field, value: () => undefined };
    }
    default: {
      const field = el("input");
      field.type = "text";
      if (option.min_length) field.minLength = option.min_length;
      if (option.max_length) field.maxLength = option.max_length;
      return { field, value: () => (field.value === "" ? undefined : field.value) };
    }
  }
}

// The form of one command; `send(command, options)` runs it and resolves to whether it went.
export function commandForm(entry, ctx, send, cancel) {
  const form = el("form", "slash-form");
  form.dataset.command = entry.path.map((n) => n.name).join(" ");
  form.append(el("div", "slash-title", label(entry, ctx)));
  form.append(el("div", "slash-description", localized(entry.leaf, "description", ctx)));
  const fields = [];
  for (const option of entry.options) {
    const row = el("label", "slash-option");
    row.dataset.option = option.name;
    const name = el("span", "slash-option-name", localized(option, "name", ctx));
    if (option.required) name.append(el("span", "slash-required", ` (${ctx.t("playground.required")})`));
    const { field, value } = inputField(option, ctx);
    field.name = option.name;
    field.required = Boolean(option.required);
    row.append(name, field, el("span", "slash-option-description", localized(option, "description", ctx)));
    form.append(row);
    fields.push({ option, value });
  }
  const actions = el("div", "slash-actions");
  const submit = el("button", "btn btn-primary", ctx.t("playground.send"));
  submit.type = "submit";
  const back = el("button", "btn btn-secondary", ctx.t("playground.cancel"));
  back.type = "button";
  back.addEventListener("click", cancel);
  actions.append(back, submit);
  form.append(actions);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = [];
    for (const { option, value } of fields) {
      const v = value();
      if (v !== undefined) options.push({ name: option.name, type: option.type, value: v });
    }
    submit.disabled = true;
    try {
      await send(form.dataset.command, options);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
