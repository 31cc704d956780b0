/**
 * Trello's wire formats (REST API 1, `../shared/specs/trello`): the records we read, decoded
 * with Schema (unknown fields are ignored), and the endpoints the actions call.
 *
 * An answer's record requires only what identifies it (its `id`, a Trello action's `type`)
 * and what the seed names (a card's `id`, `desc`, `idBoard`, `idList`, `name`): Trello's
 * document marks nothing else required, and a write must not fail after it was made because
 * its answer left out a field we merely pass on. Any other field takes the default stated where
 * it is declared: `[]` for a list (`listOr`), `null` for a nullable field (`nullOr`), `false`
 * for a flag that is off unless said (`falseOr`); else it is absent from the output too.
 */
import { Action, Auth, ConnectorError, FileInput, Files, Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** A list Trello may leave out of an answer: `[]` when it does. */
export const listOr = <A, I>(item: Schema.Schema<A, I>) => Schema.optionalWith(Schema.Array(item), { default: () => [] })

/** A nullable field Trello may leave out of an answer: `null` (none) when it does. */
export const nullOr = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** A flag Trello may leave out of an answer, off unless said (`closed`, `dueComplete`): `false` when it does. */
export const falseOr = Schema.optionalWith(Schema.Boolean, { default: () => false })

/** The card as the component outputs it (the seed's five fields, all required). */
export const Card = Schema.Struct({
  id: Schema.String,
  desc: Schema.String,
  idBoard: Schema.String,
  idList: Schema.String,
  name: Schema.String
})
export type Card = typeof Card.Type

/** A card with its due date and states, as the due-date trigger reads it (`due` is ISO, or null). */
export const DatedCard = Schema.Struct({
  ...Card.fields,
  due: nullOr(Schema.String),
  dueComplete: falseOr,
  closed: falseOr
})
export type DatedCard = typeof DatedCard.Type

/** A card that is due: the five fields and its due date. */
export const DueCard = Schema.Struct({ ...Card.fields, due: Schema.String })

/** A record by id and name (a name Trello leaves out is empty). */
export const Named = Schema.Struct({ id: Schema.String, name: Schema.optionalWith(Schema.String, { default: () => "" }) })

/**
 * An action on a board (a card created, a comment, an update): who, what, when, and its data.
 * Its `type` says what it is, so it is required with the id; `data` is `{}` when left out.
 */
export const BoardAction = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  date: Schema.optional(Schema.String),
  idMemberCreator: Schema.optional(Schema.String),
  data: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
})
export type BoardAction = typeof BoardAction.Type

export const Webhook = Schema.Struct({
  id: Schema.String,
  idModel: Schema.optional(Schema.String),
  callbackURL: Schema.optional(Schema.String),
  active: Schema.optional(Schema.Boolean)
})

/**
 * A card's attachment: an uploaded file (`isUpload`, its size in `bytes`) or a link. Trello
 * answers `bytes` as a number (the spec says string) and adds `fileName` to uploads. A name
 * left out is empty; `isUpload` left out is `false` (not known to be a file).
 */
export const Attachment = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  url: Schema.optional(Schema.String),
  isUpload: falseOr,
  mimeType: nullOr(Schema.String),
  bytes: nullOr(Schema.Number),
  fileName: nullOr(Schema.String),
  date: Schema.optional(Schema.String)
})
export type Attachment = typeof Attachment.Type

/** Trello's largest attachment: 10 MB in a free workspace, 250 MB in a paid one. */
export const attachmentLimits = { free: 10 * FileInput.MiB, paid: 250 * FileInput.MiB } as const

const { path } = ProviderRequest

/**
 * Attaches a file (uploaded as `multipart/form-data`, opened within `maxBytes` before anything
 * is sent) or a link to a card. The name and type default to the file's.
 */
