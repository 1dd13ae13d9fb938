// citewise page: ask, read the cited answer, open each citation at its span in the source.
// Plain DOM code, no dependencies; every text from the server is set with textContent.
import { STRINGS, VI_LETTERS } from "./i18n.js";

let lang = (navigator.language || "en").toLowerCase().startsWith("vi") ? "vi" : "en";
const state = { answer: null, refs: [], sources: new Map(), roundTrip: 0 };

const $ = (sel) => document.querySelector(sel);
// the prefix of a verdict detail that says why a sentence is not supported (verify/validator.py)
const SUPPORT_CHECK = "support check: ";

function t(key, ...args) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return typeof s === "function" ? s(...args) : s;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function applyLang(next) {
  lang = next in STRINGS ? next : "en";
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}

const guessLang = (text) => (VI_LETTERS.test(text) ? "vi" : "en");

// -- API ------------------------------------------------------------------------------------
const token = () => sessionStorage.getItem("citewise-token") || "";

async function request(method, path, body) {
  const headers = {};
  if (token()) headers.Authorization = `Bearer ${token()}`;
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload });
  if (!res.ok) {
    const data = await res.json().catch(() => ({}));
    if (res.status === 401) $("#token-form").hidden = false;
    const error = new Error(data.error?.message || `${res.status} ${res.statusText}`);
    error.data = data;
    throw error;
  }
  return res;
}

async function api(method, path, body) {
  const res = await request(method, path, body);
  return res.json().catch(() => ({}));
}

// POST /ask with "stream": NDJSON lines — each checked sentence as soon as it is written, then the answer
async function askStreaming(question, onSentence) {
  const res = await request("POST", "/ask", { question, stream: true });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value || new Uint8Array(), { stream: !done });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      const event = JSON.parse(line);
      if (event.event === "sentence") onSentence(event);
      else if (event.event === "answer") return event;
      else if (event.event === "error") throw new Error(event.message);
    }
    if (done) throw new Error(t("error", "the answer stream ended early"));
  }
}

function setStatus(message, isError = false) {
  const node = $("#status");
  node.textContent = message;
  node.classList.toggle("error", isError);
}

// -- asking -----------------------------------------------------------------------------------
async function ask(event) {
  event.preventDefault();
  const question = $("#question").value.trim();
  if (!question) return;
  applyLang(guessLang(question));
  setStatus(t("asking"));
  $("#ask").disabled = true;
  const started = performance.now();
  try {
    const preview = $("#answer-text");
    let shown = 0;
    const answer = await askStreaming(question, (sentence) => {
      if (shown++ === 0) {  // a model's first checked sentence: show it while the rest is written
        closeSource();
        $("#answer").hidden = false;
        $("#refusal").hidden = true;
        $("#references-title").hidden = true;
        $("#references").replaceChildren();
        preview.replaceChildren();
      }
      preview.append(el("span", { class: "sentence preview", text: `${sentence.text} ` }));
    });
    state.roundTrip = performance.now() - started;
    renderAnswer(answer);
    setStatus("");
  } catch (e) {
    setStatus(t("error", e.message), true);
  } finally {
    $("#ask").disabled = false;
  }
}

const refKey = (c) => `${c.marker}@${c.char_start}`;

function pagesText(pages) {
  return pages && pages[0] ? t("page", pages[0], pages[1]) : t("noPages");
}

