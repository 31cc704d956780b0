import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Loopback } from "@x/core/testing"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
})
afterAll(() => sim.close())

const fulfill = (orderId: string) => `${sim.baseUrl}/sites/${Simulator.seed.sites.store}/orders/${orderId}/fulfill`

describe("the Webflow simulator caps request bodies", () => {
  it("an endless chunked upload is answered 413 in Webflow's error shape, before the client has sent it", async () => {
    const upload = await Loopback.uploadEndlessly(fulfill(Simulator.seed.orders.unfulfilled), {
      headers: { authorization: `Bearer ${sim.issueToken()}`, "content-type": "application/json" }
    })
    expect(upload).toMatchObject({ status: 413, sentAll: false })
    expect(JSON.parse(upload.body)).toEqual({
      code: "payload_too_large",
      message: "Request body too large",
      externalReference: null,
      details: []
    })
    expect(upload.sentLater - upload.sentAtAnswer).toBeLessThan(16 * 1024 * 1024)
  })

  it("a chunked body within the cap is read as before", async () => {
    const response = await fetch(fulfill(Simulator.seed.orders.unfulfilledToo), {
      method: "POST",
      headers: { authorization: `Bearer ${sim.issueToken()}`, "content-type": "application/json" },
      body: new Blob(["{\"sendOrderFulfilledEmail\":", "false}"]).stream(),
      duplex: "half"
    } as RequestInit)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ orderId: Simulator.seed.orders.unfulfilledToo, status: "fulfilled" })
  })
})
