/**
 * `Action.make`'s checks (the mark: impact and idempotent; deprecated), and
 * `Action.newestCreatedSince`: what an action's `reconcile` looks for among records it lists.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Action, Component, CustomAction, Trigger } from "../src/index.js"

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

describe("Action.make's impact and idempotent", () => {
  const base = { name: "archiveItem", title: "Archive item", description: "Archives an item.", props: {}, run: () => Effect.void }

  it("are kept as declared, a read idempotent without saying so, and describe shows them", () => {
    const destroy = Action.make({ ...base, impact: "destroy", idempotent: true })
    expect([destroy.impact, destroy.idempotent]).toEqual(["destroy", true])
    expect(Component.describeAction(destroy)).toMatchObject({ impact: "destroy", idempotent: true })
    const write = Action.make({ ...base, impact: "write", idempotent: false })
    expect([write.impact, write.idempotent]).toEqual(["write", false])
    const read = Action.make({ ...base, impact: "read" })
    expect([read.impact, read.idempotent]).toEqual(["read", true])
    expect(Action.make({ ...base, impact: "read", idempotent: true }).idempotent).toBe(true)
  })

  it("an action without impact, with an unknown one, a write or destroy that does not say whether it is idempotent, or a read said not to be, is refused when it is defined", () => {
    // The type refuses each of these too; an untyped definition (JavaScript, a cast) is refused at run time.
    const define = (mark: object) => () => Action.make({ ...base, ...mark } as unknown as Parameters<typeof Action.make>[0])
    // @ts-expect-error a write must say whether it is idempotent
    expect(() => Action.make({ ...base, impact: "write" })).toThrow(/archiveItem: a write must say/)
    // @ts-expect-error the mark is required
    expect(() => Action.make(base)).toThrow(/archiveItem: impact is missing/)
    expect(define({})).toThrow(`archiveItem: impact is missing: "read", "write" or "destroy" (what it does to the world)`)
    expect(define({ impact: "delete", idempotent: true })).toThrow(`archiveItem: impact "delete" is none of: "read", "write" or "destroy"`)
    expect(define({ impact: "write" })).toThrow(
      "archiveItem: a write must say whether repeating it with the same parameters changes nothing more (idempotent: true or false)"
    )
    expect(define({ impact: "destroy" })).toThrow("archiveItem: a destroy must say whether repeating it")
    expect(define({ impact: "destroy", idempotent: "yes" })).toThrow(`archiveItem: idempotent must be true or false, not "yes"`)
    expect(define({ impact: "read", idempotent: false })).toThrow("archiveItem: a read changes nothing, so it is idempotent: leave idempotent out")
  })

  it("the custom action, which sends any method to any path, is destroy and not idempotent", () => {
    expect([CustomAction.action.impact, CustomAction.action.idempotent]).toEqual(["destroy", false])
  })
})

describe("Action.make's deprecated", () => {
  const define = (deprecated: Action.Deprecation) =>
    Action.make({ name: "listUsers", title: "List users", description: "Lists users.", impact: "read", props: {}, run: () => Effect.void, deprecated })
  const deprecated = { since: "2026-01-29", replacement: "listItems", reason: "Webflow switched off User Accounts" }

  it("is kept as given, shown by describe, and said in one line", () => {
    const action = define(deprecated)
    expect(action.deprecated).toEqual(deprecated)
    expect(Component.describeAction(action).deprecated).toEqual(deprecated)
    expect(Action.deprecationNote(deprecated)).toBe("deprecated since 2026-01-29: use listItems; Webflow switched off User Accounts")
    expect(Action.deprecationNote({ since: "2026-01-29", reason: "gone" })).toBe("deprecated since 2026-01-29: nothing replaces it; gone")
  })

  it("an action that is not deprecated says nothing of it", () => {
    const action = Action.make({ name: "listItems", title: "List items", description: "Lists items.", impact: "read", props: {}, run: () => Effect.void })
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
