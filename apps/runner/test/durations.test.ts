/**
 * Durations written in workflow files, in process: Effect's text forms, and nothing else.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Durations from "../src/workflow/Durations.js"

const millis = (text: unknown) => Either.map(Durations.parse(text), Duration.toMillis)
const problem = (text: unknown) => Either.match(Durations.parse(text), { onLeft: (message) => message, onRight: () => "(valid)" })

describe("Durations.parse", () => {
  it("Effect's \"<amount> <unit>\" forms", () => {
    expect(millis("30 seconds")).toEqual(Either.right(30_000))
    expect(millis("2 hours")).toEqual(Either.right(7_200_000))
    expect(millis("500 millis")).toEqual(Either.right(500))
    expect(millis("1 day")).toEqual(Either.right(86_400_000))
    expect(millis("1.5 minutes")).toEqual(Either.right(90_000))
    expect(millis("0 seconds")).toEqual(Either.right(0))
  })

  it("refuses numbers, negative and endless durations and anything else, naming the accepted forms", () => {
    const expected = Durations.accepted
    expect(problem(30)).toBe(`expected a duration, ${expected}; got a number`)
    expect(problem(null)).toBe(`expected a duration, ${expected}; got null`)
    expect(problem("30")).toBe(`"30" is not a duration: expected ${expected}`)
    expect(problem("5 sec")).toBe(`"5 sec" is not a duration: expected ${expected}`)
    expect(problem("forever")).toBe(`"forever" is not a duration: expected ${expected}`)
    expect(problem("Infinity")).toBe(`"Infinity" is not a duration: expected ${expected}`)
    expect(problem("-5 seconds")).toBe(`"-5 seconds" is negative: a duration is zero or more`)
    expect(problem(`${"9".repeat(400)} weeks`)).toMatch(/^"9{60}…" is too long: a duration must end$/)
    expect(expected).toContain('"30 seconds"')
  })
})
