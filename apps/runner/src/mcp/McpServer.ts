/**
 * The MCP server of `x-runner mcp`, on the official TypeScript SDK's low-level `Server` (the
 * tools' JSON Schemas are ours, generated, not zod's): tools, completions (through one prompt
 * per action whose properties have provider options: MCP completes prompt and resource
 * arguments, not tool arguments), confirmation of destructive calls by elicitation; over stdio,
 * or Streamable HTTP with a session per client. The only module that imports the SDK; the
 * command loads it only when it runs.
 *
 * @since 0.12.0
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js"
import { Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { ServeProblem } from "../Errors.js"
import * as CappedBody from "../internal/cappedBody.js"
import * as ListenerSecurity from "../internal/listenerSecurity.js"
import * as McpTools from "./McpTools.js"
import type * as WorkflowTools from "./WorkflowTools.js"

/**
 * What the server offers, its effects ready to run (their services provided by the command).
 *
 * @since 0.12.0
 * @category models
 */
export interface Offered {
  readonly version: string
  readonly actions: ReadonlyArray<McpTools.ActionTool>
  readonly workflows: ReadonlyArray<WorkflowTools.WorkflowTool>
  readonly callAction: (tool: McpTools.ActionTool, args: Readonly<Record<string, unknown>>) => Effect.Effect<McpTools.CallResult>
  readonly callWorkflow: (tool: WorkflowTools.WorkflowTool, args: Readonly<Record<string, unknown>>) => Effect.Effect<McpTools.CallResult>
  /** A call's arguments checked before anything else (before its user is asked to confirm it): the result refusing them, if any. */
  readonly check: (tool: McpTools.ActionTool | WorkflowTools.WorkflowTool, args: Readonly<Record<string, unknown>>) => McpTools.CallResult | undefined
  readonly options: (
    tool: McpTools.ActionTool,
    property: string,
    values: Readonly<Record<string, unknown>>
  ) => Effect.Effect<ReadonlyArray<{ readonly label: string; readonly value: string }>, { readonly _tag: string; readonly message: string }>
  readonly fields: (
    tool: McpTools.ActionTool,
    property: string,
    values: Readonly<Record<string, unknown>>
  ) => Effect.Effect<Readonly<Record<string, unknown>>, { readonly _tag: string; readonly message: string }>
  /** A line of the operator's log of calls (stderr). */
  readonly log: (line: string) => Effect.Effect<void>
}

/** At most this many values in one completion (MCP's limit). */
const maxCompletions = 100

/** What a log line shows of a call's arguments: at most this many characters. */
const maxLoggedArguments = 300

const shortened = (text: string) => text.length <= maxLoggedArguments ? text : `${text.slice(0, maxLoggedArguments)}… (${text.length} characters)`


