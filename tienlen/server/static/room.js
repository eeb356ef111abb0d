// The training room: plain JavaScript, no build step, nothing fetched from elsewhere.
// It renders what the server's state messages say (docs/protocol.md) and sends actions;
// every rule is the server's: a refused play comes back as an error message.
"use strict";

const WORDS = {
  zh: {
    title: "掼蛋训练模式", start: "开始训练", start_tienlen: "越南十三张 (Tiến Lên)", quit: "退出",
    settings: "设置", ok: "确定", menu: "菜单", goodbye: "再见！关闭此页即可。",
    keys_help: "键盘：← → 移动焦点，空格 选牌，回车 出牌，P 过牌，H 提示，Esc 取消，N 下一局",
    opt_hints: "训练提示", opt_debug: "AI 调试（显示机器人思路）", opt_timer: "出牌计时（秒，0 为不限）",
    opt_bots: "机器人水平", opt_lang: "语言",
    play: "出牌", pass: "过牌", hint: "提示", next: "下一局", give: "进贡", ret: "还贡",
    guandan: "掼蛋", tienlen: "越南十三张", level: "当前级牌", us: "我方", them: "对方",
    hand_n: "第 {n} 局", you: "你", partner: "对家", left: "上家", right: "下家", top: "对面",
    seat: "座位 {n}", cards_left: "剩 {n} 张", passed: "过", your_turn: "轮到你出牌",
    your_tribute: "请进贡：选一张金色边框的牌", your_return: "请还贡：选一张金色边框的牌",
    waiting: "等待 {who}…", finished: "已出完", places: ["头游", "二游", "三游", "末游"],
    result: "本局结束", match_over: "比赛结束", winner_team: "{team} 获胜，升 {gain} 级",
    levels_now: "级别：我方 {a}，对方 {b}", place: "名次", player: "玩家", points: "得分", total: "总分",
    hint_says: "提示：{what} —— {why}", hint_pass: "提示：过牌 —— {why}", wild: "配",
    tribute_log: "{who} 进贡 {card}", return_log: "{who} 还贡 {card}", play_log: "{who}：{what}",
    pass_log: "{who}：过", anti: "抗贡！", small_joker: "小王", big_joker: "大王",
    connecting: "连接中…", disconnected: "连接已断开", lead: "你先出", scores: "总分",
    timer: "⏱ {s} 秒", bot: "机器人", you_won: "你方获胜", match_won_by: "{team} 赢得比赛",
  },
  en: {
    title: "Guandan training", start: "Start training", start_tienlen: "Tiến Lên", quit: "Quit",
    settings: "Settings", ok: "OK", menu: "Menu", goodbye: "Goodbye! You can close this page.",
    keys_help: "Keys: ← → move focus, Space select, Enter play, P pass, H hint, Esc clear, N next hand",
    opt_hints: "Training hints", opt_debug: "AI debug (show the bots' reasoning)",
    opt_timer: "Turn timer (seconds, 0 = none)", opt_bots: "Bot level", opt_lang: "Language",
    play: "Play", pass: "Pass", hint: "Hint", next: "Next hand", give: "Give tribute", ret: "Return",
    guandan: "Guandan", tienlen: "Tiến Lên", level: "Level", us: "Us", them: "Them",
    hand_n: "Hand {n}", you: "You", partner: "Partner", left: "Left", right: "Right", top: "Across",
    seat: "Seat {n}", cards_left: "{n} left", passed: "pass", your_turn: "Your turn",
    your_tribute: "Give tribute: pick a gold-edged card", your_return: "Return a card: pick a gold-edged card",
    waiting: "Waiting for {who}…", finished: "out", places: ["1st", "2nd", "3rd", "4th"],
    result: "Hand over", match_over: "Match over", winner_team: "{team} win, up {gain} level(s)",
    levels_now: "Levels: us {a}, them {b}", place: "Place", player: "Player", points: "Points", total: "Total",
    hint_says: "Hint: {what} — {why}", hint_pass: "Hint: pass — {why}", wild: "W",
    tribute_log: "{who} gives tribute {card}", return_log: "{who} returns {card}", play_log: "{who}: {what}",
    pass_log: "{who}: pass", anti: "Tribute refused (two big jokers)!", small_joker: "SJ", big_joker: "BJ",
    connecting: "Connecting…", disconnected: "Disconnected", lead: "You lead", scores: "Totals",
    timer: "⏱ {s} s", bot: "bot", you_won: "Your team wins", match_won_by: "{team} win the match",
  },
};
const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };

const room = {
  lang: localStorage.getItem("tienlen.lang") || "zh",
  ws: null, seat: 0, game: null, view: null, seats: [], selected: new Set(), hinted: [],
  focus: 0, settings: {}, clockTimer: null, clockEnd: 0, lastPhase: null,
  // what the game's spec says the room shows (its "room" features, sent in welcome)
  features: {},
};

function t(key, vars) {
  let text = (WORDS[room.lang] || WORDS.zh)[key];
  if (text === undefined) text = WORDS.en[key] || key;
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll("{" + k + "}", v);
  return text;
}
const $ = (id) => document.getElementById(id);

function applyLang() {
  document.documentElement.lang = room.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  $("opt-lang").value = room.lang;
  if (room.view) render();
}

// ---------------------------------------------------------------- cards

function parseCard(name) {
  if (name === "SJ" || name === "BJ") return { rank: name, suit: null, joker: true };
  return { rank: name.slice(0, -1), suit: name.slice(-1), joker: false };
}
function cardLabel(name) {
  const c = parseCard(name);
  if (c.joker) return name === "SJ" ? t("small_joker") : t("big_joker");
  return c.rank + SUITS[c.suit];
}
function miniCards(names) {
  return names.map((n) => {
    const c = parseCard(n);
    const red = c.suit === "h" || c.suit === "d" || n === "BJ";
    return `<span class="mini${red ? " red" : ""}">${cardLabel(n)}</span>`;
  }).join("");
}
function comboName(action) {
  if (!action || action.kind !== "play") return "";
  return room.lang === "zh" && action.label_zh ? action.label_zh : (action.label || "");
}

// ---------------------------------------------------------------- seats and names

function rel(seat) { return (seat - room.seat + room.view.players) % room.view.players; }
function seatName(seat) {
  if (seat === room.seat) return t("you");
  const n = room.view.players, r = rel(seat);
  if (room.features.teams) return [t("you"), t("right"), t("partner"), t("left")][r];
  const words = n === 2 ? [t("you"), t("top")] : n === 3 ? [t("you"), t("right"), t("left")]
                        : [t("you"), t("right"), t("top"), t("left")];
  return words[r] || t("seat", { n: seat });
}
function areaOf(seat) {
  const n = room.view.players, r = rel(seat);
  if (n === 2) return "area-top";
  if (n === 3) return r === 1 ? "area-right" : "area-left";
  return ["", "area-right", "area-top", "area-left"][r];
}

// ---------------------------------------------------------------- rendering

function render() {
  const v = room.view;
  document.body.dataset.phase = v.phase;
  document.body.dataset.turn = v.turn === null ? "" : String(v.turn);
  document.body.dataset.myturn = v.turn === room.seat ? "1" : "0";
  document.body.dataset.hand = String(v.hand_number);
  $("sb-game").textContent = t(v.game);
  $("sb-hand").textContent = t("hand_n", { n: v.hand_number });
  if (room.features.scoreboard === "levels") {
    $("sb-level").innerHTML = `${t("level")}: <b>${v.level}</b>` +
      (v.wild ? ` · ${t("wild")}: ${miniCards([v.wild])}` : "");
    $("sb-teams").textContent = `${t("us")} ${v.levels[v.my_team]} · ${t("them")} ${v.levels[1 - v.my_team]}`;
  } else {
    $("sb-level").textContent = "";
    $("sb-teams").textContent = `${t("scores")}: ` + v.totals.map((x, s) => `${seatName(s)} ${x}`).join(" · ");
  }
  for (const id of ["area-top", "area-left", "area-right"]) { $(id).innerHTML = ""; $(id).className = "seat-area"; $(id).hidden = true; }
  for (let s = 0; s < v.players; s++) {
    if (s === room.seat) continue;
    const area = $(areaOf(s));
    area.hidden = false;
    const info = room.seats[s] || {};
    const out = v.finished.indexOf(s);
    area.dataset.seat = String(s);
    area.innerHTML = `<div class="name">${seatName(s)} <small>(${info.name || ""})</small></div>` +
      `<div class="count" data-count="${v.hand_sizes[s]}">🂠 ${t("cards_left", { n: v.hand_sizes[s] })}</div>` +
      (out >= 0 ? `<div class="done">${room.features.named_places ? t("places")[out] : t("finished")}</div>` : "");
    if (v.turn === s) area.classList.add("turn");
  }
  renderTrick();
  renderHand();
  renderStatus();
  renderResult();
}

