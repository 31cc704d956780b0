/**
 * The catalog's entry of `@x/sitebuilder` (Webflow).
 *
 * @since 0.12.0
 */
import { sitebuilder } from "@x/sitebuilder"
import * as Effect from "effect/Effect"
import { type Entry, simulator } from "./entry.js"

// The simulator is imported when the sandbox starts one: `describe` and a run on a real provider never load it (a chunk of its own in the bundle).

/**
 * Webflow's component, and its simulator for the sandbox.
 *
 * @since 0.12.0
 * @category constants
 */
export const entry: Entry = {
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
