/**
 * Trello's search (`GET /search`): cards, paged by `cards_page` (0 to 100) and `cards_limit`
 * (at most 1000), and boards (`boards_limit`, at most 1000, not paged).
 */
import { Pagination, ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Cards from "./cards.js"
import { falseOr, listOr, nullOr } from "./shared.js"
import { Board } from "./boards.js"

/** A card found: the card's fields, whether it is archived (false when left out), its due date (null) and its link (absent). */
export const FoundCard = Schema.Struct({
  ...Cards.Card.fields,
  closed: falseOr,
  due: nullOr(Schema.String),
  url: Schema.optional(Schema.String)
})
export type FoundCard = typeof FoundCard.Type

const CardResults = Schema.Struct({ cards: listOr(FoundCard) })
const BoardResults = Schema.Struct({ boards: listOr(Board) })

/** Trello's cap on a page of search results, and on the page number (0 to 100). */
const pageSize = 1000
const lastPage = 100

export interface CardSearch {
  readonly query: string
  readonly idBoard?: string | undefined
  /** Kept to this list's cards (Trello's search filters by board, not by list). */
  readonly idList?: string | undefined
  readonly partial?: boolean | undefined
}

/** Cards matching a query, across pages up to `maxItems` (and Trello's last page). */
export const searchCards = (client: ProviderClient.ProviderClient, search: CardSearch, maxItems: number) => {
  const filtered = search.idList !== undefined
  // With a list filter, pages are read until enough of that list's cards have come.
  const pages = Pagination.pageNumber(
    { pageSize: filtered ? pageSize : Math.min(pageSize, maxItems), maxItems: filtered ? undefined : maxItems, maxPages: lastPage + 1 },
    (page, size) =>
      Effect.map(
        client.json({
          method: "GET",
          path: "/search",
          query: {
            query: search.query,
            modelTypes: "cards",
            idBoards: search.idBoard,
            partial: search.partial,
            cards_limit: size,
            cards_page: page - 1
          }
        }, CardResults),
        (results) => ({ items: results.cards })
      )
  )
  return Pagination.collect(
    filtered ? pages.pipe(Stream.filter((card) => card.idList.toLowerCase() === search.idList!.toLowerCase()), Stream.take(maxItems)) : pages
  )
}

export interface BoardSearch {
  readonly query: string
  readonly idOrganization?: string | undefined
  readonly partial?: boolean | undefined
}

/** Boards matching a query, at most `limit` (1 to 1000: Trello does not page boards). */
export const searchBoards = (client: ProviderClient.ProviderClient, search: BoardSearch, limit: number) =>
  Effect.map(
    client.json({
      method: "GET",
      path: "/search",
      query: {
        query: search.query,
        modelTypes: "boards",
        idOrganizations: search.idOrganization,
        partial: search.partial,
        board_fields: "all",
        boards_limit: limit
      }
    }, BoardResults),
    (results) => results.boards
  )