export const addAttachment = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  attachment: {
    file?: FileInput.FileInput | undefined
    url?: string | undefined
    name?: string | undefined
    mimeType?: string | undefined
    setCover?: boolean | undefined
    maxBytes: number
  }
) => {
  const request = { method: "POST", path: path`/cards/${idCard}/attachments` } as const
  const { file, mimeType, name, setCover } = attachment
  return file === undefined
    ? client.json({ ...request, body: ProviderRequest.formBody({ url: attachment.url, name, mimeType, setCover }) }, Attachment)
    : Effect.scoped(Effect.flatMap(FileInput.open(client, file, { field: "file", maxBytes: attachment.maxBytes }), (opened) =>
      client.json({
        ...request,
        body: ProviderRequest.multipartBody({
          fields: { name: name ?? opened.name, mimeType: mimeType ?? opened.contentType, setCover },
          files: { file: opened }
        }),
        timeout: Files.transferTimeout
      }, Attachment)))
}

export const getAttachment = (client: ProviderClient.ProviderClient, idCard: string, idAttachment: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/attachments/${idAttachment}` }, Attachment)

const lastSegment = (url: string) => {
  const segment = url.slice(url.lastIndexOf("/") + 1)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * Downloads an uploaded attachment to `to`, streamed: Trello serves the file at
 * `/cards/{id}/attachments/{id}/download/{fileName}` to the `Authorization: OAuth` header
 * (the connection's credentials), not to `key` and `token` in the query.
 */
export const downloadAttachment = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  idAttachment: string,
  options: { to: string; overwrite?: boolean | undefined; maxBytes?: number | undefined }
) =>
  // The destination is checked by the file policy first: a refused path sends nothing.
  Effect.flatMap(Effect.zip(Files.destination(options.to, { field: "path", overwrite: options.overwrite }), getAttachment(client, idCard, idAttachment)), ([to, attachment]) => {
    if (!attachment.isUpload) {
      const message = "the attachment is a link, not an uploaded file"
      return Effect.fail(new ConnectorError.InvalidInput({ message, issues: [{ path: "idAttachment", message }] }))
    }
    // Trello serves a file under its name; without one, under the last segment of its URL.
    const fileName = attachment.fileName ?? (attachment.url === undefined ? attachment.id : lastSegment(attachment.url))
    return Effect.map(
      Files.download(client, {
        method: "GET",
        path: path`/cards/${idCard}/attachments/${idAttachment}/download/${fileName}`
      }, { to, overwrite: options.overwrite, maxBytes: options.maxBytes, field: "path" }),
      (downloaded) => ({ ...downloaded, contentType: downloaded.contentType ?? null, name: attachment.name, fileName })
    )
  })

export const createCard = (
  client: ProviderClient.ProviderClient,
  card: { idList: string; name?: string | undefined; desc?: string | undefined }
) =>
  client.json({
    method: "POST",
    path: "/cards",
    body: ProviderRequest.formBody({ idList: card.idList, name: card.name, desc: card.desc })
  }, Card)

export const getCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/cards/${id}` }, Card)

// Open boards only: the list's default filter is "all", archived ones included.
export const myBoards = (client: ProviderClient.ProviderClient) =>
  client.json({ method: "GET", path: "/members/me/boards", query: { filter: "open", fields: "name" } }, Schema.Array(Named))

export const boardLists = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/lists`, query: { fields: "name" } }, Schema.Array(Named))

export const boardCards = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/cards`, query: { fields: "name" } }, Schema.Array(Named))

/** Where to read cards: a list, else a board (open cards only, as Trello's default filter). */
export interface CardsOf {
  readonly idBoard?: string | undefined
  readonly idList?: string | undefined
}
const cardsPath = (where: CardsOf) =>
  where.idList !== undefined ? path`/lists/${where.idList}/cards` : path`/boards/${where.idBoard!}/cards`

export const cardsOf = (client: ProviderClient.ProviderClient, where: CardsOf) =>
  client.json({ method: "GET", path: cardsPath(where), query: { fields: "name,desc,idBoard,idList" } }, Schema.Array(Card))

export const datedCardsOf = (client: ProviderClient.ProviderClient, where: CardsOf) =>
  client.json({
    method: "GET",
    path: cardsPath(where),
    query: { fields: "name,desc,idBoard,idList,due,dueComplete,closed" }
  }, Schema.Array(DatedCard))

