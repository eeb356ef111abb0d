// The training room: plain JavaScript, no build step, nothing fetched from elsewhere.
// It renders what the server's state messages say (docs/protocol.md) and sends actions;
// every rule is the server's: a refused play comes back as an error message, worded in the
// room's language from the game's words (its `text`).
//
// The layout is built around the table: a 3x3 grid where each seat's play lies in front of
// it (you at the bottom, 下家 right, 对家 across, 上家 left); the hand is grouped by rank
// (理牌) in columns sized to the screen, each card's corner (rank and suit, the wild's badge)
// always in view.
//
// Other features add panels through window.room (see the end of this file):
//   window.room.panels.register({id, title, render(container), onMessage(msg)})
//   window.room.send(obj)   a JSON frame on the room's socket
//   window.room.lang()      "zh" or "en"
"use strict";

// The room's own words (its buttons and prompts). The game's words (places, the wild's
// badge, a seat's line, a hand won...) come from the server in `welcome` (gw below), the
// same wording table the terminal reads.
const WORDS = {
  zh: {
    title: "掼蛋训练模式", start: "开始训练", start_tienlen: "越南十三张 (Tiến Lên)", quit: "退出",
    settings: "设置", ok: "确定", menu: "菜单", goodbye: "再见！关闭此页即可。",
    keys_help: "键盘：← → 移动焦点，空格 选牌，回车 出牌，P 过牌，H 提示，Esc 取消，N 下一局",
    opt_hints: "训练提示", opt_debug: "AI 调试（显示机器人思路）", opt_timer: "出牌计时（秒，0 为不限）",
    opt_bots: "机器人水平", opt_lang: "语言", level_L1: "初级", level_L2: "中级", level_L3: "高级",
    play: "出牌", pass: "过牌", hint: "提示", next: "下一局", give: "进贡", ret: "还贡",
    guandan: "掼蛋", tienlen: "越南十三张", level: "打", us: "我方", them: "对方",
    hand_n: "第{n}局", you: "你", partner: "对家", left: "上家", right: "下家", top: "对面",
    seat: "{n}号", cards_left: "剩 {n} 张", passed: "不出", your_turn: "轮到你出牌",
    tribute_to: "请向 {who} 进贡：选一张金色边框的牌",
    tribute_double: "请进贡：较大的贡牌归 {a}，另一张归 {b}（选一张金色边框的牌）",
    return_to: "请向 {who} 还贡：选一张金色边框的牌",
    waiting: "等待 {who}…", finished: "已出完", places: ["头游", "二游", "三游", "末游"],
    result: "本局结束", match_over: "比赛结束", hand_won: "{team}获胜，升{n}级", hand_won_one: "{team}获胜，升1级",
    levels_now: "级别：我方 {a}，对方 {b}", place: "名次", player: "玩家", points: "得分", total: "总分",
    hint_says: "提示：{what} —— {why}", hint_pass: "提示：过牌 —— {why}", wild_badge: "配",
    gave_to: "{who} 向 {to} 进贡", gave: "{who} 进贡", returned_to: "{who} 向 {to} 还贡",
    hidden_card: "（暗牌）", tributes: "进贡", got_badge: "收", play_log: "{who}：{what}",
    pass_log: "{who}：不出", anti: "抗贡！", small_joker: "小王", big_joker: "大王",
    connecting: "连接中…", disconnected: "连接已断开", lead: "你先出", scores: "总分",
    seconds: "{s} 秒", bot: "机器人", match_won_by: "{team}赢得比赛",
    timeout_notice: "超时：{who}的这一手由系统托管出牌", timeout_notice_you: "超时：你的这一手由系统托管出牌",
    auto: "托管",
  },
  en: {
    title: "Guandan training", start: "Start training", start_tienlen: "Tiến Lên", quit: "Quit",
    settings: "Settings", ok: "OK", menu: "Menu", goodbye: "Goodbye! You can close this page.",
    keys_help: "Keys: ← → move focus, Space select, Enter play, P pass, H hint, Esc clear, N next hand",
    opt_hints: "Training hints", opt_debug: "AI debug (show the bots' reasoning)",
    opt_timer: "Turn timer (seconds, 0 = none)", opt_bots: "Bot level", opt_lang: "Language",
    level_L1: "Beginner", level_L2: "Intermediate", level_L3: "Advanced",
    play: "Play", pass: "Pass", hint: "Hint", next: "Next hand", give: "Give tribute", ret: "Return",
    guandan: "Guandan", tienlen: "Tiến Lên", level: "Level", us: "Us", them: "Them",
    hand_n: "Hand {n}", you: "You", partner: "Partner", left: "Left", right: "Right", top: "Across",
    seat: "Seat {n}", cards_left: "{n} left", passed: "pass", your_turn: "Your turn",
    tribute_to: "Give tribute to {who}: pick a gold-edged card",
    tribute_double: "Give tribute: the higher card goes to {a}, the other to {b} (pick a gold-edged card)",
    return_to: "Return a card to {who}: pick a gold-edged card",
    waiting: "Waiting for {who}…", finished: "out", places: ["1st", "2nd", "3rd", "4th"],
    result: "Hand over", match_over: "Match over", hand_won: "{team} win the hand: up {n} levels",
    hand_won_one: "{team} win the hand: up 1 level",
    levels_now: "Levels: us {a}, them {b}", place: "Place", player: "Player", points: "Points", total: "Total",
    hint_says: "Hint: {what} — {why}", hint_pass: "Hint: pass — {why}", wild_badge: "wild",
    gave_to: "{who} paid tribute to {to}", gave: "{who} paid tribute", returned_to: "{who} returned a card to {to}",
    hidden_card: "(face down)", tributes: "Tribute", got_badge: "got", play_log: "{who}: {what}",
    pass_log: "{who}: pass", anti: "Tribute refused (two big jokers)!", small_joker: "SJ", big_joker: "BJ",
    connecting: "Connecting…", disconnected: "Disconnected", lead: "You lead", scores: "Totals",
    seconds: "{s} s", bot: "bot", match_won_by: "{team} win the match",
    timeout_notice: "Time out: {who}'s turn was auto-played", timeout_notice_you: "Time out: your turn was auto-played",
    auto: "auto",
  },
};
const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };

// The room's state (R, not `room`: window.room is the public hook other scripts call).
const R = {
  lang: localStorage.getItem("tienlen.lang") || "zh",
  ws: null, seat: 0, game: null, view: null, seats: [], selected: new Set(), hinted: [],
  focus: 0, settings: {}, clockTimer: null, clockEnd: 0, clock: null,
  // what the game's spec says the room shows (its "room" features, sent in welcome)
  features: {},
  // the game's words in the table's language (welcome, settings)
  gameWords: {},
  // seats whose last turn the server played for them (timeout: 托管)
  auto: new Set(),
  started: false,
};

function fill(text, vars) {
  if (vars) for (const [k, v] of Object.entries(vars)) text = String(text).replaceAll("{" + k + "}", v);
  return text;
}
function t(key, vars) {
  let text = (WORDS[R.lang] || WORDS.zh)[key];
  if (text === undefined) text = WORDS.en[key] || key;
  return fill(text, vars);
}
// A word from the game's wording table when it has it in the room's language, else the room's.
function gw(key, vars) {
  const words = R.gameWords || {};
  const text = words.lang === R.lang && words[key] !== undefined ? words[key] : (WORDS[R.lang] || WORDS.zh)[key];
  return text === undefined ? t(key, vars) : fill(text, vars);
}
const $ = (id) => document.getElementById(id);

