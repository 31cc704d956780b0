/**
 * @x/browseragent: the browser-agent component, `browseragent/v1` (Browser Use Cloud API v3).
 */
import { Client, Component } from "@x/core"
import { createSession } from "./actions/createSession.js"
import { createWorkspace } from "./actions/createWorkspace.js"
import { downloadWorkspaceFile } from "./actions/downloadWorkspaceFile.js"
import { getSession } from "./actions/getSession.js"
import { listWorkspaceFiles } from "./actions/listWorkspaceFiles.js"
import { listWorkspaces } from "./actions/listWorkspaces.js"
import { runTask } from "./actions/runTask.js"
import { stopSession } from "./actions/stopSession.js"
import { uploadWorkspaceFile } from "./actions/uploadWorkspaceFile.js"
import { connection } from "./connection.js"
import { sessionFinished } from "./triggers/sessionFinished.js"
import { taskStatusChanged } from "./triggers/taskStatusChanged.js"

export const browseragent = Component.make({
  name: "browseragent",
  version: 1,
  title: "Browser Agent",
  description: "Browser automation by AI agents that navigate sites and extract data, with workspaces for their files.",
  category: "Artificial Intelligence",
  connection,
  actions: [
    createSession,
    getSession,
    createWorkspace,
    listWorkspaces,
    listWorkspaceFiles,
    uploadWorkspaceFile,
    downloadWorkspaceFile,
    // run
    runTask,
    stopSession
  ],
  triggers: [taskStatusChanged, sessionFinished],
  customAction: true
})

/**
 * The typed clients of browseragent: `Browseragent.client(connection)` (Promise) and `Browseragent.effect(connection)`
 * (Effect), one method per action.
 */
export const Browseragent = Client.make(browseragent)

export { DownloadedFile, models, Session, TaskStatusUpdate, UploadedFile, Workspace, WorkspaceFile } from "./api.js"
export { Cost, TaskResult } from "./api/run.js"
export {
  connection,
  createSession,
  createWorkspace,
  downloadWorkspaceFile,
  getSession,
  listWorkspaceFiles,
  listWorkspaces,
  runTask,
  sessionFinished,
  stopSession,
  taskStatusChanged,
  uploadWorkspaceFile
}
