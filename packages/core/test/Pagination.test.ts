import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import { Auth, Pagination, ProviderClient, RateLimiter } from "../src/index.js"

const items = Array.from({ length: 23 }, (_, i) => i)
const take = <A, E, R>(stream: Stream.Stream<A, E, R>, n: number) =>
  Effect.map(Stream.runCollect(Stream.take(stream, n)), Chunk.toReadonlyArray)

/** An offset/limit provider over `items`, recording every request. */
const offsetProvider = (data: ReadonlyArray<number>, total: boolean) => {
  const calls: Array<[number, number]> = []
  const fetch = (offset: number, limit: number) =>
    Effect.sync(() => {
      calls.push([offset, limit])
      return { items: data.slice(offset, offset + limit), total: total ? data.length : undefined }
    })
  return { calls, fetch }
}

describe("Pagination.offset", () => {
  it.effect("with a total: ends when the offset reaches it, without asking for an empty page", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items.slice(0, 20), true)
      expect(yield* Pagination.collect(Pagination.offset({ pageSize: 10 }, p.fetch))).toEqual(items.slice(0, 20))
      expect(p.calls).toEqual([[0, 10], [10, 10]])
    }))

  it.effect("without a total: ends at a page shorter than asked", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items, false)
      expect(yield* Pagination.collect(Pagination.offset({ pageSize: 10 }, p.fetch))).toEqual(items)
      expect(p.calls).toEqual([[0, 10], [10, 10], [20, 10]])
    }))

  it.effect("maxItems: the last request asks only for what is left, and nothing follows it", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items, true)
      expect(yield* Pagination.collect(Pagination.offset({ pageSize: 10, maxItems: 15 }, p.fetch))).toEqual(items.slice(0, 15))
      expect(p.calls).toEqual([[0, 10], [10, 5]])
      const zero = offsetProvider(items, true)
      expect(yield* Pagination.collect(Pagination.offset({ pageSize: 10, maxItems: 0 }, zero.fetch))).toEqual([])
      expect(zero.calls).toEqual([])
    }))

  it.effect("an empty page ends it, even when the total says more", () =>
    Effect.gen(function*() {
      const calls: Array<number> = []
      const stream = Pagination.offset({ pageSize: 10 }, (offset) => {
        calls.push(offset)
        return Effect.succeed({ items: offset === 0 ? items.slice(0, 10) : [], total: 500 })
      })
      expect(yield* Pagination.collect(stream)).toEqual(items.slice(0, 10))
      expect(calls).toEqual([0, 10])
    }))

  it.effect("a provider that caps pages below the asked size: offsets follow what came, nothing is skipped", () =>
    Effect.gen(function*() {
      const offsets: Array<number> = []
      const all = yield* Pagination.collect(Pagination.offset({ pageSize: 10 }, (offset) => {
        offsets.push(offset)
        return Effect.succeed({ items: items.slice(offset, offset + 4), total: items.length })
      }))
      expect(all).toEqual(items)
      expect(offsets).toEqual([0, 4, 8, 12, 16, 20])
    }))

  it.effect("a provider that ignores the offset is stopped at its first repeated page (PagingLoop); one that never stops, at maxPages", () =>
    Effect.gen(function*() {
      let asked = 0
      const seen: Array<number> = []
      const same = Pagination.offset({ pageSize: 10 }, () => Effect.sync(() => (asked++, { items: items.slice(0, 10), total: 25 })))
      const error = yield* Effect.flip(Stream.runForEach(same, (n) => Effect.sync(() => seen.push(n))))
      expect(error).toMatchObject({ _tag: "PagingLoop" })
      expect(error.message).toContain("the same items as the page before")
      // The first page was emitted once; its copy was not.
      expect(seen).toEqual(items.slice(0, 10))
      expect(asked).toBe(2)
      let calls = 0
      const endless = Pagination.offset({ pageSize: 10, maxPages: 7 }, (offset) =>
        Effect.sync(() => (calls++, { items: Array.from({ length: 10 }, (_, i) => offset + i) })))
      expect(yield* Pagination.collect(endless)).toHaveLength(70)
      expect(calls).toBe(7)
    }))
})

describe("Pagination is lazy", () => {
  it.effect("nothing is requested before the stream runs; Stream.take asks for no page it does not need", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items, true)
      const stream = Pagination.offset({ pageSize: 10 }, p.fetch)
      expect(p.calls).toEqual([])
      expect(yield* take(stream, 10)).toEqual(items.slice(0, 10))
      expect(p.calls).toEqual([[0, 10]])
      p.calls.length = 0
      expect(yield* take(stream, 11)).toEqual(items.slice(0, 11))
      expect(p.calls).toEqual([[0, 10], [10, 10]])
      p.calls.length = 0
      expect(yield* take(stream, 3)).toEqual([0, 1, 2])
      expect(p.calls).toEqual([[0, 10]])
    }))

  it.effect("each run starts again from the first page", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items, true)
      const stream = Pagination.offset({ pageSize: 20 }, p.fetch)
      yield* Pagination.collect(stream)
      yield* Pagination.collect(stream)
      expect(p.calls).toEqual([[0, 20], [20, 20], [0, 20], [20, 20]])
    }))
})