function applyLang() {
  document.documentElement.lang = R.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  $("opt-lang").value = R.lang;
  if (R.view) render();
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
function isRed(name) {
  const c = parseCard(name);
  return c.suit === "h" || c.suit === "d" || name === "BJ";
}
// Played cards: small faces side by side, never overlapping; the wild keeps its badge.
function miniCards(names) {
  const wild = R.view && R.view.wild;
  return names.map((n) => {
    const badge = wild && n === wild ? ` data-badge="${escapeHtml(gw("wild_badge"))}"` : "";
    return `<span class="mini${isRed(n) ? " red" : ""}${badge ? " wild" : ""}"${badge}>${cardLabel(n)}</span>`;
  }).join("");
}
function comboName(action) {
  if (!action || action.kind !== "play") return "";
  return R.lang === "zh" && action.label_zh ? action.label_zh : (action.label || "");
}

// ---------------------------------------------------------------- seats and names

function rel(seat) { return (seat - R.seat + R.view.players) % R.view.players; }
function seatName(seat) { return seatNameFrom(seat, R.seat, R.view.players); }
// A seat's name as seen from seat `me` at a table of `players` (a review panel's record too).
function seatNameFrom(seat, me, n) {
  if (seat === me) return gw("you");
  const r = (seat - me + n) % n;
  if (R.features.teams) return [gw("you"), gw("right"), gw("partner"), gw("left")][r];
  const words = n === 2 ? [t("you"), t("top")] : n === 3 ? [t("you"), t("right"), t("left")]
                        : [t("you"), t("right"), t("top"), t("left")];
  return words[r] || t("seat", { n: seat });
}
// Where a seat sits: you at the bottom, the next seat (下家) right, across at the top, 上家 left.
function positionOf(seat) {
  const n = R.view.players, r = rel(seat);
  if (r === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return r === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][r];
}
function seatEl(seat) { return $("seat-" + positionOf(seat)); }

// ---------------------------------------------------------------- the clock (inline SVG)

function clockSvg(fraction) {
  const c = 2 * Math.PI * 15, off = (c * (1 - Math.max(0, Math.min(1, fraction)))).toFixed(1);
  return `<svg class="clock-ring" viewBox="0 0 36 36" aria-hidden="true">` +
    `<circle cx="18" cy="18" r="15" fill="#0006" stroke="#ffffff40" stroke-width="4"/>` +
    `<circle class="clock-arc" cx="18" cy="18" r="15" fill="none" stroke-width="4" stroke-linecap="round" ` +
    `stroke-dasharray="${c.toFixed(1)}" stroke-dashoffset="${off}" transform="rotate(-90 18 18)"/>` +
    `<line x1="18" y1="18" x2="18" y2="9" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/></svg>`;
}

// ---------------------------------------------------------------- rendering

function render() {
  const v = R.view;
  document.body.dataset.phase = v.phase;
  document.body.dataset.turn = v.turn === null ? "" : String(v.turn);
  document.body.dataset.myturn = v.turn === R.seat ? "1" : "0";
  document.body.dataset.hand = String(v.hand_number);
  $("sb-game").textContent = t(v.game);
  $("sb-hand").textContent = t("hand_n", { n: v.hand_number });
  if (R.features.scoreboard === "levels") {
    $("sb-level").innerHTML = `${escapeHtml(t("level"))} <b>${v.level}</b>` +
      (v.wild ? ` · ${escapeHtml(gw("wild_badge"))} ${miniCards([v.wild])}` : "");
    $("sb-teams").textContent = `${gw("us")} ${v.levels[v.my_team]} · ${gw("them")} ${v.levels[1 - v.my_team]}`;
  } else {
    $("sb-level").textContent = "";
    $("sb-teams").textContent = `${t("scores")}: ` + v.totals.map((x, s) => `${seatName(s)} ${x}`).join(" · ");
  }
  renderSeats();
  renderTributes();
  renderHand();
  renderStatus();
  renderResult();
  tickClock();
}

function placeText(i) {
  return R.features.named_places ? gw("places")[i] : t("finished");
}

function renderSeats() {
  const v = R.view, top = v.pile ? v.pile.seat : null;
  for (const pos of ["top", "left", "right", "bottom"]) {
    const el = $("seat-" + pos);
    el.hidden = true;
    el.classList.remove("turn", "leading");
    delete el.dataset.seat;
    el.querySelector(".seat-play").innerHTML = "";
    const info = el.querySelector(".seat-info");
    if (info) info.innerHTML = "";
  }
  for (let s = 0; s < v.players; s++) {
    const el = seatEl(s);
    el.hidden = false;
    el.dataset.seat = String(s);
    if (v.turn === s) el.classList.add("turn");
    const out = v.finished.indexOf(s);
    const info = el.querySelector(".seat-info");
    if (info) {
      const who = R.seats[s] || {};
      info.innerHTML = `<div class="name">${escapeHtml(seatName(s))} <small>${escapeHtml(who.name || "")}</small></div>` +
        `<div class="count" data-count="${v.hand_sizes[s]}"><span class="back" aria-hidden="true"></span>` +
        `${escapeHtml(gw("cards_left", { n: v.hand_sizes[s] }))}</div>` +
        (out >= 0 ? `<div class="done">${escapeHtml(placeText(out))}</div>` : "") +
        (R.auto.has(s) ? `<div class="auto-badge">${escapeHtml(t("auto"))}</div>` : "") +
        `<div class="seat-clock"></div>`;
    }
    const a = v.trick[String(s)], play = el.querySelector(".seat-play");
    if (s === top) el.classList.add("leading");
    if (a) {
      play.innerHTML = a.kind === "pass" ? `<span class="passed">${escapeHtml(t("passed"))}</span>`
        : `<div class="cards">${miniCards(a.cards)}</div><div class="combo">${escapeHtml(comboName(a))}</div>`;
    }
  }
}

// Who paid whom with which card, for every exchange of this hand the view shows.
function renderTributes() {
  const v = R.view, box = $("tribute-box");
  const list = v.tributes || [];
  if (!list.length || !(v.phase === "tribute" || v.phase === "play")) { box.hidden = true; box.innerHTML = ""; return; }
  const gaveSeats = new Set((v.history || []).filter((a) => a.kind === "give_tribute").map((a) => a.seat));
  const returned = new Set((v.history || []).filter((a) => a.kind === "return_tribute").map((a) => a.seat));
  const lines = [];
  for (const tr of list) {
    const given = v.phase === "play" || gaveSeats.has(tr.payer) || tr.card !== null;
    if (given) {
      const card = tr.card ? miniCards([tr.card]) : escapeHtml(t("hidden_card"));
      const text = tr.receiver === null ? t("gave", { who: seatName(tr.payer) })
        : t("gave_to", { who: seatName(tr.payer), to: seatName(tr.receiver) });
      lines.push(`<li data-kind="give" data-payer="${tr.payer}">${escapeHtml(text)} ${card}</li>`);
    }
    if (tr.receiver !== null && (tr.returned !== null || returned.has(tr.receiver) || v.phase === "play")) {
      const card = tr.returned ? miniCards([tr.returned]) : escapeHtml(t("hidden_card"));
      lines.push(`<li data-kind="return" data-payer="${tr.receiver}">` +
        `${escapeHtml(t("returned_to", { who: seatName(tr.receiver), to: seatName(tr.payer) }))} ${card}</li>`);
    }
  }
  box.hidden = !lines.length;
  box.innerHTML = lines.length ? `<b>${escapeHtml(t("tributes"))}</b><ul>${lines.join("")}</ul>` : "";
}

// The card this seat received in this hand's exchange (a tribute or a return), if any.
function receivedCard() {
  const v = R.view;
  for (const tr of v.tributes || []) {
    if (tr.receiver === R.seat && tr.card) return tr.card;
    if (tr.payer === R.seat && tr.returned) return tr.returned;
  }
  return null;
}

function handGroups(hand) {
  const groups = [];
  hand.forEach((name, i) => {
    const rank = parseCard(name).rank, last = groups[groups.length - 1];
    if (last && last.rank === rank) last.cards.push([name, i]);
    else groups.push({ rank, cards: [[name, i]] });
  });
  return groups;
}

// Card size from the screen: every rank column side by side (two rows on a narrow screen),
// the tallest column within a share of the height, a card's corner always readable.
function sizeHand() {
  const hand = $("hand");
  const groups = hand.children.length;
  if (!groups) return;
  const tallest = Math.max(...[...hand.children].map((g) => g.children.length));
  const width = hand.clientWidth - 12, gap = 4;
  const narrow = window.innerWidth < 700;
  const budget = window.innerHeight * (narrow ? 0.36 : 0.32);
  const fit = (perRow, rows) => {
    const byWidth = (width - gap * (perRow - 1)) / perRow;
    const byHeight = budget / rows / (1.35 + 0.42 * (tallest - 1));
    return Math.min(byWidth, byHeight, Math.max(84, window.innerWidth * 0.058));
  };
  let rows = 1, cw = fit(groups, 1);
  if (cw < 40) { rows = 2; cw = fit(Math.ceil(groups / 2), 2); }
  cw = Math.max(30, Math.floor(cw));
  const font = Math.max(12, Math.min(22, Math.round(cw * 0.3)));
  hand.style.setProperty("--cw", cw + "px");
  hand.style.setProperty("--cf", font + "px");
  hand.style.setProperty("--strip", Math.max(Math.round(font * 1.45), Math.round(cw * 0.42)) + "px");
  hand.dataset.rows = String(rows);
}

function renderHand() {
  // The card elements are built once per hand content and then only re-marked: a
  // double-click must land twice on the same element.
  const v = R.view, hand = $("hand");
  const got = receivedCard();
  const key = v.hand.join(" ") + "|" + (v.tribute_choices || []).join(" ") + "|" + R.lang + "|" + got;
  if (hand.dataset.key !== key) {
    hand.dataset.key = key;
    hand.innerHTML = "";
    const allowed = new Set(v.tribute_choices || []);
    const levelRank = R.features.level_cards ? v.level : null;
    let gotMarked = false;
    for (const group of handGroups(v.hand)) {
      const col = document.createElement("div");
      col.className = "group";
      col.dataset.rank = group.rank;
      for (const [name, i] of group.cards) {
        const c = parseCard(name);
        const el = document.createElement("div");
        el.className = "card";
        el.setAttribute("role", "option");
        el.dataset.card = name;
        el.dataset.index = String(i);
        if (isRed(name)) el.classList.add("red");
        if (c.joker) el.classList.add("joker", name === "BJ" ? "big" : "small");
        if (levelRank && c.rank === levelRank) el.classList.add("level");
        let badge = "";
        if (v.wild && name === v.wild) { el.classList.add("wild"); badge = gw("wild_badge"); }
        else if (got && name === got && !gotMarked) { el.classList.add("received"); badge = t("got_badge"); gotMarked = true; }
        if (badge) el.classList.add("badged");
        if (allowed.has(name)) el.classList.add("allowed");
        el.innerHTML = `<span class="face">${cardLabel(name)}</span>` +
          (badge ? `<span class="badge">${escapeHtml(badge)}</span>` : "") +
          `<span class="pip" aria-hidden="true">${c.joker ? "★" : SUITS[c.suit]}</span>`;
        el.addEventListener("click", () => toggle(i));
        el.addEventListener("dblclick", (e) => { e.preventDefault(); R.selected.add(i); markHand(); playSelected(); });
        col.appendChild(el);
      }
      hand.appendChild(col);
    }
    sizeHand();
  }
  markHand();
}

function markHand() {
  for (const el of $("hand").querySelectorAll(".card")) {
    const i = Number(el.dataset.index);
    const on = R.selected.has(i);
    el.classList.toggle("selected", on);
    el.setAttribute("aria-selected", on ? "true" : "false");
    el.classList.toggle("hinted", R.hinted.includes(i));
    el.classList.toggle("focus", i === R.focus);
  }
}

function myTributeStatus() {
  const v = R.view, list = v.tributes || [];
  if (v.tribute_step === "give") {
    const tr = list.find((x) => x.payer === R.seat && x.card === null) || list.find((x) => x.payer === R.seat);
    if (tr) {
      const to = tr.receiver !== null ? [tr.receiver] : (tr.may_go_to || []);
      if (to.length === 1) return t("tribute_to", { who: seatName(to[0]) });
      if (to.length === 2) return t("tribute_double", { a: seatName(to[0]), b: seatName(to[1]) });
    }
    return t("tribute_to", { who: "?" });
  }
  const tr = list.find((x) => x.receiver === R.seat && x.returned === null);
  return t("return_to", { who: tr ? seatName(tr.payer) : "?" });
}

function renderStatus() {
  const v = R.view, mine = v.turn === R.seat;
  $("mine").classList.toggle("turn", mine);
  let status = "";
  if (v.phase === "play" || v.phase === "tribute") {
    if (mine) status = v.tribute_step ? myTributeStatus() : (v.pile ? t("your_turn") : t("lead"));
    else if (v.turn !== null) status = t("waiting", { who: seatName(v.turn) });
  }
  if (v.anti_tribute && v.phase === "play" && v.history.length < 4) status = antiText(v) + " " + status;
  const out = v.finished.indexOf(R.seat);
  if (out >= 0 && !status) status = placeText(out);
  $("me-name").textContent = gw("you") + " · " + gw("cards_left", { n: v.hand.length }) + (R.auto.has(R.seat) ? ` · ${t("auto")}` : "");
  $("me-sep").hidden = !status;
  $("status").textContent = status;
  const tribute = mine && v.tribute_step;
  $("play").textContent = tribute ? (v.tribute_step === "give" ? t("give") : t("ret")) : t("play");
  $("play").disabled = !mine;
  $("pass").disabled = !(mine && v.can_pass);
  $("hint").disabled = !(mine && R.settings.hints !== false);
  $("hint").hidden = R.settings.hints === false;
}

function wonText(team, gain) {
  return gain === 1 ? gw("hand_won_one", { team }) : gw("hand_won", { team, n: gain });
}

function renderResult() {
  const v = R.view, box = $("result");
  if (!(v.phase === "hand_over" || v.phase === "over") || !v.result) { box.hidden = true; return; }
  const r = v.result;
  box.hidden = false;
  $("result-title").textContent = v.phase === "over" ? t("match_over") : t("result");
  let html = "";
  if (R.features.result === "teams") {
    html += `<table><tr><th>${t("place")}</th><th>${t("player")}</th></tr>` +
      r.places.map((s, i) => `<tr><td>${escapeHtml(gw("places")[i])}</td><td>${escapeHtml(seatName(s))}</td></tr>`).join("") + "</table>";
    const ours = r.winner_team === v.my_team;
    html += `<p>${escapeHtml(wonText(ours ? gw("us") : gw("them"), r.gain))}</p>`;
    html += `<p>${escapeHtml(t("levels_now", { a: r.levels[v.my_team], b: r.levels[1 - v.my_team] }))}</p>`;
    if (r.match_winner !== null && r.match_winner !== undefined)
      html += `<p><b>${escapeHtml(t("match_won_by", { team: r.match_winner === v.my_team ? gw("us") : gw("them") }))}</b></p>`;
  } else {
    html += `<table><tr><th>${t("player")}</th><th>${t("place")}</th><th>${t("points")}</th><th>${t("total")}</th></tr>` +
      r.places.map((p, s) => `<tr><td>${escapeHtml(seatName(s))}</td><td>${p}</td><td>${r.points[s]}</td><td>${r.totals[s]}</td></tr>`).join("") + "</table>";
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
  return li;
}
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(R.toastTimer);
  R.toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}
function notice(text) {
  const el = $("notice");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(R.noticeTimer);
  R.noticeTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

function startClock(clock) {
  clearInterval(R.clockTimer);
  R.clock = clock || null;
  if (!clock) { tickClock(); return; }
  R.clockEnd = performance.now() + clock.seconds_left * 1000;
  tickClock();
  R.clockTimer = setInterval(tickClock, 250);
}
function tickClock() {
  for (const el of document.querySelectorAll(".seat-clock, #me-clock")) el.innerHTML = "";
  const clock = R.clock;
  if (!clock || !R.view) { $("sb-clock").innerHTML = ""; $("sb-clock").classList.remove("low"); return; }
  const s = Math.max(0, Math.ceil((R.clockEnd - performance.now()) / 1000));
  const fraction = clock.timeout ? (R.clockEnd - performance.now()) / 1000 / clock.timeout : 1;
  const svg = clockSvg(fraction), low = s <= 5;
  $("sb-clock").innerHTML = `${svg}<span>${escapeHtml(seatName(clock.seat))} ${escapeHtml(t("seconds", { s }))}</span>`;
  $("sb-clock").classList.toggle("low", low);
  const at = clock.seat === R.seat ? $("me-clock") : seatEl(clock.seat).querySelector(".seat-clock");
  if (at) { at.innerHTML = `${svg}<span>${s}</span>`; at.classList.toggle("low", low); }
}

// ---------------------------------------------------------------- actions

function send(message) {
  if (R.ws && R.ws.readyState === WebSocket.OPEN) R.ws.send(JSON.stringify({ v: 1, ...message }));
}
function clearMarks() { R.selected.clear(); R.hinted = []; $("hint-text").textContent = ""; }
function toggle(i) {
  if (R.selected.has(i)) R.selected.delete(i); else R.selected.add(i);
  R.focus = i;
  markHand();
}
function selectedCards() { return [...R.selected].sort((a, b) => a - b).map((i) => R.view.hand[i]); }
function playSelected() {
  const v = R.view;
  if (!v || v.turn !== R.seat) return;
  const cards = selectedCards();
  if (!cards.length) { renderHand(); return; }
  if (v.tribute_step) {
    send({ type: "act", action: { kind: v.tribute_step === "give" ? "give_tribute" : "return_tribute", card: cards[0] } });
  } else {
    send({ type: "act", action: { kind: "play", cards } });
  }
}
function passTurn() { if (R.view && R.view.can_pass) send({ type: "act", action: { kind: "pass" } }); }
// The hint's reason comes worded in the room's language (the server words it from the bot's
// structured reason); the room shows it as it is.
function askHint() { if (R.view && R.view.turn === R.seat) send({ type: "hint", id: "hint", lang: R.lang }); }

function showHint(message) {
  const a = message.action, hand = R.view.hand;
  R.selected.clear();
  R.hinted = [];
  const want = a.kind === "play" ? [...a.cards] : a.card ? [a.card] : [];
  const used = new Set();
  for (const name of want) {
    const i = hand.findIndex((h, j) => h === name && !used.has(j));
    if (i >= 0) { used.add(i); R.hinted.push(i); R.selected.add(i); }
  }
  document.body.dataset.hint = JSON.stringify(want);
  const what = a.kind === "pass" ? null : a.kind === "play" ? `${miniCards(a.cards)} ${escapeHtml(comboName(a))}` : miniCards([a.card]);
  $("hint-text").innerHTML = what === null ? escapeHtml(t("hint_pass", { why: message.reason }))
    : t("hint_says", { what, why: escapeHtml(message.reason) });
  renderHand();
}

function rebuildLog(view) {
  $("log").innerHTML = "";
  if ((view.big_jokers_shown || []).length) logLine(escapeHtml(antiText(view))).dataset.kind = "anti";
  for (const a of view.history) onAction({ seat: a.seat, action: a, replay: true });
}

// Tribute refused (G6.6): who showed the big jokers (G6.11), in the game's words.
function antiText(v) {
  const shown = (v.big_jokers_shown || []).map((s) => seatName(s));
  if (shown.length === 2 && shown[0] !== shown[1]) return gw("anti_two", { a: shown[0], b: shown[1] });
  if (shown.length) return gw("anti_one", { who: shown[0] });
  return t("anti");
}

// An exchange's line in the log: who gave or returned which card to whom, as the view shows it.
function exchangeHtml(a, who) {
  const to = a.to === null || a.to === undefined ? null : seatName(a.to);
  const text = a.kind === "give_tribute" ? (to === null ? t("gave", { who }) : t("gave_to", { who, to }))
    : t("returned_to", { who, to: to === null ? "?" : to });
  return escapeHtml(text) + " " + (a.card ? miniCards([a.card]) : escapeHtml(t("hidden_card")));
}

// Exchanges are public once every tribute is given (G6.11): a tribute logged before that
// (the first of a double tribute: no receiver, face down to all but its payer) is completed.
function revealExchanges(v) {
  for (const a of v.history || []) {
    if (a.kind !== "give_tribute" || !a.card || a.to === null || a.to === undefined) continue;
    for (const li of document.querySelectorAll(`#log li[data-kind="give_tribute"][data-seat="${a.seat}"][data-public="0"]`)) {
      const reason = li.querySelector(".reason");
      li.innerHTML = exchangeHtml(a, seatName(a.seat));
      if (reason) li.appendChild(reason);
      li.dataset.public = "1";
    }
  }
}

function onAction(m) {
  const a = m.action, who = seatName(m.seat);
  let html;
  if (a.kind === "pass") html = escapeHtml(t("pass_log", { who }));
  else if (a.kind === "play") html = `${escapeHtml(who)}: ${miniCards(a.cards)} <small>${escapeHtml(comboName(a))}</small>`;
  else html = exchangeHtml(a, who);
  const li = logLine(html, m.reason);
  li.dataset.kind = a.kind;
  li.dataset.seat = String(m.seat);
  if (a.kind === "give_tribute" || a.kind === "return_tribute") {
    li.dataset.public = a.card && a.to !== null && a.to !== undefined ? "1" : "0";
  }
  if (m.replay) return;
  if (m.by === "fallback") {
    R.auto.add(m.seat);
    notice(m.seat === R.seat ? t("timeout_notice_you") : t("timeout_notice", { who }));
  }
  else R.auto.delete(m.seat);
  if (m.seat === R.seat) clearMarks();
}

// ---------------------------------------------------------------- connection

async function startTable(game) {
  const level = $("opt-bots").value;
  const timer = Number($("opt-timer").value) || 0;
  const body = {
    game, seats: ["human", level, level, level],
    // lang: the table words the bots' reasons (AI debug, hints) and refusals in the room's language.
    settings: { hints: $("opt-hints").checked, ai_debug: $("opt-debug").checked, turn_timeout: timer, lang: R.lang },
  };
  if (R.seed !== undefined) body.seed = R.seed;
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) { alert(data.message || data.error); return; }
  R.game = game;
  R.table = data.table;
  R.token = data.tokens["0"];
  R.auto.clear();
  $("log").innerHTML = "";
  clearMarks();
  show("room");
  $("status").textContent = t("connecting");
  connect();
}

function handle(m) {
  if (m.type === "welcome") {
    R.seat = m.seat; R.seats = m.seats; R.settings = m.settings; R.features = m.room || {};
    R.gameWords = m.words || {}; R.view = null;
  } else if (m.type === "seats") R.seats = m.seats;
  else if (m.type === "settings") {
    R.settings = m.settings;
    if (m.words) R.gameWords = m.words;
    if (R.view) render();
  } else if (m.type === "state") {
    if (R.view && R.view.hand_number !== m.view.hand_number) { R.view = null; R.auto.clear(); }
    const before = R.view;
    R.view = m.view;
    document.body.dataset.version = String(m.version);
    if (!before) rebuildLog(m.view);
    else revealExchanges(m.view);
    if (!before) clearMarks();
    if (before && before.hand.length !== m.view.hand.length) { clearMarks(); }
    R.focus = Math.min(R.focus, Math.max(0, m.view.hand.length - 1));
    R.clock = m.clock || null;
    render();
    startClock(m.clock);
  } else if (m.type === "action") onAction(m);
  else if (m.type === "hint") showHint(m);
  else if (m.type === "error") toast(m.text || m.message);
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  R.ws = ws;
  ws.onopen = () => send({ type: "join", table: R.table, token: R.token });
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    handle(m);
    for (const panel of PANELS) {            // after the room handled it
      if (typeof panel.onMessage !== "function") continue;
      try { panel.onMessage(m); } catch (error) { console.error(`panel ${panel.id}:`, error); }
    }
  };
  ws.onclose = () => { if (R.ws === ws) { $("status").textContent = t("disconnected"); } };
  clearInterval(R.pinger);
  R.pinger = setInterval(() => send({ type: "ping" }), 20000);
}

