import { describe, expect, it } from "@effect/vitest"
import * as Simulator from "../src/testing/simulator.js"

/** Real requests to the simulator on 127.0.0.1: the first `times` matching ones fail, before any effect. */
describe("simulator faults", () => {
  it("answers the first matching requests with Trello's error and creates nothing, then lets them through", async () => {
    const sim = await Simulator.start({
      rateLimits: false,
      faults: [
        { method: "POST", path: "/1/cards", status: 503, times: 2 },
        { method: "GET", path: "/1/cards/{id}", status: 429, times: 1, retryAfterSeconds: 2 }
      ]
    })
    try {
      const auth = `key=${sim.key}&token=${sim.token}`
      const create = () =>
        fetch(`${sim.baseUrl}/cards?${auth}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ idList: Simulator.seed.lists.roadmapToDo, name: "Retried" })
        })
      const cards = sim.cards.size
      for (let n = 0; n < 2; n++) {
        const failed = await create()
        expect(failed.status).toBe(503)
        expect(failed.headers.get("content-type")).toMatch(/^text\/plain/)
        expect(await failed.text()).toBe("Service Unavailable")
        expect(sim.cards.size).toBe(cards)
      }
      // Another method, or another path, is not met.
      expect((await fetch(`${sim.baseUrl}/lists/${Simulator.seed.lists.roadmapToDo}/cards?${auth}`)).status).toBe(200)
      const created = await create()
      expect(created.status).toBe(200)
      expect(sim.cards.size).toBe(cards + 1)
      const { id } = await created.json() as { id: string }

      const limited = await fetch(`${sim.baseUrl}/cards/${id}?${auth}`)
      expect(limited.status).toBe(429)
      expect(limited.headers.get("retry-after")).toBe("2")
      expect(limited.headers.get("x-rate-limit-api-token-remaining")).toBe("0")
      expect(await limited.json()).toEqual({ error: "API_TOKEN_LIMIT_EXCEEDED", message: "Rate limit exceeded" })
      expect((await fetch(`${sim.baseUrl}/cards/${id}?${auth}`)).status).toBe(200)

      expect(sim.faultsFired().map((f) => f.fired)).toEqual([2, 1])
      expect(sim.stats.rateLimited).toBe(1)
    } finally {
      await sim.close()
    }
  })
})