describe("Pagination.pageNumber", () => {
  it.effect("page 1, 2, 3 … of pageSize, ending at the total (maxItems trims the last page)", () =>
    Effect.gen(function*() {
      const pages: Array<[number, number]> = []
      const fetch = (page: number, size: number) =>
        Effect.sync(() => (pages.push([page, size]), { items: items.slice((page - 1) * size, page * size), total: items.length }))
      expect(yield* Pagination.collect(Pagination.pageNumber({ pageSize: 10 }, fetch))).toEqual(items)
      expect(pages).toEqual([[1, 10], [2, 10], [3, 10]])
      pages.length = 0
      expect(yield* Pagination.collect(Pagination.pageNumber({ pageSize: 5, maxItems: 12 }, fetch))).toEqual(items.slice(0, 12))
      // Page numbers depend on the page size: every request asks for 5.
      expect(pages).toEqual([[1, 5], [2, 5], [3, 5]])
    }))

  it.effect("without a total, a short page ends it; an empty first page is an empty stream; errors propagate", () =>
    Effect.gen(function*() {
      const pages: Array<number> = []
      const all = yield* Pagination.collect(Pagination.pageNumber({ pageSize: 10 }, (page, size) =>
        Effect.sync(() => (pages.push(page), { items: items.slice((page - 1) * size, page * size) }))))
      expect(all).toEqual(items)
      expect(pages).toEqual([1, 2, 3])
      expect(yield* Pagination.collect(Pagination.pageNumber({ pageSize: 5 }, () => Effect.succeed({ items: [] })))).toEqual([])
      expect(yield* Effect.flip(Pagination.collect(Pagination.pageNumber({ pageSize: 5 }, () => Effect.fail("boom"))))).toBe("boom")
    }))
})

describe("Pagination.keyset", () => {
  // Newest first, as Trello lists actions: `before` an id gives the older ones.
  const actions = Array.from({ length: 25 }, (_, i) => ({ id: `a${String(100 - i).padStart(3, "0")}` }))
  const provider = () => {
    const calls: Array<[string | undefined, number]> = []
    const fetch = (before: string | undefined, limit: number) =>
      Effect.sync(() => {
        calls.push([before, limit])
        return actions.filter((a) => before === undefined || a.id < before).slice(0, limit)
      })
    return { calls, fetch }
  }

  it.effect("the first page without a key, each next one before the last item; a short page ends it", () =>
    Effect.gen(function*() {
      const p = provider()
      expect(yield* Pagination.collect(Pagination.keyset({ pageSize: 10 }, p.fetch, (a) => a.id))).toEqual(actions)
      expect(p.calls).toEqual([[undefined, 10], ["a091", 10], ["a081", 10]])
    }))

  it.effect("a full last page costs one empty request (nothing says it was the last); maxItems asks for what is left", () =>
    Effect.gen(function*() {
      const p = provider()
      expect(yield* Pagination.collect(Pagination.keyset({ pageSize: 5, maxItems: 25 }, p.fetch, (a) => a.id))).toEqual(actions)
      expect(p.calls.map(([before]) => before)).toEqual([undefined, "a096", "a091", "a086", "a081"])
      const q = provider()
      yield* Pagination.collect(Pagination.keyset({ pageSize: 10, maxItems: 12 }, q.fetch, (a) => a.id))
      expect(q.calls).toEqual([[undefined, 10], ["a091", 2]])
      const r = provider()
      expect(yield* Pagination.collect(Pagination.keyset({ pageSize: 5 }, r.fetch, (a) => a.id))).toHaveLength(25)
      expect(r.calls.map(([before]) => before)).toEqual([undefined, "a096", "a091", "a086", "a081", "a076"])
    }))
})

describe("Pagination.cursor", () => {
  it.effect("follows the next cursor until none is given", () =>
    Effect.gen(function*() {
      const calls: Array<[string | undefined, number]> = []
      const stream = Pagination.cursor({ pageSize: 10 }, (cursor, limit) =>
        Effect.sync(() => {
          calls.push([cursor, limit])
          const at = cursor === undefined ? 0 : Number(cursor)
          const next = at + limit < items.length ? String(at + limit) : null
          return { items: items.slice(at, at + limit), next }
        }))
      expect(yield* Pagination.collect(stream)).toEqual(items)
      expect(calls).toEqual([[undefined, 10], ["10", 10], ["20", 10]])
      calls.length = 0
      expect(yield* take(stream, 5)).toEqual(items.slice(0, 5))
      expect(calls).toEqual([[undefined, 10]])
    }))
})

