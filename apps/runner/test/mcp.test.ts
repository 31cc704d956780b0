/**
 * `x-runner mcp` end to end, through the built bundle, driven by the official MCP SDK's client:
 * over stdio on the sandbox (every action of the three components a tool, schemas a validator
 * takes, annotations from the catalog's impact marks); over stdio on a Trello simulator in this
 * process (a card created, options by completion and by list_options, a bad id refused before
 * anything is sent, 200 parallel calls under the token's rate limit, the log of calls); and over
 * Streamable HTTP (the loopback Host and Origin checks, the bearer token in any case, a body
 * over the limit answered 413, confirmation of a destructive call by elicitation after its
 * arguments are checked, the log's call numbers, a log an agent cannot forge, a workflow as a
 * tool recorded in the run history with its inputs logged by name only, a workflow file changed
 * since the start refused, a named connection of the connections file); and over stdio on a
 * connections file with named connections only (each call names one).
 */
import * as TrelloSimulator from "@x/boardtool/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type CallToolResult, ElicitRequestSchema, type ElicitRequest, type Tool } from "@modelcontextprotocol/sdk/types.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cli, runner, runsOf, type Served, served, stallMs } from "./bin.js"
import * as Deliveries from "./fixtures/deliveries.js"

const { boards, cards, lists } = TrelloSimulator.seed

/** A Trello id of no card. */
const unknownCard = "5eed0000000000000000ffff"

/**
 * A validator of JSON Schema 2020-12 (MCP's dialect), strict: an unknown keyword, a type that
 * contradicts another or a `required` naming no property is an error, not a warning.
 */
const validator = () => new Ajv2020({ strict: true, allErrors: true })

/** The environment a runner gets: this process's (for node's own) but for the names of `without`, with these on top. */
const environment = (extra: Record<string, string>, without?: RegExp): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && without?.test(name) !== true) env[name] = value
  return { ...env, ...extra }
}

/** Resolves once `check` holds, polled; rejects after `stallMs`. */
const until = async (check: () => boolean) => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > stallMs) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The bin's `mcp` over stdio, spawned by the SDK's transport (closing the client ends it); its stderr kept. */
const stdioServer = async (args: ReadonlyArray<string>, env: Record<string, string> = {}, without?: RegExp) => {
  const client = new Client({ name: "mcp.test", version: "1.0.0" })
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", ...args], env: environment(env, without), stderr: "pipe" })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  await client.connect(transport, { timeout: stallMs })
  return { client, stderr: () => stderr }
}

/** The bin's `mcp` over Streamable HTTP on a free port: its URL once it says it listens. */
const httpServer = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const server = served(["mcp", "--port", "0", ...args], env)
  const listening = /● mcp at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/
  await server.ready(listening)
  const [, url, port] = listening.exec(server.log())!
  return { server, url: new URL(url!), port: Number(port) }
}

const stop = async (server: Served) => {
  server.child.kill("SIGTERM")
  await server.exited
}

/** A client of an HTTP server, with these headers on every request. */
const httpClient = async (url: URL, options: { readonly headers?: Record<string, string>; readonly client?: Client } = {}) => {
  const client = options.client ?? new Client({ name: "mcp.test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(url, options.headers === undefined ? {} : { requestInit: { headers: options.headers } }), { timeout: stallMs })
  return client
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: stallMs })) as CallToolResult

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("")

/** A raw POST of an initialize request to the MCP endpoint, with these headers: its status and body. */
const rawInitialize = (port: number, headers: Record<string, string>) =>
  new Promise<{ readonly status: number; readonly body: string; readonly headers: Record<string, unknown> }>((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    })
    // node:http, not fetch: fetch does not let a caller set Host.
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": Buffer.byteLength(body), ...headers }
    }, (res) => {
      let text = ""
      res.on("data", (chunk: Buffer) => (text += chunk.toString()))
      res.on("end", () => resolve({ status: res.statusCode!, body: text, headers: res.headers }))
    })
    req.on("error", reject)
    req.end(body)
  })

/**
 * A raw POST of `size` bytes to the MCP endpoint: its status and body once it answers (the rest
 * of the body may then not be taken: the server closes the connection, so a failure to send the
 * rest after the answer is no failure here).
 */
const rawPost = (port: number, size: number) =>
  new Promise<{ readonly status: number; readonly body: string }>((resolve, reject) => {
    let answered = false
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": size }
    }, (res) => {
      answered = true
      let text = ""
      res.on("data", (chunk: Buffer) => (text += chunk.toString()))
      res.on("end", () => resolve({ status: res.statusCode!, body: text }))
      res.on("error", reject)
    })
    req.on("error", (error) => {
      if (!answered) reject(error)
    })
    req.end(Buffer.alloc(size, " "))
  })

/** Creates a card on the simulator straight away (not through the runner): its id. */
const cardOn = async (sim: TrelloSimulator.Simulator, name: string) => {
  const created = await fetch(`${sim.baseUrl}/cards?idList=${lists.roadmapToDo}&name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` }
  })
  expect(created.status).toBe(200)
  return (await created.json() as { id: string }).id
}

