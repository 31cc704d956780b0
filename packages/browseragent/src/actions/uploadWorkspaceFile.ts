import { Action, FileInput, Property } from "@x/core"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const uploadWorkspaceFile = Action.make({
  name: "uploadWorkspaceFile",
  title: "Upload Workspace File",
  impact: "write",
  idempotent: false,
  description: "Uploads a file (from a path, a URL or base64) to a workspace, for the sessions that use it.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    file: FileInput.property({ title: "File", required: true, maxBytes: Workspaces.workspaceUploadLimit }),
    prefix: Property.string({ title: "Folder", description: "The folder to upload into, e.g. `uploads/` (default: the workspace's root)." })
  },
  output: Workspaces.UploadedFile,
  run: ({ workspaceId, file, prefix }, { client }) =>
    Workspaces.uploadWorkspaceFile(client, workspaceId, file, { prefix, maxBytes: Workspaces.workspaceUploadLimit })
})