function renderTrick() {
  const v = room.view, box = $("trick");
  box.innerHTML = "";
  const top = v.pile ? v.pile.seat : null;
  for (let s = 0; s < v.players; s++) {
    const a = v.trick[String(s)];
    const div = document.createElement("div");
    div.className = "trick-entry" + (s === top ? " top" : "");
    div.dataset.seat = String(s);
    let what = "";
    if (a) what = a.kind === "pass" ? `<i>${t("passed")}</i>` : `${miniCards(a.cards)} <small>${comboName(a)}</small>`;
    div.innerHTML = `<div class="who">${seatName(s)}</div><div>${what}</div>`;
    box.appendChild(div);
  }
}

function renderHand() {
  // The card elements are built once per hand content and then only re-marked: a
  // double-click must land twice on the same element.
  const v = room.view, hand = $("hand");
  const key = v.hand.join(" ") + "|" + (v.tribute_choices || []).join(" ") + "|" + room.lang;
  if (hand.dataset.key !== key) {
    hand.dataset.key = key;
    hand.innerHTML = "";
    const allowed = new Set(v.tribute_choices || []);
    const levelRank = room.features.level_cards ? v.level : null;
    v.hand.forEach((name, i) => {
      const c = parseCard(name);
      const el = document.createElement("div");
      el.className = "card";
      el.setAttribute("role", "option");
      el.dataset.card = name;
      el.dataset.index = String(i);
      if (c.suit === "h" || c.suit === "d") el.classList.add("red");
      if (c.joker) el.classList.add("joker", name === "BJ" ? "big" : "small");
      if (levelRank && c.rank === levelRank) el.classList.add("level");
      if (v.wild && name === v.wild) { el.classList.add("wild"); el.dataset.wild = t("wild"); }
      if (allowed.has(name)) el.classList.add("allowed");
      el.textContent = cardLabel(name);
      el.addEventListener("click", () => toggle(i));
      el.addEventListener("dblclick", (e) => { e.preventDefault(); room.selected.add(i); markHand(); playSelected(); });
      hand.appendChild(el);
    });
  }
  markHand();
}

function markHand() {
  for (const el of $("hand").children) {
    const i = Number(el.dataset.index);
    const on = room.selected.has(i);
    el.classList.toggle("selected", on);
    el.setAttribute("aria-selected", on ? "true" : "false");
    el.classList.toggle("hinted", room.hinted.includes(i));
    el.classList.toggle("focus", i === room.focus);
  }
}

function renderStatus() {
  const v = room.view, mine = v.turn === room.seat;
  $("mine").classList.toggle("turn", mine);
  $("me-name").textContent = t("you") + ` · ${t("cards_left", { n: v.hand.length })}`;
  let status = "";
  if (v.phase === "play" || v.phase === "tribute") {
    if (mine) status = v.tribute_step === "give" ? t("your_tribute") : v.tribute_step === "return" ? t("your_return")
                     : (v.pile ? t("your_turn") : t("lead"));
    else if (v.turn !== null) status = t("waiting", { who: seatName(v.turn) });
  }
  if (v.anti_tribute && v.phase === "play" && v.history.length < 4) status = t("anti") + " " + status;
  $("status").textContent = status;
  const tribute = mine && v.tribute_step;
  $("play").textContent = tribute ? (v.tribute_step === "give" ? t("give") : t("ret")) : t("play");
  $("play").disabled = !mine;
  $("pass").disabled = !(mine && v.can_pass);
  $("hint").disabled = !(mine && room.settings.hints !== false);
  $("hint").hidden = room.settings.hints === false;
}

