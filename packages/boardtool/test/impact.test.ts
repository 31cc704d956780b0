/**
 * Each action's mark (what it does to Trello, and whether repeating it is harmless) agrees with
 * the requests it sends (test/operations.json, which the contract test keeps true), and the
 * simulator answers a repeated delete or removal the way the marks assume (an error, not a no-op).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { boardtool } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

const operations: Record<string, ReadonlyArray<string>> = JSON.parse(
  readFileSync(new URL("operations.json", import.meta.url), "utf8")
).actions
/** The custom action sends any request: its mark is core's. */
const actions = Object.values(boardtool.actions).filter((action) => action.name !== "customAction")
const sent = (name: string, method: string) => (operations[name] ?? []).some((operation) => operation.startsWith(`${method} `))
const names = (keep: (action: (typeof actions)[number]) => boolean) => actions.filter(keep).map((action) => action.name).sort()

/** Removals from a card that Trello lets you add back as they were: writes. */
const undoableRemovals = ["removeCardMember", "removeLabelFromCard", "removeVote"]
/** POSTs that set a state rather than add a record: a second one changes nothing more. */
const idempotentPosts = ["markAllNotificationsRead", "moveAllCards"]
/** PUTs that are not a plain set: by email, Trello invites (and mails) again. */
const repeatedPuts = ["addBoardMember"]

describe("impact and idempotent", () => {
  it("every action sent its requests in the contract test", () => {
    expect(actions.filter((action) => operations[action.name] === undefined).map((action) => action.name)).toEqual([])
  })

  it("an action reads exactly when it sends only GETs, and a read is idempotent", () => {
    expect(names((a) => a.impact === "read")).toEqual(names((a) => operations[a.name]!.every((operation) => operation.startsWith("GET "))))
    expect(names((a) => a.impact === "read" && !a.idempotent)).toEqual([])
  })

  it("an action that sends a DELETE destroys, but for the removals from a card; nothing else destroys", () => {
    expect(names((a) => a.impact === "destroy")).toEqual(names((a) => sent(a.name, "DELETE") && !undoableRemovals.includes(a.name)))
    expect(names((a) => undoableRemovals.includes(a.name) && a.impact !== "write")).toEqual([])
  })

  it("a destroy is not idempotent: deleting what is gone is NotFound, which no action takes as success", () => {
    expect(names((a) => a.impact === "destroy" && a.idempotent)).toEqual([])
  })

  it("a write is idempotent when it sends PUTs only, or is a POST that sets a state", () => {
    const onlyPuts = (name: string) => sent(name, "PUT") && !sent(name, "POST") && !sent(name, "DELETE")
    expect(names((a) => a.impact === "write" && a.idempotent)).toEqual(
      names((a) => a.impact === "write" && ((onlyPuts(a.name) && !repeatedPuts.includes(a.name)) || idempotentPosts.includes(a.name)))
    )
  })
})

describe("against the simulator: a second delete or removal fails (so not idempotent)", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    sim = await Simulator.start({ rateLimits: false })
  })
  afterAll(() => sim.close())
  const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)

  it.live("deleteCard twice: NotFound; removeCardMember twice: InvalidInput", () =>
    Effect.gen(function*() {
      const card = yield* run("createCard", { idList: Simulator.seed.lists.roadmapToDo, name: "Twice", idMembers: [Simulator.seed.member] })
      yield* run("removeCardMember", { idCard: card.id, idMember: Simulator.seed.member })
      expect((yield* Effect.flip(run("removeCardMember", { idCard: card.id, idMember: Simulator.seed.member })))._tag).toBe("InvalidInput")
      yield* run("deleteCard", { id: card.id })
      expect((yield* Effect.flip(run("deleteCard", { id: card.id })))._tag).toBe("NotFound")
    }))
})
