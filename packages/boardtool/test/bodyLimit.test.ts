import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Loopback } from "@x/core/testing"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

describe("the Trello simulator caps request bodies", () => {
  it("an endless chunked upload is answered 413 as Trello does, before the client has sent it", async () => {
    const upload = await Loopback.uploadEndlessly(`${sim.baseUrl}/cards?key=${sim.key}&token=${sim.token}`, {
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(upload).toMatchObject({ status: 413, body: "request entity too large", sentAll: false })
    expect(upload.sentLater - upload.sentAtAnswer).toBeLessThan(16 * 1024 * 1024)
  })

  it("a chunked body within the cap is read as before", async () => {
    const response = await fetch(`${sim.baseUrl}/boards?key=${sim.key}&token=${sim.token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new Blob(["name=Chunked", "&desc=", "x".repeat(1000)]).stream(),
      duplex: "half"
    } as RequestInit)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ name: "Chunked", desc: "x".repeat(1000) })
  })
})
