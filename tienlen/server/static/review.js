// The review (复盘), the replay timeline and the card tracker (记牌器) of the training room
// (issue 38). Plain JavaScript, no build step. It plugs into the room through the panels
// API only (window.room = { panels: { register(panel) }, send(obj), lang() }): it reads the
// server's frames (state.tracker, review, match_file) and asks for the match file; it names
// no game and decides no rule: the server's review and tracker come from the game's spec.
"use strict";

(function () {
  const WORDS = {
    zh: {
      tracker: "记牌器", tracker_on: "显示记牌器 (K)", unseen: "未见 {n} 张", jokers: "大小王",
      wilds: "配牌 {card} 剩 {n}", bombs: "可能的炸弹", none: "无", joker_bomb: "天王炸", flushes: "同花顺 {n} 种", known: "已知",
      review: "复盘", waiting: "本局结束后分析你的每一步…", mistakes: "{n} 处失误，共损失 {cost} {unit}",
      no_mistakes: "没有明显失误", chosen: "你的出法", better: "更好：{what}", cost: "损失 {cost} {unit}",
      forced: "只能这样", not_evaluated: "未评估", pass: "过", turn: "第 {n} 步", save: "保存对局",
      open: "打开对局文件", timeline: "回放", first: "«", prev: "‹", next: "›", last: "»",
      step: "{i} / {n}", start: "开局", seat: "座位 {n}", you: "你", error: "复盘失败：{e}",
      levels: "级", points: "分", deals: "{n} 种发法", busy: "服务器忙",
      give_tribute: "进贡", return_tribute: "还贡",
    },
    en: {
      tracker: "Card tracker", tracker_on: "Show the tracker (K)", unseen: "{n} unseen", jokers: "Jokers",
      wilds: "wild {card}: {n} left", bombs: "Possible bombs", none: "none", joker_bomb: "joker bomb", flushes: "{n} straight flushes", known: "Known",
      review: "Review", waiting: "Each of your decisions is reviewed when the hand ends…",
      mistakes: "{n} mistake(s), costing {cost} {unit}", no_mistakes: "No clear mistake",
      chosen: "Your play", better: "Better: {what}", cost: "cost {cost} {unit}", forced: "forced",
      not_evaluated: "not evaluated", pass: "pass", turn: "step {n}", save: "Save match",
      open: "Open a match file", timeline: "Replay", first: "«", prev: "‹", next: "›", last: "»",
      step: "{i} / {n}", start: "deal", seat: "Seat {n}", you: "You", error: "Review failed: {e}",
      levels: "levels", points: "points", deals: "{n} deals", busy: "server busy",
      give_tribute: "tribute", return_tribute: "return",
    },
  };
  const SUIT = { s: "♠", h: "♥", c: "♣", d: "♦" };
  const api = () => window.room;
  const lang = () => (api() && api().lang && api().lang() === "en" ? "en" : "zh");
  function t(key, vars) {
    let text = WORDS[lang()][key];
    if (text === undefined) text = WORDS.en[key] || key;
    if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll("{" + k + "}", String(v));
    return text;
  }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  function card(name) {
    if (name === "SJ" || name === "BJ") return `<span class="rv-card${name === "BJ" ? " red" : ""}">${name === "SJ" ? "☆" : "★"}</span>`;
    const suit = name.slice(-1);
    return `<span class="rv-card${suit === "h" || suit === "d" ? " red" : ""}">${esc(name.slice(0, -1))}${SUIT[suit] || esc(suit)}</span>`;
  }
  function actionText(a) {
    if (!a) return "";
    if (a.kind === "pass") return t("pass");
    if (a.kind !== "play") return `${esc(t(a.kind))} ${a.card ? card(a.card) : ""}`;
    const label = lang() === "zh" && a.label_zh ? a.label_zh : a.label;
    return (a.cards || []).map(card).join("") + (label ? ` <span class="rv-label">${esc(label)}</span>` : "");
  }
  // whether two actions of the review are one (the bot's choice and the chosen one): the
  // kind, the cards as a multiset, the tribute card
  function sameAction(a, b) {
    if (!a || !b || a.kind !== b.kind) return false;
    if (a.kind === "play") return [...a.cards].sort().join(" ") === [...b.cards].sort().join(" ");
    return (a.card || "") === (b.card || "");
  }
  const unitWord = (unit) => (unit === "levels" ? t("levels") : unit === "points" ? t("points") : unit || "");

  // ------------------------------------------------------------ the tracker

  const tracker = { on: localStorage.getItem("tienlen.tracker") === "1", last: null, box: null };

  function renderTracker() {
    const box = tracker.box;
    if (!box) return;
    const toggle = box.querySelector("#rv-tracker-on");
    toggle.checked = tracker.on;
    const body = box.querySelector("#rv-tracker-body");
    body.hidden = !tracker.on || !tracker.last;
    document.body.dataset.tracker = tracker.on ? "on" : "off";
    if (body.hidden) return;
    const k = tracker.last;
    let html = `<div class="rv-unseen" data-unseen="${k.unseen}">${esc(t("unseen", { n: k.unseen }))}</div><table class="rv-ranks"><tr>`;
    html += k.ranks.map((r) => `<th>${esc(r.rank)}</th>`).join("");
    const jokers = Object.entries(k.jokers || {});
    html += jokers.map(([name]) => `<th>${name === "SJ" ? "☆" : "★"}</th>`).join("") + "</tr><tr>";
    html += k.ranks.map((r) => `<td data-rank="${esc(r.rank)}" data-left="${r.left}" class="${r.left ? "" : "gone"}">${r.left}</td>`).join("");
    html += jokers.map(([name, n]) => `<td data-rank="${name}" data-left="${n}" class="${n ? "" : "gone"}">${n}</td>`).join("") + "</tr></table>";
    const notes = [];
    if (k.wild) notes.push(esc(t("wilds", { card: "", n: k.wilds_left })).replace(" ", " " + card(k.wild) + " "));
    if (k.bombs) notes.push(`${esc(t("bombs"))}: ` + (k.bombs.length ? k.bombs.map((b) => `<span class="rv-bomb" data-bomb="${esc(b.rank)}">${esc(b.rank)}×${b.most}</span>`).join(" ") : esc(t("none"))));
    if (k.joker_bomb) notes.push(`<span class="rv-bomb" data-bomb="jokers">${esc(t("joker_bomb"))}</span>`);
    if (k.straight_flushes !== undefined) notes.push(esc(t("flushes", { n: k.straight_flushes })));
    html += `<div class="rv-notes">${notes.join(" · ")}</div>`;
    // the cards the public exchanges put in another hand (tribute, return, jokers shown)
    if (k.known && k.known.length) {
      html += `<div class="rv-known">${esc(t("known"))}: ` + k.known.map((x) => `<span data-seat="${x.seat}">${esc(trackerSeat(x.seat, k))} ${x.cards.map(card).join("")}</span>`).join(" · ") + `</div>`;
    }
    body.innerHTML = html;
  }

  function trackerSeat(seat, k) {
    const named = window.room && window.room.seatName ? window.room.seatName(seat, k.seat, k.hand_sizes.length) : null;
    return named || t("seat", { n: seat });
  }

  function setTracker(on) {
    tracker.on = on;
    localStorage.setItem("tienlen.tracker", on ? "1" : "0");
    renderTracker();
  }

  const trackerPanel = {
    id: "tracker",
    title: "记牌器",
    render(container) {
      tracker.box = container;
      container.innerHTML = `<label class="rv-toggle"><input type="checkbox" id="rv-tracker-on"> <span id="rv-tracker-label"></span></label><div id="rv-tracker-body" hidden></div>`;
      container.querySelector("#rv-tracker-on").addEventListener("change", (e) => setTracker(e.target.checked));
      container.querySelector("#rv-tracker-label").textContent = t("tracker_on");
      renderTracker();
    },
    onMessage(msg) {
      if (msg.type === "state") {
        if (msg.tracker) tracker.last = msg.tracker;
        else if (!msg.view || msg.view.phase !== "hand_over") tracker.last = null;
        const label = tracker.box && tracker.box.querySelector("#rv-tracker-label");
        if (label) label.textContent = t("tracker_on");
        renderTracker();
      }
    },
  };

  // ------------------------------------------------------------ the review and the timeline

  // `until`: the hand number whose start clears the table's review. A review is priced in the
  // background (up to the server's REVIEW_TIME_S) and may arrive after the next hand began:
  // it is then kept through that hand, not wiped by its next frame.
  const rv = { box: null, review: null, record: null, at: 0, seat: 0, pendingSave: false, until: 0 };

  // Every seat's cards after `count` steps of the record (every hand face up: the hand is over).
  function handsAfter(record, count) {
    const hands = record.hands.map((h) => h.slice());
    const take = (seat, name) => { const i = hands[seat].indexOf(name); if (i >= 0) hands[seat].splice(i, 1); };
    for (const step of record.steps.slice(0, count)) {
      const a = step.action;
      if (a.kind === "play") for (const c of a.cards) take(step.seat, c);
      else if ((a.kind === "give_tribute" || a.kind === "return_tribute") && a.card) {
        take(step.seat, a.card);
        if (a.to !== null && a.to !== undefined) hands[a.to].push(a.card);
      }
    }
    return hands;
  }

  function seatName(seat) {
    // the room's names (上家, 对家, 下家) when it lends them, else "seat N"
    const players = rv.record && rv.record.hands ? rv.record.hands.length : 4;
    const named = window.room && window.room.seatName ? window.room.seatName(seat, rv.seat, players) : null;
    if (named) return named;
    return seat === rv.seat ? t("you") : t("seat", { n: seat });
  }

  function renderTimeline() {
    const box = rv.box && rv.box.querySelector("#rv-timeline");
    if (!box) return;
    const record = rv.record;
    box.hidden = !record;
    if (!record) return;
    const n = record.steps.length;
    rv.at = Math.max(0, Math.min(n, rv.at));
    const hands = handsAfter(record, rv.at);
    const current = rv.at > 0 ? record.steps[rv.at - 1] : null;
    const marks = new Map();
    if (rv.review) for (const d of rv.review.decisions) if (d.mistake) marks.set(d.turn, d);
    let html = `<div class="rv-tl-head"><b>${esc(t("timeline"))}</b> <span id="rv-step" data-at="${rv.at}" data-steps="${n}">${esc(t("step", { i: rv.at, n }))}</span></div>`;
    html += `<div class="rv-tl-controls"><button id="rv-first">${t("first")}</button><button id="rv-prev">${t("prev")}</button><input id="rv-slider" type="range" min="0" max="${n}" value="${rv.at}"><button id="rv-next">${t("next")}</button><button id="rv-last">${t("last")}</button></div>`;
    html += `<div class="rv-ticks">` + record.steps.map((s, i) => `<span class="rv-tick${marks.has(s.turn) && s.seat === rv.seat ? " bad" : ""}${i === rv.at - 1 ? " here" : ""}" data-i="${i + 1}"></span>`).join("") + `</div>`;
    html += `<div class="rv-now">${current ? `${esc(seatName(current.seat))}: ${actionText(current.action)}` : esc(t("start"))}`;
    if (current && marks.has(current.turn) && current.seat === rv.seat) {
      const d = marks.get(current.turn);
      html += ` <span class="rv-bad">✗ ${esc(t("better", { what: "" }))}${actionText(d.best)}</span>`;
    }
    html += `</div><div class="rv-hands">` + hands.map((h, s) => `<div class="rv-seat${current && current.seat === s ? " acting" : ""}" data-seat="${s}"><span class="rv-who">${esc(seatName(s))} (${h.length})</span> ${h.map(card).join("")}</div>`).join("") + `</div>`;
    box.innerHTML = html;
    const go = (i) => { rv.at = i; renderTimeline(); };
    box.querySelector("#rv-first").onclick = () => go(0);
    box.querySelector("#rv-prev").onclick = () => go(rv.at - 1);
    box.querySelector("#rv-next").onclick = () => go(rv.at + 1);
    box.querySelector("#rv-last").onclick = () => go(n);
    box.querySelector("#rv-slider").oninput = (e) => go(Number(e.target.value));
    for (const tick of box.querySelectorAll(".rv-tick")) tick.onclick = () => go(Number(tick.dataset.i));
  }

  function renderReview() {
    const list = rv.box && rv.box.querySelector("#rv-list");
    if (!list) return;
    const r = rv.review;
    if (!r) { list.innerHTML = `<p class="rv-wait">${esc(t("waiting"))}</p>`; renderTimeline(); return; }
    if (r.error) { list.innerHTML = `<p class="rv-error">${esc(t("error", { e: r.error }))}</p>`; return; }
    const unit = unitWord(r.unit);
    const head = r.mistakes ? t("mistakes", { n: r.mistakes, cost: r.cost.toFixed(2), unit }) : t("no_mistakes");
    let html = `<p class="rv-summary" data-mistakes="${r.mistakes}">${esc(head)} · ${esc(t("deals", { n: r.deals }))}</p><ol class="rv-decisions">`;
    for (const d of r.decisions) {
      const cls = d.mistake ? "mistake" : d.forced ? "forced" : d.evaluated ? "ok" : "skipped";
      html += `<li class="rv-decision ${cls}" data-turn="${d.turn}" data-kind="${esc(d.kind || "play")}" data-bot="${sameAction(d.bot, d.chosen) ? 1 : 0}" data-mistake="${d.mistake ? 1 : 0}"><span class="rv-mark">${d.mistake ? "✗" : d.evaluated ? "✓" : "·"}</span> `;
      html += `<span class="rv-turn">${esc(t("turn", { n: d.turn + 1 }))}</span> ${actionText(d.chosen)}`;
      if (d.evaluated) html += ` <span class="rv-value">${d.chosen_value.toFixed(2)} ±${d.chosen_error.toFixed(2)}</span>`;
      else html += ` <span class="rv-value">${esc(d.forced ? t("forced") : t("not_evaluated"))}</span>`;
      if (d.mistake) {
        html += `<div class="rv-better">${esc(t("better", { what: "" }))}${actionText(d.best)} <span class="rv-value">${d.best_value.toFixed(2)} ±${d.best_error.toFixed(2)}</span> · <span class="rv-cost" data-cost="${d.cost}">${esc(t("cost", { cost: d.cost.toFixed(2), unit }))}</span></div>`;
        html += `<div class="rv-why">${esc(d.why)}</div>`;
      }
      html += "</li>";
    }
    list.innerHTML = html + "</ol>";
    for (const li of list.querySelectorAll(".rv-decision")) {
      li.onclick = () => {
        const i = rv.record ? rv.record.steps.findIndex((s) => s.turn === Number(li.dataset.turn)) : -1;
        if (i >= 0) { rv.at = i + 1; renderTimeline(); }
      };
    }
    renderTimeline();
  }

  function showReview(review, source) {
    rv.review = review;
    rv.record = review.record || null;
    rv.seat = review.seat || 0;
    rv.at = rv.record ? rv.record.steps.length : 0;
    document.body.dataset.review = source;
    if (rv.box) rv.box.hidden = false;
    renderReview();
  }

  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url; a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function openFile(file) {
    const text = await file.text();
    const seat = rv.seat || 0;
    const response = await fetch(`/api/review?seat=${seat}&lang=${lang()}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const data = await response.json();
    if (!response.ok) { showReview({ error: data.message || data.error }, "error"); return; }
    showReview(data, "file");
  }

  const reviewPanel = {
    id: "review",
    title: "复盘",
    render(container) {
      rv.box = container;
      container.innerHTML = `<div class="rv-head"><b id="rv-title"></b> <button id="rv-save" class="small"></button> <label class="rv-open"><span id="rv-open-label"></span><input type="file" id="rv-file" accept=".json,application/json"></label> <button id="rv-close" class="small">×</button></div><div id="rv-list"></div><div id="rv-timeline" hidden></div>`;
      const words = () => {
        container.querySelector("#rv-title").textContent = t("review");
        container.querySelector("#rv-save").textContent = t("save");
        container.querySelector("#rv-open-label").textContent = t("open");
      };
      words();
      container.querySelector("#rv-save").onclick = () => { rv.pendingSave = true; api().send({ type: "match_file", id: "save" }); };
      container.querySelector("#rv-file").onchange = (e) => { if (e.target.files[0]) openFile(e.target.files[0]); e.target.value = ""; };
      container.querySelector("#rv-close").onclick = () => { container.classList.toggle("collapsed"); };
      rv.words = words;
      renderReview();
    },
    onMessage(msg) {
      if (msg.type === "welcome") { rv.seat = msg.seat; rv.review = null; rv.record = null; renderReview(); }
      else if (msg.type === "review") {
        rv.until = Number(document.body.dataset.hand || 0) + 1;
        showReview(msg.error ? { error: msg.error } : msg, msg.error ? "error" : "table");
      }
      else if (msg.type === "match_file" && rv.pendingSave) { rv.pendingSave = false; download(msg.name, msg.text); }
      else if (msg.type === "state" && msg.view && msg.view.phase !== "hand_over" && msg.view.phase !== "over"
               && msg.view.hand_number >= rv.until && rv.review && document.body.dataset.review === "table") {
        // a new hand: the last review waits for the next one
        rv.review = null; rv.record = null; document.body.dataset.review = ""; renderReview();
      }
      if (rv.words) rv.words();
    },
  };

  function start() {
    const r = api();
    if (!r || !r.panels) return;
    r.panels.register(trackerPanel);
    r.panels.register(reviewPanel);
    // The drawer ends above the person's own cards (#mine): a review or a tracker that grows
    // mid-hand scrolls inside the drawer instead of covering the hand being played.
    const mine = document.getElementById("mine");
    if (mine && window.ResizeObserver) {
      new ResizeObserver(() => document.documentElement.style.setProperty(
        "--mine-height", `${mine.offsetHeight}px`)).observe(mine);
    }
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || document.body.dataset.screen !== "room") return;
      if (e.key === "k" || e.key === "K") { setTracker(!tracker.on); e.preventDefault(); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
