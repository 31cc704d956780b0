import { afterAll, beforeAll } from "@effect/vitest"
import { ComponentTest } from "@x/core/testing"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import { sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"

export const ACCESS_TOKEN = "9f6b7c1d2e3f40516273849aabbccddeeff00112233445566778899aabbccdd"
export const API = "https://api.webflow.com"
export const connection = { clientId: "client-id-1", clientSecret: "client-secret-0123456789", accessToken: ACCESS_TOKEN }

export const SITE = "580e63e98c9a982ac9b8b741"
export const COLLECTION = "580e63fc8c9a982ac9b8b745"
export const ITEM = "580e64008c9a982ac9b8b754"
export const ORDER = "dfa-3f1"

/** sitebuilder's test kit on the test connection: its executor, steps, connection and `run`. */
export const kit = ComponentTest.make(sitebuilder, { connection })
export const { connectedTo, executor, run, step, withFetch } = kit

/** An order as Webflow returns it (abridged: the real one has more). */
export const webflowOrder = {
  orderId: ORDER,
  status: "fulfilled",
  comment: "",
  orderComment: "",
  acceptedOn: "2026-11-01T12:00:00.000Z",
  fulfilledOn: "2026-11-21T10:00:00.000Z",
  refundedOn: null,
  customerPaid: { unit: "USD", value: "1999", string: "$ 19.99 USD" },
  customerInfo: { fullName: "Ada Lovelace", email: "ada@example.com" },
  purchasedItemsCount: 1
}

export const webflowItem = {
  id: ITEM,
  cmsLocaleId: "653ad57de882f528b32e810e",
  lastPublished: "2026-11-01T12:00:00.000Z",
  lastUpdated: "2026-11-01T12:00:00.000Z",
  createdOn: "2026-11-01T12:00:00.000Z",
  isArchived: false,
  isDraft: false,
  fieldData: { name: "T-Shirt", slug: "t-shirt", price: 1999, "main-image": { url: "https://uploads.example.com/t.png" } }
}

export const webflowError = (code: string, message: string, details: ReadonlyArray<unknown> = []) => ({
  code,
  message,
  externalReference: null,
  details
})

/**
 * A simulator started for the file's tests (unlimited rate unless `settings` say, stopped after
 * them), a connection to it with a token of its own of every scope, and the kit's run, options
 * and provide on it, and a request count.
 */
export const simulated = (settings: Simulator.Settings = {}) => {
  let current: { sim: Simulator.Simulator; values: Record<string, string> } | undefined
  beforeAll(async () => {
    const sim = await Simulator.start({ rateLimit: false, ...settings })
    current = { sim, values: { clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl } }
  })
  afterAll(() => current?.sim.close())
  const started = () => {
    if (current === undefined) throw new Error("the simulator starts before the file's tests")
    return current
  }
  const { options, provide } = kit.connected(() => started().values, UndiciHttpClient.layer)
  return {
    get sim() {
      return started().sim
    },
    get values() {
      return started().values
    },
    provide,
    /** Runs an action; `connection` replaces the default connection's values. Its error is typed `any`: tests read its fields. */
    run: (action: string, parameters: Record<string, unknown>, connection?: object): Effect.Effect<any, any> =>
      kit.run(action, parameters, connection ?? started().values, UndiciHttpClient.layer),
    options,
    /** An effect's value and how many requests the simulator answered meanwhile. */
    counted: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const before = started().sim.stats.requests
        const value = yield* effect
        return { value, requests: started().sim.stats.requests - before }
      })
  }
}
