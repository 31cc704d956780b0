/**
 * The tools `x-runner mcp` makes of the catalog, in this process (no server): names, annotations
 * from each action's impact, which are offered, the input schema a caller gives plain values to
 * (no `${…}` reference; what an option depends on said), output schemas MCP takes (an object; no
 * draft marker or repeated `$id`), arguments checked before anything is sent, and the options
 * matched to what was typed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { Ajv2020 } from "ajv/dist/2020.js"
import * as Catalog from "../src/components/Catalog.js"
import * as Components from "../src/components/Components.js"
import * as McpTools from "../src/mcp/McpTools.js"

/** Waits until the condition holds: a stall bound, not a speed expectation. */
const until = async (condition: () => boolean) => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > 60_000) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const all = McpTools.actionTools(Catalog.entries, { components: [], patterns: [], allowDestructive: true }, () => [])
const byName = new Map(all.map((tool) => [tool.name, tool]))
const tool = (name: string) => {
  const found = byName.get(name)
  if (found === undefined) throw new Error(`no tool ${name}`)
  return found
}
const { executor } = Components.make(Catalog.entries, { rateLimits: true })

describe("the MCP tools of the catalog", () => {
  it("oneLine escapes what could break a line of the log", () => {
    expect(McpTools.oneLine("a\nmcp ✔ forged\r\u2028b")).toBe("a\\u000amcp ✔ forged\\u000d\\u2028b")
  })

  it("one per action of the three components, <component>_<action>, each name unique and as MCP takes it", () => {
    const actions = Catalog.entries.flatMap((entry) => Object.values(entry.component.actions))
    expect(all).toHaveLength(actions.length)
    expect(new Set(all.map((t) => t.name)).size).toBe(all.length)
    for (const t of all) expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/)
    expect(tool("boardtool_createCard").type).toBe("boardtool/v1/createCard")
    expect(tool("sitebuilder_getCollectionItem").type).toBe("sitebuilder/v1/getCollectionItem")
  })

  it("annotations say each action's impact: read-only, destructive, idempotent; every one reaches a provider", () => {
    for (const t of all) {
      expect(t.annotations, t.name).toEqual({
        title: t.action.title,
        readOnlyHint: t.action.impact === "read",
        destructiveHint: t.action.impact === "destroy",
        idempotentHint: t.action.impact === "read" || t.action.idempotent,
        openWorldHint: true
      })
    }
    expect(tool("boardtool_getCard").annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true })
    expect(tool("boardtool_deleteCard").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(tool("boardtool_createCard").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false })
  })

  it("withholds destroying actions unless allowed, and keeps to the components and patterns given", () => {
    const safe = McpTools.actionTools(Catalog.entries, { components: [], patterns: [], allowDestructive: false }, () => [])
    expect(safe.some((t) => t.action.impact === "destroy")).toBe(false)
    expect(safe.length).toBe(all.filter((t) => t.action.impact !== "destroy").length)
    const cards = McpTools.actionTools(Catalog.entries, { components: ["boardtool"], patterns: ["boardtool_*Card", "sitebuilder_*"], allowDestructive: false }, () => [])
    expect(cards.map((t) => t.name).sort()).toEqual(
      all.filter((t) => /^boardtool_.*Card$/.test(t.name) && t.action.impact !== "destroy").map((t) => t.name).sort()
    )
    expect(cards.map((t) => t.name)).toContain("boardtool_createCard")
    // A pattern's other characters are themselves: a dot is a dot.
    expect(McpTools.unmatched(Catalog.entries, ["boardtool_create.ard", "boardtool_createCard", "nothing*"])).toEqual(["boardtool_create.ard", "nothing*"])
  })

  it("input schemas take plain values (no reference), say where an option comes from, and compile as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false, strictTuples: false })
    for (const t of all) {
      expect(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText()}`).toBe(true)
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow()
      expect(ajv.validateSchema(t.outputSchema), `${t.name} output: ${ajv.errorsText()}`).toBe(true)
      expect(t.outputSchema["type"], t.name).toBe("object")
      expect(JSON.stringify(t.inputSchema)).not.toContain("#/$defs/reference")
      expect(JSON.stringify(t.outputSchema)).not.toMatch(/"\$(id|schema)":"/)
    }
    const createCard = tool("boardtool_createCard")
    const properties = createCard.inputSchema["properties"] as Record<string, { description?: string; pattern?: string }>
    expect(properties["idList"]!.pattern).toBe("^[0-9a-fA-F]{24}$")
    expect(properties["idList"]!.description).toContain(`"property": "idList", "values": {"idBoard": …}`)
    expect(createCard.dynamicOptions.get("idList")).toEqual(["idBoard"])
    expect(createCard.inputSchema["required"]).toContain("idList")
    const validate = ajv.compile(createCard.inputSchema)
    expect(validate({ idList: "5eed00000000000000000003", name: "A card" })).toBe(true)
    expect(validate({ idList: "${steps.list.id}", name: "A card" })).toBe(false)
  })

  it("an output that is not an object is carried under result", () => {
    const wrapped = all.filter((t) => t.wrapsOutput)
    for (const t of wrapped) expect(t.outputSchema["required"], t.name).toEqual(["result"])
    const objects = all.filter((t) => !t.wrapsOutput)
    expect(objects.length).toBeGreaterThan(wrapped.length)
  })

  it("checks arguments before anything is sent: a bad id names its input; an unknown connection is refused", () => {
    const bad = McpTools.checkArguments(executor, tool("boardtool_getCard"), { id: "nope" })
    expect(Either.isLeft(bad)).toBe(true)
    const result = Either.getLeft(bad).pipe((left) => left._tag === "Some" ? left.value : undefined)!
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(/^InvalidInput: .*\bid: must be a Trello id/)
    expect(result.structuredContent).toBeUndefined()
    expect(result._meta?.["x-runner/error"]).toMatchObject({ tag: "InvalidInput", issues: [{ path: "id" }] })
    const named = McpTools.actionTool(tool("boardtool_getCard").component, tool("boardtool_getCard").action, ["work"])
    expect((named.inputSchema["properties"] as Record<string, unknown>)[McpTools.connectionArgument]).toMatchObject({ enum: ["work"] })
    expect(Either.isLeft(McpTools.checkArguments(executor, named, { id: "5eed0000000000000000000a", connection: "home" }))).toBe(true)
    const ok = McpTools.checkArguments(executor, named, { id: "5eed0000000000000000000a", connection: "work" })
    expect(Either.isRight(ok) && ok.right.step.connection).toBe("work")
  })

  it.effect("a call whose arguments are refused never reaches the connection", () =>
    Effect.gen(function*() {
      // No Connections provided: a call that got as far as sending would need them.
      const result = yield* (McpTools.callAction(executor, tool("boardtool_createCard"), { name: "no list" }) as Effect.Effect<McpTools.CallResult>)
      expect(result.isError).toBe(true)
      expect(result.content[0]!.text).toContain("idList")
    }))

  it("options match what was typed, in value or label, any case, those starting with it first", () => {
    const choices = [{ label: "Done", value: "c" }, { label: "To Do", value: "a" }, { label: "Doing", value: "b" }]
    expect(McpTools.matching(choices, "do").map((c) => c.label)).toEqual(["Done", "Doing", "To Do"])
    expect(McpTools.matching(choices, "").length).toBe(3)
    expect(McpTools.matching(choices, "zz")).toEqual([])
  })
})

/** A server of the catalog's tools in this process, its effects given by the test, and a client linked to it in memory. */
const linked = async (
  given: Partial<import("../src/mcp/McpServer.js").Offered>,
  options: {
    readonly under?: import("../src/mcp/McpServer.js").Calls
    /** What the client declares it can do (elicitation), and its handlers, set before it connects. */
    readonly capabilities?: import("@modelcontextprotocol/sdk/types.js").ClientCapabilities
    readonly prepare?: (client: import("@modelcontextprotocol/sdk/client/index.js").Client) => void
  } = {}
) => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js")
  const McpServer = await import("../src/mcp/McpServer.js")
  const lines: Array<string> = []
  const server = McpServer.make({
    version: "test",
    actions: all,
    workflows: [],
    check: () => undefined,
    callAction: () => Effect.die("no call in this test"),
    callWorkflow: () => Effect.die("no call in this test"),
    options: () => Effect.die("no options in this test"),
    fields: () => Effect.die("no fields in this test"),
    log: (line) => Effect.sync(() => void lines.push(line)),
    ...given
  }, options.under)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "test", version: "1" }, { capabilities: options.capabilities ?? {} })
  options.prepare?.(client)
  await client.connect(clientSide)
  return { client, lines, McpServer }
}

describe("the MCP server of these tools, in this process", () => {
  it("list_options refuses a property whose options depend on a value not given, with nothing loaded", async () => {
    let loaded = 0
    const { client, lines } = await linked({
      options: () => Effect.sync(() => (loaded++, [{ label: "To Do", value: "5eed00000000000000000003" }]))
    })
    const refused = await client.callTool({ name: McpTools.optionsToolName, arguments: { tool: "boardtool_createCard", property: "idList", values: { idboard: "x" } } })
    expect(refused.isError).toBe(true)
    expect((refused.content as Array<{ text: string }>)[0]!.text).toBe("InvalidInput: values: idList's options depend on idBoard: give it")
    expect(loaded).toBe(0)
    const listed = await client.callTool({ name: McpTools.optionsToolName, arguments: { tool: "boardtool_createCard", property: "idList", values: { idBoard: "5eed00000000000000000002" } } })
    expect(listed.structuredContent).toEqual({ options: [{ label: "To Do", value: "5eed00000000000000000003" }] })
    expect(loaded).toBe(1)
    expect(lines.filter((line) => line.startsWith("mcp ✘ list_options InvalidInput: values: idList's options depend on idBoard"))).toHaveLength(1)
    await client.close()
  })

  it("list_options gives a property group's fields (a collection's), given what they depend on", async () => {
    const given: Array<unknown> = []
    const { client } = await linked({
      fields: (tool, property, values) => Effect.sync(() => (given.push([tool.name, property, values]), { name: { kind: "STRING", required: true } }))
    })
    const listed = await client.callTool({
      name: McpTools.optionsToolName,
      arguments: { tool: "sitebuilder_createCollectionItem", property: "fieldData", values: { collectionId: "5eed00000000000000000003" } }
    })
    expect(listed.structuredContent).toEqual({ fields: { name: { kind: "STRING", required: true } } })
    expect(given).toEqual([["sitebuilder_createCollectionItem", "fieldData", { collectionId: "5eed00000000000000000003" }]])
    const description = (tool("sitebuilder_createCollectionItem").inputSchema["properties"] as Record<string, { description?: string }>)["fieldData"]!.description
    expect(description).toContain(`call list_options with {"tool": "sitebuilder_createCollectionItem", "property": "fieldData", "values": {"collectionId": …}} to see them.`)
    expect(description).not.toContain("complete it")
    await client.close()
  })

  it("a read the client cancels stops, logged as cancelled; a write goes on to its answer, logged with the cancel", async () => {
    let readsEnded = 0
    let writesEnded = 0
    const { client, lines } = await linked({
      callAction: (t) =>
        t.annotations.readOnlyHint
          ? Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void readsEnded++)))
          : Effect.sync(() => (writesEnded++, { content: [{ type: "text" as const, text: "{}" }], structuredContent: {} })).pipe(Effect.delay("50 millis"))
    })
    const cancel = new AbortController()
    const read = client.callTool({ name: "boardtool_getCard", arguments: { id: "5eed0000000000000000000a" } }, undefined, { signal: cancel.signal })
    const write = client.callTool({ name: "boardtool_createCard", arguments: { idList: "5eed00000000000000000003", name: "x" } }, undefined, { signal: cancel.signal })
    await until(() => lines.filter((line) => line.startsWith("mcp ▸ ")).length === 2)
    cancel.abort()
    await expect(read).rejects.toThrow()
    await expect(write).rejects.toThrow()
    await until(() => lines.filter((line) => /^mcp [✔✘] /.test(line)).length === 2)
    expect(readsEnded).toBe(1)
    expect(writesEnded).toBe(1)
    expect(lines).toContainEqual(expect.stringMatching(/^mcp ✘ boardtool_getCard cancelled by the client \(\d+\.\d\d s, call 1\)$/))
    expect(lines).toContainEqual(expect.stringMatching(/^mcp ✔ boardtool_createCard \(\d+\.\d\d s, call 2, after the client cancelled\)$/))
    await client.close()
  })

  it("a stopping server stops the reads under way and waits for the writes", async () => {
    const { calls, drain } = await import("../src/mcp/McpServer.js")
    const under = calls()
    let writeDone = false
    let readStopped = false
    const { client, lines } = await linked({
      callAction: (t) =>
        t.annotations.readOnlyHint
          ? Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void (readStopped = true))))
          : Effect.sync(() => (writeDone = true, { content: [{ type: "text" as const, text: "{}" }], structuredContent: {} })).pipe(Effect.delay("50 millis"))
    }, { under })
    void client.callTool({ name: "boardtool_getCard", arguments: { id: "5eed0000000000000000000a" } }).catch(() => undefined)
    const write = client.callTool({ name: "boardtool_createCard", arguments: { idList: "5eed00000000000000000003", name: "x" } })
    await until(() => under.inFlight.size === 2)
    await drain(under)
    expect(readStopped).toBe(true)
    expect(writeDone).toBe(true)
    expect((await write).isError).toBeUndefined()
    expect(lines).toContainEqual(expect.stringMatching(/^mcp ✘ boardtool_getCard stopped with the server /))
    await client.close()
  })

  it("the arguments are checked before the user is asked to confirm: a bad one asks nothing", async () => {
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js")
    let called = 0
    let asked = 0
    const { client } = await linked({
      check: (t, args) => Either.getLeft(McpTools.checkArguments(executor, t as McpTools.ActionTool, args)).pipe((left) => left._tag === "Some" ? left.value : undefined),
      callAction: () => Effect.sync(() => (called++, { content: [{ type: "text" as const, text: "{}" }], structuredContent: {} }))
    }, {
      capabilities: { elicitation: {} },
      prepare: (client) => client.setRequestHandler(ElicitRequestSchema, () => (asked++, { action: "accept" as const, content: { confirm: true } }))
    })
    const bad = await client.callTool({ name: "boardtool_deleteCard", arguments: { id: "nope" } })
    expect(bad.isError).toBe(true)
    expect([asked, called]).toEqual([0, 0])
    const good = await client.callTool({ name: "boardtool_deleteCard", arguments: { id: "5eed0000000000000000000a" } })
    expect(good.isError).toBeUndefined()
    expect([asked, called]).toEqual([1, 1])
    await client.close()
  })

  it("a client that asks only by URL (no form) is treated as one that cannot ask: the operator's choice holds", async () => {
    let called = 0
    const { client } = await linked({
      callAction: () => Effect.sync(() => (called++, { content: [{ type: "text" as const, text: "{}" }], structuredContent: {} }))
    }, { capabilities: { elicitation: { url: {} } } })
    const result = await client.callTool({ name: "boardtool_deleteCard", arguments: { id: "5eed0000000000000000000a" } })
    expect(result.isError).toBeUndefined()
    expect(called).toBe(1)
    await client.close()
  })
})

describe("a component with named connections only", () => {
  it("its tools require one of them: left out, the call is refused before anything is sent", () => {
    const getMe = tool("boardtool_getMe")
    const named = McpTools.actionTool(getMe.component, getMe.action, ["personal", "work"], false)
    expect(named.inputSchema["required"]).toContain(McpTools.connectionArgument)
    const missing = McpTools.checkArguments(executor, named, {})
    expect(Either.isLeft(missing) && missing.left.content[0]!.text).toMatch(/^InvalidInput: connection: is required: boardtool has no default connection here \(one of personal, work\)$/)
    expect(Either.isRight(McpTools.checkArguments(executor, named, { connection: "work" }))).toBe(true)
  })
})

describe("a workflow offered as a tool", () => {
  it.effect("is refused once its file, or a file it calls, changed since it was checked", () =>
    Effect.gen(function*() {
      const { mkdtempSync, mkdirSync, writeFileSync } = yield* Effect.promise(() => import("node:fs"))
      const { tmpdir } = yield* Effect.promise(() => import("node:os"))
      const { join } = yield* Effect.promise(() => import("node:path"))
      const NodeContext = yield* Effect.promise(() => import("@effect/platform-node/NodeContext"))
      const WorkflowTools = yield* Effect.promise(() => import("../src/mcp/WorkflowTools.js"))
      const dir = mkdtempSync(join(tmpdir(), "x-runner-mcp-tools-"))
      mkdirSync(join(dir, "sub"))
      const reader = (type: string, parameter: string) =>
        JSON.stringify({
          label: "Act on a card",
          inputs: { card: "5eed0000000000000000000a" },
          tasks: [{ label: "Act", name: "act", type, parameters: { [parameter]: "${inputs.card}" } }]
        })
      writeFileSync(join(dir, "sub", "reader.json"), reader("boardtool/v1/getCard", "id"))
      writeFileSync(join(dir, "caller.json"), JSON.stringify({
        label: "Read a card through another workflow",
        tasks: [{ label: "Read it", name: "read", workflow: "sub/reader.json", inputs: { card: "5eed0000000000000000000a" } }]
      }))
      const { tools } = yield* WorkflowTools.load(dir).pipe(Effect.provide(Components.layer()), Effect.provide(NodeContext.layer))
      expect(tools.map((t) => [t.name, t.annotations.readOnlyHint, t.files.length])).toEqual([["workflow_caller", true, 2]])
      expect(WorkflowTools.changedSince(tools[0]!)).toBeUndefined()
      // The called file now deletes: the tool offered as a read is refused, not run.
      writeFileSync(join(dir, "sub", "reader.json"), reader("boardtool/v1/deleteCard", "idCard"))
      expect(WorkflowTools.changedSince(tools[0]!)?.content[0]!.text).toMatch(/^WorkflowChanged: .*caller\.json or a workflow it calls changed/)
      writeFileSync(join(dir, "sub", "reader.json"), reader("boardtool/v1/getCard", "id"))
      expect(WorkflowTools.changedSince(tools[0]!)).toBeUndefined()
    }))
})
