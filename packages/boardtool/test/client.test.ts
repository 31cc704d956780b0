/**
 * The typed clients, end to end against the simulator: parameters and outputs typed from the
 * actions, typed errors in both flavours, nothing sent for bad input.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "@effect/vitest"
import { ConnectorError } from "@x/core"
import * as Effect from "effect/Effect"
import { Boardtool, type CardDetails, type CardWithNested } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())
const connection = () => ({ key: sim.key, token: sim.token, baseUrl: sim.baseUrl })

describe("Boardtool.client (Promise)", () => {
  it("creates and reads a card with typed parameters and output", async () => {
    const trello = Boardtool.client(connection())
    const card = await trello.createCard({ idList: Simulator.seed.lists.roadmapToDo, name: "Ship it", desc: "Today." })
    expectTypeOf(card).toEqualTypeOf<CardDetails>()
    expect(card).toMatchObject({ name: "Ship it", desc: "Today.", idList: Simulator.seed.lists.roadmapToDo })
    expect(sim.cards.get(card.id)?.name).toBe("Ship it")
    expect(await trello.getCard({ id: card.id })).toEqual(card)
    await trello.close()
  })

  it("rejects a wrong parameter with the typed InvalidInput, sending nothing", async () => {
    const trello = Boardtool.client(connection())
    // The parameters as the action's props declare them: only idList is required, every one a string.
    expectTypeOf(trello.createCard).parameter(0).toEqualTypeOf<{
      readonly idList: string
      readonly idBoard?: string | undefined
      readonly name?: string | undefined
      readonly desc?: string | undefined
      readonly pos?: string | undefined
      readonly start?: string | undefined
      readonly due?: string | undefined
      readonly dueComplete?: boolean | undefined
      readonly idMembers?: ReadonlyArray<string> | undefined
      readonly idLabels?: ReadonlyArray<string> | undefined
      readonly urlSource?: string | undefined
      readonly idCardSource?: string | undefined
      readonly keepFromSource?: ReadonlyArray<"attachments" | "checklists" | "comments" | "customFields" | "due" | "start" | "labels" | "members" | "stickers"> | undefined
    }>()
    const before = sim.stats.requests
    // @ts-expect-error idList is a string (a Trello id), not a number
    const failure = await trello.createCard({ idList: 42, name: "Nope" }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectorError.InvalidInput)
    expect((failure as ConnectorError.InvalidInput).issues.map((i) => i.path)).toEqual(["idList"])
    // @ts-expect-error idList is required
    await expect(trello.createCard({ name: "Nope" })).rejects.toMatchObject({ _tag: "InvalidInput" })
    expect(sim.stats.requests).toBe(before)
    await trello.close()
  })

  it("rejects with the provider's typed error: an unknown card is NotFound, a bad token AuthenticationFailed", async () => {
    const trello = Boardtool.client(connection())
    await expect(trello.getCard({ id: "61a0f0f0f0f0f0f0f0f0f0ff" })).rejects.toBeInstanceOf(ConnectorError.NotFound)
    await trello.close()
    const stranger = Boardtool.client({ ...connection(), token: "not-the-token" })
    await expect(stranger.getCard({ id: Simulator.seed.cards.launchPost })).rejects.toBeInstanceOf(
      ConnectorError.AuthenticationFailed
    )
    await stranger.close()
  })
})

describe("Boardtool.effect (Effect)", () => {
  it.effect("runs actions as Effects with typed errors in the error channel", () =>
    Effect.gen(function*() {
      const trello = yield* Boardtool.effect(connection())
      const read = trello.getCard({ id: Simulator.seed.cards.launchPost })
      expectTypeOf(read).toEqualTypeOf<Effect.Effect<CardWithNested, ConnectorError.ConnectorError>>()
      expect((yield* read).id).toBe(Simulator.seed.cards.launchPost)
      const missing = yield* Effect.flip(trello.getCard({ id: "61a0f0f0f0f0f0f0f0f0f0ff" }))
      expect(missing._tag).toBe("NotFound")
    }).pipe(Effect.scoped))
})
