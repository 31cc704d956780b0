import { Action, Choice, Property } from "@x/core"
import * as Effect from "effect/Effect"
import { proxyCountryCodes } from "../api/proxyCountries.js"
import * as Run from "../api/run.js"
import * as Sessions from "../api/sessions.js"
import * as Props from "../props.js"

/** The schema string of a JSON output format, parsed; undefined when it is not a JSON object. */
const parseSchema = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(text ?? "")
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The proxy's choices: each country of the document, or none (the proxy off). */
const proxyChoices = [
  { label: "No proxy", value: "none" as const },
  ...proxyCountryCodes.map((code) => ({ label: code.toUpperCase(), value: code }))
]

export const createSession = Action.make({
  name: "createSession",
  title: "Create Session",
  impact: "write",
  idempotent: false,
  description: "Creates a browser-agent session and runs a task in it, or dispatches the task to an idle session.",
  props: {
    task: Property.string({
      title: "Task",
      description: "What the agent does. None creates an idle session (to upload files to first, say); required with a session.",
      minLength: 1
    }),
    model: Property.string({
      title: "Model",
      required: true,
      choices: Choice.of(Sessions.modelNames)
    }),
    outputSchema: Property.object({
      title: "Output Schema",
      required: true,
      properties: {
        format: Property.string({
          title: "Format",
          required: true,
          choices: [{ label: "Text", value: "TEXT" }, { label: "JSON", value: "JSON" }],
          defaultValue: "TEXT"
        }),
        schema: Property.string({ title: "Schema", description: "A JSON Schema, as text, for the JSON format." })
      }
    }),
    sessionId: Props.sessionId({
      title: "Session",
      description: "Dispatch the task to this idle session instead of creating one."
    }),
    keepAlive: Property.boolean({ title: "Keep Alive", description: "Stay idle after the task, for the next one." }),
    profileId: Props.profileId({ title: "Profile", description: "A browser profile to load: its cookies and logins." }),
    workspaceId: Props.workspaceId({ title: "Workspace", description: "A workspace whose files the session shares." }),
    proxyCountryCode: Property.string({
      title: "Proxy Country",
      description: "Where the browser's traffic comes from (Browser Use's default: us); \"none\" turns the proxy off.",
      choices: proxyChoices
    }),
    maxCostUsd: Property.number({
      title: "Cost Cap (USD)",
      description: "The task stops when the session has cost this much; with a session, its new budget."
    }),
    sensitiveData: Property.object({
      title: "Sensitive Data",
      description: "Names and secret values (passwords, keys) the agent types as `<secret>name</secret>`: the model sees the names only. " +
        "The values are never stored or shown in clear (the run history keeps the names).",
      secret: true
    }),
    enableRecording: Property.boolean({ title: "Record Video", description: "Record the browser; the videos are in `recordingUrls`." }),
    enableScheduledTasks: Property.boolean({ title: "Enable Scheduled Tasks" }),
    skills: Property.boolean({ title: "Skills", description: "Built-in skills besides the browser (Browser Use's default: on)." }),
    agentmail: Property.boolean({ title: "Mailbox", description: "A temporary email inbox, `mailboxEmail` (Browser Use's default: on)." }),
    codeMode: Property.boolean({ title: "Code Mode", description: "Answer with a summary and validated Python code." }),
    cacheScript: Property.boolean({
      title: "Cache Script",
      description: "Save the run as a script replayed for the same task template (`@{{value}}`); needs a workspace. Unset: automatic."
    }),
    autoHeal: Property.boolean({ title: "Auto Heal", description: "Check a cached script's output and re-run the agent when it looks wrong (default: on)." }),
    useOwnKey: Property.boolean({ title: "Use Own LLM Key", description: "Use the model provider key set in the project's settings." }),
    waitForCompletion: Property.boolean({ title: "Wait for Completion", description: "Return once the task has ended." }),
    timeoutSeconds: Property.integer({ title: "Timeout (seconds)", minimum: 1, maximum: 14_400, defaultValue: 600 })
  },
  validate: (params) => [
    ...(params.outputSchema.format === "JSON" && parseSchema(params.outputSchema.schema) === undefined
      ? [{ path: "outputSchema.schema", message: "must be a JSON Schema object, as JSON text" }]
      : []),
    ...(params.sessionId !== undefined && params.task === undefined
      ? [{ path: "task", message: "is required to dispatch a task to a session" }]
      : []),
    ...(params.waitForCompletion === true && params.task === undefined
      // Named on the task, the missing one: a workflow whose task is a reference is checked before it is known.
      ? [{ path: "task", message: "is required to wait for completion" }]
      : []),
    ...(params.maxCostUsd !== undefined && !(params.maxCostUsd > 0)
      ? [{ path: "maxCostUsd", message: "must be more than 0" }]
      : []),
    // The values are secrets: the message never shows them.
    ...Object.entries(params.sensitiveData ?? {}).flatMap(([name, value]) =>
      typeof value === "string" ? [] : [{ path: `sensitiveData.${name}`, message: "must be text" }]
    ),
    ...(params.cacheScript === true && params.workspaceId === undefined && params.sessionId === undefined
      ? [{ path: "cacheScript", message: "needs a workspace (workspaceId) to keep the script in" }]
      : [])
  ],
  output: Sessions.Session,
  run: (params, { client }) =>
    Effect.gen(function*() {
      const session = yield* Sessions.createSession(client, {
        task: params.task,
        model: params.model,
        outputSchema: params.outputSchema.format === "JSON" ? parseSchema(params.outputSchema.schema) : undefined,
        sessionId: params.sessionId,
        keepAlive: params.keepAlive,
        maxCostUsd: params.maxCostUsd,
        profileId: params.profileId,
        workspaceId: params.workspaceId,
        proxyCountryCode: params.proxyCountryCode === "none" ? null : params.proxyCountryCode,
        enableScheduledTasks: params.enableScheduledTasks,
        sensitiveData: params.sensitiveData as Readonly<Record<string, string>> | undefined,
        enableRecording: params.enableRecording,
        skills: params.skills,
        agentmail: params.agentmail,
        codeMode: params.codeMode,
        cacheScript: params.cacheScript,
        autoHeal: params.autoHeal,
        useOwnKey: params.useOwnKey
      })
      if (params.waitForCompletion !== true) return session
      return yield* Run.waitForTask(client, session, { timeoutSeconds: params.timeoutSeconds ?? 600, dispatched: params.sessionId !== undefined })
    })
})
