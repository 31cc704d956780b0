/**
 * The task tree under `serve`, durably: a 100-item loop whose runner is killed (-9) in the
 * middle, then started again, writes each item once; a 10-second `delay` interrupted at 5 s
 * by a stop ends 5 s after the restart, not 10; an `onFailure` path comments once, however
 * often its event is delivered again and its runner killed (after its run, and while its
 * comment is in flight); `runs retry` of a run whose loop failed at one iteration sends that
 * iteration again and none of the others.
 *
 * The delay runs in this process on the engine's layers, driven by `TestClock`; the others run
 * the bin against a Trello simulator behind a proxy, which counts, holds or fails requests so
 * that each kill happens at a known point (no wait depends on the machine's speed).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { Connections } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as TestClock from "effect/TestClock"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, request, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Components from "../src/components/Components.js"
import * as Database from "../src/store/Database.js"
import * as Engine from "../src/engine/Engine.js"
import * as RunStore from "../src/store/RunStore.js"
import * as SqlWorkflowEngine from "../src/store/SqlWorkflowEngine.js"
import * as Workflow from "../src/workflow/Workflow.js"
import { freePort, runner, runStatuses, served, type Served, stallMs } from "./bin.js"
import * as TrelloDelivery from "./fixtures/trelloDelivery.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-durable-tree-"))

/** Waits (in real time) for a condition; the bound only finds a stall. */
const waitUntil = async (what: string, done: () => boolean | Promise<boolean>, log: () => string = () => "") => {
  const deadline = Date.now() + stallMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${log().slice(-4000)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe("a delay across a restart", () => {
  /** A run that waits 10 seconds, then ends. */
  const workflow = Either.getOrThrowWith(
    Workflow.parse(
      JSON.stringify({ label: "Wait ten seconds", tasks: [{ label: "Wait", name: "pause", delay: "10 seconds" }] }),
      new Map(),
      Components.make([], { rateLimits: false }).executor
    ),
    (issues) => new Error(JSON.stringify(issues))
  )
  const started = Date.parse("2026-11-27T00:00:00.000Z")

  /** The engine of a runner on the data directory, built in `scope`: its store, and its engine with the run workflow registered. */
  const engineOn = (dataDir: string, runnerId: string, scope: Scope.Scope, stopping: { stopped: boolean }) =>
    Effect.gen(function*() {
      const waiting = yield* Engine.makeWaiting
      const runs: Engine.Runs = {
        runner: runnerId,
        workflows: new Map([["pause", workflow]]),
        executor: Components.make([], { rateLimits: false }).executor,
        concurrency: 1,
        say: () => Effect.void,
        stopping: () => stopping.stopped,
        stop: Effect.interrupt,
        waiting
      }
      const layer = Engine.runsLayer(runs).pipe(
        Layer.provideMerge(SqlWorkflowEngine.layer),
        Layer.provideMerge(RunStore.layer),
        Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
        Layer.provide(NodeContext.layer),
        // No action runs: no connection is read.
        Layer.provideMerge(Layer.provide(Connections.layer(new Map()), UndiciHttpClient.layer))
      )
      return { context: yield* Layer.buildWithScope(layer, scope), waiting }
    })

  /**
   * Waits in real time (the test's clock stands still) until the runner's run waits, asleep on the
   * test clock until `at` (an interrupted sleep may stay in the clock's list: the runner's count
   * of its waiting runs says this one's has begun).
   */
  const asleepUntil = (waiting: Engine.Waiting, at: number) =>
    Effect.gen(function*() {
      const deadline = Date.now() + stallMs
      while (waiting.size() !== 1 || !Chunk.toReadonlyArray(yield* TestClock.sleeps()).includes(at)) {
        if (Date.now() > deadline) return yield* Effect.dieMessage(`no wait until ${new Date(at).toISOString()}: ${Chunk.toReadonlyArray(yield* TestClock.sleeps()).map((t) => new Date(t).toISOString())}`)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      }
    })

  it.effect("a 10-second delay stopped at 5 s ends 5 s after the restart: the time it waits until is the first start's + 10 s", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(started)
      const dataDir = mkdtempSync(join(dir, "delay-"))
      const until = started + 10_000

      // The first runner: the run starts, its wait journals the time it waits until, and sleeps.
      const first = yield* Scope.make()
      const firstStopping = { stopped: false }
      const { context: engine, waiting } = yield* engineOn(dataDir, "runner-a", first, firstStopping)
      const store = RunStore.RunStore.pipe(Effect.provide(engine))
      const { runId } = yield* Effect.flatMap(store, (s) => s.accept("pause", { id: "e-delay", output: {} }))
      expect(yield* Effect.flatMap(store, (s) => s.toHand(8))).toEqual([{ runId, attempt: 0 }])
      const execute = (context: typeof engine) =>
        Effect.forkDaemon(Effect.provide(
          Effect.flatMap(WorkflowEngine.WorkflowEngine, (e) => e.execute(Engine.RunWorkflow, { executionId: `${runId}/0`, payload: { runId, attempt: 0 } })),
          context
        ))
      yield* execute(engine)
      yield* asleepUntil(waiting, until)
      yield* TestClock.adjust("5 seconds")
      const show = (context: typeof engine) => Effect.flatMap(Effect.provide(RunStore.RunStore, context), (s) => Effect.map(s.show(runId), Option.getOrThrow))
      expect((yield* show(engine)).run.status).toBe("running")

      // Stopped at 5 s (its execution interrupted: it resumes from its journal).
      firstStopping.stopped = true
      yield* Scope.close(first, Exit.void)

      // Another runner on the same database takes the run up: it waits only what remains.
      const second = yield* Scope.make()
      const { context: resumed, waiting: waitingAgain } = yield* engineOn(dataDir, "runner-b", second, { stopped: false })
      expect(yield* Effect.flatMap(Effect.provide(RunStore.RunStore, resumed), (s) => s.toHand(8))).toEqual([{ runId, attempt: 0 }])
      const execution = yield* execute(resumed)
      // Asleep until the first start + 10 s (recomputed, the wait would sleep until the restart + 10 s).
      yield* asleepUntil(waitingAgain, until)
      expect(Chunk.toReadonlyArray(yield* TestClock.sleeps())).not.toContain(started + 15_000)
      yield* TestClock.adjust("4999 millis")
      const before = yield* show(resumed)
      expect(before.run.status).toBe("running")
      expect(before.steps.find((step) => step.path === "pause")).toBeUndefined()
      // Its last millisecond: the run ends, 5 s after the restart.
      yield* TestClock.adjust("1 millis")
      // (Bounded in real time: a run that slept until the restart + 10 s would never end here.)
      const end = yield* Effect.raceFirst(
        Fiber.join(execution),
        Effect.zipRight(Effect.promise(() => new Promise((resolve) => setTimeout(resolve, stallMs))), Effect.dieMessage("the resumed run did not end 5 s after its restart"))
      )
      expect(end).toBe("succeeded")
      const after = yield* show(resumed)
      expect(after.run.status).toBe("succeeded")
      expect(after.steps.find((step) => step.path === "pause")).toMatchObject({ kind: "wait", status: "succeeded", output: { until: new Date(until).toISOString() } })
      yield* Scope.close(second, Exit.void)
    }))
})

