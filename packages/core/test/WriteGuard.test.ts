/**
 * The guard before writes: `ProviderClient.send` announces each request that is not idempotent
 * (a POST) to the `WriteGuard` in context before its first attempt, never a read (a GET); a
 * guard that fails stops the request before it is sent. Without a guard nothing changes. And an
 * action's `reconcile` runs through the executor, its output encoded as a run's is.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import nock from "nock"
import { Action, Component, ConnectorError, Executor, Property, ProviderRequest, WriteGuard } from "../src/index.js"
import { connected, connectionValues, fixture, fixtureConnection } from "./support.js"

const BASE = "https://api.fixture.test"
const executor = Executor.make([fixture])
const step = (type: string, parameters: Record<string, unknown>) => ({ label: "A step", name: "step1", type, parameters })
const run = (type: string, parameters: Record<string, unknown>) => executor.run(step(type, parameters)).pipe(Effect.provide(connected({ fixture: connectionValues })))

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("WriteGuard", () => {
  it.effect("is told of a POST before it is sent, not of a GET", () =>
    Effect.gen(function*() {
      const told: Array<WriteGuard.Write> = []
      const guard: WriteGuard.Guard = { beforeWrite: (write) => Effect.sync(() => void told.push(write)) }
      nock(BASE).post("/1/things").reply(200, () => {
        // Sent after the guard was told.
        expect(told).toHaveLength(1)
        return { id: "t1", name: "hello", count: 1 }
      })
      nock(BASE).get("/1/things/0123456789abcdef01234567").reply(200, { id: "t1", name: "hello", count: 1 })
      yield* Effect.provideService(run("fixture/v1/createThing", { text: "hello" }), WriteGuard.WriteGuard, guard)
      yield* Effect.provideService(run("fixture/v1/getThing", { id: "0123456789abcdef01234567" }), WriteGuard.WriteGuard, guard)
      expect(told).toEqual([{ method: "POST", path: "/things" }])
    }))

  it.effect("a guard that fails stops the request: nothing is sent, the step fails with its error", () =>
    Effect.gen(function*() {
      const sent = nock(BASE).post("/1/things").reply(200, { id: "t1", name: "hello", count: 1 })
      const guard: WriteGuard.Guard = { beforeWrite: () => Effect.fail(new ConnectorError.UpstreamUnavailable({ message: "the marker could not be recorded" })) }
      const error = yield* Effect.flip(Effect.provideService(run("fixture/v1/createThing", { text: "hello" }), WriteGuard.WriteGuard, guard))
      expect(error._tag).toBe("UpstreamUnavailable")
      expect(error.message).toContain("the marker could not be recorded")
      expect(sent.isDone()).toBe(false)
    }))

  it.effect("without a guard, a POST is sent as before", () =>
    Effect.gen(function*() {
      const sent = nock(BASE).post("/1/things").reply(200, { id: "t1", name: "hello", count: 1 })
      expect(yield* run("fixture/v1/createThing", { text: "hello" })).toEqual({ id: "t1", name: "hello", count: 1 })
      expect(sent.isDone()).toBe(true)
    }))
})

describe("Action.reconcile through the executor", () => {
  const Note = Schema.Struct({ id: Schema.String, title: Schema.String })
  const createNote = Action.make({
    name: "createNote",
    title: "Create Note",
    description: "Creates a note.",
    impact: "write",
    idempotent: false,
    props: { title: Property.string({ title: "Title", required: true }) },
    output: Note,
    run: ({ title }, { client }) => client.json({ method: "POST", path: "/notes", body: ProviderRequest.jsonBody({ title }) }, Note),
    reconcile: ({ title }, { client }, { since }) =>
      Effect.map(
        client.json({ method: "GET", path: "/notes", query: { title, since: since.toISOString() } }, Schema.Array(Schema.Struct({ ...Note.fields, extra: Schema.optional(Schema.String) }))),
        (notes) => Option.fromNullable(notes[0])
      )
  })
  const notes = Component.make({ name: "notes", version: 1, title: "Notes", description: "Notes.", category: "Productivity", connection: fixtureConnection, actions: [createNote] })
  const notesExecutor = Executor.make([notes])
  const prepared = Either.getOrThrow(notesExecutor.prepare(step("notes/v1/createNote", { title: "Hello" })))
  const reconcile = (since: Date) =>
    notesExecutor.reconcilePrepared(prepared, { title: "Hello" }, since).pipe(Effect.provide(connected({ notes: connectionValues })))

  it.effect("finds what was created since the attempt, encoded as an output (undeclared fields dropped); None when nothing", () =>
    Effect.gen(function*() {
      expect(Executor.reconcilable(prepared)).toBe(true)
      expect(Component.describeAction(createNote)).toMatchObject({ reconcilable: true })
      nock(BASE).get("/1/notes").query({ title: "Hello", since: "2026-11-24T10:00:00.000Z" }).reply(200, [{ id: "n1", title: "Hello", extra: "dropped" }])
      expect(yield* reconcile(new Date("2026-11-24T10:00:00Z"))).toEqual(Option.some({ id: "n1", title: "Hello" }))
      nock(BASE).get("/1/notes").query(true).reply(200, [])
      expect(yield* reconcile(new Date("2026-11-24T11:00:00Z"))).toEqual(Option.none())
      // An action that cannot tell: not reconcilable, and its reconciliation finds nothing.
      const getThing = Either.getOrThrow(executor.prepare(step("fixture/v1/getThing", { id: "0123456789abcdef01234567" })))
      expect(Executor.reconcilable(getThing)).toBe(false)
      expect(Component.describeAction(getThing.action)).not.toHaveProperty("reconcilable")
    }))
})