describe("a provider that repeats itself: PagingLoop at the first repeat", () => {
  it.effect("cursor: the same next cursor again ends the walk after the page that gave it, without another request", () =>
    Effect.gen(function*() {
      const calls: Array<string | undefined> = []
      const stream = Pagination.cursor({ pageSize: 2 }, (cursor) =>
        Effect.sync(() => {
          calls.push(cursor)
          return { items: cursor === undefined ? [1, 2] : [3, 4], next: "c1" }
        }))
      const seen: Array<number> = []
      const error = yield* Effect.flip(Stream.runForEach(stream, (n) => Effect.sync(() => seen.push(n))))
      expect(error._tag).toBe("PagingLoop")
      expect(error.message).toContain("gave a next-page cursor it had given before")
      expect(calls).toEqual([undefined, "c1"])
      expect(seen).toEqual([1, 2, 3, 4])
      // An earlier cursor, not only the last one, counts: c1 → c2 → c1.
      const cycle: Array<string | undefined> = []
      const cycling = Pagination.cursor({ pageSize: 1 }, (cursor) =>
        Effect.sync(() => (cycle.push(cursor), { items: [cycle.length], next: cursor === "c1" ? "c2" : "c1" })))
      expect((yield* Effect.flip(Pagination.collect(cycling)))._tag).toBe("PagingLoop")
      expect(cycle).toEqual([undefined, "c1", "c2"])
      // A consumer that has what it needs stops before the repeat is met.
      calls.length = 0
      expect(yield* take(stream, 3)).toEqual([1, 2, 3])
      expect(calls).toEqual([undefined, "c1"])
    }))

  it.effect("keyset: a provider that ignores `before` is stopped at its second page", () =>
    Effect.gen(function*() {
      const calls: Array<string | undefined> = []
      const stream = Pagination.keyset({ pageSize: 2 }, (before) => Effect.sync(() => (calls.push(before), [{ id: "b" }, { id: "a" }])), (x) => x.id)
      expect((yield* Effect.flip(Pagination.collect(stream)))._tag).toBe("PagingLoop")
      expect(calls).toEqual([undefined, "a"])
      // New items whose last id was asked for before: the key repeats.
      const keys: Array<string | undefined> = []
      const stuck = Pagination.keyset({ pageSize: 2 }, (before) =>
        Effect.sync(() => (keys.push(before), before === undefined ? [{ id: "d" }, { id: "c" }] : [{ id: `x${keys.length}` }, { id: "c" }])), (x) => x.id)
      expect((yield* Effect.flip(Pagination.collect(stuck)))._tag).toBe("PagingLoop")
      expect(keys).toEqual([undefined, "c"])
    }))

  it.effect("page numbers: the same page again is stopped; each run of the stream starts afresh", () =>
    Effect.gen(function*() {
      let calls = 0
      const stream = Pagination.pageNumber({ pageSize: 2 }, () => Effect.sync(() => (calls++, { items: [{ id: 1 }, { id: 2 }] })))
      expect((yield* Effect.flip(Pagination.collect(stream)))._tag).toBe("PagingLoop")
      expect(calls).toBe(2)
      expect((yield* Effect.flip(Pagination.collect(stream)))._tag).toBe("PagingLoop")
      expect(calls).toBe(4)
      // Each run remembers its own cursors: a cursor stream runs twice without a false repeat.
      const once = Pagination.cursor({ pageSize: 1 }, (cursor) => Effect.succeed({ items: [cursor ?? "first"], next: cursor === undefined ? "c1" : null }))
      expect(yield* Pagination.collect(once)).toEqual(["first", "c1"])
      expect(yield* Pagination.collect(once)).toEqual(["first", "c1"])
    }))
})

