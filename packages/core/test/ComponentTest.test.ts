/**
 * `@x/core/testing`'s ComponentTest: a component's executor, steps by action name and its
 * connection opened over an HttpClient, as the connectors' tests use them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ComponentTest, TestHttpClient } from "../src/testing.js"
import { connectionValues, fixture } from "./support.js"

const THING = { id: "0123456789abcdef01234567", name: "hello", count: 1 }

describe("ComponentTest", () => {
  const kit = ComponentTest.make(fixture, { connection: connectionValues })

  it("names a step by the component's type and the action", () => {
    expect(kit.step("getThing", { id: THING.id })).toEqual({
      label: "getThing",
      name: "getThing",
      type: "fixture/v1/getThing",
      parameters: { id: THING.id }
    })
  })

  it.effect("runs an action on the kit's connection over the given HttpClient", () =>
    Effect.gen(function*() {
      const http = TestHttpClient.make(() => ({ status: 200, body: THING }))
      const output = yield* kit.run("getThing", { id: THING.id }, undefined, http.layer)
      expect(output).toEqual(THING)
      expect(http.sent.map((sent) => [sent.method, sent.url, sent.headers["x-token"]])).toEqual([
        ["GET", `https://api.fixture.test/1/things/${THING.id}`, connectionValues.token]
      ])
    }))

  it.effect("runs on other connection values when a test names them, and refuses bad ones before a request", () =>
    Effect.gen(function*() {
      const http = TestHttpClient.make(() => ({ status: 200, body: THING }))
      yield* kit.run("getThing", { id: THING.id }, { key: "k", token: "another-token" }, http.layer)
      expect(http.sent[0]?.headers["x-token"]).toBe("another-token")
      const refused = yield* Effect.flip(kit.run("getThing", { id: THING.id }, { key: "k" }, http.layer))
      expect(refused._tag).toBe("InvalidInput")
      expect(http.sent).toHaveLength(1)
    }))

  it.effect("connected: run, options and provide on values read when each runs (a simulator's, known only then)", () =>
    Effect.gen(function*() {
      const http = TestHttpClient.make((request) => ({ status: 200, body: request.url.endsWith("/lists") ? [THING] : THING }))
      let values: unknown = undefined
      const connected = kit.connected(() => values, http.layer)
      const run = connected.run("getThing", { id: THING.id })
      values = { key: "k", token: "started-later" }
      expect(yield* run).toEqual(THING)
      expect(yield* connected.options("createThing", "listId", { boardId: "b1" })).toEqual([{ label: THING.name, value: THING.id }])
      expect(yield* connected.provide(kit.executor.run(kit.step("getThing", { id: THING.id })))).toEqual(THING)
      expect(http.sent.map((sent) => [sent.url, sent.headers["x-token"]])).toEqual([
        [`https://api.fixture.test/1/things/${THING.id}`, "started-later"],
        ["https://api.fixture.test/1/boards/b1/lists", "started-later"],
        [`https://api.fixture.test/1/things/${THING.id}`, "started-later"]
      ])
    }))

  it.effect("provides the connection to any effect that needs one (options, fields, a client)", () =>
    Effect.gen(function*() {
      const http = TestHttpClient.make(() => ({ status: 200, body: THING }))
      const output = yield* Effect.provide(kit.executor.run(kit.step("getThing", { id: THING.id })), kit.connectedTo(connectionValues, http.layer))
      expect(output).toEqual(THING)
    }))
})