/** An action of `x-runner describe`'s JSON. */
interface Described {
  readonly name: string
  readonly title: string
  readonly impact: "read" | "write" | "destroy"
  readonly idempotent: boolean
}

describe("x-runner mcp --sandbox over stdio: the whole catalog", () => {
  let client: Client
  let tools: ReadonlyArray<Tool>
  let catalog: ReadonlyArray<{ readonly name: string; readonly actions: ReadonlyArray<Described> }>
  beforeAll(async () => {
    const [started, described] = await Promise.all([stdioServer(["--sandbox", "--allow-destructive", "--no-history"]), runner(["describe"])])
    expect(described.code, described.stderr).toBe(0)
    catalog = JSON.parse(described.stdout)
    client = started.client
    tools = (await client.listTools(undefined, { timeout: stallMs })).tools
  })
  afterAll(() => client?.close())

  it("offers every action of the three components as <component>_<action>, and list_options", () => {
    const actions = catalog.flatMap((component) => component.actions.map((action) => `${component.name}_${action.name}`))
    // The three providers' components (the runner's own have triggers only).
    expect(catalog.filter((component) => component.actions.length > 0).map((component) => component.name).sort()).toEqual(["boardtool", "browseragent", "sitebuilder"])
    expect(actions.length).toBeGreaterThan(150)
    expect(tools.map((tool) => tool.name).sort()).toEqual([...actions, "list_options"].sort())
  })

  it("every inputSchema and outputSchema is valid JSON Schema 2020-12 and compiles", () => {
    const ajv = validator()
    const invalid: Array<string> = []
    for (const tool of tools) {
      for (const [which, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]] as const) {
        if (schema === undefined) {
          invalid.push(`${tool.name} ${which}: none`)
          continue
        }
        expect(schema.type, `${tool.name} ${which}`).toBe("object")
        // Against the 2020-12 meta-schema (Ajv2020's default for a schema without $schema), then compiled.
        if (!ajv.validateSchema(schema)) invalid.push(`${tool.name} ${which}: ${ajv.errorsText(ajv.errors)}`)
        try {
          ajv.compile(schema)
        } catch (error) {
          invalid.push(`${tool.name} ${which}: ${(error as Error).message}`)
        }
      }
    }
    expect(invalid).toEqual([])
  })

  it("annotations say what describe says of each action: read-only, destructive, idempotent", () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    let destroying = 0
    for (const component of catalog) {
      for (const action of component.actions) {
        const name = `${component.name}_${action.name}`
        expect(byName.get(name)?.annotations, name).toEqual({
          title: action.title,
          readOnlyHint: action.impact === "read",
          destructiveHint: action.impact === "destroy",
          idempotentHint: action.idempotent,
          openWorldHint: true
        })
        if (action.impact === "destroy") destroying++
      }
    }
    // With --allow-destructive, the destroying tools are offered, marked.
    expect(destroying).toBeGreaterThan(0)
    expect(byName.get("boardtool_deleteCard")?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false })
    expect(byName.get("list_options")?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
  })
})