describe("Pagination through the provider client", () => {
  const API = "https://api.pages.test"
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  const Listing = Schema.Struct({ things: Schema.Array(Schema.Number), pagination: Schema.Struct({ total: Schema.Number }) })
  const things = (client: ProviderClient.ProviderClient, maxItems?: number) =>
    Pagination.offset({ pageSize: 2, maxItems }, (offset, limit) =>
      Effect.map(
        client.json({ method: "GET", path: "/things", query: { offset, limit } }, Listing),
        (r) => ({ items: r.things, total: r.pagination.total })
      ))
  const clientOf = Effect.map(HttpClient.HttpClient, (http) =>
    ProviderClient.makeWith(http, RateLimiter.make(), {
      baseUrl: `${API}/v1`,
      credentials: Auth.bearer(Redacted.make("secret-token")),
      retry: { maxRetries: 2, baseDelay: "1 second" }
    }))
  const api = () => nock(API, { reqheaders: { authorization: "Bearer secret-token" } })

  it.effect("each page is one request with its auth; a 429 on a page is retried after Retry-After; the cap stops it", () =>
    Effect.gen(function*() {
      const client = yield* clientOf
      const scope = api()
        .get("/v1/things").query({ offset: 0, limit: 2 }).reply(200, { things: [1, 2], pagination: { total: 5 } })
        .get("/v1/things").query({ offset: 2, limit: 2 }).reply(429, { message: "slow down" }, { "retry-after": "3" })
        .get("/v1/things").query({ offset: 2, limit: 2 }).reply(200, { things: [3, 4], pagination: { total: 5 } })
        .get("/v1/things").query({ offset: 4, limit: 1 }).reply(200, { things: [5], pagination: { total: 5 } })
      const sent: Array<string> = []
      scope.on("request", (req: { path: string }) => sent.push(req.path))
      const fiber = yield* Effect.fork(Pagination.collect(things(client, 5)))
      // The retry waits on the clock: once its 3 seconds' sleep is queued, nothing more is sent
      // until the clock moves (however long the machine takes to get there).
      const retryQueued = Effect.map(TestClock.sleeps(), (sleeps) => Chunk.some(sleeps, (at) => at === 3000))
      while (!(yield* retryQueued)) yield* Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
      expect(sent).toEqual(["/v1/things?offset=0&limit=2", "/v1/things?offset=2&limit=2"])
      yield* TestClock.adjust("3 seconds")
      expect(yield* Fiber.join(fiber)).toEqual([1, 2, 3, 4, 5])
      expect(sent.slice(2)).toEqual(["/v1/things?offset=2&limit=2", "/v1/things?offset=4&limit=1"])
      expect(scope.isDone()).toBe(true)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.effect("a server that repeats its cursor: two requests, then PagingLoop naming the request (no query, no credentials)", () =>
    Effect.gen(function*() {
      const client = yield* clientOf
      const Files = Schema.Struct({ files: Schema.Array(Schema.String), nextCursor: Schema.NullOr(Schema.String) })
      let requests = 0
      const scope = api().get("/v1/sessions/s-1/files").query(true).times(50).reply(200, () => {
        requests++
        return { files: [`f${requests}`], nextCursor: "same-cursor" }
      })
      const files = Pagination.cursor({ pageSize: 100 }, (cursor, limit) =>
        Effect.map(
          client.json({ method: "GET", path: "/sessions/s-1/files", query: { cursor, limit } }, Files),
          (r) => ({ items: r.files, next: r.nextCursor })
        ))
      const error = yield* Effect.flip(Pagination.collect(files))
      expect(error._tag).toBe("PagingLoop")
      expect(error.request).toEqual({ method: "GET", path: "/sessions/s-1/files" })
      expect(error.message).toMatch(/^GET \/sessions\/s-1\/files gave a next-page cursor it had given before/)
      expect(error.message).not.toContain("secret-token")
      expect(error.message).not.toContain("same-cursor")
      expect(requests).toBe(2)
      nock.abortPendingRequests()
      expect(scope.isDone()).toBe(false)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.effect("a failed page ends the stream with the typed error; the items before it were emitted", () =>
    Effect.gen(function*() {
      const client = yield* clientOf
      const scope = api()
        .get("/v1/things").query({ offset: 0, limit: 2 }).reply(200, { things: [1, 2], pagination: { total: 9 } })
        .get("/v1/things").query({ offset: 2, limit: 2 }).reply(404, { message: "gone" })
      const seen: Array<number> = []
      const error = yield* Effect.flip(Stream.runForEach(things(client), (n) => Effect.sync(() => seen.push(n))))
      expect(error._tag).toBe("NotFound")
      expect(error.message).toBe("gone")
      expect(seen).toEqual([1, 2])
      expect(scope.isDone()).toBe(true)
    }).pipe(Effect.provide(FetchHttpClient.layer)))
})

describe("Pagination.byOffset and byPage (deprecated): the streams, collected", () => {
  it.effect("same requests as the streams", () =>
    Effect.gen(function*() {
      const p = offsetProvider(items, false)
      expect(yield* Pagination.byOffset({ pageSize: 10 }, p.fetch)).toEqual(items)
      expect(p.calls).toEqual([[0, 10], [10, 10], [20, 10]])
      const all = yield* Pagination.byPage({ pageSize: 5, maxItems: 12 }, (page, size) =>
        Effect.succeed({ items: items.slice((page - 1) * size, page * size) }))
      expect(all).toEqual(items.slice(0, 12))
    }))
})
