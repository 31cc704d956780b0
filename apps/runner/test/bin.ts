/**
 * The runner's bin, as the tests run it: the built bundle (or, with XRUNNER_BUNDLE, another
 * build of it, e.g. an older one, to see a test fail there), run to its end or spawned. Every
 * spawned child still running when its file's tests end (a test that failed before it could
 * stop it) is killed, so no server outlives the test run.
 */
import { afterAll, expect } from "@effect/vitest"
import { type ChildProcessWithoutNullStreams, execFile, spawn as spawnProcess } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * How long a test waits for one thing (a process to end, a line to be printed, a count to be
 * reached) before it calls it hung: a stall bound, not a speed expectation. Five times the
 * slowest such wait alone, so the suite holds with another `pnpm test` beside it on two cores;
 * a hung test still fails within minutes. The files' whole-test limit is vitest.config.ts's.
 */
export const stallMs = 180_000

export const cli = process.env["XRUNNER_BUNDLE"] ?? fileURLToPath(new URL("../dist/bundle/x-runner.js", import.meta.url))

export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the bin with these arguments (and environment) to its end. */
export const runner = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<Outcome>((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, timeout: stallMs }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? 1, stdout, stderr })
    })
  })

const running = new Set<ChildProcessWithoutNullStreams>()

afterAll(() => {
  for (const child of running) child.kill("SIGKILL")
})

/** Starts a process (the bin, usually) that the test stops; killed at the end of the file if not. */
export const spawn = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): ChildProcessWithoutNullStreams => {
  const child = spawnProcess(command, args, { env: { ...process.env, ...env } })
  running.add(child)
  child.once("exit", () => running.delete(child))
  return child
}

/** A spawned bin whose stdout and stderr are kept, in one log, to wait on. */
export interface Served {
  readonly child: ChildProcessWithoutNullStreams
  readonly log: () => string
  /** Resolves once the log holds `text` (`times` times, for a string), or rejects with the log after `timeoutMs`. */
  readonly waitFor: (text: string | RegExp, times?: number, timeoutMs?: number) => Promise<void>
  /** As `waitFor`, but a process that exits first (one that refuses its file) rejects at once, with its log. */
  readonly ready: (text: string | RegExp) => Promise<void>
  readonly exited: Promise<number | null>
}

