/** The typed clients, end to end against the simulator. */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "@effect/vitest"
import { ConnectorError } from "@x/core"
import * as Effect from "effect/Effect"
import { Browseragent, type Session } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 20, stepsPerTask: 2 })
})
afterAll(() => sim.close())
// The header the key goes in has a default: the typed connection needs only the key.
const connection = () => ({ value: sim.apiKey, baseUrl: sim.baseUrl })

describe("Browseragent.client (Promise)", () => {
  it("runs a task to its end and reads the session back, typed", async () => {
    const agent = Browseragent.client(connection())
    const session = await agent.createSession({
      task: "Find the price of the cheapest flight",
      model: "modelfamilyA-sonnet-4.6",
      outputSchema: { format: "TEXT" },
      waitForCompletion: true
    })
    expectTypeOf(session).toEqualTypeOf<Session>()
    expect(session.status).toBe("stopped")
    expect((await agent.getSession({ sessionId: session.id })).id).toBe(session.id)
    await agent.close()
  })

  it("rejects a model that does not exist with InvalidInput, creating nothing", async () => {
    const agent = Browseragent.client(connection())
    const before = sim.sessions.size
    // @ts-expect-error the model is one of the listed names
    const failure = await agent.createSession({ task: "x", model: "gpt-2", outputSchema: { format: "TEXT" } }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectorError.InvalidInput)
    expect(sim.sessions.size).toBe(before)
    await agent.close()
  })
})

describe("Browseragent.effect (Effect)", () => {
  it.effect("fails with typed errors in the error channel", () =>
    Effect.gen(function*() {
      const agent = yield* Browseragent.effect(connection())
      const error = yield* Effect.flip(agent.getSession({ sessionId: "00000000-0000-4000-8000-000000000000" }))
      expect(error._tag).toBe("NotFound")
    }).pipe(Effect.scoped))
})