describe("x-runner mcp over stdio on a Trello simulator", () => {
  let sim: TrelloSimulator.Simulator
  let client: Client
  let stderr: () => string
  let tools: ReadonlyArray<Tool>
  beforeAll(async () => {
    // Trello's own limits: 100 requests per 10 s per token.
    sim = await TrelloSimulator.start({ key: "mcp-key-0123456789abcdef", token: "mcp-token-0123456789abcdef0123456789" })
    const started = await stdioServer(["--no-history"], Deliveries.environment(sim))
    client = started.client
    stderr = started.stderr
    tools = (await client.listTools(undefined, { timeout: stallMs })).tools
  })
  afterAll(async () => {
    await client?.close()
    await sim?.close()
  })
  const tool = (name: string) => {
    const found = tools.find((t) => t.name === name)
    if (found === undefined) throw new Error(`no tool ${name}`)
    return found
  }

  it("without --allow-destructive: no destroying tool, and a call of one is refused with nothing sent", async () => {
    expect(tools.length).toBeGreaterThan(0)
    expect(tools.map((t) => t.name)).not.toContain("boardtool_deleteCard")
    expect(tools.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name)).toEqual([])
    // Only boardtool has a connection (the environment's): only its tools.
    expect(tools.filter((t) => t.name !== "list_options" && !t.name.startsWith("boardtool_")).map((t) => t.name)).toEqual([])
    const before = sim.stats.requests
    await expect(client.callTool({ name: "boardtool_deleteCard", arguments: { id: cards.rotateKeys } }, undefined, { timeout: stallMs }))
      .rejects.toThrow(/no tool boardtool_deleteCard/)
    expect(sim.cards.has(cards.rotateKeys)).toBe(true)
    expect(sim.stats.requests).toBe(before)
  })

  it("boardtool_createCard creates the card, its structuredContent valid against the tool's outputSchema", async () => {
    const result = await call(client, "boardtool_createCard", { idList: lists.roadmapToDo, name: "Written by an agent", desc: "over MCP" })
    expect(result.isError, textOf(result)).toBeFalsy()
    const structured = result.structuredContent as { id: string; name: string; idList: string }
    const validate = validator().compile(tool("boardtool_createCard").outputSchema!)
    expect(validate(structured), JSON.stringify(validate.errors)).toBe(true)
    const card = sim.cards.get(structured.id)
    expect(card).toMatchObject({ name: "Written by an agent", desc: "over MCP", idList: lists.roadmapToDo, idBoard: boards.roadmap })
    expect(structured).toMatchObject({ id: card!.id, name: "Written by an agent", idList: lists.roadmapToDo })
    // The text is the same document, for clients that read only text.
    expect(JSON.parse(textOf(result))).toEqual(structured)
  })

  it("an action without output answers empty structuredContent, valid against its outputSchema", async () => {
    const unread = () => [...sim.notifications.values()].filter((notification) => notification.idMember === sim.member.id && notification.unread)
    expect(unread().length).toBeGreaterThan(0)
    const result = await call(client, "boardtool_markAllNotificationsRead", {})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(result.structuredContent).toEqual({})
    const validate = validator().compile(tool("boardtool_markAllNotificationsRead").outputSchema!)
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true)
    expect(unread()).toEqual([])
  })

  it("completes idList given idBoard with that board's lists, and list_options says the same", async () => {
    const seeded = [...sim.lists.values()].filter((list) => list.idBoard === boards.roadmap && !list.closed)
    expect(seeded.map((list) => list.id).sort()).toEqual([lists.roadmapToDo, lists.roadmapDoing, lists.roadmapDone].sort())
    const completed = await client.complete(
      { ref: { type: "ref/prompt", name: "boardtool_createCard" }, argument: { name: "idList", value: "" }, context: { arguments: { idBoard: boards.roadmap } } },
      { timeout: stallMs }
    )
    expect([...completed.completion.values].sort()).toEqual(seeded.map((list) => list.id).sort())
    expect(completed.completion.total).toBe(seeded.length)
    // Another board, other lists: the completion follows the value it depends on.
    const other = await client.complete(
      { ref: { type: "ref/prompt", name: "boardtool_createCard" }, argument: { name: "idList", value: "" }, context: { arguments: { idBoard: boards.operations } } },
      { timeout: stallMs }
    )
    expect([...other.completion.values].sort()).toEqual([lists.operationsToDo, lists.operationsDoing, lists.operationsDone].sort())
    // What was typed narrows them (a list's name, any case).
    const typed = await client.complete(
      { ref: { type: "ref/prompt", name: "boardtool_createCard" }, argument: { name: "idList", value: "doi" }, context: { arguments: { idBoard: boards.roadmap } } },
      { timeout: stallMs }
    )
    expect(typed.completion.values).toEqual([lists.roadmapDoing])

    const listed = await call(client, "list_options", { tool: "boardtool_createCard", property: "idList", values: { idBoard: boards.roadmap } })
    expect(listed.isError, textOf(listed)).toBeFalsy()
    const options = (listed.structuredContent as { options: Array<{ label: string; value: string }> }).options
    expect(options.map((option) => option.value).sort()).toEqual([...completed.completion.values].sort())
    expect(options.map((option) => [option.value, option.label]).sort()).toEqual(seeded.map((list) => [list.id, list.name]).sort())
    const validate = validator().compile(tool("list_options").outputSchema!)
    expect(validate(listed.structuredContent), JSON.stringify(validate.errors)).toBe(true)
  })

  it("a bad id is an isError result naming the input, and nothing is sent", async () => {
    const before = { ...sim.stats }
    const result = await call(client, "boardtool_getCard", { id: "nope" })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^InvalidInput: .*\bid\b/)
    expect(result.structuredContent).toBeUndefined()
    expect(result._meta?.["x-runner/error"]).toMatchObject({ tag: "InvalidInput", issues: [expect.objectContaining({ path: "id" })] })
    // A required input left out: the same, before anything is sent.
    const missing = await call(client, "boardtool_createCard", { name: "no list" })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toMatch(/^InvalidInput: .*\bidList\b/)
    expect(sim.stats).toEqual(before)
  })

  it("a provider's refusal is an isError result with the typed error's tag, not a protocol error", async () => {
    const before = sim.stats.requests
    const result = await call(client, "boardtool_getCard", { id: unknownCard })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    const error = result._meta?.["x-runner/error"] as { tag: string; message: string }
    expect(error.tag).toMatch(/^[A-Z][A-Za-z]+$/)
    expect(error.tag).not.toBe("InvalidInput")
    expect(textOf(result)).toBe(`${error.tag}: ${error.message}`)
    // This one was sent: Trello answered it.
    expect(sim.stats.requests).toBeGreaterThan(before)
  })

  it("200 parallel calls on one Trello token: 0 failures, at most 2 % answered 429, 200 cards", async () => {
    const before = { ...sim.stats }
    const cardsBefore = sim.cards.size
    const count = 200
    const results = await Promise.all(
      Array.from({ length: count }, (_, n) => call(client, "boardtool_createCard", { idList: lists.roadmapDoing, name: `burst ${n}` }))
    )
    const failures = results.filter((result) => result.isError === true).map(textOf)
    expect(failures).toEqual([])
    const ids = results.map((result) => (result.structuredContent as { id: string }).id)
    expect(new Set(ids).size).toBe(count)
    expect(sim.cards.size - cardsBefore).toBe(count)
    expect(ids.map((id) => sim.cards.get(id)?.name).sort()).toEqual(Array.from({ length: count }, (_, n) => `burst ${n}`).sort())
    const requests = sim.stats.requests - before.requests
    const rateLimited = sim.stats.rateLimited - before.rateLimited
    expect(requests).toBeGreaterThanOrEqual(count)
    expect(rateLimited / requests).toBeLessThanOrEqual(0.02)
  })

  it("logs each call on stderr (▸, then ✔ or ✘), with no secret", async () => {
    const lines = (prefix: string) => stderr().split("\n").filter((line) => line.startsWith(prefix))
    // A call's line is written before its answer, but read here from another pipe: wait until every call that started has ended in the log.
    // (A call of a tool not offered is refused before it starts: one ✘ line, no ▸.)
    const ended = () => lines("mcp ✔ ").length + lines("mcp ✘ ").filter((line) => !line.endsWith(": not offered here")).length
    await until(() => ended() === lines("mcp ▸ ").length)
    const log = stderr()
    expect(lines("mcp ✘ boardtool_deleteCard")).toEqual(["mcp ✘ boardtool_deleteCard: not offered here"])
    // The calls of this describe's tests: 201 creates, list_options, the bad id, the missing list, the unknown card.
    expect(lines("mcp ▸ boardtool_createCard ")).toHaveLength(202)
    expect(lines("mcp ✔ boardtool_createCard (")).toHaveLength(201)
    expect(lines("mcp ✘ boardtool_createCard InvalidInput: ")).toHaveLength(1)
    // Each line ends with its call's number, the start's and the end's the same.
    const started = lines("mcp ▸ boardtool_getCard ")
    expect(started).toEqual([
      expect.stringMatching(/^mcp ▸ boardtool_getCard \{"id":"nope"\} \(call \d+\)$/),
      `mcp ▸ boardtool_getCard {"id":"${unknownCard}"} (call ${/\(call (\d+)\)$/.exec(started[1] ?? "")?.[1]})`
    ])
    const callOf = (line: string) => /call (\d+)\)$/.exec(line)?.[1]
    const endedLines = lines("mcp ✘ boardtool_getCard ")
    expect(endedLines).toEqual([
      expect.stringMatching(/^mcp ✘ boardtool_getCard InvalidInput: .*\bid\b.* \(\d+\.\d\d s, call \d+\)$/),
      expect.stringMatching(/^mcp ✘ boardtool_getCard [A-Z][A-Za-z]+: .* \(\d+\.\d\d s, call \d+\)$/)
    ])
    expect(endedLines.map(callOf)).toEqual(started.map(callOf))
    expect(lines("mcp ▸ list_options ")).toHaveLength(1)
    expect(lines("mcp ✔ list_options (")).toHaveLength(1)
    expect(log).toContain(`mcp ▸ boardtool_createCard {"idList":"${lists.roadmapToDo}","name":"Written by an agent","desc":"over MCP"} (call `)
    for (const secret of [sim.token, sim.secret]) expect(log).not.toContain(secret)
  })
})