/** How many records a trigger's sample data holds at most. */
export const sampleSize = 5

/** Newest first: a Trello id starts with its creation time (seconds, 8 hex digits). */
export const newestFirst = <A extends { readonly id: string }>(records: ReadonlyArray<A>): Array<A> =>
  [...records].sort((a, b) => b.id.toLowerCase().localeCompare(a.id.toLowerCase()))

/**
 * A board's actions, newest first, as a stream up to `maxItems`: Trello answers at most 1000 a
 * request, and the next page is the actions `before` the last one received.
 */
export const boardActions = (
  client: ProviderClient.ProviderClient,
  query: { idBoard: string; filter?: string | undefined; since?: string | undefined },
  maxItems: number
) =>
  Pagination.keyset(
    { pageSize: 1000, maxItems },
    (before, limit) =>
      client.json({
        method: "GET",
        path: path`/boards/${query.idBoard}/actions`,
        query: { filter: query.filter, since: query.since, before, limit }
      }, Schema.Array(BoardAction)),
    (action) => action.id
  )

/** A list's open cards, by id and name (the list's default filter is "open"). */
export const openCardsOfList = (client: ProviderClient.ProviderClient, idList: string) =>
  client.json({ method: "GET", path: path`/lists/${idList}/cards`, query: { fields: "name" } }, Schema.Array(Named))

/** Archives a card: `closed=true` in the query, as the spec declares it; a PUT, so retried on a 429. */
export const archiveCard = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "PUT", path: path`/cards/${id}`, query: { closed: true } }, Named)

export const createWebhook = (
  client: ProviderClient.ProviderClient,
  webhook: { callbackURL: string; idModel: string; description: string }
) => client.json({ method: "POST", path: "/webhooks", query: webhook }, Webhook)

export const deleteWebhook = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/webhooks/${id}` })

/** The webhooks a token created (Trello lists them by the token itself, in the path). */
export const tokenWebhooks = (client: ProviderClient.ProviderClient, token: Auth.SecretValue) =>
  client.json({ method: "GET", path: path`/tokens/${Auth.reveal(token)}/webhooks` }, Schema.Array(Webhook))

export const activateWebhook = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "PUT", path: path`/webhooks/${id}`, query: { active: true } }, Webhook)

/**
 * The token's webhook on this model with this callback URL, reactivated if Trello turned it
 * off; a new one only when there is none. Re-enabling (a restart that lost the state, a
 * workflow enabled twice) must neither register a second webhook that fires twice nor fail
 * on Trello's 400 to a duplicate.
 */
export const ensureWebhook = (
  client: ProviderClient.ProviderClient,
  token: Auth.SecretValue,
  webhook: { callbackURL: string; idModel: string; description: string }
) =>
  Effect.flatMap(tokenWebhooks(client, token), (webhooks) => {
    const found = webhooks.find((w) =>
      w.callbackURL === webhook.callbackURL && w.idModel?.toLowerCase() === webhook.idModel.toLowerCase()
    )
    if (found === undefined) return createWebhook(client, webhook)
    return found.active === false ? activateWebhook(client, found.id) : Effect.succeed(found)
  })

/** When a Trello record was created, in milliseconds: its id's first 8 hex digits are Unix seconds. */
export const createdAt = (id: string): number => Number.parseInt(id.slice(0, 8), 16) * 1000

/**
 * Of these records, the newest named `name` created at or after `since` (to the second, as
 * Trello's ids tell it): what a create cut short may have made (an action's `reconcile`).
 */
export const newestCreatedSince = <R extends { readonly id: string; readonly name: string }>(
  records: ReadonlyArray<R>,
  name: string,
  since: Date
): Option.Option<R> =>
  // Ids of one second are in the order Trello made them: the last one given wins a tie.
  Action.newestCreatedSince(
    records.filter((record) => record.name === name).sort((a, b) => a.id.localeCompare(b.id)),
    (record) => createdAt(record.id),
    { since }
  )
