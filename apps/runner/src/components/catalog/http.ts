/**
 * The catalog's entry of the runner's own component `http`.
 *
 * @since 0.12.0
 */
import * as Effect from "effect/Effect"
import { http } from "../HttpComponent.js"
import type { Entry } from "./entry.js"


// Well-known sandbox credentials, like Trello's: nothing secret, usable from curl.
/**
 * The runner's HTTP trigger, with the sandbox's well-known credentials.
 *
 * @since 0.12.0
 * @category constants
 */
export const entry: Entry = {
  component: http,
  simulate: () =>
    Effect.succeed({
      connection: { token: "sandbox-http-token", hmacSecret: "sandbox-http-secret" },
      note: "HTTP trigger: requests carry Authorization: Bearer sandbox-http-token (or x-signature-256 made with sandbox-http-secret)",
      faultsFired: () => []
    })
}
