import { Action, FileInput, Property } from "@x/core"
import * as Attachments from "../api/attachments.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const addAttachment = Action.make({
  name: "addAttachment",
  title: "Add Attachment",
  impact: "write", idempotent: false,
  description: "Attaches a file (from a path, a URL or base64) or a link to a card.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    file: FileInput.property({ title: "File", maxBytes: Attachments.attachmentLimits.paid }),
    url: Property.string({ title: "Link", description: "A URL to attach instead of a file.", pattern: /^https?:\/\//, patternMessage: "must start with http:// or https://" }),
    name: Property.string({ title: "Name", maxLength: 256 }),
    mimeType: Property.string({ title: "MIME type", maxLength: 256 }),
    setCover: Property.boolean({ title: "Use as cover" }),
    paidWorkspace: Property.boolean({
      title: "Paid workspace",
      description: "Takes files up to 250 MB (Trello's limit for paid workspaces) instead of 10 MB."
    })
  },
  validate: ({ file, url }) =>
    (file === undefined) === (url === undefined) ? [{ path: "file", message: "give either a file or a url" }] : [],
  output: Attachments.Attachment,
  run: ({ idCard, paidWorkspace, ...attachment }, { client }) =>
    Attachments.addAttachment(client, idCard, {
      ...attachment,
      maxBytes: paidWorkspace === true ? Attachments.attachmentLimits.paid : Attachments.attachmentLimits.free
    })
})
