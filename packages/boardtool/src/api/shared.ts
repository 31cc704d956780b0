/**
 * What Trello's wire formats (REST API 1, `../shared/specs/trello`) share: the defaults an
 * answer's fields take, the size of a trigger's sample, and Trello's ids read as creation times.
 *
 * An answer's record requires only what identifies it (its `id`, a Trello action's `type`)
 * and what the seed names (a card's `id`, `desc`, `idBoard`, `idList`, `name`): Trello's
 * document marks nothing else required, and a write must not fail after it was made because
 * its answer left out a field we merely pass on. Any other field takes the default stated where
 * it is declared: `[]` for a list (`listOr`), `null` for a nullable field (`nullOr`), `false`
 * for a flag that is off unless said (`falseOr`); else it is absent from the output too.
 */
import { Action } from "@x/core"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** A list Trello may leave out of an answer: `[]` when it does. */
export const listOr = <A, I>(item: Schema.Schema<A, I>) => Schema.optionalWith(Schema.Array(item), { default: () => [] })

/** A nullable field Trello may leave out of an answer: `null` (none) when it does. */
export const nullOr = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** A flag Trello may leave out of an answer, off unless said (`closed`, `dueComplete`): `false` when it does. */
export const falseOr = Schema.optionalWith(Schema.Boolean, { default: () => false })

/** How many records a trigger's sample data holds at most. */
export const sampleSize = 5

/** Newest first: a Trello id starts with its creation time (seconds, 8 hex digits). */
export const newestFirst = <A extends { readonly id: string }>(records: ReadonlyArray<A>): Array<A> =>
  [...records].sort((a, b) => b.id.toLowerCase().localeCompare(a.id.toLowerCase()))

/** When a Trello record was created, in milliseconds: its id's first 8 hex digits are Unix seconds. */
const createdAt = (id: string): number => Number.parseInt(id.slice(0, 8), 16) * 1000

/**
 * Of these records, the newest named `name` created at or after `since` (to the second, as
 * Trello's ids tell it): what a create cut short may have made (an action's `reconcile`).
 */
export const newestCreatedSince = <R extends { readonly id: string; readonly name: string }>(
  records: ReadonlyArray<R>,
  name: string,
  since: Date
): Option.Option<R> =>
  // Ids of one second are in the order Trello made them: the last one given wins a tie.
  Action.newestCreatedSince(
    records.filter((record) => record.name === name).sort((a, b) => a.id.localeCompare(b.id)),
    (record) => createdAt(record.id),
    { since }
  )