const { boards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
/** What the proxy does with a request (by method, path and its parameters' values): forwarded, held, or answered. */
type Verdict = "forward" | "hold" | { readonly status: number; readonly text: string }
let intercept: (method: string, path: string, values: string) => Verdict = () => "forward"
/** The requests the proxy holds, each forwarded when called; and each request that reached it, with its values. */
let held: Array<{ readonly values: string; readonly forward: () => void }> = []
const seen: Array<{ readonly method: string; readonly path: string; readonly values: string }> = []
/** In front of the simulator: the runner's requests pass here. */
let proxy: Server
let env: Record<string, string>

beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "tree-key-0123456789", token: "tree-token-0123456789abcdef", rateLimits: false })
  const upstream = new URL(sim.baseUrl)
  proxy = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const [path = "", query = ""] = (req.url ?? "").split("?")
      // Its parameters' values, from the query and a form body.
      const values = [...new URLSearchParams(query).values(), ...new URLSearchParams(body.toString()).values()].join("\n")
      seen.push({ method: req.method ?? "GET", path, values })
      // The runner killed meanwhile: its answer goes nowhere.
      res.on("error", () => {})
      const forward = () => {
        const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        out.on("error", () => res.writeHead(502).end())
        out.end(body)
      }
      const verdict = intercept(req.method ?? "GET", path, values)
      if (verdict === "forward") forward()
      else if (verdict === "hold") held.push({ values, forward })
      else res.writeHead(verdict.status, { "content-type": "text/plain" }).end(verdict.text)
    })
  })
  proxy.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  env = {
    XRUNNER_BOARDTOOL_KEY: sim.key,
    XRUNNER_BOARDTOOL_TOKEN: sim.token,
    XRUNNER_BOARDTOOL_SECRET: sim.secret,
    XRUNNER_BOARDTOOL_BASE_URL: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/1`
  }
})
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  await sim.close()
})

/** A card in To Do, made at the simulator before any webhook watches it (the trigger reads a delivered card back). */
const createCard = async (name: string) => {
  const response = await fetch(`${sim.baseUrl}/cards?idList=${lists.roadmapToDo}&name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` }
  })
  return { id: (await response.json() as { id: string }).id, name }
}

/** Trello's delivery of the card's creation (action `actionId`), signed for the public URL; the answer's status. */
const deliver = (card: { readonly id: string; readonly name: string }, actionId: string, publicUrl: string) =>
  TrelloDelivery.deliver(sim.secret, TrelloDelivery.cardCreated(card, actionId), publicUrl)

/** A workflow file on a new card in To Do, with these tasks (and inputs, onFailure). */
const workflowFile = (name: string, workflow: Record<string, unknown>) => {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({
    label: name,
    triggers: [{ label: "A card in To Do", name: "created", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } }],
    ...workflow
  }))
  return file
}

/** `serve` of one workflow file on its own data directory and port. */
const serving = async (file: string, name: string) => {
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}/hooks/${name}`
  const dataDir = mkdtempSync(join(dir, `${name}-`))
  const start = async () => {
    const started = served(["serve", file, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir, "--without-rate-limits"], env)
    // A runner that refuses the file (as serve refused the task tree before it ran it durably) ends at once.
    await started.ready("● serving boardtool/v1/newCard")
    return started
  }
  return { publicUrl, dataDir, start }
}