/** The options tool: a property's options for clients without completions. */
const optionsTool = (actions: ReadonlyArray<McpTools.ActionTool>) => {
  const withOptions = actions.filter((tool) => tool.dynamicOptions.size > 0 || tool.fieldGroups.size > 0)
  return {
    name: McpTools.optionsToolName,
    title: "List a property's options",
    description: "The values a property of a tool takes, loaded from the provider (e.g. the lists of a board for boardtool_createCard's idList), " +
      "given the values it depends on; for a property that holds fields (e.g. a collection item's fieldData), the fields it holds. " +
      "For clients without argument completion.",
    inputSchema: {
      type: "object",
      properties: {
        tool: { type: "string", enum: withOptions.map((tool) => tool.name), description: "The tool whose property it is." },
        property: { type: "string", description: "The property, e.g. idList." },
        values: { type: "object", description: "The values of the properties it depends on (the property's description names them), e.g. {\"idBoard\": \"…\"}." }
      },
      required: ["tool", "property"],
      additionalProperties: false
    },
    outputSchema: {
      type: "object",
      properties: {
        options: {
          type: "array",
          description: "A property's options.",
          items: { type: "object", properties: { label: { type: "string" }, value: { type: "string" } }, required: ["label", "value"] }
        },
        fields: { type: "object", description: "A property group's fields, by key: what each one's value may hold." }
      }
    },
    annotations: { title: "List a property's options", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    withOptions
  }
}

/**
 * The calls under way, across the sessions of one server: counted for the log's call numbers,
 * and waited for (a write) or stopped (a read) when the server stops.
 *
 * @since 0.12.0
 * @category models
 */
export interface Calls {
  /** Aborted when the server stops: the reads under way stop with it. */
  readonly stopping: AbortController
  /** Aborted when the writes under way had their time to end (`drainGraceMillis`): what is left is cut short. */
  readonly cutting: AbortController
  readonly inFlight: Set<Promise<unknown>>
  next: number
}

/** How long a stopping server waits for the writes under way (a workflow may wait hours: it is cut short after this). */
const drainGraceMillis = 30_000

/**
 * No calls yet.
 *
 * @since 0.12.0
 * @category constructors
 */
export const calls = (): Calls => ({ stopping: new AbortController(), cutting: new AbortController(), inFlight: new Set(), next: 1 })

/**
 * Stops the reads under way and waits for the writes: a write already sent ends as the
 * provider answers it, before the connections and the sandbox close; what is still under way
 * after `drainGraceMillis` (a workflow's long wait) is cut short.
 *
 * @since 0.12.0
 * @category utils
 */
export const drain = async (under: Calls): Promise<void> => {
  under.stopping.abort()
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.allSettled([...under.inFlight]),
    new Promise<void>((resolve) => void (timer = setTimeout(resolve, drainGraceMillis)))
  ])
  clearTimeout(timer)
  under.cutting.abort()
  await Promise.allSettled([...under.inFlight])
}

