// The instructor's live view: fetches api/grid every REFRESH_MS and rebuilds the page with text nodes only
// (attendee names come from logins: never interpreted as HTML).
"use strict";
const REFRESH_MS = 5000;
const LANG = (new URLSearchParams(location.search).get("lang") || navigator.language || "en").toLowerCase()
  .startsWith("zh") ? "zh" : "en";
const T = {
  en: {title: "Classroom: live view", stuck: "Where the room is stuck", grid: "Attendees × exercises",
       perExercise: "Per exercise", attendee: "attendee", lastActivity: "last activity", exercise: "exercise",
       correct: "correct", incorrect: "incorrect", not_attempted: "not attempted",
       counts: (c, i, n) => `${c} correct, ${i} incorrect, ${n} not attempted`,
       status: (n, t) => `${n} attendee${n === 1 ? "" : "s"} · updated ${t} · refreshes every ${REFRESH_MS / 1000} s`,
       stale: (t) => `Not updated since ${t}: the hub does not answer (is it running?)`,
       nothingStuck: "Nobody has an incorrect answer right now.",
       legend: "✓ correct · ✗ incorrect (their last check) · – checked, not attempted yet · blank: not checked",
       cell: (o, k, t) => `${o}, ${k} check${k === 1 ? "" : "s"}, last at ${t}`,
       ago: (s) => s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`,
       never: "never"},
  zh: {title: "课堂实时进度", stuck: "大家卡在哪里", grid: "学员 × 练习", perExercise: "各练习汇总", attendee: "学员",
       lastActivity: "最近活动", exercise: "练习", correct: "正确", incorrect: "不正确", not_attempted: "尚未作答",
       counts: (c, i, n) => `${c} 人正确，${i} 人不正确，${n} 人尚未作答`,
       status: (n, t) => `${n} 名学员 · 更新于 ${t} · 每 ${REFRESH_MS / 1000} 秒自动刷新`,
       stale: (t) => `自 ${t} 起未能更新：Hub 没有响应（是否仍在运行？）`,
       nothingStuck: "目前没有人答错。",
       legend: "✓ 正确 · ✗ 不正确（最近一次检查）· – 已检查、尚未作答 · 空白：尚未检查",
       cell: (o, k, t) => `${o}，共检查 ${k} 次，最近一次在 ${t}`,
       ago: (s) => s < 60 ? `${s} 秒前` : s < 3600 ? `${Math.round(s / 60)} 分钟前` : `${Math.round(s / 3600)} 小时前`,
       never: "从未"},
}[LANG];
const MARK = {correct: "✓", incorrect: "✗", not_attempted: "–"};

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}
const clock = (iso) => iso ? new Date(iso).toLocaleTimeString(LANG === "zh" ? "zh-CN" : "en-GB") : "";
const ago = (iso) => iso ? T.ago(Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000))) : T.never;

function render(data) {
  const lessons = [];
  for (const e of data.exercises) {
    const last = lessons[lessons.length - 1];
    if (last && last.number === e.lesson) last.count++;
    else lessons.push({number: e.lesson, title: e.lesson_title[LANG] || e.lesson_title.en, count: 1});
  }
  const grid = document.getElementById("grid");
  grid.replaceChildren();
  const head = grid.createTHead();
  const row1 = head.insertRow();
  row1.append(el("th", T.attendee, {rowspan: 2, class: "name"}), el("th", T.lastActivity, {rowspan: 2}));
  for (const l of lessons) row1.append(el("th", `${l.number} ${l.title.split(/[:：]/)[0]}`, {colspan: l.count, title: l.title}));
  const row2 = head.insertRow();
  for (const e of data.exercises) row2.append(el("th", e.number, {title: e.title[LANG], "data-exercise": e.number}));
  const body = grid.createTBody();
  for (const a of data.attendees) {
    const tr = body.insertRow();
    tr.setAttribute("data-attendee", a.name);
    tr.append(el("td", a.name, {class: "name"}), el("td", ago(a.last_activity), {title: a.last_activity || ""}));
    for (const e of data.exercises) {
      const seen = a.outcomes[e.number];
      const td = el("td", seen ? MARK[seen.outcome] : "", {"data-exercise": e.number,
                    "data-outcome": seen ? seen.outcome : "none"});
      if (seen) {
        td.className = seen.outcome;
        td.title = T.cell(T[seen.outcome], seen.checks, clock(seen.time));
      }
      tr.append(td);
    }
  }
  const foot = grid.createTFoot().insertRow();
  foot.append(el("td", "", {class: "name"}), el("td", ""));
  for (const e of data.exercises) {
    const s = data.summary[e.number];
    foot.append(el("td", `${s.correct}✓ ${s.incorrect}✗`, {title: T.counts(s.correct, s.incorrect, s.not_attempted)}));
  }
  const summary = document.getElementById("summary");
  summary.replaceChildren();
  const sh = summary.createTHead().insertRow();
  sh.append(el("th", T.exercise), el("th", ""));
  const sb = summary.createTBody();
  for (const e of data.exercises) {
    const s = data.summary[e.number];
    const tr = sb.insertRow();
    tr.setAttribute("data-exercise", e.number);
    tr.append(el("td", `${e.number} ${e.title[LANG]}`), el("td", T.counts(s.correct, s.incorrect, s.not_attempted)));
  }
  const stuck = document.getElementById("stuck");
  stuck.replaceChildren();
  const ranked = data.exercises.filter((e) => data.summary[e.number].incorrect > 0)
    .sort((a, b) => data.summary[b.number].incorrect - data.summary[a.number].incorrect).slice(0, 5);
  if (!ranked.length) stuck.append(el("li", T.nothingStuck));
  for (const e of ranked) {
    const s = data.summary[e.number];
    stuck.append(el("li", `${e.number} ${e.title[LANG]}${LANG === "zh" ? "：" : ": "}` +
                          T.counts(s.correct, s.incorrect, s.not_attempted)));
  }
  document.getElementById("legend").textContent = T.legend;
  const status = document.getElementById("status");
  status.className = "";
  status.textContent = T.status(data.attendees.length, clock(data.generated));
}

let lastGood = null;
async function refresh() {
  try {
    const xsrf = document.querySelector('meta[name="xsrf-token"]').content;
    const response = await fetch("api/grid", {credentials: "same-origin", cache: "no-store",
                                              headers: {"X-XSRFToken": xsrf}});
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data = await response.json();
    render(data);
    lastGood = data.generated;
  } catch (err) {
    const status = document.getElementById("status");
    status.className = "stale";
    status.textContent = T.stale(lastGood ? clock(lastGood) : "—");
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

document.documentElement.lang = LANG === "zh" ? "zh-CN" : "en";
document.title = T.title;
document.getElementById("title").textContent = T.title;
document.getElementById("stuck-title").textContent = T.stuck;
document.getElementById("grid-title").textContent = T.grid;
document.getElementById("summary-title").textContent = T.perExercise;
refresh();
