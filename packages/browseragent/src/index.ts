/**
 * @x/browseragent: the browser-agent component, `browseragent/v1` (Browser Use Cloud API v3,
 * and V4's agent runs and session queue).
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
import { runTask } from "./actions/runTask.js"
import { stopSession } from "./actions/stopSession.js"
import { uploadWorkspaceFile } from "./actions/uploadWorkspaceFile.js"
import { deleteWorkspace } from "./actions/deleteWorkspace.js"
import { deleteWorkspaceFile } from "./actions/deleteWorkspaceFile.js"
import { getWorkspace } from "./actions/getWorkspace.js"
import { getWorkspaceSize } from "./actions/getWorkspaceSize.js"
import { updateWorkspace } from "./actions/updateWorkspace.js"
import { uploadWorkspaceFiles } from "./actions/uploadWorkspaceFiles.js"
// browsers
import { createBrowserSession } from "./actions/createBrowserSession.js"
import { getBrowserSession } from "./actions/getBrowserSession.js"
import { listBrowserSessions } from "./actions/listBrowserSessions.js"
import { stopBrowserSession } from "./actions/stopBrowserSession.js"
import { listBrowserDownloads } from "./actions/listBrowserDownloads.js"
import { downloadBrowserFile } from "./actions/downloadBrowserFile.js"
import { createProfile } from "./actions/createProfile.js"
import { getProfile } from "./actions/getProfile.js"
import { listProfiles } from "./actions/listProfiles.js"
import { updateProfile } from "./actions/updateProfile.js"
import { deleteProfile } from "./actions/deleteProfile.js"
import { getAccount } from "./actions/getAccount.js"
// V4 runs and sessions
import { cancelRun } from "./actions/cancelRun.js"
import { createRun } from "./actions/createRun.js"
import { getRun } from "./actions/getRun.js"
import { getRunStatus } from "./actions/getRunStatus.js"
import { listRunAttachments } from "./actions/listRunAttachments.js"
import { listRunEvents } from "./actions/listRunEvents.js"
import { listRuns } from "./actions/listRuns.js"
import { listRunSessions } from "./actions/listRunSessions.js"
import { listSessionQueue } from "./actions/listSessionQueue.js"
import { removeQueuedMessage } from "./actions/removeQueuedMessage.js"
import { runAndWait } from "./actions/runAndWait.js"
import { sendSessionMessage } from "./actions/sendSessionMessage.js"
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
    // workspaces
    getWorkspace,
    updateWorkspace,
    deleteWorkspace,
    getWorkspaceSize,
    uploadWorkspaceFiles,
    deleteWorkspaceFile,
    // run
    runTask,
    stopSession,
    // browsers
    createBrowserSession, getBrowserSession, listBrowserSessions, stopBrowserSession, listBrowserDownloads, downloadBrowserFile,
    createProfile, getProfile, listProfiles, updateProfile, deleteProfile,
    getAccount,
    // sessions
    listSessions,
    listSessionMessages,
    deleteSession,
    // V4 runs and sessions
    createRun, runAndWait, getRun, getRunStatus, listRunEvents, listRunAttachments, listRuns, cancelRun,
    sendSessionMessage, listSessionQueue, removeQueuedMessage, listRunSessions
  ],
  triggers: [taskStatusChanged, sessionFinished],
  customAction: true
})

/**
 * The typed clients of browseragent: `Browseragent.client(connection)` (Promise) and `Browseragent.effect(connection)`
 * (Effect), one method per action.
 */
export const Browseragent = Client.make(browseragent)

export { Message, proxyCountryCodes } from "./api/sessions.js"
export { DownloadedFile, models, Session, TaskStatusUpdate, UploadedFile, Workspace, WorkspaceFile } from "./api.js"
// workspaces
export { DeletedWorkspace, DeletedWorkspaceFile, WorkspaceSize } from "./api/workspaces.js"
export { deleteWorkspace, deleteWorkspaceFile, getWorkspace, getWorkspaceSize, updateWorkspace, uploadWorkspaceFiles }
export { Cost, TaskResult } from "./api/run.js"
// browsers
export { Account } from "./api/billing.js"
export { BrowserDownload, BrowserSession, DownloadedBrowserFile } from "./api/browsers.js"
export { Profile } from "./api/profiles.js"
// V4 runs and sessions
export { CreatedRun, Run, RunAttachment, RunEvent, RunResult, RunStatus } from "./api/runs.js"
export { QueuedMessage, RunSession } from "./api/queue.js"
export { models as v4Models, v4BaseUrl } from "./api/v4.js"
export {
  cancelRun, createRun, getRun, getRunStatus, listRunAttachments, listRunEvents, listRuns, listRunSessions,
  listSessionQueue, removeQueuedMessage, runAndWait, sendSessionMessage
}
export {
  // browsers
  createBrowserSession, getBrowserSession, listBrowserSessions, stopBrowserSession, listBrowserDownloads, downloadBrowserFile,
  createProfile, getProfile, listProfiles, updateProfile, deleteProfile, getAccount,
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
  runTask,
  sessionFinished,
  stopSession,
  taskStatusChanged,
  uploadWorkspaceFile
}