describe("x-runner mcp over Streamable HTTP", () => {
  let sim: TrelloSimulator.Simulator
  let env: Record<string, string>
  let dir: string
  let workflows: string
  let dataDir: string
  let server: Served
  let url: URL
  let port: number
  beforeAll(async () => {
    sim = await TrelloSimulator.start({ key: "mcp-http-key-0123456789", token: "mcp-http-token-0123456789abcdef0123" })
    // No token from this process's environment: the loopback checks apply.
    env = { ...Deliveries.environment(sim), XRUNNER_MCP_TOKEN: "" }
    dir = mkdtempSync(join(tmpdir(), "x-runner-mcp-"))
    workflows = join(dir, "workflows")
    mkdirSync(workflows)
    copyFileSync(fileURLToPath(new URL("../examples/note-on-card.json", import.meta.url)), join(workflows, "note-on-card.json"))
    // A second workflow, the one a test rewrites while the server runs.
    copyFileSync(fileURLToPath(new URL("../examples/note-on-card.json", import.meta.url)), join(workflows, "edit-me.json"))
    dataDir = join(dir, "data")
    ;({ port, server, url } = await httpServer(["--allow-destructive", "--workflows", workflows, "--data-dir", dataDir], env))
  })
  let barriers = 0
  /**
   * Waits until the log holds the lines of every call answered so far: one more call's first
   * line, written after theirs on the same pipe (a call's line is written before its answer,
   * which comes here on another connection, maybe first).
   */
  const logSettled = async (client: Client) => {
    const id = `barrier-${++barriers}`
    await call(client, "boardtool_getCard", { id })
    await server.waitFor(`{"id":"${id}"}`)
  }
  afterAll(async () => {
    if (server !== undefined) await stop(server)
    await sim?.close()
  })

  it("the same client lists the tools and calls one", async () => {
    const client = await httpClient(url)
    try {
      const { tools } = await client.listTools(undefined, { timeout: stallMs })
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["boardtool_getCard", "boardtool_createCard", "boardtool_deleteCard", "list_options"]))
      expect(tools.find((tool) => tool.name === "boardtool_deleteCard")?.annotations?.destructiveHint).toBe(true)
      const result = await call(client, "boardtool_getCard", { id: cards.launchPost })
      expect(result.isError, textOf(result)).toBeFalsy()
      expect(result.structuredContent).toMatchObject({ id: cards.launchPost, name: sim.cards.get(cards.launchPost)!.name })
    } finally {
      await client.close()
    }
  })

  it("a POST over 16 MiB is answered 413, naming the limit (not a reset connection)", async () => {
    const limit = 16 * 1024 * 1024
    const answered = await rawPost(port, limit + 1)
    expect(answered.status).toBe(413)
    expect(JSON.parse(answered.body)).toMatchObject({ error: { message: expect.stringContaining(`${limit} bytes`) } })
    // The server serves on.
    const fine = await rawInitialize(port, {})
    expect(fine.status).toBe(200)
  })

  it("without a token, a request with a Host or Origin beyond loopback is refused (403)", async () => {
    const evilHost = await rawInitialize(port, { host: "evil.example" })
    expect(evilHost.status).toBe(403)
    const evilOrigin = await rawInitialize(port, { origin: "http://evil.example" })
    expect(evilOrigin.status).toBe(403)
    // A name that only starts like a loopback address is anyone's (DNS rebinding: it can resolve to 127.0.0.1 later).
    const lookalikeHost = await rawInitialize(port, { host: `127.0.0.1.evil.example:${port}` })
    const lookalikeOrigin = await rawInitialize(port, { origin: `http://127.0.0.1.evil.example:${port}` })
    expect([lookalikeHost.status, lookalikeOrigin.status]).toEqual([403, 403])
    // The same request from loopback is answered.
    const fine = await rawInitialize(port, { host: `127.0.0.1:${port}` })
    expect(fine.status).toBe(200)
    expect(fine.headers["mcp-session-id"]).toEqual(expect.any(String))
  })

  it("a destroying call is confirmed by elicitation: declined, nothing is deleted; accepted, the card is deleted", async () => {
    const elicited: Array<ElicitRequest["params"]> = []
    const asking = (answer: (request: ElicitRequest) => { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }) => {
      const client = new Client({ name: "mcp.test", version: "1.0.0" }, { capabilities: { elicitation: {} } })
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        elicited.push(request.params)
        return answer(request)
      })
      return httpClient(url, { client })
    }
    const kept = await cardOn(sim, "Keep me")
    const declining = await asking(() => ({ action: "decline" }))
    try {
      await declining.listTools(undefined, { timeout: stallMs })
      const before = sim.stats.requests
      // Arguments that would be refused are refused first: the user is not asked about a call that cannot run.
      const invalid = await call(declining, "boardtool_deleteCard", { id: "nope" })
      expect(invalid.isError).toBe(true)
      expect(textOf(invalid)).toMatch(/^InvalidInput: .*\bid\b/)
      expect(elicited).toEqual([])
      expect(sim.stats.requests).toBe(before)
      const declined = await call(declining, "boardtool_deleteCard", { id: kept })
      expect(declined.isError).toBe(true)
      expect(textOf(declined)).toMatch(/^Declined: /)
      expect(sim.cards.has(kept)).toBe(true)
      expect(sim.stats.requests).toBe(before)
    } finally {
      await declining.close()
    }
    expect(elicited).toHaveLength(1)
    expect(elicited[0]!.message).toContain("boardtool_deleteCard")
    expect(elicited[0]!.message).toContain(kept)

    const gone = await cardOn(sim, "Delete me")
    const accepting = await asking(() => ({ action: "accept", content: { confirm: true } }))
    try {
      await accepting.listTools(undefined, { timeout: stallMs })
      const deleted = await call(accepting, "boardtool_deleteCard", { id: gone })
      expect(deleted.isError, textOf(deleted)).toBeFalsy()
      expect(deleted.structuredContent).toMatchObject({ id: gone, deleted: true })
      expect(sim.cards.has(gone)).toBe(false)
    } finally {
      await accepting.close()
    }
    expect(elicited).toHaveLength(2)
    await server.waitFor(/mcp ✘ boardtool_deleteCard Declined: /)
  })

  it("a confirmation that fails (the client's answer an error) deletes nothing, answers an isError result and logs the call's end", async () => {
    const client = new Client({ name: "mcp.test", version: "1.0.0" }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, () => {
      throw new Error("the client could not ask its user")
    })
    await httpClient(url, { client })
    const kept = await cardOn(sim, "Keep me too")
    try {
      await client.listTools(undefined, { timeout: stallMs })
      const before = sim.stats.requests
      // Not confirmed is not confirmed: the call ends as a declined one does, not as a protocol error.
      const result = await client.callTool({ name: "boardtool_deleteCard", arguments: { id: kept } }, undefined, { timeout: stallMs }).then(
        (answered) => answered as CallToolResult,
        (error: Error) => ({ protocolError: error.message })
      )
      expect(sim.cards.has(kept)).toBe(true)
      expect(sim.stats.requests).toBe(before)
      expect(result).toMatchObject({ isError: true })
      await logSettled(client)
    } finally {
      await client.close()
    }
    const lines = server.log().split("\n")
    const started = lines.filter((line) => line.includes(`"id":"${kept}"`))
    expect(started).toEqual([expect.stringMatching(new RegExp(`^mcp ▸ boardtool_deleteCard \\{"id":"${kept}"\\} \\(call \\d+\\)$`))])
    // Its end: the line of the same call's number (the calls of all sessions are numbered in one sequence, each once).
    const number = /\(call (\d+)\)$/.exec(started[0]!)![1]
    expect(lines.filter((line) => line.startsWith("mcp ▸ ") && line.endsWith(`(call ${number})`))).toHaveLength(1)
    expect(lines.filter((line) => /^mcp [✔✘] /.test(line) && line.endsWith(`, call ${number})`))).toEqual([
      expect.stringMatching(/^mcp ✘ boardtool_deleteCard Declined: .* \(\d+\.\d\d s, call \d+\)$/)
    ])
  })

  it("the log shows a secret argument redacted, and never the connection's token", async () => {
    // The custom action's header values are secret (destroying: offered with --allow-destructive; this client cannot be asked, so it runs).
    const secretHeader = "header-secret-5f1c9e0d7b3a"
    const client = await httpClient(url)
    try {
      const result = await call(client, "boardtool_customAction", { method: "GET", path: "/members/me", headers: { "X-Trace": secretHeader } })
      expect(result.isError, textOf(result)).toBeFalsy()
      await logSettled(client)
    } finally {
      await client.close()
    }
    const log = server.log()
    expect(log.split("\n").filter((line) => line.startsWith("mcp ▸ boardtool_customAction "))).toHaveLength(1)
    expect(log.split("\n").filter((line) => line.startsWith("mcp ✔ boardtool_customAction ("))).toHaveLength(1)
    for (const secret of [secretHeader, sim.token, sim.secret]) expect(log).not.toContain(secret)
  })

  it("an agent's argument cannot forge a line of the log (a new line in a name it gives stays in its line)", async () => {
    const client = await httpClient(url)
    try {
      const forged = "mcp ✔ workflow_forged (0.01 s)"
      const result = await call(client, "boardtool_getCard", { id: cards.launchPost, [`x\n${forged}\nmcp ▸ y`]: 1 })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/^InvalidInput: /)
      await logSettled(client)
      expect(server.log().split("\n").filter((line) => line.startsWith("mcp ✔ workflow_forged"))).toEqual([])
    } finally {
      await client.close()
    }
  })

  it("a workflow file changed since the server started is refused (WorkflowChanged), nothing sent, nothing run", async () => {
    const card = await cardOn(sim, "Not for a changed workflow")
    const client = await httpClient(url)
    try {
      const { tools } = await client.listTools(undefined, { timeout: stallMs })
      // Offered as it was checked: it writes, it does not delete.
      expect(tools.find((t) => t.name === "workflow_edit-me")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false })
      writeFileSync(join(workflows, "edit-me.json"), JSON.stringify({
        label: "Delete the card",
        inputs: { card: cards.launchPost, note: "" },
        tasks: [{ label: "Delete it", name: "gone", type: "boardtool/v1/deleteCard", parameters: { id: "${inputs.card}" } }]
      }))
      const before = sim.stats.requests
      const result = await call(client, "workflow_edit-me", { card })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/^WorkflowChanged: .*edit-me\.json/)
      expect(result._meta?.["x-runner/error"]).toMatchObject({ tag: "WorkflowChanged" })
      expect(sim.cards.has(card)).toBe(true)
      expect(sim.stats.requests).toBe(before)
    } finally {
      await client.close()
    }
    // No run of it recorded: the next test finds its own two runs only.
  })

  it("a workflow with inputs is a tool: its inputs its schema; a call runs it, recorded in the run history", async () => {
    const client = await httpClient(url)
    try {
      const { tools } = await client.listTools(undefined, { timeout: stallMs })
      const tool = tools.find((t) => t.name === "workflow_note-on-card")
      expect(tool, tools.map((t) => t.name).join(", ")).toBeDefined()
      expect(tool!.inputSchema.properties).toMatchObject({
        card: { type: "string", default: cards.launchPost },
        note: { type: "string", default: "A note from a called workflow" }
      })
      const ajv = validator()
      expect(ajv.validateSchema(tool!.inputSchema), ajv.errorsText(ajv.errors)).toBe(true)
      // A distinctive note: an input may be secret, so the log names the inputs given, never their values.
      const note = "Noted by an agent 3f9a1c7e"
      const result = await call(client, "workflow_note-on-card", { card: cards.launchPost, note })
      expect(result.isError, textOf(result)).toBeFalsy()
      const ran = result.structuredContent as { status: string; runId: string; steps: Array<{ name: string; status: string }> }
      expect(ran.status).toBe("succeeded")
      expect(ran.runId).toEqual(expect.any(String))
      expect(ran.steps.map((step) => [step.name, step.status])).toEqual([["comment", "succeeded"], ["card", "succeeded"]])
      const comments = sim.actions.filter((action) => action.type === "commentCard" && (action.data["card"] as { id?: string } | undefined)?.id === cards.launchPost)
      expect(comments.map((action) => action.data["text"])).toContain(note)
      // A wrong input is refused before the workflow runs.
      const wrong = await call(client, "workflow_note-on-card", { note: 3 })
      expect(wrong.isError).toBe(true)
      expect(textOf(wrong)).toMatch(/^InvalidInput: note: /)
      // A run that fails (no such card at Trello) is an error result, recorded as failed.
      const failing = await call(client, "workflow_note-on-card", { card: unknownCard })
      expect(failing.isError).toBe(true)
      const failed = failing.structuredContent as { status: string; runId: string; failure?: { path: string; tag: string } }
      expect(failed).toMatchObject({ status: "failed", runId: expect.any(String), failure: { path: "comment" } })
      const runs = await runsOf({ dataDir })
      expect(runs.map((run) => [run.id, run.workflow, run.status])).toEqual([
        [failed.runId, expect.stringContaining("note-on-card"), "failed"],
        [ran.runId, expect.stringContaining("note-on-card"), "succeeded"]
      ])
      await logSettled(client)
      const log = server.log()
      expect(log.split("\n").filter((line) => line.startsWith("mcp ▸ workflow_note-on-card "))).toEqual([
        expect.stringMatching(/^mcp ▸ workflow_note-on-card \["card","note"\] \(call \d+\)$/),
        expect.stringMatching(/^mcp ▸ workflow_note-on-card \["note"\] \(call \d+\)$/),
        expect.stringMatching(/^mcp ▸ workflow_note-on-card \["card"\] \(call \d+\)$/)
      ])
      expect(log).not.toContain(note)
    } finally {
      await client.close()
    }
  })
})

