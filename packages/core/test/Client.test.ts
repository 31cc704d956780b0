import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Client, ConnectorError } from "../src/index.js"
import * as DefaultHttpClient from "../src/internal/defaultHttpClient.js"
import { connectionValues, fakeHttp, fixture, type Handler, Thing, TOKEN } from "./support.js"

const ID = "0123456789abcdef01234567"
const thing = { id: ID, name: "Widget", count: 3 }
const Fixture = Client.make(fixture)

/** A Promise client over an in-memory HttpClient that answers with `handler`, and what it was sent. */
const promiseClient = (handler: Handler, values = connectionValues) => {
  const http = fakeHttp(handler)
  return { client: Fixture.client(values, { httpClient: http.layer }), sent: http.sent }
}

describe("Client: the Promise flavour", () => {
  it("calls an action by name with typed parameters and resolves to its typed output", async () => {
    const { client, sent } = promiseClient(() => ({ status: 200, body: { ...thing, extra: "dropped" } }))
    const output = await client.getThing({ id: ID })
    expectTypeOf(output).toEqualTypeOf<typeof Thing.Type>()
    expect(output).toEqual(thing)
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`GET https://api.fixture.test/1/things/${ID}`])
    expect(sent[0]!.headers["x-token"]).toBe(TOKEN)
    await client.close()
  })

  it("rejects with the typed InvalidInput itself, before anything is sent", async () => {
    const { client, sent } = promiseClient(() => ({ status: 200, body: thing }))
    // @ts-expect-error count is an integer, not a string of letters
    const failure = await client.createThing({ text: "ok", count: "many" }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectorError.InvalidInput)
    expect((failure as ConnectorError.InvalidInput).issues.map((i) => i.path)).toEqual(["count"])
    // @ts-expect-error text is required
    await expect(client.createThing({})).rejects.toMatchObject({ _tag: "InvalidInput" })
    expect(sent).toEqual([])
    await client.close()
  })

  it("rejects with the typed provider error (a 404 is NotFound)", async () => {
    const { client } = promiseClient(() => ({ status: 404, body: "not here" }))
    await expect(client.getThing({ id: ID })).rejects.toBeInstanceOf(ConnectorError.NotFound)
    await client.close()
  })

  it("rejects every call with an InvalidInput naming what the connection lacks", async () => {
    // @ts-expect-error the connection needs a token
    const { client, sent } = promiseClient(() => ({ status: 200, body: thing }), { key: "k" })
    const failure = await client.getThing({ id: ID }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectorError.InvalidInput)
    expect(String((failure as Error).message)).toContain("token")
    expect(sent).toEqual([])
    await client.close()
  })

  it("scrubs a secret the provider echoes from the typed output", async () => {
    const { client } = promiseClient(() => ({ status: 200, body: { ...thing, name: `token ${TOKEN}` } }))
    const output = await client.getThing({ id: ID })
    expect(output.name).not.toContain(TOKEN)
    expect(output.count).toBe(3)
    await client.close()
  })

  it("lets the calls under way finish before close releases the HTTP client", async () => {
    let answer: (() => void) | undefined
    const http = fakeHttp(() => ({ status: 200, body: thing }))
    // Answers only when told to: the call is under way while close is asked for.
    const events: Array<string> = []
    const slow = Layer.scoped(
      HttpClient.HttpClient,
      Effect.acquireRelease(
        Effect.succeed(HttpClient.make((request) =>
          Effect.zipRight(
            Effect.async<void>((resume) => {
              answer = () => resume(Effect.sync(() => events.push("answered")))
            }),
            http.client.execute(request)
          )
        )),
        () => Effect.sync(() => events.push("released"))
      )
    )
    const client = Fixture.client(connectionValues, { httpClient: slow })
    const call = client.getThing({ id: ID })
    const closed = client.close()
    await expect(client.getThing({ id: ID })).rejects.toBeInstanceOf(Client.ClientClosed)
    await new Promise((resolve) => setTimeout(resolve, 20))
    answer!()
    await expect(call).resolves.toEqual(thing)
    await closed
    expect(events).toEqual(["answered", "released"])
  })

  it("rejects its calls with the error itself when its HttpClient cannot be built", async () => {
    const broken = Layer.fail(new ConnectorError.UpstreamUnavailable({ message: "no HTTP today" }))
    const client = Fixture.client(connectionValues, { httpClient: broken as never })
    await expect(client.getThing({ id: ID })).rejects.toBeInstanceOf(ConnectorError.UpstreamUnavailable)
    await client.close()
  })

  it("releases its HTTP client on close, and refuses calls after it", async () => {
    let released = 0
    const http = fakeHttp(() => ({ status: 200, body: thing }))
    const layer = Layer.scoped(
      HttpClient.HttpClient,
      Effect.as(Effect.addFinalizer(() => Effect.sync(() => released++)), http.client)
    )
    const client = Fixture.client(connectionValues, { httpClient: layer })
    await client.getThing({ id: ID })
    await client.close()
    expect(released).toBe(1)
    await expect(client.getThing({ id: ID })).rejects.toThrow("this fixture client is closed")
    await expect(client.getThing({ id: ID })).rejects.toBeInstanceOf(Client.ClientClosed)
  })
})

