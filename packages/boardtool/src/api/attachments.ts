/** A card's attachments (Trello REST API 1): list and delete; add, get and download are in `../api.ts`. */
import { ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { Attachment } from "../api.js"

const { path } = ProviderRequest

export const listAttachments = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/attachments` }, Schema.Array(Attachment))

export const deleteAttachment = (client: ProviderClient.ProviderClient, idCard: string, idAttachment: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/attachments/${idAttachment}` })