describe("x-runner mcp over HTTP with a bearer token, on a connections file with a named connection", () => {
  const token = "mcp-bearer-token-0123456789abcdef"
  let sim: TrelloSimulator.Simulator
  let server: Served
  let url: URL
  let port: number
  /** Alice's token: the named connection `work` is her account. */
  let aliceToken: string
  beforeAll(async () => {
    sim = await TrelloSimulator.start({ key: "mcp-bearer-key-0123456789", token: "mcp-bearer-trello-token-0123456789ab" })
    aliceToken = sim.memberTokens.get("alice")!
    const file = join(mkdtempSync(join(tmpdir(), "x-runner-mcp-named-")), "connections.json")
    writeFileSync(file, JSON.stringify({
      boardtool: { key: sim.key, token: sim.token, baseUrl: sim.baseUrl },
      work: { component: "boardtool", key: sim.key, token: aliceToken, baseUrl: sim.baseUrl }
    }))
    ;({ port, server, url } = await httpServer(["--connections", file, "--no-history"], { XRUNNER_MCP_TOKEN: token }))
  })
  afterAll(async () => {
    if (server !== undefined) await stop(server)
    await sim?.close()
  })

  it("with XRUNNER_MCP_TOKEN, a request without the token is refused (401) and one with it is served", async () => {
    expect(server.log()).toContain("(bearer token required)")
    const without = await rawInitialize(port, {})
    expect(without.status).toBe(401)
    expect(without.headers["www-authenticate"]).toBe("Bearer")
    const wrong = await rawInitialize(port, { authorization: `Bearer ${token.replace(/.$/, "x")}` })
    expect(wrong.status).toBe(401)
    // The scheme's name in any case, as HTTP has it.
    const lowercase = await rawInitialize(port, { authorization: `bearer ${token}` })
    expect(lowercase.status).toBe(200)
    expect(lowercase.headers["mcp-session-id"]).toEqual(expect.any(String))
    // The SDK's client without it fails to connect.
    await expect(httpClient(url)).rejects.toThrow()
    const client = await httpClient(url, { headers: { authorization: `Bearer ${token}` } })
    try {
      const { tools } = await client.listTools(undefined, { timeout: stallMs })
      expect(tools.map((tool) => tool.name)).toContain("boardtool_getCard")
      const result = await call(client, "boardtool_getCard", { id: cards.loginRedirect })
      expect(result.isError, textOf(result)).toBeFalsy()
      expect(result.structuredContent).toMatchObject({ id: cards.loginRedirect })
    } finally {
      await client.close()
    }
  })

  it("a tool takes a named connection: the call is made with that account; one not in the file is refused with nothing sent", async () => {
    const client = await httpClient(url, { headers: { authorization: `Bearer ${token}` } })
    try {
      const { tools } = await client.listTools(undefined, { timeout: stallMs })
      const getMe = tools.find((tool) => tool.name === "boardtool_getMe")!
      expect(getMe.inputSchema.properties?.["connection"]).toMatchObject({ type: "string", enum: ["work"] })
      const mine = await call(client, "boardtool_getMe", {})
      expect(mine.isError, textOf(mine)).toBeFalsy()
      expect(mine.structuredContent).toMatchObject({ username: sim.member.username })
      const hers = await call(client, "boardtool_getMe", { connection: "work" })
      expect(hers.isError, textOf(hers)).toBeFalsy()
      expect(hers.structuredContent).toMatchObject({ username: "alice" })
      const before = sim.stats.requests
      const unknown = await call(client, "boardtool_getMe", { connection: "play" })
      expect(unknown.isError).toBe(true)
      expect(textOf(unknown)).toMatch(/^InvalidInput: connection: /)
      expect(sim.stats.requests).toBe(before)
    } finally {
      await client.close()
    }
    // The last call's end in the log: every line before it read too.
    await server.waitFor(/mcp ✘ boardtool_getMe InvalidInput: connection: /)
    for (const secret of [token, sim.token, aliceToken]) expect(server.log()).not.toContain(secret)
  })

  it("--host 0.0.0.0 without a token exits 2, naming the token to set", async () => {
    const { code, stderr } = await runner(["mcp", "--port", "0", "--host", "0.0.0.0", "--no-history"], { ...Deliveries.environment(sim), XRUNNER_MCP_TOKEN: "" })
    expect(code).toBe(2)
    expect(stderr).toContain("XRUNNER_MCP_TOKEN")
    expect(stderr).toContain("--token-file")
  })
})