function show(screen) {
  $("menu").hidden = screen !== "menu";
  $("room").hidden = screen !== "room";
  document.body.dataset.screen = screen;
  if (screen === "room" && R.view) sizeHand();
}
function backToMenu() {
  if (R.ws) { const ws = R.ws; R.ws = null; ws.close(); }
  clearInterval(R.clockTimer);
  R.view = null;
  R.clock = null;
  $("result").hidden = true;
  show("menu");
}

// ---------------------------------------------------------------- panels (window.room)

const PANELS = [];
function mountPanel(panel) {
  const section = document.createElement("section");
  section.className = "panel";
  section.id = "panel-" + panel.id;
  const title = document.createElement("h3");
  title.className = "panel-title";
  title.textContent = typeof panel.title === "function" ? panel.title(R.lang) : String(panel.title || panel.id);
  section.appendChild(title);
  $("panels").appendChild(section);
  document.body.dataset.panels = String(PANELS.length);
  try { if (typeof panel.render === "function") panel.render(section); }
  catch (error) { console.error(`panel ${panel.id}:`, error); }
  return section;
}
function registerPanel(panel) {
  if (!panel || typeof panel.id !== "string" || !/^[A-Za-z0-9_-]+$/.test(panel.id))
    throw new Error("a panel needs an id of letters, digits, - or _");
  if (PANELS.some((p) => p.id === panel.id)) throw new Error(`a panel ${panel.id} is registered already`);
  PANELS.push(panel);
  if (R.started) return mountPanel(panel);    // else kept and rendered when the room starts
  return null;
}
// Panels a script queued before this file ran (window.room = {panels: [panel, ...]}).
const QUEUED = window.room && Array.isArray(window.room.panels) ? window.room.panels : [];
window.room = {
  panels: { register: registerPanel },
  send(obj) { if (obj && typeof obj === "object") send(obj); },
  lang() { return R.lang === "en" ? "en" : "zh"; },
  // seatName(seat, me, players): the room's name for a seat seen from `me` (上家, 对家 ...)
  seatName(seat, me, players) { return seatNameFrom(seat, me, players); },
};
for (const panel of QUEUED) registerPanel(panel);