function renderAnswer(answer) {
  applyLang(answer.lang);
  state.answer = answer;
  const noDirect = answer.outcome === "no_direct_answer";
  state.refs = noDirect ? answer.closest || [] : answer.references;
  const numbers = new Map(state.refs.map((c, i) => [refKey(c), i + 1]));
  closeSource();
  $("#answer").hidden = false;

  const refusal = $("#refusal");
  refusal.hidden = !answer.refused && !noDirect;
  refusal.className = noDirect ? "nodirect" : "refusal";
  refusal.replaceChildren();
  if (answer.refused) {
    refusal.append(answer.text, el("span", { class: "verdict", text: ` (${t("reason")}: ${answer.reason})` }));
  } else if (noDirect) {
    // the answer's own first line: "no direct answer", and the figures the question takes as given that the sources lack
    const lead = (answer.text || "").split("\n")[0] || t("noDirect");
    refusal.append(lead, el("span", { class: "verdict", text: ` (${t("reason")}: ${answer.reason})` }));
  }
  const warning = $("#warning");
  const flagged = answer.flagged ? t("flaggedAnswer", (answer.verification ?? 0).toFixed(2)) : "";
  const warn = [answer.warning, flagged, answer.partial ? t("partialAnswer") : ""].filter(Boolean).join(" ");
  warning.hidden = !warn;
  warning.textContent = warn;
  // how the asker's case stands against the provision quoted first (an exclusion whose bound it meets)
  const note = $("#note");
  note.hidden = !answer.note;
  note.textContent = answer.note || "";

  const text = $("#answer-text");
  text.replaceChildren();
  for (const sentence of answer.sentences) {
    const status = sentence.verdict.status;
    // what the support checks found, for a sentence shown though not supported (verify/findings.py)
    const why = (sentence.verdict.details || []).filter((d) => d.startsWith(SUPPORT_CHECK)).map((d) => d.slice(SUPPORT_CHECK.length));
    const title = `${t(status)} · ${sentence.verdict.support.toFixed(2)}${why.length ? ` — ${why.join("; ")}` : ""}`;
    const span = el("span", { class: `sentence ${status}`, title });
    span.append(sentence.text, " ");
    for (const c of sentence.citations) {
      const n = numbers.get(refKey(c));
      const button = el("button", { type: "button", class: "cite", "data-n": String(n), text: String(n) });
      button.title = `${c.doc_title} — ${c.label}`;
      button.addEventListener("click", () => openSource(n));
      span.append(el("sup", {}, button));
    }
    for (const check of sentence.verdict.references || []) {
      if (check.status === "valid") continue;
      const why = check.status === "mismatch" ? t("refMismatch", check.raw, check.source) : t("refInvalid", check.raw);
      span.append(" ", el("span", { class: "refcheck", text: `⚠ ${why}` }));
    }
    text.append(span, " ");
  }

  $("#references-title").hidden = state.refs.length === 0;
  $("#references-title").textContent = noDirect ? t("closest") : t("references");
  const list = $("#references");
  list.replaceChildren();
  state.refs.forEach((c, i) => {
    const open = el("button", { type: "button", text: `${c.doc_title} — ${c.label}, ${pagesText(c.pages)}` });
    open.addEventListener("click", () => openSource(i + 1));
    list.append(el("li", { id: `ref-${i + 1}` }, open, el("span", { class: "quote", text: `“${oneLine(c.quote)}”` })));
  });

  $("#timings").textContent = timingsText(answer);
  $("#review-state").textContent = "";
  $("#review-note").value = "";
  $("#review").hidden = !answer.audit_id;
}

const oneLine = (s) => s.replace(/\s+/g, " ").trim();

function timingsText(answer) {
  const ms = answer.timings || {};
  const sum = (prefix) => Object.entries(ms).filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v, 0);
  const parts = [
    [t("retrieval"), ms["retrieve.total"] ?? sum("retrieve.")],
    [t("generation"), sum("generate.")],
    [t("verification"), ms.verify ?? 0],
    [t("total"), ms.total ?? 0],
    [t("roundTrip"), state.roundTrip],
  ];
  const times = parts.map(([name, v]) => `${name} ${Math.round(v)} ms`).join(" · ");
  return `${answer.generator} · ${t("confidence")} ${answer.confidence.toFixed(2)} · ${times}`;
}

async function review(event) {
  const status = event.currentTarget.dataset.status;
  const id = state.answer?.audit_id;
  if (!id) return;
  try {
    await api("POST", `/answers/${id}/review`, { status, note: $("#review-note").value });
    $("#review-state").textContent = t("reviewed", status);
  } catch (e) {
    $("#review-state").textContent = t("error", e.message);
  }
}

// -- the source pane ---------------------------------------------------------------------------
// Offsets from the server count code points; JavaScript strings count UTF-16 units.
function unitIndex(text) {
  if (!/[\uD800-\uDFFF]/.test(text)) return (i) => i;
  const units = [0];
  for (const ch of text) units.push(units[units.length - 1] + ch.length);
  return (i) => units[Math.min(i, units.length - 1)];
}

function provisionOf(source, c) {
  const holding = source.nodes.filter((n) => n.char_start <= c.char_start && c.char_end <= n.char_end);
  const labelled = holding.filter((n) => n.label === c.label);
  const pool = labelled.length ? labelled : holding;
  pool.sort((a, b) => a.char_end - a.char_start - (b.char_end - b.char_start));
  return pool[0] || null;
}