describe("x-runner mcp over stdio on a connections file with named connections only", () => {
  let sim: TrelloSimulator.Simulator
  let client: Client
  let stderr: () => string
  let tools: ReadonlyArray<Tool>
  beforeAll(async () => {
    sim = await TrelloSimulator.start({ key: "mcp-named-key-0123456789", token: "mcp-named-trello-token-0123456789abc" })
    const file = join(mkdtempSync(join(tmpdir(), "x-runner-mcp-named-only-")), "connections.json")
    // No `boardtool` entry: the component's default connection is nowhere (nor in the environment: left out below).
    writeFileSync(file, JSON.stringify({
      work: { component: "boardtool", key: sim.key, token: sim.memberTokens.get("alice")!, baseUrl: sim.baseUrl },
      home: { component: "boardtool", key: sim.key, token: sim.token, baseUrl: sim.baseUrl }
    }))
    const started = await stdioServer(["--connections", file, "--no-history"], {}, /^XRUNNER_BOARDTOOL_/)
    client = started.client
    stderr = started.stderr
    tools = (await client.listTools(undefined, { timeout: stallMs })).tools
  })
  afterAll(async () => {
    await client?.close()
    await sim?.close()
  })

  it("its tools are offered, each requiring a connection: without one nothing is sent; with one, that account answers", async () => {
    expect(tools.filter((t) => t.name !== "list_options" && !t.name.startsWith("boardtool_")).map((t) => t.name)).toEqual([])
    const getMe = tools.find((t) => t.name === "boardtool_getMe")
    expect(getMe, tools.map((t) => t.name).join(", ")).toBeDefined()
    expect(getMe!.inputSchema.required).toContain("connection")
    expect(getMe!.inputSchema.properties?.["connection"]).toMatchObject({ type: "string", enum: ["home", "work"] })
    const ajv = validator()
    expect(ajv.validateSchema(getMe!.inputSchema), ajv.errorsText(ajv.errors)).toBe(true)

    const before = sim.stats.requests
    const without = await call(client, "boardtool_getMe", {})
    expect(without.isError).toBe(true)
    expect(textOf(without)).toMatch(/^InvalidInput: connection: /)
    expect(without._meta?.["x-runner/error"]).toMatchObject({ tag: "InvalidInput", issues: [expect.objectContaining({ path: "connection" })] })
    expect(sim.stats.requests).toBe(before)

    const hers = await call(client, "boardtool_getMe", { connection: "work" })
    expect(hers.isError, textOf(hers)).toBeFalsy()
    expect(hers.structuredContent).toMatchObject({ username: "alice" })
    const mine = await call(client, "boardtool_getMe", { connection: "home" })
    expect(mine.isError, textOf(mine)).toBeFalsy()
    expect(mine.structuredContent).toMatchObject({ username: sim.member.username })

    await until(() => stderr().split("\n").filter((line) => /^mcp [✔✘] boardtool_getMe /.test(line)).length === 3)
    for (const secret of [sim.token, sim.memberTokens.get("alice")!]) expect(stderr()).not.toContain(secret)
  })
})
