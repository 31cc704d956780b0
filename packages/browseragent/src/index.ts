/**
 * @x/browseragent: the browser-agent component, `browseragent/v1` (Browser Use Cloud API v3,
 * and V4's agent runs and session queue).
 */
import { Client, Component } from "@x/core"
import * as actions from "./actions/index.js"
import { connection } from "./connection.js"
import * as triggers from "./triggers/index.js"

export const browseragent = Component.make({
  name: "browseragent",
  version: 1,
  title: "Browser Agent",
  description: "Browser automation by AI agents that navigate sites and extract data, with workspaces for their files.",
  category: "Artificial Intelligence",
  connection,
  actions: Object.values(actions),
  triggers: Object.values(triggers),
  customAction: true
})

/**
 * The typed clients of browseragent: `Browseragent.client(connection)` (Promise) and `Browseragent.effect(connection)`
 * (Effect), one method per action.
 */
export const Browseragent = Client.make(browseragent)

// The records the actions and triggers output, as Schemas, and the models they take.
export { Account } from "./api/billing.js"
export { BrowserDownload, BrowserSession, DownloadedBrowserFile } from "./api/browsers.js"
export { Profile } from "./api/profiles.js"
export { proxyCountryCodes } from "./api/proxyCountries.js"
export { QueuedMessage, RunSession } from "./api/queue.js"
export { Cost, TaskResult } from "./api/run.js"
export { CreatedRun, Run, RunAttachment, RunEvent, RunResult, RunStatus } from "./api/runs.js"
export { Message, models, Session } from "./api/sessions.js"
export { models as v4Models, v4BaseUrl } from "./api/v4.js"
export { TaskStatusUpdate } from "./api/webhooks.js"
export {
  DeletedWorkspace, DeletedWorkspaceFile, DownloadedFile, UploadedFile, Workspace, WorkspaceFile, WorkspaceSize
} from "./api/workspaces.js"

export * from "./actions/index.js"
export { connection }
export * from "./triggers/index.js"
