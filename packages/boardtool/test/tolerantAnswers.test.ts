import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, AUTHORIZATION, BOARD, CARD, LIST, run, TOKEN } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })

/** What Trello's document requires of a card: nothing. The seed names these five. */
const seedCard = { id: CARD, desc: "", idBoard: BOARD, idList: LIST, name: "Launch" }

/** Answers every request with `reply`, counting them: a retry would show as a second one. */
const answering = (method: "get" | "post" | "put", path: string, reply: () => [number, string | object]) => {
  let count = 0
  trello().intercept(path, method.toUpperCase()).query(true).times(5).reply(() => {
    count++
    return reply()
  })
  return () => count
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("boardtool: answers that leave out what Trello's document does not require", () => {
  it.effect("createCard answered without labels, due, shortUrl and the rest succeeds, with the stated defaults", () =>
    Effect.gen(function*() {
      const requests = answering("post", "/1/cards", () => [200, seedCard])
      const output = yield* run("createCard", { idList: LIST, name: "Launch" })
      expect(output).toEqual({
        ...seedCard,
        closed: false,
        due: null,
        start: null,
        dueComplete: false,
        idMembers: [],
        idLabels: [],
        labels: [],
        idMembersVoted: []
      })
      expect(output).not.toHaveProperty("shortUrl")
      expect(requests()).toBe(1)
    }))

  it.effect("updateCard (PUT) and createList answered with the id alone succeed", () =>
    Effect.gen(function*() {
      answering("put", `/1/cards/${CARD}`, () => [200, seedCard])
      expect(yield* run("updateCard", { id: CARD, name: "Launch" })).toMatchObject({ ...seedCard, labels: [] })
      answering("post", "/1/lists", () => [200, { id: LIST }])
      expect(yield* run("createList", { idBoard: BOARD, name: "To Do" })).toEqual({ id: LIST, name: "", closed: false })
    }))

  it.effect("createCard answered without the card's id fails with AcceptedUnreadable, carrying the answer, sent once", () =>
    Effect.gen(function*() {
      const answer = { ...seedCard, id: undefined, note: `token ${TOKEN}` }
      const requests = answering("post", "/1/cards", () => [200, answer])
      const error = yield* Effect.flip(run("createCard", { idList: LIST, name: "Launch" }))
      expect(requests()).toBe(1)
      expect(error).toMatchObject({
        _tag: "AcceptedUnreadable",
        request: { method: "POST", path: "/cards" },
        status: 200,
        issues: [{ path: "id", message: "is missing" }]
      })
      if (error._tag !== "AcceptedUnreadable") return
      expect(JSON.parse(error.body)).toEqual({ ...seedCard, id: undefined, note: "token [redacted]" })
      expect(error.message).toMatch(/^the provider accepted POST \/cards \(HTTP 200\), but its answer could not be read \(id: is missing\): .*do not repeat it blindly/)
      expect(JSON.stringify(error)).not.toContain(TOKEN)
    }))

  it.effect("createCard answered with a page that is not JSON fails with AcceptedUnreadable, sent once", () =>
    Effect.gen(function*() {
      const requests = answering("post", "/1/cards", () => [201, "<html><body>Card created</body></html>"])
      const error = yield* Effect.flip(run("createCard", { idList: LIST, name: "Launch" }))
      expect(requests()).toBe(1)
      expect(error).toMatchObject({
        _tag: "AcceptedUnreadable",
        status: 201,
        body: "<html><body>Card created</body></html>",
        issues: [{ path: "", message: "the answer is not JSON" }]
      })
    }))

  it.effect("getCard answered without the card's id is still an UnexpectedResponse: a read is safe to repeat", () =>
    Effect.gen(function*() {
      answering("get", `/1/cards/${CARD}`, () => [200, { ...seedCard, id: 7 }])
      const error = yield* Effect.flip(run("getCard", { id: CARD }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.message).toContain("id: Expected string, actual 7")
    }))
})