/** Kills (-9) a runner and waits for its end. */
const kill = async (runner: Served) => {
  runner.child.kill("SIGKILL")
  await runner.exited
}

/** The run of an event and its tasks' rows, as `runs show --output json` prints them. */
const shown = async (dataDir: string, eventId: string) => {
  const listed = await runner(["runs", "--data-dir", dataDir, "--output", "json"])
  const run = (JSON.parse(listed.stdout) as Array<{ id: string; event: string }>).find((row) => row.event === eventId)!
  const show = await runner(["runs", "show", run.id, "--data-dir", dataDir, "--output", "json"])
  expect(show.code, show.stderr).toBe(0)
  return JSON.parse(show.stdout) as {
    readonly id: string
    readonly status: string
    readonly attempt: number
    readonly failedStep: string | null
    readonly steps: ReadonlyArray<{ readonly path: string; readonly status: string; readonly error?: { readonly tag: string; readonly message: string }; readonly input?: unknown }>
  }
}

/** Waits until the run of an event has ended (or reached `status`). */
const ended = (dataDir: string, eventId: string, log: () => string, status?: string) =>
  waitUntil(`the run of ${eventId} to end${status === undefined ? "" : ` ${status}`}`, () =>
    runStatuses(dataDir).some((run) =>
      run.event === eventId && (status === undefined ? !["accepted", "running"].includes(run.status) : run.status === status)
    ), log)