function renderResult() {
  const v = room.view, box = $("result");
  if (!(v.phase === "hand_over" || v.phase === "over") || !v.result) { box.hidden = true; return; }
  const r = v.result;
  box.hidden = false;
  $("result-title").textContent = v.phase === "over" ? t("match_over") : t("result");
  let html = "";
  if (room.features.result === "teams") {
    html += `<table><tr><th>${t("place")}</th><th>${t("player")}</th></tr>` +
      r.places.map((s, i) => `<tr><td>${t("places")[i]}</td><td>${seatName(s)}</td></tr>`).join("") + "</table>";
    const ours = r.winner_team === v.my_team;
    html += `<p>${t("winner_team", { team: ours ? t("us") : t("them"), gain: r.gain })}</p>`;
    html += `<p>${t("levels_now", { a: r.levels[v.my_team], b: r.levels[1 - v.my_team] })}</p>`;
    if (r.match_winner !== null && r.match_winner !== undefined)
      html += `<p><b>${t("match_won_by", { team: r.match_winner === v.my_team ? t("us") : t("them") })}</b></p>`;
  } else {
    html += `<table><tr><th>${t("player")}</th><th>${t("place")}</th><th>${t("points")}</th><th>${t("total")}</th></tr>` +
      r.places.map((p, s) => `<tr><td>${seatName(s)}</td><td>${p}</td><td>${r.points[s]}</td><td>${r.totals[s]}</td></tr>`).join("") + "</table>";
  }
  $("result-body").innerHTML = html;
  $("next").hidden = v.phase === "over";
}

function logLine(html, reason) {
  const li = document.createElement("li");
  li.innerHTML = html + (reason ? `<span class="reason">${escapeHtml(reason)}</span>` : "");
  $("log").appendChild(li);
  while ($("log").children.length > 80) $("log").firstChild.remove();
  $("log").scrollTop = $("log").scrollHeight;
}
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(room.toastTimer);
  room.toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

function startClock(clock) {
  clearInterval(room.clockTimer);
  $("sb-clock").textContent = "";
  if (!clock) return;
  room.clockEnd = performance.now() + clock.seconds_left * 1000;
  const tick = () => {
    const s = Math.max(0, Math.ceil((room.clockEnd - performance.now()) / 1000));
    $("sb-clock").textContent = `${seatName(clock.seat)} ${t("timer", { s })}`;
    $("sb-clock").classList.toggle("low", s <= 5);
  };
  tick();
  room.clockTimer = setInterval(tick, 250);
}

// ---------------------------------------------------------------- actions

function send(message) {
  if (room.ws && room.ws.readyState === WebSocket.OPEN) room.ws.send(JSON.stringify({ v: 1, ...message }));
}
function clearMarks() { room.selected.clear(); room.hinted = []; $("hint-text").textContent = ""; }
function toggle(i) {
  if (room.selected.has(i)) room.selected.delete(i); else room.selected.add(i);
  room.focus = i;
  markHand();
}
function selectedCards() { return [...room.selected].sort((a, b) => a - b).map((i) => room.view.hand[i]); }
function playSelected() {
  const v = room.view;
  if (!v || v.turn !== room.seat) return;
  const cards = selectedCards();
  if (!cards.length) { renderHand(); return; }
  if (v.tribute_step) {
    send({ type: "act", action: { kind: v.tribute_step === "give" ? "give_tribute" : "return_tribute", card: cards[0] } });
  } else {
    send({ type: "act", action: { kind: "play", cards } });
  }
}
function passTurn() { if (room.view && room.view.can_pass) send({ type: "act", action: { kind: "pass" } }); }
// The hint's reason comes worded in the room's language (the server words it from the bot's
// structured reason); the room shows it as it is.
function askHint() { if (room.view && room.view.turn === room.seat) send({ type: "hint", id: "hint", lang: room.lang }); }

