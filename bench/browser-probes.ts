/**
 * Scripts that run inside the benchmarked page (sql-editor-browser.ts). Plain JavaScript in strings:
 * functions compiled by tsx carry helpers (`__name`) that do not exist in the page.
 *
 * "Painted" below means: the first task after the frame that showed a DOM change. A change made
 * inside a requestAnimationFrame callback (Monaco renders there) is painted by that frame; any other
 * change (React commits in tasks) by the next one, so it waits for that frame's rAF first.
 */

/**
 * Installed before any page script (addInitScript): tracks rAF phases and offers afterPaint(cb); notes
 * when response bodies finish parsing.
 */
export const FRAME_TRACKER = `(() => {
  const raf = window.requestAnimationFrame.bind(window)
  let inFrame = false
  const reset = new MessageChannel()
  reset.port1.onmessage = () => { inFrame = false }
  window.requestAnimationFrame = (callback) => raf((time) => {
    if (!inFrame) { inFrame = true; reset.port2.postMessage(0) }
    callback(time)
  })
  const nextTask = (callback) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => callback(performance.now())
    channel.port2.postMessage(0)
  }
  window.__benchAfterPaint = (callback) => (inFrame ? nextTask(callback) : raf(() => nextTask(callback)))
  // When each response body was parsed (Response.json), by URL.
  const json = Response.prototype.json
  window.__benchParsed = []
  Response.prototype.json = async function () {
    const value = await json.call(this)
    window.__benchParsed.push({ url: this.url, at: performance.now() })
    return value
  }
})()`

/**
 * Records, from the Ctrl+Enter keydown (event.timeStamp), when the first result rows are in the
 * grid and painted, when the grid's scroll height covers every row, then scrolls to the bottom and
 * records when the row whose first cell reads `lastText` is rendered and painted.
 */
export const GRID_PROBE = `({ rows, lastText }) => {
  const s = (window.__gridBench = { t0: 0, firstDom: 0, firstPaint: 0, scrollable: 0, scrollStart: 0, bottomDom: 0, bottomPaint: 0, rowHeight: 0, scrollHeight: 0, ariaRowCount: 0, requestStart: 0, responseStart: 0, responseEnd: 0, parsed: 0, error: '', done: false })
  addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !s.t0) s.t0 = e.timeStamp }, { capture: true })
  const grid = () => document.querySelector('[role="grid"][aria-label="Query results"]')
  const firstCell = (row) => row.querySelector('[role="gridcell"]')
  const started = performance.now()
  const fail = (message) => { s.error = message; s.done = true }

  const bottom = (g) => {
    s.scrollStart = performance.now()
    g.scrollTop = g.scrollHeight
    const check = () => {
      if (s.bottomDom) return true
      const found = [...g.querySelectorAll('[role="row"]')].some((r) => firstCell(r)?.textContent === lastText)
      if (!found) return false
      s.bottomDom = performance.now()
      window.__benchAfterPaint((t) => { s.bottomPaint = t; s.done = true })
      return true
    }
    if (check()) return
    const observer = new MutationObserver(() => { if (check()) observer.disconnect() })
    observer.observe(g, { childList: true, subtree: true, characterData: true })
    setTimeout(() => { if (!s.bottomDom) { observer.disconnect(); fail('row ' + lastText + ' never rendered after scrolling to the bottom') } }, 30000)
  }

  const untilScrollable = () => {
    const g = grid()
    const row = g && [...g.querySelectorAll('[role="row"]')].find((r) => firstCell(r))
    if (g && row) {
      s.rowHeight = row.getBoundingClientRect().height
      s.scrollHeight = g.scrollHeight
      s.ariaRowCount = Number(g.getAttribute('aria-rowcount'))
      if (g.scrollHeight >= rows * s.rowHeight) {
        s.scrollable = performance.now()
        return bottom(g)
      }
    }
    if (performance.now() - started > 120000) return fail('the grid never became tall enough for ' + rows + ' rows (scrollHeight ' + s.scrollHeight + ')')
    requestAnimationFrame(untilScrollable)
  }

  const observer = new MutationObserver(() => {
    if (!s.t0 || s.firstDom) return
    const g = grid()
    if (!g || !g.querySelector('[role="row"] [role="gridcell"]')) return
    s.firstDom = performance.now()
    observer.disconnect()
    const entry = performance.getEntriesByType('resource').filter((e) => e.name.includes('/query')).pop()
    if (entry) Object.assign(s, { requestStart: entry.requestStart, responseStart: entry.responseStart, responseEnd: entry.responseEnd })
    const parsed = window.__benchParsed.filter((p) => p.url.includes('/query')).pop()
    s.parsed = parsed ? parsed.at : 0
    window.__benchAfterPaint((t) => { s.firstPaint = t; untilScrollable() })
  })
  observer.observe(document.body, { childList: true, subtree: true })
}`

/** The floor: the editor's own request, fetched and parsed in the page; the body is kept alive. */
export const FETCH_BASELINE = `async ({ ref, query }) => {
  const t0 = performance.now()
  const res = await fetch('/platform/pg-meta/' + ref + '/query', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, read_only: true }),
  })
  const body = await res.json()
  const ms = performance.now() - t0
  window.__kept = body
  const result = body.results && body.results[0]
  const entry = performance.getEntriesByType('resource').filter((e) => e.name.includes('/query')).pop()
  const server = entry ? entry.responseStart - entry.requestStart : 0
  return { ms, server, status: res.status, rows: result ? result.rows.length : -1, columns: result ? result.columns.length : -1, truncated: body.truncated, bytes: Number(res.headers.get('content-length') || 0) }
}`

/**
 * Typing latency: for each printable keydown (event.timeStamp), the time until the frame in which
 * Monaco's rendered lines changed was painted (and, separately, until the DOM changed).
 */
export const TYPING_PROBE = `() => {
  const s = (window.__typeBench = { pending: [], painted: [], dom: [] })
  addEventListener('keydown', (e) => { if (e.key.length === 1 && !e.ctrlKey && !e.metaKey) s.pending.push(e.timeStamp) }, { capture: true })
  const lines = document.querySelector('[data-testid="sql-editor"] .view-lines')
  new MutationObserver(() => {
    if (!s.pending.length) return
    const keys = s.pending.splice(0)
    const dom = performance.now()
    window.__benchAfterPaint((t) => { for (const k of keys) { s.painted.push(t - k); s.dom.push(dom - k) } })
  }).observe(lines, { childList: true, subtree: true, characterData: true })
}`
