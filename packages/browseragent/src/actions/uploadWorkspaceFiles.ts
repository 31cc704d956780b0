import { Action, FileInput, Property } from "@x/core"
import * as Schema from "effect/Schema"
import * as Effect from "effect/Effect"
import * as Workspaces from "../api/workspaces.js"
import * as Props from "../props.js"

export const uploadWorkspaceFiles = Action.make({
  name: "uploadWorkspaceFiles",
  title: "Upload Workspace Files",
  impact: "write",
  idempotent: false,
  description: "Uploads up to 10 files (each from a path, a URL or base64) to a workspace in one request for their upload URLs. If one fails, the error names it and the files uploaded before it.",
  props: {
    workspaceId: Props.workspaceId({ title: "Workspace", required: true }),
    files: Property.array({
      title: "Files",
      required: true,
      items: FileInput.property({ title: "File", maxBytes: Workspaces.workspaceUploadLimit }),
      minItems: 1,
      maxItems: Workspaces.workspaceUploadMaxFiles
    }),
    prefix: Property.string({ title: "Folder", description: "The folder to upload into, e.g. `uploads/` (default: the workspace's root)." })
  },
  output: Schema.Struct({ files: Schema.Array(Workspaces.UploadedFile) }),
  run: ({ workspaceId, files, prefix }, { client }) =>
    Effect.map(
      Workspaces.uploadWorkspaceFiles(client, workspaceId, files, { prefix, maxBytes: Workspaces.workspaceUploadLimit, field: (index) => `files[${index}]` }),
      (uploaded) => ({ files: uploaded })
    )
})
