import { describe, expect, it } from "@effect/vitest"
import * as Simulator from "../src/testing/simulator.js"

/** Real requests to the simulator on 127.0.0.1: the first `times` matching ones fail, before any effect. */
describe("simulator faults", () => {
  it("answers the first matching requests with Browser Use's error and creates nothing, then lets them through", async () => {
    const sim = await Simulator.start({
      faults: [
        { method: "POST", path: "/api/v3/sessions", status: 504, times: 2 },
        { method: "GET", path: "/api/v3/sessions/{session_id}", status: 503, times: 1, retryAfterSeconds: 1 }
      ]
    })
    try {
      const headers = { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" }
      const create = () => fetch(`${sim.baseUrl}/sessions`, { method: "POST", headers, body: JSON.stringify({ task: "Find the price" }) })
      for (let n = 0; n < 2; n++) {
        const failed = await create()
        expect(failed.status).toBe(504)
        expect(await failed.json()).toEqual({ detail: "Gateway Timeout" })
        expect(sim.sessions.size).toBe(0)
      }
      // Another method on the same path is not met.
      expect((await fetch(`${sim.baseUrl}/sessions`, { headers })).status).toBe(200)
      const created = await create()
      expect(created.status).toBe(200)
      expect(sim.sessions.size).toBe(1)
      const { id } = await created.json() as { id: string }

      const unavailable = await fetch(`${sim.baseUrl}/sessions/${id}`, { headers })
      expect(unavailable.status).toBe(503)
      expect(unavailable.headers.get("retry-after")).toBe("1")
      expect(await unavailable.json()).toEqual({ detail: "Service Unavailable" })
      expect((await fetch(`${sim.baseUrl}/sessions/${id}`, { headers })).status).toBe(200)

      expect(sim.faultsFired().map((f) => f.fired)).toEqual([2, 1])
    } finally {
      await sim.close()
    }
  })
})
