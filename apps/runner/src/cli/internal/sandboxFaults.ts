/**
 * Repeatable `--sandbox-fault "<component> <METHOD> <path> <status> x<times>"` options: the
 * component's name, then a fault in the form `@x/core/testing`'s `Faults.parse` reads
 * (`POST /1/cards 503 x2`, optionally `retry-after=<seconds>`). Whether the component is one the
 * sandbox has is checked where the simulators start (`ConnectionSource`).
 *
 * @internal
 */
import { Faults } from "@x/core/testing"
import * as Either from "effect/Either"
import type { SandboxFault } from "../../components/ConnectionSource.js"

/** The faults, in the order given, or what is wrong with one (naming the option and what was given). */
export const parse = (given: ReadonlyArray<string>): Either.Either<ReadonlyArray<SandboxFault>, string> =>
  Either.all(given.map((text) => {
    const malformed = `--sandbox-fault "${text}": expected "<component> <METHOD> <path> <status> x<times>" ` +
      `(then retry-after=<seconds> for a 429 or 503), e.g. "boardtool POST /1/cards 503 x2"`
    const [, component, rest] = /^\s*(\S+)\s+(.*)$/.exec(text) ?? []
    if (component === undefined || rest === undefined) return Either.left(malformed)
    return Either.mapBoth(Faults.parse(rest), {
      // Faults.parse says "expected …" of a shape it cannot read; the option's shape has the component too.
      onLeft: (problem) => problem.startsWith("expected ") ? malformed : `--sandbox-fault "${text}": ${problem}`,
      onRight: (fault) => ({ component, fault })
    })
  }))