function showHint(message) {
  const a = message.action, hand = room.view.hand;
  room.selected.clear();
  room.hinted = [];
  const want = a.kind === "play" ? [...a.cards] : a.card ? [a.card] : [];
  const used = new Set();
  for (const name of want) {
    const i = hand.findIndex((h, j) => h === name && !used.has(j));
    if (i >= 0) { used.add(i); room.hinted.push(i); room.selected.add(i); }
  }
  document.body.dataset.hint = JSON.stringify(want);
  const what = a.kind === "pass" ? null : a.kind === "play" ? `${miniCards(a.cards)} ${comboName(a)}` : miniCards([a.card]);
  $("hint-text").innerHTML = what === null ? escapeHtml(t("hint_pass", { why: message.reason }))
    : t("hint_says", { what, why: escapeHtml(message.reason) });
  renderHand();
}

function rebuildLog(history) {
  $("log").innerHTML = "";
  for (const a of history) onAction({ seat: a.seat, action: a, replay: true });
}

function onAction(m) {
  const a = m.action, who = seatName(m.seat);
  let html;
  if (a.kind === "pass") html = escapeHtml(t("pass_log", { who }));
  else if (a.kind === "play") html = `${escapeHtml(who)}: ${miniCards(a.cards)} <small>${escapeHtml(comboName(a))}</small>`;
  else if (a.kind === "give_tribute") html = escapeHtml(t("tribute_log", { who, card: "" })) + (a.card ? miniCards([a.card]) : "🂠");
  else html = escapeHtml(t("return_log", { who, card: "" })) + (a.card ? miniCards([a.card]) : "🂠");
  logLine(html, m.reason);
  if (m.seat === room.seat && !m.replay) clearMarks();
}

// --- panels hook (issue 38) ---
// The API other scripts plug panels into (review.js): window.room = { panels: { register },
// send, lang }. register(panel) makes <section class="panel" id="panel-ID"> in #panels and
// calls panel.render(section) once; every server frame goes to each panel's onMessage after
// the room handled it; send(obj) sends a frame on the room's socket; lang() is "zh" or "en".
const roomPanels = [];
function panelsMessage(m) {
  for (const panel of roomPanels) {
    try { if (panel.onMessage) panel.onMessage(m); } catch (error) { console.error(error); }
  }
}
window.room = {
  panels: {
    register(panel) {
      const section = document.createElement("section");
      section.className = "panel";
      section.id = `panel-${panel.id}`;
      if (panel.title) section.setAttribute("aria-label", panel.title);
      $("panels").appendChild(section);
      roomPanels.push(panel);
      panel.render(section);
    },
  },
  send(obj) { send(obj); },
  lang() { return room.lang; },
};
// --- end of the panels hook (issue 38) ---

// ---------------------------------------------------------------- connection

async function startTable(game) {
  const level = $("opt-bots").value;
  const timer = Number($("opt-timer").value) || 0;
  const body = {
    game, seats: ["human", level, level, level],
    // lang: the table words the bots' reasons (AI debug, hints) in the room's language.
    settings: { hints: $("opt-hints").checked, ai_debug: $("opt-debug").checked, turn_timeout: timer, lang: room.lang },
  };
  if (room.seed !== undefined) body.seed = room.seed;
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) { alert(data.message || data.error); return; }
  room.game = game;
  room.table = data.table;
  room.token = data.tokens["0"];
  $("log").innerHTML = "";
  clearMarks();
  show("room");
  $("status").textContent = t("connecting");
  connect();
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  room.ws = ws;
  ws.onopen = () => send({ type: "join", table: room.table, token: room.token });
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "welcome") { room.seat = m.seat; room.seats = m.seats; room.settings = m.settings; room.features = m.room || {}; room.view = null; }
    else if (m.type === "seats") room.seats = m.seats;
    else if (m.type === "settings") { room.settings = m.settings; if (room.view) render(); }
    else if (m.type === "state") {
      if (room.view && room.view.hand_number !== m.view.hand_number) room.view = null;
      const before = room.view;
      room.view = m.view;
      document.body.dataset.version = String(m.version);
      if (!before) rebuildLog(m.view.history);
      if (!before) clearMarks();
      if (before && before.hand.length !== m.view.hand.length) { clearMarks(); }
      room.focus = Math.min(room.focus, Math.max(0, m.view.hand.length - 1));
      render();
      startClock(m.clock);
    } else if (m.type === "action") onAction(m);
    else if (m.type === "hint") showHint(m);
    else if (m.type === "error") toast(m.message);
    panelsMessage(m);
  };
  ws.onclose = () => { if (room.ws === ws) { $("status").textContent = t("disconnected"); } };
  clearInterval(room.pinger);
  room.pinger = setInterval(() => send({ type: "ping" }), 20000);
}

