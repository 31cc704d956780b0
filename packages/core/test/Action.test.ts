/** `Action.newestCreatedSince`: what an action's `reconcile` looks for among records it lists. */
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { Action } from "../src/index.js"

const at = (iso: string) => ({ id: iso, created: Date.parse(iso) })
const attempt = { since: new Date("2026-11-24T10:00:00.400Z") }

describe("Action.newestCreatedSince", () => {
  it("the newest record created at or after the attempt's second; none before it", () => {
    const records = [at("2026-11-24T09:59:59.900Z"), at("2026-11-24T10:00:03.000Z"), at("2026-11-24T10:00:00.000Z"), at("2026-11-24T10:00:01.000Z")]
    expect(Action.newestCreatedSince(records, (r) => r.created, attempt).pipe(Option.map((r) => r.id))).toEqual(Option.some("2026-11-24T10:00:03.000Z"))
    // Created in the attempt's second, before its start to the millisecond: it counts.
    expect(Action.newestCreatedSince([at("2026-11-24T10:00:00.000Z")], (r) => r.created, attempt)).toEqual(Option.some(at("2026-11-24T10:00:00.000Z")))
    expect(Action.newestCreatedSince([at("2026-11-24T09:59:59.999Z")], (r) => r.created, attempt)).toEqual(Option.none())
    expect(Action.newestCreatedSince([], (r: { created: number }) => r.created, attempt)).toEqual(Option.none())
  })

  it("of records created at the same time, the last one given", () => {
    const same = [{ id: "a", created: 1_800_000_000_000 }, { id: "b", created: 1_800_000_000_000 }]
    expect(Action.newestCreatedSince(same, (r) => r.created, { since: new Date(1_800_000_000_000) }).pipe(Option.map((r) => r.id))).toEqual(Option.some("b"))
  })
})