/**
 * A new MCP server of what is offered: one per client session (the state of a session, its
 * client's capabilities, is the SDK server's); the calls of all its sessions counted in `under`.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make = (offered: Offered, under: Calls = calls()): Server => {
  const server = new Server(
    { name: "x-runner", title: "x-runner: Trello, Webflow and Browser Use actions", version: offered.version },
    {
      capabilities: { tools: {}, prompts: {}, completions: {} },
      instructions: "Each tool is one action of a provider (<component>_<action>) or a workflow (workflow_<name>). " +
        "Ids a property takes can be completed (the prompt of the tool's name) or listed with list_options. " +
        "A failure is a result with isError, its typed error's tag first."
    }
  )
  const actions = new Map(offered.actions.map((tool) => [tool.name, tool]))
  const workflows = new Map(offered.workflows.map((tool) => [tool.name, tool]))
  const options = optionsTool(offered.actions)
  const withOptions = new Map(options.withOptions.map((tool) => [tool.name, tool]))

  /** A tool as tools/list gives it: the schemas are JSON Schema objects (MCP's type says only that they are objects). */
  const listed = (
    tool: Pick<McpTools.ActionTool, "name" | "title" | "description" | "inputSchema" | "outputSchema"> & { readonly annotations: unknown },
    meta?: Readonly<Record<string, unknown>>
  ) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as { type: "object" },
    outputSchema: tool.outputSchema as { type: "object" },
    annotations: tool.annotations as McpTools.Annotations,
    ...(meta === undefined ? {} : { _meta: meta })
  })

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...offered.actions.map((tool) =>
        listed(tool, {
          "x-runner/type": tool.type,
          ...(tool.dynamicOptions.size === 0 ? {} : { "x-runner/options": Object.fromEntries(tool.dynamicOptions) }),
          ...(tool.fieldGroups.size === 0 ? {} : { "x-runner/fields": Object.fromEntries(tool.fieldGroups) })
        })
      ),
      ...offered.workflows.map((tool) => listed(tool, { "x-runner/workflow": tool.file })),
      ...(options.withOptions.length === 0 ? [] : [listed(options)])
    ]
  }))

  /**
   * A destructive call, confirmed by the user where the client can ask with a form (elicitation;
   * `{}` is form mode, as before modes); else as the operator allowed it.
   */
  const confirmed = async (name: string, annotations: McpTools.Annotations, args: unknown, requestId: string | number): Promise<boolean> => {
    const elicitation = server.getClientCapabilities()?.elicitation as { readonly form?: unknown; readonly url?: unknown } | undefined
    const asksWithForms = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined)
    if (!annotations.destructiveHint || !asksWithForms) return true
    const answer = await server.elicitInput({
      mode: "form",
      message: `Run ${name} (${annotations.title})? It deletes, or does what cannot be taken back. Its arguments: ${shortened(JSON.stringify(args))}`,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean", title: `Run ${name}`, description: "Yes: run it now." } },
        required: ["confirm"]
      }
    }, { relatedRequestId: requestId })
    return answer.action === "accept" && answer.content?.["confirm"] === true
  }
  /** Not confirmed when the client could not ask (it failed, or its user did not answer in time): nothing is sent. */
  const confirmedOrNot = (name: string, annotations: McpTools.Annotations, args: unknown, requestId: string | number) =>
    confirmed(name, annotations, args, requestId).catch(() => false)

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params
    const args = (request.params.arguments ?? {}) as Record<string, unknown>
    const action = actions.get(name)
    const workflow = action === undefined ? workflows.get(name) : undefined
    if (action === undefined && workflow === undefined && name !== options.name) {
      // A tool not offered (a destructive one without --allow-destructive, say) is the client's mistake: a protocol error.
      await Effect.runPromise(offered.log(`mcp ✘ ${McpTools.oneLine(shortened(name))}: not offered here`))
      throw new McpError(ErrorCode.InvalidParams, `no tool ${name} here (tools/list says what is offered)`)
    }
    const tool = action ?? workflow
    // A workflow's inputs may be secret (run keeps only their digest): the log names them, not their values.
    const logged = action !== undefined ? McpTools.redacted(action, args) : workflow !== undefined ? Object.keys(args) : args
    const call = under.next++
    await Effect.runPromise(offered.log(`mcp ▸ ${name} ${McpTools.oneLine(shortened(JSON.stringify(logged)))} (call ${call})`))
    const started = Date.now()
    // A read stops when its client cancels it or the server stops; a write already decided on goes
    // on to the provider's answer (cut short, its outcome would be unknown), its end logged.
    const reads = tool === undefined || tool.annotations.readOnlyHint
    const signal = reads ? AbortSignal.any([extra.signal, under.stopping.signal]) : under.cutting.signal
    const running = (async (): Promise<McpTools.CallResult> => {
      if (tool === undefined) return Effect.runPromise(listOptions(args), { signal })
      const refused = offered.check(tool, args)
      if (refused !== undefined) return refused
      if (!(await confirmedOrNot(name, tool.annotations, logged, extra.requestId))) {
        return McpTools.failed("Declined", "the call was not confirmed (declined, or the client could not ask its user): nothing was sent")
      }
      const effect = action !== undefined ? offered.callAction(action, args) : offered.callWorkflow(workflow!, args)
      return Effect.runPromise(effect, { signal })
    })()
    under.inFlight.add(running)
    const settled = await running.then((result) => ({ result }), (error: unknown) => ({ error })).finally(() => under.inFlight.delete(running))
    const ended = `${((Date.now() - started) / 1000).toFixed(2)} s, call ${call}`
    if ("error" in settled) {
      const why = extra.signal.aborted && reads
        ? "cancelled by the client"
        : under.stopping.signal.aborted
        ? "stopped with the server"
        : `failed: ${String(settled.error)}`
      await Effect.runPromise(offered.log(`mcp ✘ ${name} ${McpTools.oneLine(why)} (${ended})`))
      throw settled.error
    }
    const { result } = settled
    const cancelled = extra.signal.aborted ? ", after the client cancelled" : ""
    await Effect.runPromise(offered.log(
      result.isError === true
        ? `mcp ✘ ${name} ${McpTools.oneLine(shortened(result.content[0]?.text ?? ""))} (${ended}${cancelled})`
        : `mcp ✔ ${name} (${ended}${cancelled})`
    ))
    return result as { content: Array<{ type: "text"; text: string }> }
  })

  const listOptions = (args: Record<string, unknown>): Effect.Effect<McpTools.CallResult> => {
    const tool = typeof args["tool"] === "string" ? withOptions.get(args["tool"]) : undefined
    const property = args["property"]
    const values = args["values"] ?? {}
    if (tool === undefined) {
      return Effect.succeed(McpTools.failed("InvalidInput", `tool: must be one of the tools with options (${[...withOptions.keys()].join(", ")})`))
    }
    const dependsOn = typeof property === "string" ? tool.dynamicOptions.get(property) ?? tool.fieldGroups.get(property) : undefined
    if (typeof property !== "string" || dependsOn === undefined) {
      return Effect.succeed(McpTools.failed("InvalidInput", `property: ${tool.name}'s properties with options are ${[...tool.dynamicOptions.keys(), ...tool.fieldGroups.keys()].join(", ")}`))
    }
    if (typeof values !== "object" || values === null || Array.isArray(values)) {
      return Effect.succeed(McpTools.failed("InvalidInput", "values: must be an object of the values it depends on"))
    }
    // The options of a property that depends on others are theirs: without them there are none to list.
    const missing = dependsOn.filter((dependency) => (values as Record<string, unknown>)[dependency] === undefined)
    if (missing.length > 0) {
      return Effect.succeed(McpTools.failed("InvalidInput", `values: ${property}'s options depend on ${missing.join(", ")}: give ${missing.length === 1 ? "it" : "them"}`, {
        issues: missing.map((dependency) => ({ path: `values.${dependency}`, message: "needed" }))
      }))
    }
    const listed: Effect.Effect<Record<string, unknown>, { readonly _tag: string; readonly message: string }> = tool.fieldGroups.has(property)
      ? Effect.map(offered.fields(tool, property, values as Record<string, unknown>), (fields) => ({ fields }))
      : Effect.map(offered.options(tool, property, values as Record<string, unknown>), (choices) => ({
        options: choices.map(({ label, value }) => ({ label, value }))
      }))
    return listed.pipe(
      Effect.map((structured): McpTools.CallResult => ({ content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured })),
      Effect.catchAll((error) => Effect.succeed(McpTools.failed(error._tag, error.message)))
    )
  }

  // One prompt per action with provider options, of the tool's name: what a client completes.
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: options.withOptions.filter((tool) => tool.dynamicOptions.size > 0).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `Fill in ${tool.name}'s arguments, its ids completed from the provider, and ask for the call.`,
      arguments: [
        ...Object.entries(tool.action.props as Record<string, { readonly required?: boolean; readonly title?: string }>).map(([key, property]) => ({
          name: key,
          description: property.title ?? key,
          required: property.required === true
        })),
        // A named connection: the options are that account's.
        ...(tool.connections.length === 0 ? [] : [{ name: McpTools.connectionArgument, description: "A named connection (the default when left out)", required: false }])
      ]
    }))
  }))

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const tool = withOptions.get(request.params.name)
    if (tool === undefined || tool.dynamicOptions.size === 0) throw new McpError(ErrorCode.InvalidParams, `no prompt ${request.params.name}`)
    const args = Object.fromEntries(Object.entries(request.params.arguments ?? {}).filter(([, value]) => value !== ""))
    return {
      description: tool.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: `Call the tool ${tool.name} with these arguments: ${JSON.stringify(args)}` } }]
    }
  })

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { argument, context, ref } = request.params
    const tool = ref.type === "ref/prompt" ? withOptions.get(ref.name) : undefined
    if (tool !== undefined && argument.name === McpTools.connectionArgument) {
      const names = tool.connections.filter((name) => name.toLowerCase().startsWith(argument.value.toLowerCase()))
      return { completion: { values: names, total: names.length, hasMore: false } }
    }
    if (tool === undefined || !tool.dynamicOptions.has(argument.name)) return { completion: { values: [] } }
    const loaded = await Effect.runPromise(Effect.either(offered.options(tool, argument.name, context?.arguments ?? {})))
    // Options that cannot be loaded yet (a value they depend on missing): nothing to offer, not an error.
    if (loaded._tag === "Left") return { completion: { values: [] } }
    const matching = McpTools.matching(loaded.right, argument.value)
    return {
      completion: { values: matching.slice(0, maxCompletions).map((choice) => choice.value), total: matching.length, hasMore: matching.length > maxCompletions }
    }
  })
  return server
}