/** Spawns the bin with these arguments, keeping its output to wait on (`serve`, usually). */
export const served = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Served => {
  const child = spawn(process.execPath, [cli, ...args], env)
  let log = ""
  child.stderr.on("data", (c: Buffer) => (log += c.toString()))
  child.stdout.on("data", (c: Buffer) => (log += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  const seen = (text: string | RegExp) => typeof text === "string" ? log.split(text).length - 1 : text.test(log) ? 1 : 0
  const waitFor = (text: string | RegExp, times = 1, timeoutMs = stallMs) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now()
      const check = () => {
        if (seen(text) >= times) return resolve()
        if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${text}; log:\n${log}`))
        setTimeout(check, 25)
      }
      check()
    })
  const ready = (text: string | RegExp) =>
    Promise.race([
      waitFor(text),
      exited.then((code) => Promise.reject(new Error(`exited (${code}) before ${text}:\n${log}`)))
    ])
  return { child, log: () => log, waitFor, ready, exited }
}

/**
 * A port free on 127.0.0.1 a moment ago (for a server the test starts in another process), taken
 * below Linux's ephemeral range (32768–60999): the servers a runner starts on port 0 (its
 * sandbox's simulators, its engine's) get theirs from that range, so they never take this one
 * between the check and the runner's listen.
 */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once("error", () => resolve(false))
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error("no free port below the ephemeral range")
}

/** A run as `x-runner runs --output json` lists it. */
export interface RunRow {
  readonly id: string
  readonly workflow: string
  readonly event: string
  readonly status: string
  readonly attempt: number
  readonly acceptedAt: number
  readonly finishedAt: number | null
  readonly failedStep: string | null
  readonly runner: string | null
}

/** The runs `serve` keeps in a data directory (or a database), newest first, as `x-runner runs --output json` prints them. */
export const runsOf = async (where: { readonly dataDir?: string; readonly database?: string }, ...args: ReadonlyArray<string>): Promise<Array<RunRow>> => {
  const location = where.database === undefined ? ["--data-dir", where.dataDir!] : ["--database", where.database]
  const listed = await runner(["runs", ...location, "--output", "json", "--limit", "100000", ...args])
  if (listed.code !== 0) throw new Error(`x-runner runs failed (${listed.code}): ${listed.stderr}`)
  return JSON.parse(listed.stdout) as Array<RunRow>
}

/** The runs' database of a data directory, opened as `serve` keeps it (better-sqlite3 is the runner's dependency). */
export const runsDatabase = (dataDir: string) => {
  const Database = createRequire(import.meta.url)("better-sqlite3") as new(file: string) => {
    exec: (sql: string) => void
    prepare: (sql: string) => { get: (...values: Array<unknown>) => unknown; all: (...values: Array<unknown>) => Array<unknown>; run: (...values: Array<unknown>) => unknown }
    pragma: (text: string) => unknown
    close: () => void
  }
  const db = new Database(join(dataDir, "runs.db"))
  db.pragma(`busy_timeout = ${stallMs}`)
  return db
}

/**
 * Each run's event and status, read straight from a data directory's database: for a loop that
 * waits on the runs (`runsOf` starts a process each time, which a busy machine pays for).
 */
export const runStatuses = (dataDir: string): Array<{ readonly event: string; readonly status: string }> => {
  const db = runsDatabase(dataDir)
  try {
    return db.prepare("SELECT event_id AS event, status FROM xr_runs").all() as Array<{ event: string; status: string }>
  } finally {
    db.close()
  }
}

/** The steps whose write marker serve has committed (each about to send, or having sent, its first write), as `run:step`. */
export const writesSent = (dataDir: string): Array<string> => {
  const db = runsDatabase(dataDir)
  try {
    return (db.prepare("SELECT run_id, name FROM xr_steps WHERE write_sent_at IS NOT NULL ORDER BY run_id, started_at, path").all() as Array<{ run_id: string; name: string }>)
      .map((row) => `${row.run_id}:${row.name}`)
  } finally {
    db.close()
  }
}

/** A polling trigger's cursor as serve stored it (JSON text), if any. */
export const storedCursor = (dataDir: string, workflow: string): string | undefined => {
  const db = runsDatabase(dataDir)
  try {
    return (db.prepare("SELECT cursor FROM xr_triggers WHERE workflow = ?").get(workflow) as { cursor?: string } | undefined)?.cursor
  } finally {
    db.close()
  }
}

/** Replaces a polling trigger's stored cursor (and, given, the parameters it belongs to) as if serve had: a test's way back to an older one. */
export const storeCursor = (dataDir: string, workflow: string, stored: { readonly cursor: string; readonly parameters?: unknown }) => {
  const db = runsDatabase(dataDir)
  try {
    db.prepare("UPDATE xr_triggers SET cursor = ? WHERE workflow = ?").run(stored.cursor, workflow)
    if (stored.parameters !== undefined) db.prepare("UPDATE xr_triggers SET parameters = ? WHERE workflow = ?").run(JSON.stringify(stored.parameters), workflow)
  } finally {
    db.close()
  }
}

/** A task of `run --output json`'s document: an action, or a group, loop or call with the tasks inside. */
export interface RunStep {
  readonly name: string
  readonly key?: string
  readonly kind?: string
  readonly type?: string
  readonly status: string
  readonly output?: any
  readonly error?: { readonly tag: string; readonly message: string }
  readonly tasks?: ReadonlyArray<RunStep>
  readonly iterations?: ReadonlyArray<{ readonly index: number; readonly status: string; readonly tasks: ReadonlyArray<RunStep> }>
}
/** What `run --output json` prints: the run's status and steps, its failure and `onFailure` tasks, and with `--serve`, the trigger's. */
export interface RunDocument {
  readonly status: string
  readonly steps: ReadonlyArray<RunStep>
  readonly failure?: { readonly path: string; readonly tag: string; readonly message: string }
  readonly onFailure?: ReadonlyArray<RunStep>
  readonly trigger?: { readonly type: string; readonly event: string | null; readonly status: string; readonly steps: ReadonlyArray<RunStep> }
}

/**
 * A catalog workflow (every action of one component) run on the sandbox to its end: the run's
 * document, a step's output by name, and the step types that are not the component's actions
 * (`extra`) or that no step runs (`missing`): both empty when the catalog is whole.
 */
export const runCatalog = async (file: string, component: { readonly name: string; readonly version: number; readonly actions: object }, args: ReadonlyArray<string> = []) => {
  const { code, stderr, stdout } = await runner(["run", file, "--sandbox", "--output", "json", ...args])
  if (code !== 0) throw new Error(`the catalog run exited with ${code}: ${stderr}${stdout}`)
  const document = JSON.parse(stdout) as RunDocument
  const types = new Set(document.steps.map((step) => step.type))
  const actions = Object.keys(component.actions).map((name) => `${component.name}/v${component.version}/${name}`)
  return {
    document,
    failed: document.steps.filter((step) => step.status !== "succeeded"),
    output: (name: string) => document.steps.find((step) => step.name === name)!.output,
    missing: actions.filter((type) => !types.has(type)),
    extra: [...types].filter((type) => type === undefined || !actions.includes(type))
  }
}

/** A workflow task, as the trigger tests write them. */
export interface Task {
  readonly label?: string
  readonly name: string
  readonly type: string
  readonly parameters: Record<string, unknown>
}

/**
 * `run <run workflow> --sandbox --serve <trigger workflow>`: both written into `dir`, the run's
 * `tasks` firing the trigger (`type` with its `parameters`) whose workflow is `reads`. Checks
 * that every step of both succeeded and that exactly one event ran; answers the document, a run
 * step's output by name, the trigger's part and stderr.
 */
export const runServing = async (
  dir: string,
  name: string,
  trigger: { readonly type: string; readonly parameters: Record<string, unknown>; readonly reads: Task },
  tasks: ReadonlyArray<Task>
) => {
  const write = (file: string, workflow: unknown) => {
    const path = join(dir, file)
    writeFileSync(path, JSON.stringify(workflow))
    return path
  }
  const served = write(`${name}.trigger.json`, { label: `On ${name}`, triggers: [{ label: name, name, type: trigger.type, parameters: trigger.parameters }], tasks: [trigger.reads] })
  const run = write(`${name}.run.json`, { label: `Fire ${name}`, tasks })
  const { code, stderr, stdout } = await runner(["run", run, "--sandbox", "--serve", served, "--output", "json"])
  expect(code, `${name}: ${stderr}${stdout}`).toBe(0)
  const document = JSON.parse(stdout) as RunDocument
  expect(document.status, name).toBe("succeeded")
  expect(document.steps.map((step) => [step.name, step.status]), name).toEqual(tasks.map((t) => [t.name, "succeeded"]))
  const fired = document.trigger!
  expect(fired.type).toBe(trigger.type)
  expect(fired.status, name).toBe("succeeded")
  // Exactly one event ran: what the run did first fired none.
  expect(stderr.split("[trigger] ▶ event ").length - 1, `${name}: ${stderr}`).toBe(1)
  expect(stderr).toContain(`[trigger] ■ event ${fired.event} succeeded`)
  expect(fired.steps.map((step) => [step.name, step.status])).toEqual([[trigger.reads.name, "succeeded"]])
  return { document, trigger: fired, stderr, stdout, output: (step: string) => document.steps.find((s) => s.name === step)!.output }
}
