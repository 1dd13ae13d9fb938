// A small offline reader of /openapi.json: every route with its parameters and body schema.
"use strict";

function node(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

function resolve(spec, schema) {
  let s = schema || {};
  while (s.$ref) s = s.$ref.split("/").slice(1).reduce((o, k) => o[k], spec);
  return s;
}

function typeOf(spec, schema) {
  const s = resolve(spec, schema);
  if (s.anyOf) return s.anyOf.map((x) => typeOf(spec, x)).join(" | ");
  if (s.enum) return s.enum.map((x) => JSON.stringify(x)).join(" | ");
  if (s.type === "array") return `${typeOf(spec, s.items)}[]`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  return s.type || s.title || "object";
}

function fields(spec, schema) {
  const s = resolve(spec, schema);
  const list = node("ul", "fields");
  const required = new Set(s.required || []);
  for (const [name, prop] of Object.entries(s.properties || {})) {
    const p = resolve(spec, prop);
    const li = node("li");
    li.append(node("code", "", name), ` ${typeOf(spec, prop)}${required.has(name) ? " (required)" : ""}`);
    if (p.description) li.append(` — ${p.description}`);
    list.append(li);
  }
  return list;
}

async function start() {
  const spec = await (await fetch("/openapi.json")).json();
  document.getElementById("intro").textContent = `${spec.info.title} ${spec.info.version}: ${spec.info.description}`;
  const out = document.getElementById("routes");
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const section = node("section", "route");
      const head = node("h2");
      head.append(node("span", `method ${method}`, method.toUpperCase()), " ", node("code", "", path));
      section.append(head, node("p", "", op.summary || ""));
      const params = op.parameters || [];
      if (params.length) {
        section.append(node("h3", "", "Parameters"));
        const list = node("ul", "fields");
        for (const p of params) {
          const li = node("li");
          li.append(node("code", "", p.name), ` (${p.in}) ${typeOf(spec, p.schema)}${p.required ? " (required)" : ""}`);
          if (p.description || p.schema?.description) li.append(` — ${p.description || p.schema.description}`);
          list.append(li);
        }
        section.append(list);
      }
      const body = op.requestBody?.content;
      if (body) {
        for (const [type, media] of Object.entries(body)) {
          section.append(node("h3", "", `Body (${type})`), fields(spec, media.schema));
        }
      }
      const codes = Object.keys(op.responses || {}).join(", ");
      section.append(node("p", "codes", `Responses: ${codes}`));
      out.append(section);
    }
  }
}

document.addEventListener("DOMContentLoaded", start);