/**
 * Serves over stdio (the process's stdin and stdout, which nothing else writes to) until the
 * client closes stdin.
 *
 * @since 0.12.0
 * @category constructors
 */
export const stdio = (offered: Offered): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function*() {
    const under = calls()
    const server = make(offered, under)
    const transport = new StdioServerTransport()
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve
      process.stdin.once("end", resolve)
    })
    // Released before the connections and the sandbox (acquired earlier): the calls under way end first.
    yield* Effect.acquireRelease(
      Effect.promise(() => server.connect(transport)),
      () => Effect.promise(async () => {
        await drain(under)
        await server.close()
      })
    )
    yield* Effect.promise(() => closed)
  })

/**
 * How the HTTP transport listens: where, and the bearer token a request must carry (required
 * beyond loopback).
 *
 * @since 0.12.0
 * @category models
 */
export interface HttpOptions {
  readonly host: string
  readonly port: number
  readonly token: string | undefined
  /** Told once it listens: the port (the one chosen for `--port 0`). */
  readonly listening: (port: number) => Effect.Effect<void>
}

/** The path the transport answers at. */
const mcpPath = "/mcp"

/**
 * At most this many sessions at once: past it, the least recently used one is closed (a client
 * that went away without closing its session leaves it behind; memory stays bounded).
 */