describe("Client: the Effect flavour", () => {
  it.effect("uses the HttpClient in the context and fails with typed errors", () => {
    let status = 200
    const http = fakeHttp(() => ({ status, body: thing }))
    return Effect.gen(function*() {
      const client = yield* Fixture.effect(connectionValues)
      const found = client.getThing({ id: ID })
      expectTypeOf(found).toEqualTypeOf<Effect.Effect<typeof Thing.Type, ConnectorError.ConnectorError>>()
      expect(yield* found).toEqual(thing)
      status = 404
      const error = yield* Effect.flip(found)
      expect(error._tag).toBe("NotFound")
      expect(http.sent).toHaveLength(2)
    }).pipe(Effect.scoped, Effect.provide(http.layer))
  })

  it.effect("takes secrets already Redacted (from Config.redacted, say)", () => {
    const http = fakeHttp(() => ({ status: 200, body: thing }))
    return Effect.gen(function*() {
      const client = yield* Fixture.effect({ key: Redacted.make(connectionValues.key), token: Redacted.make(TOKEN) })
      expect(yield* client.getThing({ id: ID })).toEqual(thing)
      expect(http.sent[0]!.headers["x-token"]).toBe(TOKEN)
    }).pipe(Effect.scoped, Effect.provide(http.layer))
  })

  it("has no method for what the component does not offer, and typed connection values", () => {
    const factory = Client.make(fixture)
    expectTypeOf<Parameters<typeof factory.client>[0]>().toEqualTypeOf<{
      readonly key: string | Redacted.Redacted<string>
      readonly token: string | Redacted.Redacted<string>
      readonly secret?: string | Redacted.Redacted<string> | undefined
      readonly baseUrl?: string | undefined
    }>()
    expectTypeOf<keyof Client.PromiseClient<typeof fixture>>().toEqualTypeOf<"createThing" | "getThing" | "customAction" | "close" | "testConnection">()
  })
})

describe("Client: the default HttpClient", () => {
  const serve = () =>
    new Promise<{ url: string; hits: () => number; close: () => void }>((resolve) => {
      let hits = 0
      const server = createServer((_req, res) => {
        hits++
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(thing))
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          hits: () => hits,
          close: () => server.close()
        }))
    })
  const getThrough = (layer: Layer.Layer<HttpClient.HttpClient>, url: string) =>
    Effect.runPromiseExit(Effect.flatMap(HttpClient.HttpClient, (http) => http.get(url)).pipe(Effect.scoped, Effect.provide(layer)))

  it("is @x/http-undici's layer when that package loads", async () => {
    const http = fakeHttp(() => ({ status: 204 }))
    const layer = DefaultHttpClient.make(() => Promise.resolve({ UndiciHttpClient: { layer: http.layer } }), () => true)
    expect(Exit.isSuccess(await getThrough(layer, "http://127.0.0.1:9/x"))).toBe(true)
    expect(http.sent.map((r) => r.url)).toEqual(["http://127.0.0.1:9/x"])
  })

  it("is fetch when @x/http-undici does not resolve, without trying to load it", async () => {
    const server = await serve()
    let loads = 0
    const layer = DefaultHttpClient.make(() => {
      loads++
      return Promise.reject(new Error("not to be loaded"))
    }, () => false)
    const exit = await getThrough(layer, `${server.url}/thing`)
    server.close()
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(server.hits()).toBe(1)
    expect(loads).toBe(0)
  })

  it("is fetch when, with no resolver to ask, loading @x/http-undici finds no such package", async () => {
    const server = await serve()
    const missing = Object.assign(new Error("Cannot find package '@x/http-undici' imported from /x/core/dist/Client.js"), {
      code: "ERR_MODULE_NOT_FOUND"
    })
    const exit = await getThrough(DefaultHttpClient.make(() => Promise.reject(missing), () => undefined), `${server.url}/thing`)
    server.close()
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(server.hits()).toBe(1)
  })

  it("is a defect, not a silent fallback, when @x/http-undici is installed but broken", async () => {
    const broken = Object.assign(new Error("Cannot find package 'undici' imported from /x/http-undici/dist/index.js"), {
      code: "ERR_MODULE_NOT_FOUND"
    })
    const exit = await getThrough(DefaultHttpClient.make(() => Promise.reject(broken), () => true), "http://127.0.0.1:9/x")
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("Cannot find package 'undici'")
  })
})