async function openSource(n) {
  const c = state.refs[n - 1];
  if (!c) return;
  for (const b of document.querySelectorAll(".cite")) b.classList.toggle("active", b.dataset.n === String(n));
  const pane = $("#source");
  pane.hidden = false;
  $("#panel-ask").classList.add("with-source");
  $("#source-title").textContent = c.doc_title;
  $("#source-where").textContent = t("loading");
  $("#source-text").replaceChildren();
  try {
    let source = state.sources.get(c.doc_id);
    if (!source) {
      source = await api("GET", `/documents/${encodeURIComponent(c.doc_id)}/source`);
      state.sources.set(c.doc_id, source);
    }
    renderSource(source, c, n);
  } catch (e) {
    $("#source-where").textContent = t("error", e.message);
  }
}

function renderSource(source, c, n) {
  const at = unitIndex(source.text);
  const node = provisionOf(source, c);
  $("#source-title").textContent = source.title;
  // the quote's own page(s); the citation's pages are those of the whole provision
  const quotePages = source.pages
    .filter((p) => p.char_start < Math.max(c.char_end, c.char_start + 1) && c.char_start < p.char_end)
    .map((p) => p.number);
  let where = `[${n}] ${c.label} · ${pagesText(quotePages.length ? [quotePages[0], quotePages.at(-1)] : c.pages)}`;
  if (quotePages.length && c.pages[0] && (c.pages[0] !== quotePages[0] || c.pages[1] !== quotePages.at(-1))) {
    where += ` (${t("provision")}: ${pagesText(c.pages)})`;
  }
  $("#source-where").textContent = where;
  const len = [...source.text].length;
  const cuts = new Set([0, len, c.char_start, c.char_end]);
  if (node) cuts.add(node.char_start).add(node.char_end);
  const pageAt = new Map();
  for (const p of source.pages) {
    cuts.add(p.char_start);
    pageAt.set(p.char_start, p.number);
  }
  const points = [...cuts].filter((x) => x >= 0 && x <= len).sort((a, b) => a - b);
  const box = $("#source-text");
  const parts = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    if (pageAt.has(a)) {
      const label = t("page", pageAt.get(a));
      parts.push(el("span", { class: "page-break", id: `page-${pageAt.get(a)}`, "data-label": label }));
    }
    const piece = source.text.slice(at(a), at(b));
    if (a >= c.char_start && b <= c.char_end) parts.push(el("mark", { "data-ref": String(n), text: piece }));
    else if (node && a >= node.char_start && b <= node.char_end) parts.push(el("span", { class: "provision", text: piece }));
    else parts.push(document.createTextNode(piece));
  }
  box.replaceChildren(...parts);
  const first = box.querySelector("mark");
  if (first) first.scrollIntoView({ block: "center" });
}

function closeSource() {
  $("#source").hidden = true;
  $("#panel-ask").classList.remove("with-source");
  for (const b of document.querySelectorAll(".cite.active")) b.classList.remove("active");
}

// -- documents -------------------------------------------------------------------------------
async function loadDocuments() {
  const body = $("#documents tbody");
  try {
    const docs = await api("GET", "/documents");
    body.replaceChildren();
    if (!docs.length) body.append(el("tr", {}, el("td", { colspan: "8", text: t("noDocuments") })));
    for (const d of docs) {
      const status = el("td", { text: d.status });
      if (d.warnings.length) status.append(el("div", { class: "warnings", text: d.warnings.join("; ") }));
      const remove = el("button", { type: "button", text: t("remove") });
      remove.addEventListener("click", () => removeDocument(d));
      body.append(
        el(
          "tr",
          { "data-doc": d.doc_id },
          el("td", { text: d.title, title: d.file }),
          el("td", { text: d.doc_type || "" }),
          el("td", { text: d.number || "" }),
          el("td", { text: d.lang }),
          el("td", { text: String(d.provisions) }),
          el("td", { text: String(d.chunks) }),
          status,
          el("td", {}, remove),
        ),
      );
    }
  } catch (e) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "8", class: "bad", text: t("error", e.message) })));
  }
  showEmbedding();
}

// documents are searchable by words at once; their vectors are computed in the background (GET /healthz)
let embeddingTimer = null;
async function showEmbedding() {
  clearTimeout(embeddingTimer);
  const line = $("#embedding");
  try {
    const { embedding } = await (await fetch("/healthz")).json();
    const busy = embedding && embedding.done < embedding.total;
    line.hidden = !busy;
    if (busy) {
      line.textContent = t("embedding", embedding.done, embedding.total);
      embeddingTimer = setTimeout(showEmbedding, 2000);
    }
  } catch {
    line.hidden = true;
  }
}

