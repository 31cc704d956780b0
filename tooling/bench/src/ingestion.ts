/**
 * Trigger ingestion: `x-runner serve` (the bundle users run) on the sandbox without rate limits,
 * loaded over loopback by autocannon with signed Trello `createCard` deliveries, each a new
 * action (its own id) on the seeded card in the watched list. Reported: acknowledged deliveries
 * per second, p50/p99 acknowledge latency, the server's peak RSS, and once its worker has
 * caught up, the workflow runs finished against the deliveries accepted (journal lines).
 * Target: ≥ 1,000 deliveries/s at p99 ≤ 50 ms, runs == accepted.
 */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

// The sandbox's well-known Trello values (printed by `serve --sandbox`) and its seeded records.
const secret = "sandbox-trello-secret"
const seeded = { board: "5eed00000000000000000002", list: "5eed00000000000000000003", card: "5eed0000000000000000000a", member: "5eed00000000000000000001" }

const cli = fileURLToPath(new URL("../../../apps/runner/dist/bundle/x-runner.js", import.meta.url))
const workflow = fileURLToPath(new URL("../workflows/ingest.json", import.meta.url))

export interface IngestionResult {
  readonly seconds: number
  readonly connections: number
  readonly sent: number
  readonly acknowledged: number
  readonly refused: number
  readonly errors: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMb: number
  readonly accepted: number
  readonly runs: number
  readonly runsSucceeded: number
  readonly drainSeconds: number
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const waitFor = async (what: string, ready: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`ingestion bench: timed out waiting for ${what}`)
    await sleep(100)
  }
}

/** Trello's delivery of a new card, as the simulator (and Trello) sends it. */
const delivery = (actionId: string) =>
  JSON.stringify({
    model: { id: seeded.list, name: "To Do", idBoard: seeded.board, closed: false, pos: 16384 },
    action: {
      id: actionId,
      idMemberCreator: seeded.member,
      type: "createCard",
      date: new Date().toISOString(),
      data: {
        card: { id: seeded.card, name: "Write the launch post", idShort: 1, shortLink: "aBcDeFgH" },
        list: { id: seeded.list, name: "To Do" },
        board: { id: seeded.board, name: "Product Roadmap", shortLink: "rOaDmApX" }
      },
      memberCreator: { id: seeded.member, username: "simulated" }
    }
  })

const peakRssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024
}

export const ingestionBench = async (seconds = 5, connections = 16): Promise<IngestionResult> => {
  const dataDir = mkdtempSync(join(tmpdir(), "x-runner-ingest-"))
  const logFile = join(dataDir, "serve.log")
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}/hooks/ingest`
  // The server's log goes to a file: the bench process reads nothing while it loads.
  const log = openSync(logFile, "w")
  const server: ChildProcess = spawn(process.execPath, [
    cli, "serve", workflow, "--sandbox", "--without-rate-limits", "--public-url", publicUrl, "--data-dir", dataDir
  ], { stdio: ["ignore", log, log] })
  closeSync(log)
  const logText = () => readFileSync(logFile, "utf8")
  try {
    await waitFor("the server to serve", () => logText().includes("● serving"), 30_000)

    let next = 0
    const result = await autocannon({
      url: publicUrl,
      connections,
      duration: seconds,
      requests: [{
        method: "POST",
        setupRequest: (request) => {
          const body = delivery(`bench${(next++).toString(16).padStart(20, "0")}`)
          const signature = createHmac("sha1", secret).update(body + publicUrl).digest("base64")
          return { ...request, body, headers: { "content-type": "application/json", "x-trello-webhook": signature } }
        }
      }]
    })
    const sent = result.requests.sent
    const acknowledged = result["2xx"]

    // The worker runs the accepted events one by one; wait until it has caught up. Records
    // are `JSON.stringify({ t, id, … })`, so a line's start says its kind: polling counts
    // prefixes and leaves the parsing to the end (it shares the two cores with the server).
    const journalLines = () => readFileSync(join(dataDir, "journal.ndjson"), "utf8").split("\n").filter((line) => line !== "")
    const count = (lines: ReadonlyArray<string>, t: string) => lines.filter((line) => line.startsWith(`{"t":"${t}"`)).length
    const drainStarted = performance.now()
    let lines = journalLines()
    await waitFor("the runs to finish", () => {
      lines = journalLines()
      return count(lines, "done") >= count(lines, "accepted")
    }, 120_000)
    const drainSeconds = (performance.now() - drainStarted) / 1000
    const peak = peakRssMb(server.pid!)
    const entries = lines.map((line) => JSON.parse(line) as { t: string; status?: string })
    return {
      seconds,
      connections,
      sent,
      acknowledged,
      refused: result.non2xx,
      errors: result.errors + result.timeouts,
      // Over the time autocannon actually ran.
      perSecond: acknowledged / result.duration,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      peakRssMb: peak,
      accepted: count(lines, "accepted"),
      runs: count(lines, "done"),
      runsSucceeded: entries.filter((e) => e.t === "done" && e.status === "succeeded").length,
      drainSeconds
    }
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- server log (tail)\n${logText().slice(-2000)}`)
  } finally {
    server.kill("SIGTERM")
    await new Promise((resolve) => server.exitCode !== null ? resolve(undefined) : server.once("exit", resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}
