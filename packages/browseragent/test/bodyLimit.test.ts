import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Loopback } from "@x/core/testing"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())

describe("the Browser Use simulator caps request bodies", () => {
  it("an endless chunked upload is answered 413 as Browser Use does, before the client has sent it", async () => {
    const upload = await Loopback.uploadEndlessly(`${sim.baseUrl}/sessions`, {
      headers: { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" }
    })
    expect(upload).toMatchObject({ status: 413, sentAll: false })
    expect(JSON.parse(upload.body)).toEqual({ detail: "Request body too large" })
    expect(upload.sentLater - upload.sentAtAnswer).toBeLessThan(16 * 1024 * 1024)
  })

  it("a chunked body within the cap is read as before", async () => {
    const response = await fetch(`${sim.baseUrl}/sessions`, {
      method: "POST",
      headers: { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" },
      body: new Blob(["{\"task\":", JSON.stringify("find " + "x".repeat(1000)), "}"]).stream(),
      duplex: "half"
    } as RequestInit)
    expect(response.status).toBeLessThan(300)
  })
})