const maxSessions = 64

/** The largest request body read (a tool's arguments, a file's base64 included). */
const maxBodyBytes = 16 * 1024 * 1024

/** JSON-RPC's code of a body that is not JSON. */
const parseError = -32700

const answer = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }))
}

/**
 * A POST's body parsed, or the answer already given: 413 over the limit (core's reader stops at
 * the cap; the rest is dropped as the runner's other servers drop it), 400 for a body that is not
 * JSON; nothing when the client went away.
 */
const jsonBody = async (req: IncomingMessage, res: ServerResponse): Promise<{ readonly value: unknown } | undefined> => {
  const body = await Webhook.readBody(req, maxBodyBytes).catch(() => undefined)
  if (body === undefined) return undefined
  if (body._tag === "TooLarge") {
    // Not `Connection: close`: closing with the body unread would reset the connection, the 413 lost; the client closes it.
    CappedBody.dropRest(req)
    answer(res, 413, `a request is at most ${maxBodyBytes} bytes`)
    return undefined
  }
  try {
    return { value: JSON.parse(body.bytes.toString("utf8")) }
  } catch {
    answer(res, 400, "the body is not JSON", {}, parseError)
    return undefined
  }
}

/**
 * Serves Streamable HTTP at `/mcp` until the scope closes: a session per client (its id in
 * `Mcp-Session-Id`). Without a token, on loopback, only a loopback `Host` is answered (a web
 * page's DNS rebinding), and a request from a web page of another origin is refused; with a
 * token, every request must carry it (`Authorization: Bearer …`).
 *
 * @since 0.12.0
 * @category constructors
 */
