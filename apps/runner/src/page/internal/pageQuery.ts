/**
 * The runs page's query parameters, decoded with Schema: each parameter's own schema and, when
 * it does not decode, one clear sentence naming it (the API answers 400 InvalidQuery with it).
 * An empty parameter (`workflow=`) is as if left out: the page's filters send them so.
 *
 * @internal
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as RunStore from "../../store/RunStore.js"
import * as PageJson from "./pageJson.js"

/** A query parameter that is not as the API takes it. */
export class InvalidQuery extends Data.TaggedError("InvalidQuery")<{ readonly message: string }> {}

/** The statuses the list filters by: a run's, and `waiting` (running, its waits lasting). */
export const listStatuses = ["accepted", "running", "waiting", "succeeded", "failed", "unknown"] as const

/** A run's id as the store makes it (hex), or as a test or an older runner might: kept short and plain. */
export const RunId = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/))

const EpochMillis = Schema.NumberFromString.pipe(Schema.int(), Schema.between(0, 8_640_000_000_000_000))

type Params = Readonly<Record<string, string | ReadonlyArray<string>>>

/** One parameter, decoded; none when absent or empty. */
const field = <A, I>(params: Params, name: string, schema: Schema.Schema<A, I>, says: string): Either.Either<A | undefined, InvalidQuery> => {
  const given = params[name]
  if (given === undefined || given === "") return Either.right(undefined)
  if (typeof given !== "string") return Either.left(new InvalidQuery({ message: `${name} is given more than once` }))
  return Either.mapLeft(Schema.decodeUnknownEither(schema)(given), () => new InvalidQuery({ message: `${name}=${given.slice(0, 100)}: ${says}` }))
}

/** `GET /runs/api/runs`'s parameters, as the store's query. */
export const runsQuery = (params: Params): Either.Either<RunStore.RunsQuery, InvalidQuery> =>
  Either.gen(function*() {
    const workflow = yield* field(params, "workflow", Schema.String.pipe(Schema.maxLength(200)), "a workflow's name, at most 200 characters")
    const status = yield* field(params, "status", Schema.Literal(...listStatuses), `one of ${listStatuses.join(", ")}`)
    const from = yield* field(params, "from", EpochMillis, "a time in epoch milliseconds")
    const to = yield* field(params, "to", EpochMillis, "a time in epoch milliseconds")
    const search = yield* field(params, "q", Schema.String.pipe(Schema.maxLength(500)), "a search text of at most 500 characters")
    const limit = yield* field(params, "limit", Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 200)), "a whole number from 1 to 200")
    const cursor = yield* field(params, "after", Schema.String, "")
    const after = cursor === undefined ? undefined : PageJson.decodeCursor(cursor)
    if (cursor !== undefined && after === undefined) return yield* Either.left(new InvalidQuery({ message: "after: not a cursor this page gave (its \"next\")" }))
    if (from !== undefined && to !== undefined && from >= to) return yield* Either.left(new InvalidQuery({ message: `from=${from} is not before to=${to}` }))
    return { limit: limit ?? 50, workflow, status, from, to, search, after }
  })

/** `GET /runs/api/chart`'s: the hours it covers (6 unless asked, at most a week). */
export const chartHours = (params: Params): Either.Either<number, InvalidQuery> =>
  Either.map(field(params, "hours", Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 168)), "a whole number of hours from 1 to 168"), (hours) => hours ?? 6)

/** `GET /runs/api/stream`'s: the run whose view it follows too, if any. */
export const streamRun = (params: Params): Either.Either<string | undefined, InvalidQuery> =>
  field(params, "run", RunId, "a run's id, as the list gives it")

/** A POST's body to `/done`: the step's path and its output. */
export const DoneBody = Schema.Struct({
  step: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000)),
  output: Schema.Unknown
})
