/**
 * Search (`GET /search`): cards, boards and workspaces whose text has every word of the query
 * (whole words, or word starts with `partial=true`), open ones only, as Trello's default; cards
 * paged by `cards_page` and `cards_limit`. Trello's operators (`label:`, `due:` ...) are not
 * simulated: a word with a colon is ignored.
 */
import { booleanOf, invalid, isId, pick, required, type Route } from "../http.js"
import type { Context } from "./context.js"

const modelTypes = ["actions", "boards", "cards", "members", "organizations"] as const

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, organizations } = store
  const integer = (p: Map<string, string>, name: string, fallback: number, max: number) => {
    const value = p.get(name)
    if (value === undefined) return fallback
    const n = Number(value)
    if (!Number.isInteger(n) || n < 0 || n > max) throw invalid(name)
    return n
  }
  const ids = (p: Map<string, string>, name: string, mine?: () => ReadonlyArray<string>) => {
    const value = p.get(name)
    if (value === undefined || value === "") return undefined
    if (value === "mine" && mine !== undefined) return new Set(mine())
    const list = value.split(",")
    if (!list.every(isId)) throw invalid(name)
    return new Set(list.map((id) => id.toLowerCase()))
  }

  return [
    {
      method: "GET",
      path: "/search",
      handle: ({ p }) => {
        const query = required(p, "query")
        if (query.length > 16384) throw invalid("query")
        const partial = booleanOf(p, "partial") ?? false
        const given = p.get("modelTypes") ?? "all"
        const types = given === "all" ? [...modelTypes] : given.split(",")
        if (!types.every((t) => (modelTypes as ReadonlyArray<string>).includes(t))) throw invalid("modelTypes")
        const idBoards = ids(p, "idBoards", () => [...boards.keys()])
        const idOrganizations = ids(p, "idOrganizations")
        const [cardsLimit, cardsPage, boardsLimit, organizationsLimit] = [
          integer(p, "cards_limit", 10, 1000),
          integer(p, "cards_page", 0, 100),
          integer(p, "boards_limit", 10, 1000),
          integer(p, "organizations_limit", 10, 1000)
        ]
        const terms = query.toLowerCase().split(/\s+/).filter((t) => t !== "" && !t.includes(":"))
        const matches = (...texts: ReadonlyArray<string>) => {
          const words = texts.join(" ").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "")
          return terms.length > 0 && terms.every((t) => words.some((w) => (partial ? w.startsWith(t) : w === t)))
        }
        const boardShown = (idBoard: string) => {
          const board = boards.get(idBoard)
          return board !== undefined && !board.closed && (idBoards === undefined || idBoards.has(idBoard)) &&
            (idOrganizations === undefined || idOrganizations.has(board.idOrganization))
        }
        const out: Record<string, unknown> = {
          options: { terms: terms.map((text) => ({ text, partial })), modelTypes: types, partial }
        }
        if (types.includes("cards")) {
          out["cards"] = [...cards.values()]
            .filter((c) => !c.closed && boardShown(c.idBoard) && matches(c.name, c.desc))
            .slice(cardsPage * cardsLimit, (cardsPage + 1) * cardsLimit)
            .map((c) => pick(store.cardJson(c), p.get("card_fields")))
        }
        if (types.includes("boards")) {
          out["boards"] = [...boards.values()]
            .filter((b) => boardShown(b.id) && matches(b.name))
            .slice(0, boardsLimit)
            .map((b) => pick(store.boardJson(b), p.get("board_fields") ?? "name,idOrganization"))
        }
        if (types.includes("organizations")) {
          out["organizations"] = [...organizations.values()].filter((o) => matches(o.name, o.displayName)).slice(0, organizationsLimit)
            .map((o) => pick(store.organizationJson(o), p.get("organization_fields") ?? "name,displayName"))
        }
        if (types.includes("members")) out["members"] = []
        if (types.includes("actions")) out["actions"] = []
        return out
      }
    }
  ]
}
