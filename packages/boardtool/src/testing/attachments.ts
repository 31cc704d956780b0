/**
 * The simulator's card attachments, as Trello keeps them: files uploaded as
 * `multipart/form-data` (parsed with the platform's form parser, the bytes kept), links
 * attached by URL, each answered in Trello's attachment shape; and the download of an
 * uploaded file, which Trello serves only with the `Authorization: OAuth` header.
 */
import { HttpError } from "./http.js"

export interface Attachment {
  id: string
  idCard: string
  idMember: string
  name: string
  fileName: string | null
  mimeType: string
  /** The uploaded bytes; null for a link. */
  bytes: Buffer | null
  url: string
  isUpload: boolean
  date: string
  pos: number
}

export const json = (a: Attachment) => ({
  id: a.id,
  bytes: a.bytes === null ? null : a.bytes.length,
  date: a.date,
  edgeColor: null,
  idMember: a.idMember,
  isUpload: a.isUpload,
  mimeType: a.mimeType,
  name: a.name,
  previews: [],
  url: a.url,
  pos: a.pos,
  fileName: a.fileName
})

/** Reads a multipart body into its fields and its `file` part (the platform's parser). */
export const parseMultipart = async (body: Buffer, contentType: string) => {
  const form = await new Request("http://simulator/", { method: "POST", headers: { "content-type": contentType }, body: new Uint8Array(body) }).formData()
  const fields = new Map<string, string>()
  let file: File | undefined
  for (const [name, value] of form) {
    if (typeof value === "string") fields.set(name, value)
    else if (name === "file") file = value
  }
  return { fields, file }
}

const trelloDate = () => new Date().toISOString()

/** Adds an upload or a link to a card: what `POST /1/cards/{id}/attachments` does. */
export const attach = async (
  store: Map<string, Attachment>,
  newId: () => string,
  card: { readonly id: string },
  idMember: string,
  fields: Map<string, string>,
  file: File | undefined
): Promise<Attachment> => {
  const name = fields.get("name")
  const mimeType = fields.get("mimeType")
  if ((name ?? "").length > 256) throw new HttpError(400, "invalid value for name")
  if ((mimeType ?? "").length > 256) throw new HttpError(400, "invalid value for mimeType")
  const setCover = fields.get("setCover")
  if (setCover !== undefined && setCover !== "true" && setCover !== "false") throw new HttpError(400, "invalid value for setCover")
  const onCard = [...store.values()].filter((a) => a.idCard === card.id).length
  const id = newId()
  if (file !== undefined) {
    const fileName = file.name === "" ? "upload" : file.name
    return {
      id, idCard: card.id, idMember, name: name ?? fileName, fileName,
      mimeType: mimeType ?? (file.type === "" ? "application/octet-stream" : file.type),
      bytes: Buffer.from(await file.arrayBuffer()),
      url: `https://trello.com/1/cards/${card.id}/attachments/${id}/download/${encodeURIComponent(fileName)}`,
      isUpload: true, date: trelloDate(), pos: (onCard + 1) * 16384
    }
  }
  const url = fields.get("url")
  if (url === undefined || url === "") throw new HttpError(400, "Must provide either a file or a url")
  if (!/^https?:\/\//.test(url)) throw new HttpError(400, "invalid value for url")
  return {
    id, idCard: card.id, idMember, name: name ?? url, fileName: null, mimeType: mimeType ?? "",
    bytes: null, url, isUpload: false, date: trelloDate(), pos: (onCard + 1) * 16384
  }
}

/** `OAuth oauth_consumer_key="…", oauth_token="…"` with these credentials: the download's only accepted proof. */
export const hasOAuthHeader = (header: string | undefined, key: string, token: string) => {
  if (header === undefined || !/^OAuth\s/.test(header)) return false
  const field = (name: string) => new RegExp(`(?:^OAuth\\s+|,\\s*)${name}="([^"]*)"`).exec(header)?.[1]
  return field("oauth_consumer_key") === key && field("oauth_token") === token
}