async function upload(event) {
  event.preventDefault();
  const files = $("#files").files;
  if (!files.length) return;
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  const out = $("#upload-result");
  out.textContent = t("uploading");
  try {
    const job = await api("POST", "/documents", form); // 202: indexed as a job, polled below
    const result = await finished(job);
    if (result.status === "failed") {
      const error = new Error(result.message);
      error.data = { error: { files: result.errors } };
      throw error;
    }
    const items = result.documents.map((d) =>
      el("li", { text: `${d.file}: ${t(d.status)} — ${d.title} (${d.chunks} ${t("chunks")})` }),
    );
    out.replaceChildren(el("p", { class: "ok", text: t("uploaded", result.documents.length) }), el("ul", {}, ...items));
    $("#files").value = "";
  } catch (e) {
    const rejected = e.data?.error?.files || [];
    const items = rejected.map((f) => el("li", { text: `${f.file}: ${f.error}` }));
    out.replaceChildren(el("p", { class: "bad", text: t("error", e.message) }), el("ul", {}, ...items));
  }
  await loadDocuments();
}

// an upload job's status, polled until it is done or failed (questions are answered meanwhile)
async function finished(job) {
  let status = job;
  for (let wait = 250; status.status === "queued" || status.status === "running"; wait = Math.min(wait * 1.5, 2000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    status = await api("GET", `/jobs/${encodeURIComponent(job.job)}`);
  }
  return status;
}

async function removeDocument(d) {
  if (!window.confirm(t("confirmRemove", d.title))) return;
  try {
    await api("DELETE", `/documents/${encodeURIComponent(d.doc_id)}`);
    state.sources.delete(d.doc_id);
    $("#upload-result").textContent = t("removed", d.title);
  } catch (e) {
    $("#upload-result").textContent = t("error", e.message);
  }
  await loadDocuments();
}

// -- log -------------------------------------------------------------------------------------
async function loadLog() {
  const body = $("#log tbody");
  try {
    const entries = await api("GET", "/answers?limit=100");
    body.replaceChildren();
    for (const e of entries) {
      const outcome =
        { answered: t("outcomeAnswered"), refused: t("outcomeRefused"), no_direct_answer: t("outcomeNoDirect") }[
          e.outcome
        ] || t("outcomeLow");
      const cell = el("td");
      if (e.review) cell.append(el("span", { class: `badge ${e.review.status}`, text: t(e.review.status) }), " ");
      for (const status of ["verified", "flagged"]) {
        const b = el("button", { type: "button", text: t(status) });
        b.addEventListener("click", async () => {
          await api("POST", `/answers/${e.id}/review`, { status }).catch((err) => setStatus(t("error", err.message), true));
          await loadLog();
        });
        cell.append(b, " ");
      }
      body.append(
        el(
          "tr",
          { "data-answer": String(e.id) },
          el("td", { text: String(e.id) }),
          el("td", { text: e.asked_at.replace("T", " ").replace("+00:00", "Z") }),
          el("td", { text: e.question }),
          el("td", { text: outcome }),
          el("td", { text: e.confidence.toFixed(2) }),
          el("td", { text: String(Math.round(e.total_ms)) }),
          cell,
        ),
      );
    }
  } catch (e) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "7", text: t("error", e.message) })));
  }
}

// -- wiring ----------------------------------------------------------------------------------
function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.id !== `panel-${name}`;
  if (name === "documents") loadDocuments();
  if (name === "log") loadLog();
}

async function start() {
  applyLang(lang);
  for (const tab of document.querySelectorAll("[role=tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("#ask-form").addEventListener("submit", ask);
  $("#question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) $("#ask-form").requestSubmit();
  });
  $("#source-close").addEventListener("click", closeSource);
  $("#upload-form").addEventListener("submit", upload);
  for (const b of document.querySelectorAll("#review button")) b.addEventListener("click", review);
  $("#token").value = token();
  $("#token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem("citewise-token", $("#token").value.trim());
    $("#token-form").hidden = true;
    setStatus("");
  });
  try {
    const health = await (await fetch("/healthz")).json();
    if (health.auth && !token()) {
      $("#token-form").hidden = false;
      setStatus(t("needToken"));
    }
  } catch (e) {
    setStatus(t("error", e.message), true);
  }
}

document.addEventListener("DOMContentLoaded", start);
