/**
 * The components the runner knows, as data: each with how to start its provider's simulator
 * (seeded, on a free loopback port) and the connection values that point at it. Nothing
 * else in the runner names a provider; a new component is one more entry here.
 *
 * @since 0.2.0
 */
import { boardtool } from "@x/boardtool"
import { browseragent } from "@x/browseragent"
import type { Component } from "@x/core"
import type { Faults } from "@x/core/testing"
import { sitebuilder } from "@x/sitebuilder"
import { http } from "./HttpComponent.js"
import { schedule } from "./ScheduleComponent.js"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

/**
 * How the sandbox starts a simulator.
 *
 * @since 0.2.0
 * @category models
 */
export interface SimulatorOptions {
  /** Whether the simulator enforces its provider's rate limits (as it does by default). */
  readonly rateLimits: boolean
  /** Requests it fails on purpose (`--sandbox-fault`), with its provider's errors. */
  readonly faults: ReadonlyArray<Faults.Fault>
}

/**
 * A running simulator: the connection values pointing at it, and one line for the user
 * (where it is, and its well-known sandbox credentials when they are useful, e.g. for curl).
 *
 * @since 0.2.0
 * @category models
 */
export interface Simulated {
  readonly connection: Readonly<Record<string, unknown>>
  readonly note: string
  /** Other accounts' connection values, for the named connections a workflow uses, with a line saying whose. */
  readonly accounts?: ReadonlyArray<{ readonly connection: Readonly<Record<string, unknown>>; readonly note: string }> | undefined
  /** Each of its faults, with how many times it fired so far. */
  readonly faultsFired: () => ReadonlyArray<Faults.Fired>
}

/**
 * One component the runner knows.
 *
 * @since 0.2.0
 * @category models
 */
export interface Entry {
  readonly component: Component.Component
  /** Starts the simulator for the sandbox; it stops with the scope. None for a component that asks no provider (`schedule`). */
  readonly simulate?: ((options: SimulatorOptions) => Effect.Effect<Simulated, never, Scope.Scope>) | undefined
}

/** A simulator started by `start` and stopped by its `close` with the scope. */
const simulator = <S extends { readonly close: () => Promise<void> }>(start: () => Promise<S>) =>
  Effect.acquireRelease(Effect.promise(start), (started) => Effect.promise(() => started.close()))

// The simulators are imported when the sandbox starts one: `describe` and a run on real
// providers never load them (they are chunks of their own in the bundle).

const trello: Entry = {
  component: boardtool,
  simulate: (options) =>
    Effect.map(
      simulator(() =>
        import("@x/boardtool/testing").then((Simulator) =>
          // Well-known sandbox credentials: nothing secret, and usable from curl.
          Simulator.start({
            deliveryRetryDelayMs: 200,
            key: "sandbox-trello-key",
            token: "sandbox-trello-token",
            secret: "sandbox-trello-secret",
            ...(options.rateLimits ? {} : { rateLimits: false }),
            faults: options.faults
          })
        )
      ),
      (sim) => ({
        connection: { key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl },
        note: `Trello simulator at ${sim.baseUrl} (key ${sim.key}, token ${sim.token})`,
        // Trello has one token per member: the other seeded members are the other accounts.
        accounts: [...sim.memberTokens].map(([username, token]) => ({
          connection: { key: sim.key, token, secret: sim.secret, baseUrl: sim.baseUrl },
          note: `Trello member ${username} (token ${token})`
        })),
        faultsFired: sim.faultsFired
      })
    )
}

const webflow: Entry = {
  component: sitebuilder,
  simulate: (options) =>
    Effect.map(
      simulator(() =>
        import("@x/sitebuilder/testing").then((Simulator) =>
          // Webflow waits 10 minutes before it retries a delivery; a sandbox does not.
          Simulator.start({ deliveryRetryDelayMs: 200, ...(options.rateLimits ? {} : { rateLimit: false }), faults: options.faults })
        )
      ),
      (sim) => ({
        connection: {
          clientId: sim.clientId,
          clientSecret: sim.clientSecret,
          accessToken: sim.issueToken(),
          authorizeUrl: sim.authorizeUrl,
          tokenUrl: sim.tokenUrl,
          baseUrl: sim.baseUrl
        },
        note: `Webflow simulator at ${sim.baseUrl}`,
        faultsFired: sim.faultsFired
      })
    )
}

const browserUse: Entry = {
  component: browseragent,
  simulate: (options) =>
    Effect.map(
      // A well-known webhook secret, like Trello's: deliveries to a sandbox serve can be signed by hand.
      // V4 runs take 2.8 s: a run a workflow does not wait for is still going a few steps later
      // (to queue a message for its session), however busy the machine.
      simulator(() =>
        import("@x/browseragent/testing").then((Simulator) =>
          Simulator.start({ stepMs: 150, runStepMs: 700, webhookSecret: "sandbox-browser-use-webhook-secret", faults: options.faults })
        )
      ),
      (sim) => ({
        connection: { value: sim.apiKey, baseUrl: sim.baseUrl, webhookSecret: sim.webhookSecret },
        note: `Browser Use simulator at ${sim.baseUrl}`,
        faultsFired: sim.faultsFired
      })
    )
}

// Well-known sandbox credentials, like Trello's: nothing secret, usable from curl.
const httpRequests: Entry = {
  component: http,
  simulate: () =>
    Effect.succeed({
      connection: { token: "sandbox-http-token", hmacSecret: "sandbox-http-secret" },
      note: "HTTP trigger: requests carry Authorization: Bearer sandbox-http-token (or x-signature-256 made with sandbox-http-secret)",
      faultsFired: () => []
    })
}

/**
 * Every component the runner knows, in the order `describe` lists them.
 *
 * @since 0.2.0
 * @category constants
 */
export const entries: ReadonlyArray<Entry> = [webflow, trello, browserUse, { component: schedule }, httpRequests]