export const http = (offered: Offered, options: HttpOptions): Effect.Effect<void, ServeProblem, Scope.Scope> =>
  Effect.gen(function*() {
    const sessions = new Map<string, { readonly server: Server; readonly transport: StreamableHTTPServerTransport }>()
    const under = calls()
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://localhost")
      if (url.pathname !== mcpPath) return answer(res, 404, `not found: the MCP endpoint is ${mcpPath}`)
      if (options.token === undefined) {
        if (!ListenerSecurity.isLoopbackHostHeader(req.headers.host)) return answer(res, 403, "this server answers only a loopback Host (set a token to serve others)")
        // A proxy or tunnel in front: the request comes from elsewhere, which needs a token.
        const proxied = ListenerSecurity.proxiedBy(req.headers)
        if (proxied.length > 0) return answer(res, 403, `a request through a proxy (${proxied.join(", ")}) needs a token: set one`)
        const origin = req.headers.origin
        if (origin !== undefined && origin !== "null") {
          const from = (() => {
            try {
              return new URL(origin).hostname
            } catch {
              return ""
            }
          })()
          if (!ListenerSecurity.isLoopbackAddress(from)) return answer(res, 403, `requests from ${origin} are refused`)
        }
      } else {
        const given = ListenerSecurity.bearerOf(req.headers.authorization)
        if (given === undefined || !ListenerSecurity.sameSecret(given, options.token)) {
          return answer(res, 401, "a bearer token is required (Authorization: Bearer <the token>)", { "www-authenticate": "Bearer" })
        }
      }
      const sessionId = req.headers["mcp-session-id"]
      const id = Array.isArray(sessionId) ? sessionId[0] : sessionId
      if (id !== undefined) {
        const session = sessions.get(id)
        if (session === undefined) return answer(res, 404, "no such session: initialize a new one")
        // Most recently used last: the first is the one closed when a new session needs room.
        sessions.delete(id)
        sessions.set(id, session)
        if (req.method === "POST") {
          const parsed = await jsonBody(req, res)
          return parsed === undefined ? undefined : session.transport.handleRequest(req, res, parsed.value)
        }
        return session.transport.handleRequest(req, res)
      }
      if (req.method !== "POST") return answer(res, 400, "no session: POST an initialize request first")
      const parsed = await jsonBody(req, res)
      if (parsed === undefined) return
      if (!isInitializeRequest(parsed.value)) return answer(res, 400, "no session: the first request is initialize")
      if (sessions.size >= maxSessions) {
        const [oldest, least] = sessions.entries().next().value!
        sessions.delete(oldest)
        await least.server.close().catch(() => undefined)
      }
      const server = make(offered, under)
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (opened) => void sessions.set(opened, { server, transport })
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
      }
      await server.connect(transport)
      return transport.handleRequest(req, res, parsed.value)
    }
    const httpServer = createServer((req, res) => {
      handle(req, res).catch((error) => {
        if (!res.headersSent) answer(res, 500, `the request could not be handled: ${String((error as Error)?.message ?? error)}`)
        else res.end()
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void, ServeProblem>((resume) => {
        httpServer.once("error", (error: NodeJS.ErrnoException) =>
          resume(Effect.fail(new ServeProblem({ message: error.code === "EADDRINUSE" ? `port ${options.port} is in use` : `the server could not start: ${error.message}` }))))
        httpServer.listen(options.port, options.host, () => resume(Effect.void))
      }),
      () =>
        Effect.promise(async () => {
          // The calls under way end (reads stopped, writes to their answer) before the sessions close.
          await drain(under)
          for (const { server } of sessions.values()) await server.close().catch(() => undefined)
          httpServer.closeAllConnections()
          await new Promise<void>((resolve) => httpServer.close(() => resolve()))
        })
    )
    yield* options.listening((httpServer.address() as AddressInfo).port)
    yield* Effect.never
  })
