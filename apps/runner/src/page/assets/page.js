// The runs page: the list of runs, a run's timeline, and the actions on it. Plain script, no
// framework: the runner serves this file as it is. Every value that comes from runs, events or
// providers is put in the page as text (textContent, DOM nodes, properties), never as HTML.
(() => {
  "use strict"

  const api = "/runs/api"
  const pageSize = 50
  const iterationsPage = 100
  const foldLines = 40
  const chartHours = 6
  const statuses = ["succeeded", "failed", "unknown", "running", "waiting", "accepted"]
  /** Status words: what the page shows for each status (an icon beside it comes from the CSS). */
  const statusWords = {
    succeeded: "succeeded",
    failed: "failed",
    unknown: "unknown outcome",
    running: "running",
    waiting: "waiting",
    accepted: "accepted",
    skipped: "skipped"
  }
  /** Worst first: an iteration takes the status of its worst task. */
  const severity = ["failed", "unknown", "running", "waiting", "accepted", "succeeded", "skipped"]

  const csrf = document.querySelector('meta[name="x-runner-csrf"]')?.getAttribute("content") ?? ""
  const byId = (id) => document.getElementById(id)
  const listView = byId("list-view")
  const runView = byId("run-view")
  const runsBody = byId("runs-body")
  const runsSummary = byId("runs-summary")
  const filtersForm = byId("filters")
  const workflowSelect = byId("filter-workflow")
  const statusSelect = byId("filter-status")
  const fromInput = byId("filter-from")
  const toInput = byId("filter-to")
  const searchInput = byId("filter-search")
  const newerButton = byId("page-newer")
  const olderButton = byId("page-older")
  const pageNumber = byId("page-number")
  const liveState = byId("live-state")
  const problem = byId("problem")
  const announcer = byId("announcer")

  // ---------------------------------------------------------------------------------------------
  // Small DOM helpers: every child given as a string becomes a text node.

  /** An element with properties (className, textContent, href, type, …) and children. */
  const el = (tag, properties, ...children) => {
    const node = document.createElement(tag)
    if (properties !== undefined && properties !== null) {
      for (const [key, value] of Object.entries(properties)) {
        if (value === undefined || value === null || value === false) continue
        if (key === "testid") node.dataset.testid = value
        else if (key.startsWith("aria-") || key === "role" || key === "for" || key === "scope") node.setAttribute(key, String(value))
        else node[key] = value
      }
    }
    append(node, children)
    return node
  }
  const append = (node, children) => {
    for (const child of children) {
      if (child === undefined || child === null || child === false) continue
      if (Array.isArray(child)) append(node, child)
      else node.append(typeof child === "string" ? document.createTextNode(child) : child)
    }
  }

  const statusBadge = (status, extra) =>
    el("span", { className: `status status-${status}`, title: extra }, statusWords[status] ?? String(status))

  const announce = (text) => {
    // A new node each time: screen readers announce additions to the live region.
    announcer.append(el("p", null, text))
    while (announcer.childElementCount > 5) announcer.firstElementChild.remove()
  }

  const showProblem = (text) => {
    if (text === undefined) {
      problem.hidden = true
      problem.replaceChildren()
    } else {
      problem.hidden = false
      problem.replaceChildren(document.createTextNode(text))
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Formats

  const pad = (n, width = 2) => String(n).padStart(width, "0")
  /** A time in the browser's zone, to the second: 2026-11-27 08:18:52. */
  const formatTime = (ms) => {
    if (typeof ms !== "number") return "—"
    const d = new Date(ms)
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  }
  const formatDuration = (ms) => {
    if (typeof ms !== "number" || !Number.isFinite(ms)) return "—"
    if (ms < 1000) return `${Math.round(ms)} ms`
    if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
    const seconds = Math.round(ms / 1000)
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
    const minutes = Math.round(seconds / 60)
    if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
    return `${Math.floor(minutes / 1440)} d ${Math.floor((minutes % 1440) / 60)} h`
  }
  const formatBytes = (n) => (n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`)
  const plural = (n, one, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`
  /** datetime-local's value (local time) as epoch ms, and back. */
  const fromLocalInput = (value) => {
    if (value === "") return undefined
    const ms = new Date(value).getTime()
    return Number.isFinite(ms) ? ms : undefined
  }
  const toLocalInput = (ms) => {
    const d = new Date(ms)
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP

  class RequestFailed extends Error {
    constructor(status, message) {
      super(message)
      this.status = status
    }
  }

  const errorOf = async (response) => {
    try {
      const body = await response.json()
      if (typeof body?.error?.message === "string") return new RequestFailed(response.status, body.error.message)
    } catch {
      // Not JSON: the status says enough.
    }
    if (response.status === 401 || response.status === 403) {
      return new RequestFailed(response.status, "This page needs its token: open /runs/login to sign in.")
    }
    return new RequestFailed(response.status, `The runner answered ${response.status} ${response.statusText}`)
  }

  const getJson = async (path, signal) => {
    const response = await fetch(path, { headers: { accept: "application/json" }, credentials: "same-origin", signal })
    if (!response.ok) throw await errorOf(response)
    return response.json()
  }

  const postJson = async (path, body) => {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-xrunner-csrf": csrf },
      credentials: "same-origin",
      body: JSON.stringify(body)
    })
    if (!response.ok) throw await errorOf(response)
    return response.json()
  }

  const isAbort = (error) => error instanceof DOMException && error.name === "AbortError"

  // ---------------------------------------------------------------------------------------------
  // Routing: /runs (the list, its filters in the query) and /runs/<id> (a run).

  const runIdOfPath = (pathname) => {
    const match = /^\/runs\/([^/]+)\/?$/.exec(pathname)
    if (match === null) return undefined
    const id = decodeURIComponent(match[1])
    return id === "api" || id === "assets" || id === "login" ? undefined : id
  }

  const runHref = (id) => `/runs/${encodeURIComponent(id)}`

  /** The list's address as last shown: the way back from a run. */
  let listHref = "/runs"

  const navigate = (href) => {
    history.pushState(null, "", href)
    route(true)
  }

  /** Links to the page's own views open in place; a modified click opens as the browser would. */
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null
    if (link === null || link.origin !== location.origin || link.target !== "") return
    if (link.pathname !== "/runs" && runIdOfPath(link.pathname) === undefined) return
    event.preventDefault()
    navigate(link.pathname + link.search)
  })

  window.addEventListener("popstate", () => route(false))

  const route = (moved) => {
    const runId = runIdOfPath(location.pathname)
    if (runId === undefined) {
      runView.hidden = true
      runView.replaceChildren()
      currentRun = undefined
      listView.hidden = false
      document.title = "Runs · x-runner"
      listHref = location.pathname + location.search
      readFiltersFromLocation()
      loadList()
      loadChart()
      openStream(undefined)
      if (moved) byId("main").focus({ preventScroll: true })
    } else {
      listView.hidden = true
      runView.hidden = false
      document.title = `Run ${runId} · x-runner`
      openRun(runId, moved)
      openStream(runId)
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The list

  /** The filters as the query string shows them. */
  const filters = { workflow: "", status: "", from: "", to: "", q: "" }
  /** The cursors of the pages before this one (undefined for the first), and this page's next. */
  let cursors = [undefined]
  let nextCursor = null
  let listRequest
  /** The runs on screen by id, to change their rows in place. */
  const shownRuns = new Map()

  const readFiltersFromLocation = () => {
    const query = new URLSearchParams(location.search)
    const previous = JSON.stringify(filters)
    filters.workflow = query.get("workflow") ?? ""
    filters.status = query.get("status") ?? ""
    filters.from = query.get("from") ?? ""
    filters.to = query.get("to") ?? ""
    filters.q = query.get("q") ?? ""
    if (JSON.stringify(filters) !== previous) cursors = [undefined]
    ensureOption(workflowSelect, filters.workflow)
    workflowSelect.value = filters.workflow
    statusSelect.value = filters.status
    fromInput.value = /^\d+$/.test(filters.from) ? toLocalInput(Number(filters.from)) : ""
    toInput.value = /^\d+$/.test(filters.to) ? toLocalInput(Number(filters.to)) : ""
    searchInput.value = filters.q
  }

  const ensureOption = (select, value) => {
    if (value === "" || [...select.options].some((option) => option.value === value)) return
    select.append(el("option", { value, textContent: value }))
  }

  const filtersQuery = () => {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(filters)) if (value !== "") query.set(key, value)
    return query
  }

  const applyFilters = () => {
    filters.workflow = workflowSelect.value
    filters.status = statusSelect.value
    const from = fromLocalInput(fromInput.value)
    const to = fromLocalInput(toInput.value)
    filters.from = from === undefined ? "" : String(from)
    filters.to = to === undefined ? "" : String(to)
    filters.q = searchInput.value.trim()
    cursors = [undefined]
    const query = filtersQuery().toString()
    listHref = query === "" ? "/runs" : `/runs?${query}`
    history.replaceState(null, "", listHref)
    loadList()
  }

  filtersForm.addEventListener("submit", (event) => {
    event.preventDefault()
    applyFilters()
  })
  filtersForm.addEventListener("reset", () => {
    // After the browser has emptied the fields.
    setTimeout(applyFilters, 0)
  })
  for (const input of [workflowSelect, statusSelect, fromInput, toInput]) input.addEventListener("change", applyFilters)
  let searchTimer
  searchInput.addEventListener("input", () => {
    clearTimeout(searchTimer)
    searchTimer = setTimeout(applyFilters, 350)
  })

  newerButton.addEventListener("click", () => {
    if (cursors.length > 1) {
      cursors.pop()
      loadList()
    }
  })
  olderButton.addEventListener("click", () => {
    if (nextCursor !== null) {
      cursors.push(nextCursor)
      loadList()
    }
  })

  const loadList = async () => {
    listRequest?.abort()
    const request = new AbortController()
    listRequest = request
    const query = filtersQuery()
    query.set("limit", String(pageSize))
    const after = cursors[cursors.length - 1]
    if (after !== undefined) query.set("after", after)
    listView.setAttribute("aria-busy", "true")
    try {
      const answer = await getJson(`${api}/runs?${query}`, request.signal)
      if (listRequest !== request) return
      showProblem(undefined)
      nextCursor = answer.next ?? null
      renderWorkflows(answer.workflows ?? [])
      renderRuns(answer.runs ?? [])
    } catch (error) {
      if (isAbort(error)) return
      showProblem(`The runs could not be loaded: ${error.message}`)
    } finally {
      if (listRequest === request) listView.removeAttribute("aria-busy")
    }
  }

  const renderWorkflows = (names) => {
    const wanted = filters.workflow
    const all = [...new Set([...names, ...(wanted === "" ? [] : [wanted])])].sort()
    const shown = [...workflowSelect.options].slice(1).map((option) => option.value)
    // The same names: the select is left alone (a reader may be on it).
    if (shown.length === all.length && shown.every((name, index) => name === all[index])) return
    workflowSelect.replaceChildren(el("option", { value: "", textContent: "All workflows" }), ...all.map((name) => el("option", { value: name, textContent: name })))
    workflowSelect.value = wanted
  }

  const runRow = (run) => {
    const status = run.displayStatus ?? run.status
    const statusCell = el("td", { className: "status-cell" }, statusBadge(status))
    if (status === "waiting" && typeof run.waitingUntil === "number") {
      statusCell.append(el("span", { className: "note" }, ` until ${formatTime(run.waitingUntil)}`))
    }
    if (typeof run.failedStep === "string") statusCell.append(el("span", { className: "note" }, ` at ${run.failedStep}`))
    if (run.attempt > 0) statusCell.append(el("span", { className: "note" }, ` (retry ${run.attempt})`))
    return el(
      "tr",
      { testid: `run-row-${run.id}` },
      el("th", { scope: "row", className: "run-id" }, el("a", { href: runHref(run.id), textContent: run.id })),
      statusCell,
      el("td", null, run.workflow),
      el("td", { className: "event-id" }, run.eventId ?? "—"),
      el("td", { className: "time" }, formatTime(run.startedAt ?? run.acceptedAt)),
      el("td", { className: "number" }, formatDuration(run.durationMs ?? undefined)),
      el("td", { className: "number" }, run.skipped > 0 ? String(run.skipped) : "0")
    )
  }

  const renderRuns = (runs) => {
    shownRuns.clear()
    const rows = document.createDocumentFragment()
    for (const run of runs) {
      shownRuns.set(run.id, run)
      rows.append(runRow(run))
    }
    if (runs.length === 0) {
      rows.append(el("tr", null, el("td", { colSpan: 7, className: "empty" }, "No runs match these filters.")))
    }
    runsBody.replaceChildren(rows)
    const page = cursors.length
    runsSummary.textContent =
      runs.length === 0 ? "No runs" : `Runs, newest first: page ${page}, ${plural(runs.length, "run")}${nextCursor === null ? "" : ", older ones on the next page"}`
    pageNumber.textContent = `Page ${page}`
    const focused = document.activeElement
    newerButton.disabled = page === 1
    olderButton.disabled = nextCursor === null
    // A paging button that the reader pressed and is now disabled hands the focus to the other one.
    if (focused instanceof HTMLButtonElement && focused.disabled && (focused === newerButton || focused === olderButton)) {
      ;(focused === newerButton ? olderButton : newerButton).focus()
    }
  }

  /** Live changes to the list: rows change in place; new runs come in by a fetch of the first page. */
  let refetchTimer
  const listChanged = (runs) => {
    let unseen = false
    const changes = []
    for (const run of runs) {
      const shown = shownRuns.get(run.id)
      if (shown === undefined) {
        unseen = true
        continue
      }
      const before = shown.displayStatus ?? shown.status
      const after = run.displayStatus ?? run.status
      shownRuns.set(run.id, run)
      const row = runsBody.querySelector(`tr[data-testid="run-row-${CSS.escape(run.id)}"]`)
      if (row !== null) {
        const hadFocus = row.contains(document.activeElement)
        const next = runRow(run)
        row.replaceWith(next)
        if (hadFocus) next.querySelector("a")?.focus({ preventScroll: true })
      }
      if (before !== after) changes.push(`Run ${run.id} (${run.workflow}): ${statusWords[before] ?? before} → ${statusWords[after] ?? after}`)
    }
    // A few changes are read out one by one; a burst as its count.
    if (changes.length > 3) announce(`${changes.length} runs changed status`)
    else changes.forEach(announce)
    if (unseen && cursors.length === 1 && refetchTimer === undefined) {
      // Many changes a second coalesce into one fetch.
      refetchTimer = setTimeout(() => {
        refetchTimer = undefined
        if (!listView.hidden) loadList()
      }, 500)
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The chart: runs per minute by status (uPlot). Statuses differ by dash pattern and legend
  // label as well as colour; the totals are in the figure's text and a hidden table.

  const chartStyles = {
    succeeded: { stroke: "#1b7a3a", dash: undefined, width: 2 },
    failed: { stroke: "#c21f1f", dash: [10, 4], width: 2.5 },
    unknown: { stroke: "#8a4fbf", dash: [2, 3], width: 2.5 },
    running: { stroke: "#1f5fbf", dash: [12, 3, 3, 3], width: 2 },
    waiting: { stroke: "#a86a00", dash: [6, 6], width: 2 },
    accepted: { stroke: "#5f6b73", dash: [1, 7], width: 2 }
  }
  let chart
  let chartRequest
  let chartLoadedAt = 0

  const loadChart = async () => {
    chartRequest?.abort()
    const request = new AbortController()
    chartRequest = request
    try {
      const answer = await getJson(`${api}/chart?hours=${chartHours}`, request.signal)
      chartLoadedAt = Date.now()
      renderChart(answer)
    } catch (error) {
      if (!isAbort(error)) byId("chart-totals").textContent = `The chart could not be loaded: ${error.message}`
    }
  }

  const renderChart = (answer) => {
    const minutes = answer.minutes ?? []
    const series = answer.series ?? {}
    const totals = statuses.map((status) => {
      const counts = series[status] ?? []
      return { status, total: counts.reduce((sum, n) => sum + n, 0), busiest: counts.reduce((max, n) => Math.max(max, n), 0) }
    })
    const all = totals.reduce((sum, { total }) => sum + total, 0)
    byId("chart-totals").textContent = `${plural(all, "run")} in the last ${chartHours} hours: ${totals
      .map(({ status, total }) => `${total.toLocaleString("en")} ${statusWords[status]}`)
      .join(", ")}.`
    byId("chart-table-body").replaceChildren(
      ...totals.map(({ status, total, busiest }) =>
        el("tr", null, el("th", { scope: "row" }, statusWords[status]), el("td", null, String(total)), el("td", null, `${busiest} a minute`))
      )
    )
    const container = byId("chart")
    if (typeof window.uPlot !== "function") {
      container.replaceChildren(el("p", { className: "note" }, "The chart's script did not load."))
      return
    }
    const data = [minutes.map((ms) => ms / 1000), ...statuses.map((status) => series[status] ?? minutes.map(() => 0))]
    if (chart !== undefined) {
      chart.setData(data)
      // The legend's labels carry the totals; uPlot has no call to rename a series.
      const labels = [...chart.root.querySelectorAll(".u-legend .u-series .u-label")].slice(-statuses.length)
      statuses.forEach((status, index) => {
        if (labels[index] !== undefined) labels[index].textContent = `${statusWords[status]} (${totals[index].total})`
      })
      return
    }
    const stepped = window.uPlot.paths.stepped({ align: 1 })
    chart = new window.uPlot(
      {
        width: Math.max(320, container.clientWidth),
        height: 180,
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
        legend: { live: false },
        axes: [{ stroke: "#444", grid: { stroke: "#e4e4e4" }, values: (_u, splits) => splits.map((at) => formatTime(at * 1000).slice(11, 16)) }, { stroke: "#444", grid: { stroke: "#e4e4e4" }, size: 40, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] }],
        series: [
          { label: "Minute" },
          ...statuses.map((status, index) => ({
            label: `${statusWords[status]} (${totals[index].total})`,
            stroke: chartStyles[status].stroke,
            width: chartStyles[status].width,
            dash: chartStyles[status].dash,
            paths: stepped,
            points: { show: false }
          }))
        ]
      },
      data,
      container
    )
    new ResizeObserver(() => {
      const width = Math.max(320, container.clientWidth)
      if (chart !== undefined && Math.abs(chart.width - width) > 2) chart.setSize({ width, height: 180 })
    }).observe(container)
  }

  // ---------------------------------------------------------------------------------------------
  // Live updates: one EventSource, on the list's stream or a run's.

  let stream
  let streamRun

  const openStream = (runId, again = false) => {
    if (!again && stream !== undefined && streamRun === runId && stream.readyState !== EventSource.CLOSED) return
    stream?.close()
    streamRun = runId
    const source = new EventSource(runId === undefined ? `${api}/stream` : `${api}/stream?run=${encodeURIComponent(runId)}`)
    stream = source
    liveState.textContent = "Connecting…"
    liveState.className = "live-state"
    source.addEventListener("open", () => {
      liveState.textContent = "Live"
      liveState.className = "live-state live-on"
    })
    source.addEventListener("error", () => {
      if (stream !== source) return
      // EventSource tries again by itself unless the answer was not a stream (a 401, say).
      liveState.textContent = source.readyState === EventSource.CLOSED ? "Not live: reload the page" : "Reconnecting…"
      liveState.className = "live-state live-off"
    })
    source.addEventListener("runs", (event) => {
      const runs = parse(event.data)?.runs
      if (!Array.isArray(runs)) return
      if (!listView.hidden) {
        listChanged(runs)
        // The chart follows at most once a minute.
        if (Date.now() - chartLoadedAt > 60_000) loadChart()
      } else if (currentRun !== undefined) {
        const mine = runs.find((run) => run.id === currentRun.run.id)
        if (mine !== undefined && (mine.displayStatus ?? mine.status) !== (currentRun.run.displayStatus ?? currentRun.run.status)) {
          refreshRun()
        }
      }
    })
    // More runs changed in a second than one look carries: the list page and the open run, read again.
    source.addEventListener("resync", () => {
      if (!listView.hidden) loadList()
      else if (currentRun !== undefined) refreshRun()
    })
    source.addEventListener("run", (event) => {
      const answer = parse(event.data)
      if (answer?.run?.id !== undefined && currentRun !== undefined && answer.run.id === currentRun.run.id) {
        // The run as it is now: a failed read before it no longer matters.
        showProblem(undefined)
        showRun(answer)
      }
    })
  }

  const parse = (text) => {
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  }

  // ---------------------------------------------------------------------------------------------
  // A run

  /** The run on screen (the API's answer), and what the reader opened in it. */
  let currentRun
  let runRequest
  const expandedLoops = new Map() // loop path → how many iterations are shown
  const openDetails = new Set() // step paths whose details are open
  const doneDrafts = new Map() // step path → the output JSON being written

  const openRun = async (runId, moved) => {
    if (currentRun?.run.id !== runId) {
      expandedLoops.clear()
      openDetails.clear()
      doneDrafts.clear()
      currentRun = undefined
      runView.replaceChildren(el("p", { className: "note" }, "Loading the run…"))
    }
    await refreshRun(runId)
    if (moved) byId("run-heading")?.focus({ preventScroll: false })
  }

  const refreshRun = async (runId = currentRun?.run.id) => {
    if (runId === undefined) return
    runRequest?.abort()
    const request = new AbortController()
    runRequest = request
    try {
      const answer = await getJson(`${api}/runs/${encodeURIComponent(runId)}`, request.signal)
      if (runRequest !== request || runIdOfPath(location.pathname) !== runId) return
      showProblem(undefined)
      showRun(answer)
    } catch (error) {
      if (isAbort(error)) return
      if (error.status === 404) {
        runView.replaceChildren(
          el("h2", { id: "run-heading", tabIndex: -1 }, "No such run"),
          el("p", null, `There is no run ${runId} in this store. `, el("a", { href: listHref }, "All runs"))
        )
      } else showProblem(`The run could not be loaded: ${error.message}`)
    }
  }

  /**
   * Where the focus is in the run view, to find its like once the view is drawn again: the
   * nearest element with a data-testid, and the focused element's place among its kind in it.
   */
  const focusPlace = () => {
    const active = document.activeElement
    if (!(active instanceof HTMLElement) || !runView.contains(active)) return undefined
    const holder = active.closest("[data-testid]")
    if (holder === null) return { id: active.id }
    const testid = holder.getAttribute("data-testid")
    const tag = active.tagName.toLowerCase()
    return { testid, tag, index: holder === active ? -1 : [...holder.querySelectorAll(tag)].indexOf(active) }
  }

  const refocus = (place) => {
    if (place === undefined) return
    let found = null
    if (place.testid !== undefined) {
      const holder = place.testid === "run-view" ? runView : runView.querySelector(`[data-testid="${CSS.escape(place.testid)}"]`)
      found = holder === null ? null : place.index === -1 ? holder : holder.querySelectorAll(place.tag)[place.index] ?? null
    } else if (place.id !== "") found = byId(place.id)
    // What had the focus is gone (an action's button once the run moved on): the heading takes it.
    ;(found ?? byId("run-heading"))?.focus({ preventScroll: true })
  }

  /** Draws the run again, keeping what the reader opened, wrote and focused, and where it was. */
  const redrawRun = (answer) => {
    const place = focusPlace()
    for (const area of runView.querySelectorAll("textarea[data-path]")) doneDrafts.set(area.dataset.path, area.value)
    const scroll = window.scrollY
    currentRun = answer
    runView.replaceChildren(...runContent(answer))
    window.scrollTo(0, scroll)
    refocus(place)
  }

  const showRun = (answer) => {
    const before = currentRun?.run
    if (before === undefined || before.id !== answer.run.id) {
      currentRun = answer
      runView.replaceChildren(...runContent(answer))
      return
    }
    redrawRun(answer)
    const was = before.displayStatus ?? before.status
    const now = answer.run.displayStatus ?? answer.run.status
    if (was !== now) announce(`Run ${answer.run.id}: ${statusWords[was] ?? was} → ${statusWords[now] ?? now}`)
  }

  const runContent = ({ run, trigger, steps, actions }) => {
    const status = run.displayStatus ?? run.status
    const facts = el(
      "dl",
      { className: "facts" },
      fact("Status", el("span", null, el("span", { testid: "run-status", className: `status status-${status}` }, statusWords[status] ?? status))),
      fact("Workflow", run.workflow),
      fact("Trigger event", run.eventId ?? "—", "mono"),
      fact("Attempt", run.attempt > 0 ? `${run.attempt + 1} (retried ${plural(run.attempt, "time")})` : "1"),
      fact("Accepted", formatTime(run.acceptedAt)),
      fact("Started", formatTime(run.startedAt)),
      fact("Finished", formatTime(run.finishedAt)),
      fact("Duration", formatDuration(run.durationMs ?? undefined)),
      typeof run.waitingUntil === "number" && fact("Waiting until", formatTime(run.waitingUntil)),
      typeof run.failedStep === "string" && fact("Failed at", run.failedStep),
      fact("Skipped tasks", String(run.skipped ?? 0)),
      fact("Origin", run.origin === "run" ? "x-runner run" : "serve"),
      typeof run.runner === "string" && fact("Runner", run.runner, "mono")
    )
    return [
      el("p", { className: "back" }, el("a", { href: listHref, testid: "back-link" }, "← All runs")),
      el("h2", { id: "run-heading", tabIndex: -1 }, "Run ", el("span", { className: "mono" }, run.id)),
      facts,
      actionsSection(run, steps ?? [], actions ?? { retry: false, done: [], why: null }),
      timelineSection(run, steps ?? []),
      el(
        "section",
        { className: "trigger", "aria-labelledby": "trigger-heading" },
        el("h3", { id: "trigger-heading" }, "Trigger event"),
        el(
          "div",
          { testid: "trigger-event" },
          (trigger === null || trigger === undefined) && run.origin === "run"
            ? el("p", { className: "note" }, "None: x-runner run started it from the command line.")
            : jsonValue("Trigger event", trigger)
        )
      )
    ].filter((part) => part !== null)
  }

  const fact = (term, value, className) => el("div", { className: "fact" }, el("dt", null, term), el("dd", { className }, value))

  // ---------------------------------------------------------------------------------------------
  // Actions: retry, mark done

  const actionsSection = (run, steps, actions) => {
    const unknownSteps = steps.filter((step) => step.status === "unknown")
    const status = run.displayStatus ?? run.status
    if (status !== "failed" && status !== "unknown" && unknownSteps.length === 0) return null
    const result = el("p", { className: "action-result", role: "status" })
    const section = el("section", { className: `actions actions-${status}`, "aria-labelledby": "actions-heading" }, el("h3", { id: "actions-heading" }, status === "unknown" ? "Outcome unknown: decide" : "Actions"))
    if (status === "unknown") {
      section.append(
        el(
          "p",
          null,
          "A step may or may not have reached the provider before the runner stopped. Check the provider: if the step's request took effect, mark it done with its output; if not, retry the run (the step runs again)."
        )
      )
    }
    const done = new Set(actions.done ?? [])
    for (const step of unknownSteps) {
      const block = el(
        "div",
        { className: "decision" },
        el("h4", null, "Step ", el("span", { className: "mono" }, step.path), " ", statusBadge("unknown")),
        el(
          "p",
          null,
          typeof step.writeSentAt === "number"
            ? `Its write was about to be sent at ${formatTime(step.writeSentAt)}${typeof step.writeAttempt === "number" ? ` (attempt ${step.writeAttempt})` : ""}; whether the provider received it is not known.`
            : "No write of it was recorded as sent."
        ),
        el("h5", null, "What it sent (its input)"),
        step.input === null || step.input === undefined ? el("p", { className: "note" }, "Its input was not recorded.") : jsonValue(`Input of ${step.path}`, step.input)
      )
      if (done.has(step.path)) block.append(doneForm(run, step, result))
      section.append(block)
    }
    if (actions.retry === true) {
      const label = status === "failed" ? "Retry from the failed step" : "Retry run"
      const button = el("button", { type: "button", className: "primary", testid: "action-retry", textContent: label })
      button.addEventListener("click", () => act(button, result, `${api}/runs/${encodeURIComponent(run.id)}/retry`, {}, "Retry"))
      section.append(el("div", { className: "retry" }, button))
    }
    if (typeof actions.why === "string" && actions.why !== "") section.append(el("p", { className: "note why" }, actions.why))
    section.append(result)
    return section
  }

  const doneForm = (run, step, result) => {
    const id = `done-output-${step.path}`
    const area = el("textarea", { id, rows: 6, spellcheck: false, testid: id, "aria-describedby": `${id}-hint ${id}-error` })
    area.dataset.path = step.path
    area.value = doneDrafts.get(step.path) ?? ""
    const error = el("p", { id: `${id}-error`, className: "field-error" })
    const button = el("button", { type: "button", testid: `action-done-${step.path}`, textContent: "Mark done" })
    button.addEventListener("click", () => {
      let output
      const text = area.value.trim()
      try {
        output = JSON.parse(text === "" ? "null" : text)
      } catch (failure) {
        error.textContent = `Not JSON: ${failure.message}`
        area.setAttribute("aria-invalid", "true")
        area.focus()
        return
      }
      error.textContent = ""
      area.removeAttribute("aria-invalid")
      doneDrafts.delete(step.path)
      act(button, result, `${api}/runs/${encodeURIComponent(run.id)}/done`, { step: step.path, output }, "Mark done")
    })
    return el(
      "div",
      { className: "done-form" },
      el("label", { for: id }, `Output of ${step.path} (JSON)`),
      el("p", { id: `${id}-hint`, className: "note" }, "What the provider answered, as the step's output for the tasks after it; empty means null."),
      area,
      error,
      button
    )
  }

  const act = async (button, result, path, body, what) => {
    // Busy, not disabled: a disabled button would drop the reader's focus to the page's top.
    if (button.getAttribute("aria-disabled") === "true") return
    button.setAttribute("aria-disabled", "true")
    result.textContent = `${what}: sending…`
    try {
      const answer = await postJson(path, body)
      const status = answer?.run?.displayStatus ?? answer?.run?.status
      result.textContent = `${what}: done; the run is ${statusWords[status] ?? status ?? "updated"}.`
      announce(result.textContent)
      // The run's own stream follows it from here (a finished run's stream had nothing to send).
      openStream(currentRun?.run.id, true)
      await refreshRun()
    } catch (error) {
      result.textContent = `${what} was refused: ${error.message}`
      announce(result.textContent)
      button.removeAttribute("aria-disabled")
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The timeline: a row per task, indented by its place in the tree its path draws
  // (`group.child`, `loop[3].child`), its bar placed by its start and sized by its duration
  // against the run's span. A loop's iterations fold into its row until expanded.

  /** `overdue[3].comment` → ["overdue", 3, "comment"]. */
  const segmentsOf = (path) => {
    const segments = []
    for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) segments.push(match[2] !== undefined ? Number(match[2]) : match[1])
    return segments
  }

  const buildTree = (steps) => {
    const root = { path: "", children: [], byKey: new Map() }
    const nodes = new Map([["", root]])
    const nodeAt = (path, segments) => {
      const existing = nodes.get(path)
      if (existing !== undefined) return existing
      const last = segments[segments.length - 1]
      const parentSegments = segments.slice(0, -1)
      const parentPath = typeof last === "number" ? path.slice(0, path.lastIndexOf("[")) : path.slice(0, Math.max(0, path.lastIndexOf(".")))
      const parent = nodeAt(parentPath, parentSegments)
      const node = { path, step: undefined, index: typeof last === "number" ? last : undefined, children: [], byKey: new Map() }
      nodes.set(path, node)
      parent.children.push(node)
      return node
    }
    for (const step of steps) nodeAt(step.path, segmentsOf(step.path)).step = step
    for (const node of nodes.values()) {
      // Iterations in their order; tasks in the order they came (the store's).
      if (node.children.some((child) => child.index !== undefined)) node.children.sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    }
    return root
  }

  /** An iteration's (or any untracked node's) status, start and end from what it holds. */
  const summarize = (node) => {
    if (node.summary !== undefined) return node.summary
    let status
    let start = Infinity
    let end = -Infinity
    const visit = (child) => {
      const step = child.step
      if (step !== undefined) {
        if (status === undefined || severity.indexOf(step.status) < severity.indexOf(status)) status = step.status
        if (typeof step.startedAt === "number") {
          start = Math.min(start, step.startedAt)
          end = Math.max(end, step.startedAt + (step.durationMs ?? 0))
        }
      }
      child.children.forEach(visit)
    }
    node.children.forEach(visit)
    node.summary = { status: status ?? "succeeded", start: Number.isFinite(start) ? start : undefined, end: Number.isFinite(end) ? end : undefined }
    return node.summary
  }

  const timelineSection = (run, steps) => {
    const tree = buildTree(steps)
    let start = typeof run.startedAt === "number" ? run.startedAt : run.acceptedAt
    let end = typeof run.finishedAt === "number" ? run.finishedAt : start
    for (const step of steps) {
      if (typeof step.startedAt !== "number") continue
      start = Math.min(start, step.startedAt)
      end = Math.max(end, step.startedAt + (step.durationMs ?? 0))
    }
    const open = run.finishedAt === null || run.finishedAt === undefined
    if (open) end = Math.max(end, Date.now())
    const span = { start, length: Math.max(1, end - start), open }

    const rows = el("div", { className: "timeline-rows", role: "list" })
    for (const child of tree.children) appendRows(rows, child, 0, span)
    if (steps.length === 0) rows.append(el("p", { className: "note" }, "No task has started yet."))
    const axis = el(
      "div",
      { className: "axis", "aria-hidden": "true" },
      el("span", { className: "axis-label" }, ""),
      el("span", { className: "axis-track" }, ...[0, 0.25, 0.5, 0.75, 1].map((at) => {
        const tick = el("span", { className: "tick" }, at === 0 ? "0" : formatDuration(span.length * at))
        tick.style.left = `${at * 100}%`
        return tick
      }))
    )
    return el(
      "section",
      { className: "timeline", testid: "timeline", "aria-labelledby": "timeline-heading" },
      el("h3", { id: "timeline-heading" }, "Timeline"),
      el("p", { className: "note" }, `${plural(steps.length, "task")} over ${formatDuration(span.length)}, from ${formatTime(span.start)}. Each bar starts when its task started and is as long as it took.`),
      axis,
      rows
    )
  }

  const appendRows = (container, node, depth, span) => {
    const step = node.step
    const iterations = node.children.filter((child) => child.index !== undefined)
    if (step === undefined && node.index !== undefined) {
      // An iteration of one task is that task's row, its index before its name.
      const only = node.children.length === 1 ? node.children[0] : undefined
      if (only?.step !== undefined && only.children.length === 0) {
        container.append(taskRow(only, depth, span, [], `[${node.index}] `))
        return
      }
      container.append(iterationRow(node, depth, span))
      for (const child of node.children) appendRows(container, child, depth + 1, span)
      return
    }
    container.append(taskRow(node, depth, span, iterations))
    const others = node.children.filter((child) => child.index === undefined)
    for (const child of others) appendRows(container, child, depth + 1, span)
    if (iterations.length > 0 && expandedLoops.has(node.path)) appendIterations(container, node, iterations, depth + 1, span)
  }

  /** Failures first, then the rest in order; shown a page at a time. */
  const orderedIterations = (iterations) => {
    const rank = (iteration) => {
      const status = summarize(iteration).status
      return status === "failed" ? 0 : status === "unknown" ? 1 : status === "running" || status === "waiting" ? 2 : 3
    }
    return [...iterations].sort((a, b) => rank(a) - rank(b) || a.index - b.index)
  }

  const appendIterations = (container, loop, iterations, depth, span) => {
    const shown = expandedLoops.get(loop.path) ?? iterationsPage
    const ordered = orderedIterations(iterations)
    for (const iteration of ordered.slice(0, shown)) appendRows(container, iteration, depth, span)
    if (ordered.length > shown) appendIterationsMore(container, loop, ordered, shown, depth, span)
  }

  const appendIterationsMore = (container, loop, ordered, shown, depth, span) => {
    const more = el("button", {
      type: "button",
      className: "more",
      testid: `more-${loop.path}`,
      textContent: `Show ${Math.min(iterationsPage, ordered.length - shown)} more iterations (${shown.toLocaleString("en")} of ${ordered.length.toLocaleString("en")} shown)`
    })
    const holder = el("div", { role: "listitem", className: "more-row" }, more)
    holder.style.setProperty("--depth", String(depth))
    more.addEventListener("click", () => {
      const next = Math.min(ordered.length, shown + iterationsPage)
      expandedLoops.set(loop.path, next)
      const fragment = document.createDocumentFragment()
      for (const iteration of ordered.slice(shown, next)) appendRows(fragment, iteration, depth, span)
      if (next < ordered.length) appendIterationsMore(fragment, loop, ordered, next, depth, span)
      const added = [...fragment.children]
      holder.replaceWith(fragment)
      // The focus goes to the first of the new rows that takes it (the button went with its row).
      for (const row of added) {
        const target = row.querySelector("summary, button")
        if (target !== null) {
          target.focus()
          break
        }
      }
    })
    container.append(holder)
  }

  const bar = (status, start, durationMs, span, kind) => {
    const track = el("span", { className: "track", "aria-hidden": "true" })
    if (typeof start !== "number") return track
    const b = el("span", { className: `bar bar-${status}${kind === "wait" ? " bar-wait" : ""}` })
    // A task still running reaches to now; one that never ran (skipped) is a mark at its place.
    const length = typeof durationMs === "number" ? durationMs : status === "running" ? Math.max(0, Math.min(Date.now(), span.start + span.length) - start) : 0
    b.style.left = `${((start - span.start) / span.length) * 100}%`
    b.style.width = `${(Math.max(0, length) / span.length) * 100}%`
    track.append(b)
    return track
  }

  const loopCounts = (iterations) => {
    const counts = new Map()
    for (const iteration of iterations) {
      const status = summarize(iteration).status
      counts.set(status, (counts.get(status) ?? 0) + 1)
    }
    return severity.filter((status) => counts.has(status)).map((status) => `${counts.get(status)} ${statusWords[status]}`).join(", ")
  }

  /** What a task's label says beside its name: duration, attempts and retries, waits. */
  const stepFacts = (step) => {
    const facts = []
    if (step.status === "skipped") facts.push("not run: its branch was not taken")
    else if (typeof step.durationMs === "number") facts.push(formatDuration(step.durationMs))
    else if (step.status === "running" && typeof step.startedAt === "number") facts.push(`${formatDuration(Math.max(0, Date.now() - step.startedAt))} so far`)
    if (typeof step.attempts === "number") {
      facts.push(step.attempts > 1 ? `${step.attempts} attempts (${plural(step.attempts - 1, "retry", "retries")})` : "1 attempt")
    }
    if (typeof step.rateLimitWaitMs === "number" && step.rateLimitWaitMs > 0) facts.push(`waited ${formatDuration(step.rateLimitWaitMs)} for its rate limit`)
    return facts.join(" · ")
  }

  const synthesized = (node, iterations, span) => {
    const { status, start, end } = summarize(node)
    const kind = iterations.length > 0 ? "loop" : "group"
    return {
      path: node.path,
      name: node.path.slice(Math.max(node.path.lastIndexOf("."), node.path.lastIndexOf("]")) + 1),
      kind,
      type: kind,
      status: span.open ? "running" : status,
      startedAt: start,
      durationMs: span.open || start === undefined || end === undefined ? undefined : end - start
    }
  }

  const taskRow = (node, depth, span, iterations, prefix = "") => {
    // A group or loop still running has no row of its own yet (a task's row is written when it
    // ends): it is drawn from what it holds so far.
    const step = node.step ?? synthesized(node, iterations, span)
    const summary = el(
      "summary",
      { className: "task-summary" },
      el(
        "span",
        { className: "task-label" },
        prefix !== "" && el("span", { className: "task-index" }, prefix),
        el("span", { className: "task-name" }, step.name),
        " ",
        statusBadge(step.status),
        el("span", { className: "task-type" }, ` ${step.kind === "action" ? step.type : step.kind}`),
        el("span", { className: "task-facts" }, stepFacts(step))
      ),
      bar(step.status, step.startedAt, step.durationMs, span, step.kind)
    )
    const details = el("details", { className: "task-details" }, summary)
    const open = openDetails.has(step.path) || (node.step !== undefined && (step.status === "failed" || step.status === "unknown") && step.kind === "action" && !openDetails.has(`!${step.path}`))
    let filled = false
    const fill = () => {
      if (filled) return
      filled = true
      details.append(stepBody(step))
    }
    if (open) {
      details.open = true
      fill()
    }
    details.addEventListener("toggle", () => {
      if (details.open) {
        fill()
        openDetails.add(step.path)
        openDetails.delete(`!${step.path}`)
      } else {
        openDetails.delete(step.path)
        openDetails.add(`!${step.path}`)
      }
    })
    const row = el("div", { role: "listitem", className: `task task-${step.status} kind-${step.kind}`, testid: `task-${step.path}` }, details)
    row.style.setProperty("--depth", String(depth))
    if (iterations.length > 0) {
      const expanded = expandedLoops.has(node.path)
      const toggle = el("button", {
        type: "button",
        className: "expand",
        testid: `expand-${node.path}`,
        "aria-expanded": expanded ? "true" : "false",
        textContent: `${expanded ? "Hide" : "Show"} ${plural(iterations.length, "iteration")}`
      })
      toggle.addEventListener("click", () => {
        if (expandedLoops.has(node.path)) expandedLoops.delete(node.path)
        else expandedLoops.set(node.path, iterationsPage)
        // The loop's rows are drawn again from the run on screen; the button keeps the focus.
        if (currentRun !== undefined) redrawRun(currentRun)
      })
      row.append(el("p", { className: "loop-counts" }, toggle, ` ${loopCounts(iterations)}${expanded ? "; failures first" : ""}`))
    }
    return row
  }

  const iterationRow = (node, depth, span) => {
    const { status, start, end } = summarize(node)
    const label = `[${node.index}]`
    const row = el(
      "div",
      { role: "listitem", className: `task iteration task-${status}`, testid: `iteration-${node.path}` },
      el(
        "div",
        { className: "task-summary" },
        el("span", { className: "task-label" }, el("span", { className: "task-name" }, `iteration ${label}`), " ", statusBadge(status), el("span", { className: "task-facts" }, start !== undefined && end !== undefined ? formatDuration(end - start) : "")),
        bar(status, start, start !== undefined && end !== undefined ? end - start : undefined, span, "iteration")
      )
    )
    row.style.setProperty("--depth", String(depth))
    return row
  }

  const stepBody = (step) => {
    const body = el("div", { className: "task-body" })
    const facts = el(
      "dl",
      { className: "facts compact" },
      fact("Path", el("span", { className: "mono" }, step.path)),
      fact("Kind", step.kind),
      step.kind === "action" && fact("Type", step.type, "mono"),
      fact("Started", formatTime(step.startedAt ?? undefined)),
      typeof step.durationMs === "number" && fact("Took", formatDuration(step.durationMs)),
      typeof step.attempts === "number" && fact("Attempts", `${step.attempts} (${plural(Math.max(0, step.attempts - 1), "retry", "retries")})`),
      typeof step.rateLimitWaitMs === "number" && fact("Rate-limit wait", formatDuration(step.rateLimitWaitMs)),
      typeof step.writeSentAt === "number" && fact("Write sent", `${formatTime(step.writeSentAt)}${typeof step.writeAttempt === "number" ? ` (attempt ${step.writeAttempt})` : ""}`)
    )
    body.append(facts)
    if (step.error !== undefined && step.error !== null) {
      body.append(el("h4", { className: "value-heading" }, "Error"), el("p", { className: "error-text" }, el("span", { className: "mono" }, String(step.error.tag ?? "Error")), `: ${String(step.error.message ?? "")}`))
    }
    if ("input" in step && step.input !== null && step.input !== undefined) body.append(el("h4", { className: "value-heading" }, "Input"), jsonValue(`Input of ${step.path}`, step.input))
    if ("output" in step && step.output !== null && step.output !== undefined) body.append(el("h4", { className: "value-heading" }, "Output"), jsonValue(`Output of ${step.path}`, step.output))
    return body
  }

  /**
   * A JSON value in full, as text. One over `foldLines` lines is folded in a <details> that says
   * its size; its text is written when first opened (the whole of it: nothing is cut).
   */
  const jsonValue = (name, value) => {
    const text = value === undefined ? "null" : JSON.stringify(value, null, 2) ?? "null"
    let lines = 1
    for (let at = text.indexOf("\n"); at !== -1 && lines <= foldLines; at = text.indexOf("\n", at + 1)) lines++
    if (lines <= foldLines) return el("pre", { className: "json" }, text)
    const all = text.split("\n").length
    const pre = el("pre", { className: "json" })
    const details = el("details", { className: "folded" }, el("summary", null, `${name}: ${plural(all, "line")}, ${formatBytes(new TextEncoder().encode(text).length)} (show all)`), pre)
    details.addEventListener("toggle", () => {
      if (details.open && pre.firstChild === null) pre.textContent = text
    })
    return details
  }

  // ---------------------------------------------------------------------------------------------

  route(false)
})()