// ---------------------------------------------------------------- wiring

document.addEventListener("DOMContentLoaded", () => {
  const params = new URLSearchParams(location.search);
  if (params.has("lang")) R.lang = params.get("lang") === "en" ? "en" : "zh";
  if (params.has("seed")) R.seed = Number(params.get("seed"));
  if (params.has("bots")) $("opt-bots").value = params.get("bots");
  if (params.has("timer")) $("opt-timer").value = params.get("timer");
  applyLang();
  $("start-guandan").onclick = () => startTable("guandan");
  $("start-tienlen").onclick = () => startTable("tienlen");
  $("quit").onclick = () => { backToMenu(); $("goodbye").hidden = false; window.close(); };
  $("settings-open").onclick = () => $("settings").showModal();
  $("settings-room").onclick = () => {
    // The dialog opens on the table's settings as they stand (another seat may have changed them).
    $("opt-hints").checked = R.settings.hints !== false;
    $("opt-debug").checked = !!R.settings.ai_debug;
    if (R.settings.turn_timeout !== undefined) $("opt-timer").value = R.settings.turn_timeout;
    $("settings").showModal();
  };
  $("settings").addEventListener("close", () => {
    R.lang = $("opt-lang").value;
    localStorage.setItem("tienlen.lang", R.lang);
    applyLang();
    // In the room the table takes the new settings at once (the bots' reasons and the game's
    // words follow the language; the turn timer restarts); from the menu they are the next table's.
    if (document.body.dataset.screen === "room" && R.ws)
      send({ type: "settings", hints: $("opt-hints").checked, ai_debug: $("opt-debug").checked,
             turn_timeout: Math.max(0, Math.min(3600, Number($("opt-timer").value) || 0)), lang: R.lang });
  });
  $("menu-back").onclick = backToMenu;
  $("result-menu").onclick = backToMenu;
  $("play").onclick = playSelected;
  $("pass").onclick = passTurn;
  $("hint").onclick = askHint;
  $("next").onclick = () => { clearMarks(); send({ type: "next_hand" }); };
  window.addEventListener("resize", () => { if (R.view) sizeHand(); });
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.screen !== "room" || !R.view || e.target.tagName === "INPUT") return;
    if (e.target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) return;   // the button's own
    const n = R.view.hand.length;
    if (e.key === "ArrowRight") { R.focus = Math.min(n - 1, R.focus + 1); renderHand(); }
    else if (e.key === "ArrowLeft") { R.focus = Math.max(0, R.focus - 1); renderHand(); }
    else if (e.key === " ") { if (n) toggle(R.focus); }
    else if (e.key === "Enter") playSelected();
    else if (e.key === "p" || e.key === "P") passTurn();
    else if (e.key === "h" || e.key === "H") askHint();
    else if (e.key === "Escape") { clearMarks(); renderHand(); }
    else if ((e.key === "n" || e.key === "N") && R.view.phase === "hand_over") send({ type: "next_hand" });
    else return;
    e.preventDefault();
  });
  R.started = true;
  for (const panel of PANELS) mountPanel(panel);
});