/** The comments at the simulator with exactly this text. */
const comments = (text: string) => sim.actions.filter((action) => action.type === "commentCard" && action.data["text"] === text).length

describe("a 100-item loop under serve, killed -9", () => {
  it("killed in the middle and started again: each item's create reached the provider exactly once, 100 iterations succeeded", async () => {
    const items = Array.from({ length: 100 }, (_, n) => `tree item ${n}`)
    const file = workflowFile("copy-each", {
      inputs: { items },
      tasks: [{
        label: "Create a card per item",
        name: "each",
        forEach: "inputs.items",
        as: "item",
        concurrency: 4,
        tasks: [{ label: "Create it", name: "copy", type: "boardtool/v1/createCard", parameters: { idList: lists.roadmapDone, name: "${item}" } }]
      }]
    })
    const card = await createCard("loop trigger")
    const { dataDir, publicUrl, start } = await serving(file, "copy-each")
    // The first 40 creates reach the provider; those after them are held, in flight.
    let forwarded = 0
    intercept = (method, path, values) => {
      if (method !== "POST" || path !== "/1/cards" || !values.includes("tree item ")) return "forward"
      return forwarded++ < 40 ? "forward" : "hold"
    }
    const first = await start()
    expect(await deliver(card, "7ee000000000000000000001", publicUrl)).toBe(200)
    // Four iterations at once: four creates in flight (their write markers committed).
    await waitUntil("four creates held", () => held.length === 4, first.log)
    await kill(first)
    // What the kill cut short reaches the provider anyway.
    const cutShort = held.map(({ values }) => Number(/tree item (\d+)/.exec(values)![1]))
    for (const { forward } of held) forward()
    held = []
    const made = () => [...sim.cards.values()].filter((c) => c.idList === lists.roadmapDone && c.name.startsWith("tree item "))
    await waitUntil("44 cards at the provider", () => made().length === 44, first.log)
    intercept = () => "forward"

    const second = await start()
    await ended(dataDir, "7ee000000000000000000001", second.log, "succeeded")
    // Each item's card exactly once: none created twice, none missing.
    const byName = new Map<string, number>()
    for (const c of made()) byName.set(c.name, (byName.get(c.name) ?? 0) + 1)
    expect([...byName.keys()].sort()).toEqual([...items].sort())
    expect([...byName.values()].filter((n) => n !== 1)).toEqual([])
    // The restarted runner found what the kill cut short, and sent the 56 creates left once each.
    expect(second.log()).toContain("↻ 1 run accepted before a stop and not finished")
    for (const n of cutShort) expect(second.log()).toContain(`↻ each[${n}].copy: found what its attempt cut short created; not sent again`)
    const sent = seen.filter((request) => request.method === "POST" && request.path === "/1/cards" && request.values.includes("tree item "))
    expect(sent.length).toBe(100)
    const run = await shown(dataDir, "7ee000000000000000000001")
    expect(run.status).toBe("succeeded")
    const iterations = run.steps.filter((step) => /^each\[\d+\]\.copy$/.test(step.path))
    expect(iterations.map((step) => step.path).sort()).toEqual(items.map((_, n) => `each[${n}].copy`).sort())
    expect(iterations.every((step) => step.status === "succeeded")).toBe(true)
    expect(run.steps.find((step) => step.path === "each")).toMatchObject({ status: "succeeded" })
    second.child.kill("SIGTERM")
    await second.exited
  })
})

