/**
 * What Browser Use's wire formats (`../shared/specs/browseragent`, V3 and V4) share: FastAPI's
 * error body, and a field the wire may leave out or send as null.
 *
 * A wire record requires only what identifies it (its `id`; a file's `path`) and what the seed
 * names (the session's `id`, `status`, `model`, `createdAt`, `updatedAt`: the fields its
 * output cannot do without); a write must not fail after Browser Use made it because its answer
 * left out a field we merely pass on. Anything else is optional on the wire, and the output
 * takes the default stated where it is built (`toSession`, `toProfile`, …: `null` for a
 * nullable field, `[]` for a list, `0` for a count, `"0"` for a cost) or leaves it absent.
 */
import * as Schema from "effect/Schema"

/** A wire field that may be left out or null; the output's builder says what it becomes. */
export const nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optional(Schema.NullOr(schema))

/** FastAPI's error body: `{"detail": "…"}` or `{"detail": [{loc, msg, type}]}`. */
export const errorMessage = (body: unknown): string | undefined => {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (typeof detail === "string") return detail
  if (Array.isArray(detail)) {
    return detail.map((d: { loc?: ReadonlyArray<unknown>; msg?: unknown }) =>
      `${(d.loc ?? []).filter((l) => l !== "body").join(".")}: ${String(d.msg)}`.replace(/^: /, "")
    ).join("; ")
  }
  return undefined
}
