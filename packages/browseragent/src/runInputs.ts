/**
 * The inputs of a V4 run that createRun and runAndWait share (RunCreateRequest's fields, the
 * browser settings flat), their checks, and the request they make.
 */
import { Choice, Property } from "@x/core"
import { proxyCountryCodes } from "./api/proxyCountries.js"
import type * as Runs from "./api/runs.js"
import * as V4 from "./api/v4.js"
import * as Props from "./props.js"

const fileUuid = Property.patterned(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a file id (a UUID)")

export const props = {
  task: Property.string({ title: "Task", required: true, minLength: 1 }),
  model: Property.string({ title: "Model", description: "Browser Use's default (modelfamilyG-m3) when none.", choices: Choice.of(V4.modelNames) }),
  sessionId: Props.runSessionId({ title: "Session", description: "A follow-up turn in this V4 session (it must have no active run); a new session when none." }),
  workspaceId: Props.workspaceId({ title: "Workspace", description: "The workspace whose files the agent works with." }),
  profileId: Props.profileId({ title: "Profile", description: "Start the browser with this profile's cookies and logins." }),
  proxyCountryCode: Property.string({
    title: "Proxy Country",
    description: "Where the browser's proxy is (default: us); `none` for no proxy.",
    choices: [{ label: "No proxy", value: "none" }, ...Choice.of(proxyCountryCodes)]
  }),
  customProxy: Props.customProxy("A proxy of your own instead of Browser Use's (any active subscription); given for each run that uses it."),
  screenWidth: Props.screenWidth,
  screenHeight: Props.screenHeight,
  record: Property.boolean({ title: "Record", description: "Record the browser to an mp4 (on a newly started browser only)." }),
  attachedFileIds: Property.array({ title: "Attached Files", description: "Uploaded files' ids, 20 at most.", maxItems: 20, items: fileUuid({ title: "File" }) }),
  judge: Property.boolean({ title: "Judge", description: "Have the finished run judged by a model (billed to the run): its verdict in `judgement`." }),
  judgeContext: Property.string({ title: "Judge Context", description: "What the judge should know (with Judge on).", maxLength: 10_000 }),
  maxCostUsd: Property.number({ title: "Cost Cap (USD)", description: "The run stops when it has cost this much." })
}

type Params = {
  readonly task: string
  readonly model?: V4.Model | undefined
  readonly sessionId?: string | undefined
  readonly workspaceId?: string | undefined
  readonly profileId?: string | undefined
  readonly proxyCountryCode?: string | undefined
  readonly customProxy?: Runs.BrowserSettings["customProxy"]
  readonly screenWidth?: number | undefined
  readonly screenHeight?: number | undefined
  readonly record?: boolean | undefined
  readonly attachedFileIds?: ReadonlyArray<string> | undefined
  readonly judge?: boolean | undefined
  readonly judgeContext?: string | undefined
  readonly maxCostUsd?: number | undefined
}

/** What the document refuses and the properties cannot say. */
export const validate = (params: Partial<Params>) => [
  ...(params.maxCostUsd !== undefined && !(params.maxCostUsd > 0) ? [{ path: "maxCostUsd", message: "must be more than 0" }] : []),
  ...(params.judgeContext !== undefined && params.judge !== true ? [{ path: "judgeContext", message: "applies only with judge on" }] : [])
]

/** The run the inputs ask for. */
export const createRun = (params: Params): Runs.CreateRun => {
  const browser = {
    profileId: params.profileId,
    proxyCountryCode: params.proxyCountryCode === "none" ? null : params.proxyCountryCode,
    customProxy: params.customProxy,
    screenWidth: params.screenWidth,
    screenHeight: params.screenHeight,
    record: params.record
  }
  return {
    task: params.task,
    model: params.model,
    sessionId: params.sessionId,
    workspaceId: params.workspaceId,
    browserSettings: Object.values(browser).every((value) => value === undefined) ? undefined : browser,
    attachedFileIds: params.attachedFileIds,
    judge: params.judge === true ? { context: params.judgeContext } : undefined,
    maxCostUsd: params.maxCostUsd
  }
}
