/** `Action.newestCreatedSince`: what an action's `reconcile` looks for among records it lists. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Action, Component, Trigger } from "../src/index.js"

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

describe("Action.make's deprecated", () => {
  const define = (deprecated: Action.Deprecation) =>
    Action.make({ name: "listUsers", title: "List users", description: "Lists users.", props: {}, run: () => Effect.void, deprecated })
  const deprecated = { since: "2026-01-29", replacement: "listItems", reason: "Webflow switched off User Accounts" }

  it("is kept as given, shown by describe, and said in one line", () => {
    const action = define(deprecated)
    expect(action.deprecated).toEqual(deprecated)
    expect(Component.describeAction(action).deprecated).toEqual(deprecated)
    expect(Action.deprecationNote(deprecated)).toBe("deprecated since 2026-01-29: use listItems; Webflow switched off User Accounts")
    expect(Action.deprecationNote({ since: "2026-01-29", reason: "gone" })).toBe("deprecated since 2026-01-29: nothing replaces it; gone")
  })

  it("an action that is not deprecated says nothing of it", () => {
    const action = Action.make({ name: "listItems", title: "List items", description: "Lists items.", props: {}, run: () => Effect.void })
    expect(action.deprecated).toBeUndefined()
    expect("deprecated" in Component.describeAction(action)).toBe(false)
  })

  it("a date that is not YYYY-MM-DD, a day not in the calendar, or no reason is refused when the action is defined", () => {
    expect(() => define({ ...deprecated, since: "29/01/2026" })).toThrow(/listUsers: deprecated: .*must be a date written YYYY-MM-DD/s)
    expect(() => define({ ...deprecated, since: "2026-02-30" })).toThrow(/must be a day of the calendar/)
    expect(() => define({ ...deprecated, reason: " " })).toThrow(/listUsers: deprecated: .*reason/s)
    expect(() => define({ ...deprecated, replacement: "" })).toThrow(/replacement/)
  })

  it("a trigger takes it too, checked the same way, and describe shows it", () => {
    const definition = {
      name: "usersChanged",
      title: "Users changed",
      description: "Polls users.",
      props: {},
      output: Schema.Struct({ id: Schema.String }),
      interval: "1 minute" as const,
      cursor: Schema.Struct({}),
      poll: () => Effect.succeed({ events: [], cursor: {} }),
      deprecated
    }
    const trigger = Trigger.polling(definition)
    expect(Component.describeTrigger(trigger).deprecated).toEqual(deprecated)
    expect(() => Trigger.polling({ ...definition, deprecated: { ...deprecated, since: "2026-13-01" } })).toThrow(/usersChanged: deprecated/)
  })
})
