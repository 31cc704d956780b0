import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor, step } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator
let values: Record<string, string>
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
  values = { clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl }
})
afterAll(() => sim.close())
const run = (action: string, parameters: Record<string, unknown>) =>
  executor.run(step(action, parameters)).pipe(Effect.provide(connectedTo(values, UndiciHttpClient.layer)))

describe("probe", () => {
  it.live("getOrder", () => Effect.gen(function*() {
    const r = yield* Effect.either(run("getOrder", { siteId: seed.sites.store, orderId: seed.orders.fulfilled }))
    console.log(JSON.stringify(r).slice(0, 600))
  }), 8000)
  it.live("listOrders", () => Effect.gen(function*() {
    const r = yield* Effect.either(run("listOrders", { siteId: seed.sites.store, limit: 3 }))
    console.log(JSON.stringify(r).slice(0, 600))
  }), 8000)
})
