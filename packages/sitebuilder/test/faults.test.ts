import { describe, expect, it } from "@effect/vitest"
import * as Simulator from "../src/testing/simulator.js"

/** Real requests to the simulator on 127.0.0.1: the first `times` matching ones fail, before any effect. */
describe("simulator faults", () => {
  it("answers the first matching requests with Webflow's error and creates nothing, then lets them through", async () => {
    const sim = await Simulator.start({
      faults: [
        { method: "POST", path: "/v2/collections/{collection_id}/items", status: 502, times: 2 },
        { method: "GET", path: "/v2/sites/:site_id", status: 429, times: 1 }
      ]
    })
    try {
      const token = sim.issueToken()
      const collection = Simulator.seed.collections.blogPosts
      const create = () =>
        fetch(`${sim.baseUrl}/collections/${collection}/items`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ isDraft: false, fieldData: { name: "Retried", slug: "retried" } })
        })
      const items = sim.items.size
      const requests = sim.stats.requests
      for (let n = 0; n < 2; n++) {
        const failed = await create()
        expect(failed.status).toBe(502)
        expect(await failed.json()).toEqual({ code: "internal_error", message: "Bad Gateway", externalReference: null, details: [] })
        expect(sim.items.size).toBe(items)
      }
      // Another path under the same collection is not met.
      expect((await fetch(`${sim.baseUrl}/collections/${collection}/items`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
      const created = await create()
      expect(created.status).toBe(202)
      expect(sim.items.size).toBe(items + 1)

      const site = `${sim.baseUrl}/sites/${Simulator.seed.sites.store}`
      const limited = await fetch(site, { headers: { authorization: `Bearer ${token}` } })
      expect(limited.status).toBe(429)
      expect(limited.headers.get("retry-after")).toBe("60")
      expect(await limited.json()).toEqual({ code: "too_many_requests", message: "Too many requests", externalReference: null, details: [] })
      expect((await fetch(site, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)

      expect(sim.faultsFired().map((f) => f.fired)).toEqual([2, 1])
      expect(sim.stats.requests - requests).toBe(6)
    } finally {
      await sim.close()
    }
  })
})
