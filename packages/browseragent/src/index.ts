/**
 * @x/browseragent: the browser-agent component, `browseragent/v1` (Browser Use Cloud API v3).
 */
import { Client, Component } from "@x/core"
import { createSession } from "./actions/createSession.js"
import { createWorkspace } from "./actions/createWorkspace.js"
import { downloadWorkspaceFile } from "./actions/downloadWorkspaceFile.js"
import { deleteSession } from "./actions/deleteSession.js"
import { getSession } from "./actions/getSession.js"
import { listSessionMessages } from "./actions/listSessionMessages.js"
import { listSessions } from "./actions/listSessions.js"
import { listWorkspaceFiles } from "./actions/listWorkspaceFiles.js"
import { listWorkspaces } from "./actions/listWorkspaces.js"
import { uploadWorkspaceFile } from "./actions/uploadWorkspaceFile.js"
import { connection } from "./connection.js"
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
    // sessions
    listSessions,
    listSessionMessages,
    deleteSession
  ],
  triggers: [taskStatusChanged],
  customAction: true
})

/**
 * The typed clients of browseragent: `Browseragent.client(connection)` (Promise) and `Browseragent.effect(connection)`
 * (Effect), one method per action.
 */
export const Browseragent = Client.make(browseragent)

export { Message, proxyCountryCodes } from "./api/sessions.js"
export { DownloadedFile, models, Session, TaskStatusUpdate, UploadedFile, Workspace, WorkspaceFile } from "./api.js"
export {
  connection,
  createSession,
  createWorkspace,
  deleteSession,
  downloadWorkspaceFile,
  getSession,
  listSessionMessages,
  listSessions,
  listWorkspaceFiles,
  listWorkspaces,
  taskStatusChanged,
  uploadWorkspaceFile
}
