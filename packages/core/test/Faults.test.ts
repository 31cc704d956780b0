import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { Faults } from "../src/testing.js"

describe("Faults", () => {
  it("fails the first `times` matching requests, then lets them through; others are never met", () => {
    const faults = Faults.make([{ method: "POST", path: "/1/cards", status: 503, times: 2 }])
    expect(faults.meet("GET", "/1/cards")).toBeUndefined()
    expect(faults.meet("POST", "/1/lists")).toBeUndefined()
    expect(faults.meet("POST", "/1/cards/abc")).toBeUndefined()
    expect(faults.meet("post", "/1/cards")?.status).toBe(503)
    expect(faults.meet("POST", "/1/cards/")?.status).toBe(503)
    expect(faults.meet("POST", "/1/cards")).toBeUndefined()
    expect(faults.fired()).toEqual([{ fault: { method: "POST", path: "/1/cards", status: 503, times: 2 }, fired: 2 }])
  })

  it("matches {name} and :name segments to any one segment, and counts each fault on its own, first first", () => {
    const faults = Faults.make([
      { method: "PATCH", path: "/v2/collections/{collection_id}/items/:item_id", status: 429, times: 1, retryAfterSeconds: 2 },
      { method: "PATCH", path: "/v2/collections/{collection_id}/items/{item_id}", status: 500, times: 1 }
    ])
    expect(faults.meet("PATCH", "/v2/collections/c1/items")).toBeUndefined()
    expect(faults.meet("PATCH", "/v2/collections/c1/items/i1/live")).toBeUndefined()
    expect(faults.meet("PATCH", "/v2/collections/c1/items/i1")?.status).toBe(429)
    expect(faults.meet("PATCH", "/v2/collections/c2/items/i2")?.status).toBe(500)
    expect(faults.meet("PATCH", "/v2/collections/c2/items/i2")).toBeUndefined()
    expect(faults.fired().map((f) => f.fired)).toEqual([1, 1])
  })

  it("takes a path's literal segments as written, regular expression characters included", () => {
    const faults = Faults.make([{ method: "GET", path: "/a.b/c+", status: 502, times: 5 }])
    expect(faults.meet("GET", "/axb/c")).toBeUndefined()
    expect(faults.meet("GET", "/a.b/c+")?.status).toBe(502)
  })

  it("refuses what is not a fault", () => {
    expect(() => Faults.make([{ method: "POST", path: "/1/cards", status: 418 as Faults.Status, times: 1 }])).toThrow()
    expect(() => Faults.make([{ method: "POST", path: "/1/cards", status: 503, times: 0 }])).toThrow()
    expect(() => Faults.make([{ method: "POST", path: "1/cards", status: 503, times: 1 }])).toThrow()
    expect(() => Faults.make([{ method: "POST", path: "/1/cards", status: 500, times: 1, retryAfterSeconds: 1 }])).toThrow(/Retry-After/)
  })

  it("parses and formats the command line's form", () => {
    expect(Faults.parse(" post /1/cards 503 x2 ")).toEqual(Either.right({ method: "POST", path: "/1/cards", status: 503, times: 2 }))
    const limited = Faults.parse("GET /v2/sites/{site_id} 429 x1 retry-after=3")
    expect(limited).toEqual(Either.right({ method: "GET", path: "/v2/sites/{site_id}", status: 429, times: 1, retryAfterSeconds: 3 }))
    expect(Either.map(limited, Faults.format)).toEqual(Either.right("GET /v2/sites/{site_id} 429 x1 retry-after=3"))
    const problem = (text: string) => Either.getLeft(Faults.parse(text))._tag === "Some" ? Either.merge(Faults.parse(text)) : undefined
    expect(problem("POST /1/cards 503")).toMatch(/^expected <METHOD> <path> <status> x<times>/)
    expect(problem("POST /1/cards 503 2")).toMatch(/^expected <METHOD> <path> <status> x<times>/)
    expect(problem("POST /1/cards 404 x2")).toBe("the status is one of 429, 500, 502, 503, 504")
    expect(problem("POST /1/cards 503 x0")).toMatch(/positive/)
    expect(problem("POST 1/cards 503 x1")).toMatch(/starts with \//)
    expect(problem("POST /1/cards 502 x1 retry-after=5")).toMatch(/only a 429 or a 503 carries a Retry-After/)
  })
})
