/**
 * Dynamic options: a loader reads the parameters it depends on with `dependency` (as text, what a
 * request's path takes), and `load` runs it only once each of them is given.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DynamicOptions, type ProviderClient } from "../src/index.js"

// These loaders send nothing: the client is passed through, never called.
const client = {} as ProviderClient.ProviderClient

describe("DynamicOptions", () => {
  it.effect("gives a loader each dependency's value as text, a number as its digits", () =>
    Effect.gen(function*() {
      const options = DynamicOptions.make(["idBoard", "page"], ({ params }) =>
        Effect.succeed([{ label: `page ${DynamicOptions.dependency(params, "page")}`, value: DynamicOptions.dependency(params, "idBoard") }]))
      expect(yield* DynamicOptions.load(options, { idBoard: "b1", page: 2 }, client)).toEqual([{ label: "page 2", value: "b1" }])
    }))

  it.effect("runs the loader only once every dependency is given", () =>
    Effect.gen(function*() {
      const read: Array<string> = []
      const options = DynamicOptions.make(["idBoard"], ({ params }) =>
        Effect.sync(() => {
          read.push(DynamicOptions.dependency(params, "idBoard"))
          return []
        }))
      for (const missing of [{}, { idBoard: undefined }, { idBoard: null }, { idBoard: "" }]) {
        expect(yield* DynamicOptions.load(options, missing, client)).toEqual([])
      }
      expect(read).toEqual([])
      yield* DynamicOptions.load(options, { idBoard: "b1" }, client)
      expect(read).toEqual(["b1"])
    }))
})
