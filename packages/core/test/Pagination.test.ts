import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Pagination } from "../src/index.js"

const items = Array.from({ length: 23 }, (_, i) => i)

describe("Pagination", () => {
  it.effect("follows offset/limit to the end (a short page ends it)", () =>
    Effect.gen(function*() {
      const calls: Array<[number, number]> = []
      const all = yield* Pagination.byOffset({ pageSize: 10 }, (offset, limit) => {
        calls.push([offset, limit])
        return Effect.succeed({ items: items.slice(offset, offset + limit) })
      })
      expect(all).toEqual(items)
      expect(calls).toEqual([[0, 10], [10, 10], [20, 10]])
    }))

  it.effect("stops at a reported total without asking for an empty page", () =>
    Effect.gen(function*() {
      const calls: Array<number> = []
      const all = yield* Pagination.byOffset({ pageSize: 10 }, (offset, limit) => {
        calls.push(offset)
        return Effect.succeed({ items: items.slice(0, 20).slice(offset, offset + limit), total: 20 })
      })
      expect(all).toHaveLength(20)
      expect(calls).toEqual([0, 10])
    }))

  it.effect("follows page/page_size from page 1, and honours maxItems", () =>
    Effect.gen(function*() {
      const pages: Array<number> = []
      const all = yield* Pagination.byPage({ pageSize: 5, maxItems: 12 }, (page, size) => {
        pages.push(page)
        return Effect.succeed({ items: items.slice((page - 1) * size, page * size) })
      })
      expect(all).toEqual(items.slice(0, 12))
      expect(pages).toEqual([1, 2, 3])
    }))

  it.effect("an empty first page is an empty list; errors propagate", () =>
    Effect.gen(function*() {
      expect(yield* Pagination.byPage({ pageSize: 5 }, () => Effect.succeed({ items: [] }))).toEqual([])
      const error = yield* Effect.flip(Pagination.byOffset({ pageSize: 5 }, () => Effect.fail("boom")))
      expect(error).toBe("boom")
    }))
})

describe("Pagination against uncooperative providers", () => {
  it.effect("a provider that caps pages below the asked size: offsets follow what came, nothing is skipped", () =>
    Effect.gen(function*() {
      const offsets: Array<number> = []
      const all = yield* Pagination.byOffset({ pageSize: 10 }, (offset) => {
        offsets.push(offset)
        return Effect.succeed({ items: items.slice(offset, offset + 4), total: items.length })
      })
      expect(all).toEqual(items)
      expect(offsets).toEqual([0, 4, 8, 12, 16, 20])
    }))

  it.effect("a provider that ignores the offset stops at its total; one without a total stops at a short page", () =>
    Effect.gen(function*() {
      const same = yield* Pagination.byOffset({ pageSize: 10 }, () => Effect.succeed({ items: items.slice(0, 10), total: 25 }))
      expect(same).toHaveLength(30)
      const noTotal = yield* Pagination.byOffset({ pageSize: 10 }, (offset) => Effect.succeed({ items: items.slice(offset, offset + 10) }))
      expect(noTotal).toEqual(items)
    }))
})