describe("an onFailure path under serve", () => {
  it("comments once: its event delivered again, its runner killed after the run and while its comment is in flight", async () => {
    const file = workflowFile("tell-on-failure", {
      tasks: [{ label: "Read a card that does not exist", name: "read", type: "boardtool/v1/getCard", parameters: { id: "5eed00000000000000000ffe" } }],
      onFailure: [{
        label: "Comment on the card",
        name: "tell",
        type: "boardtool/v1/addComment",
        parameters: { idBoard: boards.roadmap, idCard: "${trigger.id}", text: "${= 'failed: ' + trigger.name + ' at ' + failure.path + ': ' + failure.tag}" }
      }]
    })
    const [first, second] = [await createCard("failing one"), await createCard("failing two")]
    const { dataDir, publicUrl, start } = await serving(file, "tell-on-failure")
    const told = (card: { readonly name: string }) => comments(`failed: ${card.name} at read: NotFound`)

    // The run fails, its onFailure comments; the event delivered again and the runner killed (-9) after the run.
    let serve = await start()
    expect(await deliver(first, "7ee000000000000000000101", publicUrl)).toBe(200)
    await ended(dataDir, "7ee000000000000000000101", serve.log)
    expect(told(first)).toBe(1)
    expect(await deliver(first, "7ee000000000000000000101", publicUrl)).toBe(200)
    await serve.waitFor("= event 7ee000000000000000000101 was delivered again")
    await kill(serve)
    serve = await start()
    expect(await deliver(first, "7ee000000000000000000101", publicUrl)).toBe(200)
    await serve.waitFor("= event 7ee000000000000000000101 was delivered again")
    expect(told(first)).toBe(1)
    expect(await shown(dataDir, "7ee000000000000000000101")).toMatchObject({ status: "failed", failedStep: "read", attempt: 0 })

    // Killed while the onFailure's comment is in flight (held here, its write marker committed), which then reaches the provider.
    intercept = (method, path, values) => method === "POST" && path.endsWith("/actions/comments") && values.includes(second.name) ? "hold" : "forward"
    expect(await deliver(second, "7ee000000000000000000102", publicUrl)).toBe(200)
    await waitUntil("the comment held", () => held.length === 1, serve.log)
    await kill(serve)
    for (const { forward } of held) forward()
    held = []
    await waitUntil("the comment at the provider", () => told(second) === 1)
    intercept = () => "forward"
    serve = await start()
    await ended(dataDir, "7ee000000000000000000102", serve.log)
    expect(await deliver(second, "7ee000000000000000000102", publicUrl)).toBe(200)
    await serve.waitFor("= event 7ee000000000000000000102 was delivered again")
    // Not sent again (addComment cannot find what it sent): the comment once, its task's outcome unknown, for a person to check.
    expect(told(second)).toBe(1)
    expect(seen.filter((request) => request.method === "POST" && request.values.includes(`failed: ${second.name}`)).length).toBe(1)
    const run = await shown(dataDir, "7ee000000000000000000102")
    // The run failed at its task, and its failure path's outcome is unknown: the run is unknown, for a person (a retry would comment again).
    expect(run).toMatchObject({ status: "unknown", failedStep: "read" })
    expect(run.steps.find((step) => step.path === "tell")).toMatchObject({ status: "unknown", error: { tag: "OutcomeUnknown" } })
    serve.child.kill("SIGTERM")
    await serve.exited
  })
})

