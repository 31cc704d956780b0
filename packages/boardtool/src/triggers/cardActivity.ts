/**
 * What the card triggers share: a webhook on the board, optionally only a list's or a card's
 * actions, and the card read back (a delivery names the card, without its fields).
 */
import type { ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import { activityOf, type CardEvent, readCard, refOf, type TrelloAction } from "../api/activity.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import { same } from "./activity.js"

export const props = {
  idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
  idList: Props.trelloId({ title: "List", description: "Only cards in this list (else: anywhere on the board).", dynamicOptions: BoardOptions.lists }),
  idCard: Props.trelloId({ title: "Card", description: "Only this card (else: any card).", dynamicOptions: BoardOptions.cards })
}

export interface Where {
  readonly idBoard: string
  readonly idList?: string | undefined
  readonly idCard?: string | undefined
}

export const board = ({ idBoard }: { readonly idBoard: string }) => ({ kind: "board" as const, id: idBoard })

/** The action is about a card, and the card (and list) asked for, if any. */
export const onCard = (action: TrelloAction, where: Where) => {
  const card = refOf(action, "card")
  if (card === undefined || (where.idCard !== undefined && !same(card.id, where.idCard))) return false
  const list = refOf(action, "listAfter") ?? refOf(action, "list")
  return where.idList === undefined || same(list?.id, where.idList)
}

/** The event of an action on a card: the action, the card read back, and what `more` adds of the action's data. */
export const cardEvent = <M extends object>(client: ProviderClient.ProviderClient, action: TrelloAction, more: M) =>
  Effect.map(readCard(client, refOf(action, "card")!.id), (card): CardEvent & M => ({ action: activityOf(action), card, ...more }))
