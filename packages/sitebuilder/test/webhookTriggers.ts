/**
 * The webhook triggers end to end against a simulator of the file's own (and a token of its own:
 * the connection's limiter paces each token at Webflow's 60 a minute): enabled through the
 * executor (the site's webhook registered, or reused), a change made, the simulator's signed
 * deliveries received on 127.0.0.1 and handed to `executor.handleDelivery`, the events out; the
 * sample, where the trigger has one; disabled, the webhook is gone.
 */
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { sitebuilder } from "../src/index.js"
import { receiveDeliveries } from "../../../tooling/testing/deliveryReceiver.js"
import { executor, simulated } from "./support.js"

export const webhookTriggers = () => {
  const simulation = simulated({ deliveryRetryDelayMs: 20 })
  const { provide } = simulation
  const trigger = (name: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `sitebuilder/v1/${name}`, parameters })

  /** A receiver on loopback that hands every request to the trigger, as the runner does (the first `failing` answered 503). */
  const receive = (t: ReturnType<typeof trigger>, state: () => unknown, failing = 0) =>
    Effect.acquireRelease(
      Effect.promise(() =>
        receiveDeliveries<{ id: string; output: any }>(`/hooks/${t.name}`, (request) => Effect.runPromise(provide(executor.handleDelivery(t as never, state(), request))), failing)
      ),
      (receiver) => Effect.promise(receiver.close)
    )

  /** Enables the trigger, performs `act`, waits for the deliveries; checks the sample has the events (by id), disables. */
  const exercise = (name: string, parameters: Record<string, unknown>, act: Effect.Effect<unknown, unknown>, failing = 0) =>
    Effect.gen(function*() {
      const { sim } = simulation
      let state: unknown
      const t = trigger(name, parameters)
      const hooks = yield* receive(t, () => state, failing)
      state = yield* provide(executor.enableTrigger(t, hooks.url))
      const webhookId = (state as { webhookId: string }).webhookId
      expect(sim.webhooks.get(webhookId)).toMatchObject({ siteId: parameters["siteId"], url: hooks.url })
      // Enabled again (a restart that lost the state): the same webhook, not a second one.
      expect(yield* provide(executor.enableTrigger(t, hooks.url))).toEqual(state)
      const before = sim.deliveries.length
      yield* act
      yield* Effect.promise(() => sim.idle())
      const events = [...hooks.events]
      const deliveries = sim.deliveries.slice(before).filter((d) => d.webhookId === webhookId)
      const sample = sitebuilder.triggers[name]?.sample === undefined ? [] : yield* provide(executor.sample(t))
      yield* provide(executor.disableTrigger(t, state))
      expect(sim.webhooks.has(webhookId)).toBe(false)
      return { events, sample, deliveries, answers: hooks.answers, webhookId }
    }).pipe(Effect.scoped)

  return { simulation, trigger, exercise }
}