describe("a write cut short by its step's time limit", () => {
  it("ends unknown with what it sent, for a person to check (runs show and the runs page show its input)", async () => {
    const file = workflowFile("create-in-time", {
      tasks: [{
        label: "Create a card in time",
        name: "create",
        type: "boardtool/v1/createCard",
        // Long enough for the write marker to be committed and the request sent on a busy machine
        // (before its marker, a step cut short by its limit fails, not unknown); the request is held past it.
        timeout: "5 seconds",
        parameters: { idList: lists.roadmapDone, name: "${= 'made for ' + trigger.name}" }
      }]
    })
    const card = await createCard("timed trigger")
    const { dataDir, publicUrl, start } = await serving(file, "create-in-time")
    // The create reaches the proxy (its write marker committed) and is held past its time limit.
    intercept = (method, path, values) => method === "POST" && path === "/1/cards" && values.includes("made for timed trigger") ? "hold" : "forward"
    const serve = await start()
    expect(await deliver(card, "7ee000000000000000000201", publicUrl)).toBe(200)
    await ended(dataDir, "7ee000000000000000000201", serve.log)
    expect(held.length).toBe(1)
    for (const { forward } of held) forward()
    held = []
    intercept = () => "forward"
    const run = await shown(dataDir, "7ee000000000000000000201")
    expect(run).toMatchObject({ status: "unknown", failedStep: "create" })
    const step = run.steps.find((step) => step.path === "create")
    expect(step).toMatchObject({ status: "unknown", error: { tag: "OutcomeUnknown", message: expect.stringContaining("cut short by a time limit") } })
    expect(step?.input).toMatchObject({ idList: lists.roadmapDone, name: "made for timed trigger" })
    serve.child.kill("SIGTERM")
    await serve.exited
  })
})

describe("runs retry of a loop that failed at one iteration", () => {
  it("sends the failed iteration again and none of those that succeeded; the run then succeeds", async () => {
    const letters = ["a", "b", "c", "d", "e"]
    const file = workflowFile("comment-each", {
      inputs: { letters },
      tasks: [{
        label: "Comment once per letter",
        name: "each",
        forEach: "inputs.letters",
        as: "letter",
        concurrency: 2,
        tasks: [{
          label: "Comment",
          name: "comment",
          type: "boardtool/v1/addComment",
          parameters: { idBoard: boards.roadmap, idCard: "${trigger.id}", text: "${= 'retried loop: ' + letter}" }
        }]
      }]
    })
    const card = await createCard("retried loop")
    const { dataDir, publicUrl, start } = await serving(file, "comment-each")
    // The comment of "c" is answered 404 the first time (Trello's NotFound: not retried).
    let failed = 0
    intercept = (method, path, values) =>
      method === "POST" && path.endsWith("/actions/comments") && values.includes("retried loop: c") && failed++ === 0
        ? { status: 404, text: "The requested resource was not found." }
        : "forward"
    const sentOf = (letter: string) => seen.filter((request) => request.method === "POST" && request.values.includes(`retried loop: ${letter}`)).length
    const serve = await start()
    expect(await deliver(card, "7ee000000000000000000201", publicUrl)).toBe(200)
    await ended(dataDir, "7ee000000000000000000201", serve.log)
    const failedRun = await shown(dataDir, "7ee000000000000000000201")
    expect(failedRun).toMatchObject({ status: "failed", failedStep: "each[2].comment" })
    expect(letters.map((letter) => comments(`retried loop: ${letter}`))).toEqual([1, 1, 0, 1, 1])

    const retried = await runner(["runs", "retry", failedRun.id, "--data-dir", dataDir])
    expect(retried.code, retried.stderr).toBe(0)
    await ended(dataDir, "7ee000000000000000000201", serve.log, "succeeded")
    // Only the failed iteration was sent again.
    expect(letters.map(sentOf)).toEqual([1, 1, 2, 1, 1])
    expect(letters.map((letter) => comments(`retried loop: ${letter}`))).toEqual([1, 1, 1, 1, 1])
    const run = await shown(dataDir, "7ee000000000000000000201")
    expect(run).toMatchObject({ status: "succeeded", attempt: 1, failedStep: null })
    expect(run.steps.filter((step) => step.path.startsWith("each[")).map((step) => `${step.path}:${step.status}`).sort())
      .toEqual(letters.map((_, n) => `each[${n}].comment:succeeded`))
    serve.child.kill("SIGTERM")
    await serve.exited
  })
})
