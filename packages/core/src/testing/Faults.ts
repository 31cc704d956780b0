/**
 * Faults for simulators: the requests of a method and a path answered with one of the
 * provider's error statuses a given number of times, then let through again, so that a test
 * (or the runner's sandbox) can show a retry at work. A simulator meets a request with its
 * faults before the request has any effect (nothing is created, nothing counts against a rate
 * limit), and answers a fault with its provider's own body and headers for that status: what
 * those are is the simulator's. Each fault counts how many times it fired.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * The statuses a fault answers with: the provider is rate limiting (429) or failing (500), or a
 * gateway before it is (502, 503, 504).
 *
 * @since 0.2.0
 * @category models
 */
export const Status = Schema.Literal(429, 500, 502, 503, 504)

/**
 * A status a fault answers with.
 *
 * @since 0.2.0
 * @category models
 */
export type Status = typeof Status.Type

/**
 * A fault: the first `times` requests of `method` to `path` that arrive are answered with
 * `status`. `path` is the provider's own (the simulator's base URL's path included, e.g.
 * `/1/cards`); a segment written `{name}` (as the providers' documents write them) or `:name`
 * (as `PathRouter`'s templates) matches any one segment. The query is not part of it.
 * `retryAfterSeconds`, with 429 or 503 only, is the `Retry-After` the answer carries instead of
 * the provider's usual one.
 *
 * @since 0.2.0
 * @category models
 */
export const Fault = Schema.Struct({
  method: Schema.String.pipe(Schema.pattern(/^[A-Za-z]+$/, { message: () => "a method is a word such as POST" })),
  path: Schema.String.pipe(Schema.pattern(/^\/[^\s?#]*$/, { message: () => "a path starts with / and has no query" })),
  status: Status,
  times: Schema.Int.pipe(Schema.positive()),
  retryAfterSeconds: Schema.optional(Schema.Int.pipe(Schema.nonNegative()))
}).pipe(
  Schema.filter((fault) =>
    fault.retryAfterSeconds === undefined || fault.status === 429 || fault.status === 503 ||
    "only a 429 or a 503 carries a Retry-After"
  )
)

/**
 * A fault (see the schema).
 *
 * @since 0.2.0
 * @category models
 */
export type Fault = typeof Fault.Type

/**
 * A fault and how many times it fired.
 *
 * @since 0.2.0
 * @category models
 */
export interface Fired {
  readonly fault: Fault
  readonly fired: number
}

/**
 * A simulator's faults.
 *
 * @since 0.2.0
 * @category models
 */
export interface Faults {
  /**
   * The fault this request meets, counted as fired (the first of the faults, in their order,
   * that matches it and has not fired `times` times yet), or `undefined`: the request goes on.
   */
  readonly meet: (method: string, path: string) => Fault | undefined
  /** Each fault, in the order given, with how many times it fired so far. */
  readonly fired: () => ReadonlyArray<Fired>
}

const templateSegment = /^(?:\{[^/{}]+\}|:[^/]+)$/

const patternOf = (path: string): RegExp =>
  new RegExp(`^${
    path.replace(/\/$/, "").split("/").map((segment) =>
      templateSegment.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    ).join("/")
  }/?$`)

/**
 * These faults, checked (a fault that is not one throws, naming what is wrong), none fired yet.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (faults: ReadonlyArray<Fault> = []): Faults => {
  const counted = faults.map((given) => {
    const fault = Schema.decodeUnknownSync(Fault)(given)
    return { fault, method: fault.method.toUpperCase(), pattern: patternOf(fault.path), fired: 0 }
  })
  return {
    meet: (method, path) => {
      const upper = method.toUpperCase()
      const met = counted.find((c) => c.fired < c.fault.times && c.method === upper && c.pattern.test(path))
      if (met === undefined) return undefined
      met.fired++
      return met.fault
    },
    fired: () => counted.map(({ fault, fired }) => ({ fault, fired }))
  }
}

const written = /^(\S+)\s+(\S+)\s+(\d+)\s+x(\d+)(?:\s+retry-after=(\d+))?$/

/**
 * A fault as written on a command line: `<METHOD> <path> <status> x<times>`, then optionally
 * `retry-after=<seconds>` (e.g. `POST /1/cards 503 x2`), or why it is not one (for the caller
 * to say where it was written).
 *
 * @since 0.2.0
 * @category parsing
 */
export const parse = (text: string): Either.Either<Fault, string> => {
  const match = written.exec(text.trim())
  if (match === null) {
    return Either.left(`expected <METHOD> <path> <status> x<times> [retry-after=<seconds>], e.g. "POST /1/cards 503 x2"`)
  }
  const [, method, path, status, times, retryAfter] = match
  return Either.mapLeft(
    Schema.decodeUnknownEither(Fault)({
      method: method!.toUpperCase(),
      path,
      status: Number(status),
      times: Number(times),
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: Number(retryAfter) })
    }, { errors: "all" }),
    (error) =>
      // A union's every member says why it did not match: one line for the status.
      [...new Set(ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
        issue.path[0] === "status" ? `the status is one of ${Status.literals.join(", ")}` : issue.message
      ))].join("; ")
  )
}

/**
 * A fault as `parse` reads it: `POST /1/cards 503 x2`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const format = (fault: Fault): string =>
  `${fault.method.toUpperCase()} ${fault.path} ${fault.status} x${fault.times}${
    fault.retryAfterSeconds === undefined ? "" : ` retry-after=${fault.retryAfterSeconds}`
  }`
