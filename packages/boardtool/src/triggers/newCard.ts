import { Trigger, Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Api from "../api.js"
import { connection } from "../connection.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

const readDelivery = Schema.decodeUnknownEither(Schema.parseJson(Api.Delivery))

/** Trello ids are hexadecimal: the same id in either case. */
const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

export const newCard = Trigger.dynamicWebhook({
  name: "newCard",
  title: "New Card",
  description: "Fires when a card is created on a board, or in one of its lists.",
  connection,
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({
      title: "List",
      description: "Only cards created in this list (else: anywhere on the board).",
      dynamicOptions: Options.lists
    })
  },
  validate: ({ idBoard, idList }) =>
    idBoard === undefined && idList === undefined
      ? [{ path: "idBoard", message: "a board or a list is required" }]
      : [],
  output: Api.Card,
  state: Schema.Struct({ webhookId: Schema.String }),
  // Trello checks the callback URL with a HEAD before it creates the webhook.
  urlCheck: Webhook.headCheck,

  // The token's webhook for this model and URL if it has one: a second would fire twice.
  enable: ({ client, connection, params, webhookUrl }) =>
    Effect.map(
      Api.ensureWebhook(client, connection.token, {
        callbackURL: webhookUrl,
        idModel: params.idList ?? params.idBoard!,
        description: `New cards on ${params.idList === undefined ? "board" : "list"} ${params.idList ?? params.idBoard}`
      }),
      (webhook) => ({ webhookId: webhook.id })
    ),

  // A webhook that is already gone is what disabling wants.
  disable: ({ client, state }) =>
    Api.deleteWebhook(client, state.webhookId).pipe(Effect.catchTag("NotFound", () => Effect.void)),

  // The most recent cards of the list (or board): what a new card's event looks like.
  sample: ({ client, params }) =>
    Effect.map(Api.cardsOf(client, params), (cards) =>
      Api.newestFirst(cards).slice(0, Api.sampleSize).map((card) => ({ id: card.id, output: card }))),

  handle: ({ client, connection, params, request }) =>
    Effect.gen(function*() {
      if (connection.secret !== undefined) {
        yield* Webhook.verifyHmacSha1Base64({
          secret: connection.secret,
          body: request.body,
          callbackUrl: request.url,
          signature: request.headers["x-trello-webhook"]
        })
      }
      const delivery = readDelivery(new TextDecoder().decode(request.body))
      if (Either.isLeft(delivery)) return { response: { status: 400, body: "not a Trello delivery" }, events: [] }
      const { action } = delivery.right
      const ignored = { response: { status: 200 }, events: [] }
      const watches = (card: { idBoard?: string | undefined; idList?: string | undefined }) =>
        params.idList === undefined ? same(card.idBoard, params.idBoard) : same(card.idList, params.idList)
      if (
        action.type !== "createCard" || action.data.card === undefined ||
        !watches({ idBoard: action.data.board?.id, idList: action.data.list?.id })
      ) return ignored
      // The delivery lacks the card's description: read the card itself. A card deleted since is
      // no event (a failure would only make Trello retry); one elsewhere than the delivery says,
      // neither: the card itself decides.
      const card = yield* Api.getCard(client, action.data.card.id).pipe(
        Effect.catchTag("NotFound", () => Effect.succeed(undefined))
      )
      if (card === undefined || !watches(card)) return ignored
      return { response: { status: 200 }, events: [{ id: action.id, output: card }] }
    })
})
