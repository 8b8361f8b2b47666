// The Gatehouse browser seat: xterm.js on one side, a WebSocket on the other.
// Keys go out as binary messages (UTF-8, at most 4 KiB each); the window size
// goes out as a text message {"cols": C, "rows": R} on open and on every
// resize; everything that comes back is the session's output (UTF-8).
(() => {
  "use strict";
  const COLS = 80, ROWS = 24;          // the screen Gatehouse draws
  const CHUNK = 4096;                  // the server takes messages up to 64 KiB
  const MIN_FONT = 8, MAX_FONT = 40;
  const VGA = {                        // the 16 colours of a PC text screen
    background: "#000000", foreground: "#aaaaaa", cursor: "#aaaaaa",
    black: "#000000", red: "#aa0000", green: "#00aa00", yellow: "#aa5500",
    blue: "#0000aa", magenta: "#aa00aa", cyan: "#00aaaa", white: "#aaaaaa",
    brightBlack: "#555555", brightRed: "#ff5555", brightGreen: "#55ff55",
    brightYellow: "#ffff55", brightBlue: "#5555ff", brightMagenta: "#ff55ff",
    brightCyan: "#55ffff", brightWhite: "#ffffff",
  };
  const term = new Terminal({
    // fonts with every CP437 glyph (box drawing, blocks, card suits, arrows)
    fontFamily: '"DejaVu Sans Mono", "Cascadia Mono", Consolas, "Liberation Mono", ' +
                'Menlo, "Noto Sans Mono", "Courier New", monospace',
    fontSize: 16, lineHeight: 1, letterSpacing: 0, scrollback: 0,
    cursorBlink: true, theme: VGA, allowProposedApi: false,
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(document.getElementById("terminal"));
  window.gatehouse = { term };         // lets a page test read the screen
  const status = document.getElementById("status");
  const encoder = new TextEncoder();
  let ws = null;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(message);
  }

  function sendSize() {
    send(JSON.stringify({ cols: term.cols, rows: term.rows }));
  }

  // The largest font that still shows 80x24, and exactly 80x24 cells: the
  // screen Gatehouse draws (a smaller window gets what fits, and the server
  // asks the caller to enlarge it).
  function sizeToWindow() {
    const dims = fit.proposeDimensions();
    if (dims) {
      const scale = Math.min(dims.cols / COLS, dims.rows / ROWS);
      const size = Math.max(MIN_FONT, Math.min(MAX_FONT, Math.floor(term.options.fontSize * scale)));
      if (size !== term.options.fontSize) term.options.fontSize = size;
      for (let i = 0; i < 8 && term.options.fontSize > MIN_FONT; i++) {
        const d = fit.proposeDimensions();
        if (!d || (d.cols >= COLS && d.rows >= ROWS)) break;
        term.options.fontSize -= 1;
      }
    }
    const fits = fit.proposeDimensions();
    if (fits && fits.cols >= COLS && fits.rows >= ROWS) {
      if (term.cols !== COLS || term.rows !== ROWS) term.resize(COLS, ROWS);
    } else {
      fit.fit();
    }
    sendSize();
  }

  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(sizeToWindow, 100);
  });

  function connect() {
    const base = location.pathname.replace(/[^/]*$/, "");
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + base + "ws");
    ws.binaryType = "arraybuffer";
    status.textContent = "Connecting…";
    ws.onopen = () => { status.textContent = "Connected"; sendSize(); term.focus(); };
    ws.onmessage = (event) => {
      if (event.data instanceof ArrayBuffer) term.write(new Uint8Array(event.data));
    };
    ws.onclose = () => {
      ws = null;
      status.textContent = "Disconnected";
      term.write("\r\n\x1b[0;33mDisconnected. Press Enter to call again.\x1b[0m");
    };
  }

  term.onData((data) => {
    if (ws === null) {
      if (data === "\r") { term.reset(); connect(); }
      return;
    }
    // xterm.js sends DEL for the Backspace key (its Delete key is ESC [ 3 ~);
    // Gatehouse, like BBS terminals, takes DEL as Delete and ^H as Backspace.
    const bytes = encoder.encode(data.replaceAll("\x7f", "\b"));
    for (let i = 0; i < bytes.length; i += CHUNK) send(bytes.subarray(i, i + CHUNK));
  });

  document.getElementById("terminal").addEventListener("click", () => term.focus());
  sizeToWindow();
  connect();
})();
