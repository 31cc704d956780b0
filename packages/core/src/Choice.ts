/**
 * A choice of an enum property or of a dynamic option list: what the user sees, and the value
 * sent.
 *
 * @since 0.2.0
 */

/**
 * One choice of a list: the label a user sees and the value a step carries.
 *
 * @since 0.1.0
 * @category models
 */
export interface Choice<V = unknown> {
  readonly label: string
  readonly value: V
}

/**
 * Choices labelled by their own values, keeping their literal types:
 * `Choice.of(["GET", "POST"] as const)` is a list of `Choice<"GET" | "POST">`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const of = <const V extends string | number>(values: ReadonlyArray<V>): ReadonlyArray<Choice<V>> =>
  values.map((value) => ({ label: String(value), value }))

/**
 * Maps provider records to choices: label from one field, value from another; a value listed twice, once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromRecords = <A>(
  items: ReadonlyArray<A>,
  label: (item: A) => string,
  value: (item: A) => string
): ReadonlyArray<Choice<string>> => {
  const seen = new Map<string, Choice<string>>()
  for (const item of items) {
    const v = value(item)
    if (!seen.has(v)) seen.set(v, { label: label(item), value: v })
  }
  return [...seen.values()]
}