function show(screen) {
  $("menu").hidden = screen !== "menu";
  $("room").hidden = screen !== "room";
  document.body.dataset.screen = screen;
}
function backToMenu() {
  if (room.ws) { const ws = room.ws; room.ws = null; ws.close(); }
  clearInterval(room.clockTimer);
  room.view = null;
  $("result").hidden = true;
  show("menu");
}

// ---------------------------------------------------------------- wiring

document.addEventListener("DOMContentLoaded", () => {
  const params = new URLSearchParams(location.search);
  if (params.has("lang")) room.lang = params.get("lang") === "en" ? "en" : "zh";
  if (params.has("seed")) room.seed = Number(params.get("seed"));
  if (params.has("bots")) $("opt-bots").value = params.get("bots");
  if (params.has("timer")) $("opt-timer").value = params.get("timer");
  applyLang();
  $("start-guandan").onclick = () => startTable("guandan");
  $("start-tienlen").onclick = () => startTable("tienlen");
  $("quit").onclick = () => { backToMenu(); $("goodbye").hidden = false; window.close(); };
  $("settings-open").onclick = () => $("settings").showModal();
  $("settings-room").onclick = () => {
    // The dialog opens on the table's settings as they stand (another seat may have changed them).
    $("opt-hints").checked = room.settings.hints !== false;
    $("opt-debug").checked = !!room.settings.ai_debug;
    if (room.settings.turn_timeout !== undefined) $("opt-timer").value = room.settings.turn_timeout;
    $("settings").showModal();
  };
  $("settings").addEventListener("close", () => {
    room.lang = $("opt-lang").value;
    localStorage.setItem("tienlen.lang", room.lang);
    applyLang();
    // In the room the table takes the new settings at once (the bots' reasons follow the
    // language; the turn timer restarts); from the menu they are the next table's.
    if (document.body.dataset.screen === "room" && room.ws)
      send({ type: "settings", hints: $("opt-hints").checked, ai_debug: $("opt-debug").checked,
             turn_timeout: Math.max(0, Math.min(3600, Number($("opt-timer").value) || 0)), lang: room.lang });
  });
  $("menu-back").onclick = backToMenu;
  $("result-menu").onclick = backToMenu;
  $("play").onclick = playSelected;
  $("pass").onclick = passTurn;
  $("hint").onclick = askHint;
  $("next").onclick = () => { clearMarks(); send({ type: "next_hand" }); };
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.screen !== "room" || !room.view || e.target.tagName === "INPUT") return;
    if (e.target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) return;   // the button's own
    const n = room.view.hand.length;
    if (e.key === "ArrowRight") { room.focus = Math.min(n - 1, room.focus + 1); renderHand(); }
    else if (e.key === "ArrowLeft") { room.focus = Math.max(0, room.focus - 1); renderHand(); }
    else if (e.key === " ") { if (n) toggle(room.focus); }
    else if (e.key === "Enter") playSelected();
    else if (e.key === "p" || e.key === "P") passTurn();
    else if (e.key === "h" || e.key === "H") askHint();
    else if (e.key === "Escape") { clearMarks(); renderHand(); }
    else if ((e.key === "n" || e.key === "N") && room.view.phase === "hand_over") send({ type: "next_hand" });
    else return;
    e.preventDefault();
  });
});
