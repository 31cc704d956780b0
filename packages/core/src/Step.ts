/**
 * A workflow step: `{ label, name, parameters, type }`, where `type` is
 * `<component>/v<version>/<action>` (e.g. `boardtool/v1/createCard`), and optionally the
 * `connection` it runs with (a named connection of its component; its default when left out).
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { invalidInput, type InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/
const connectionPattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

/**
 * The name of a connection: a letter, then up to 63 letters, digits, `_` or `-` (e.g. `work`,
 * `trello-personal`).
 *
 * @since 0.8.0
 * @category utils
 */
export const ConnectionName = Schema.String.pipe(Schema.pattern(connectionPattern, {
  message: () => "must be a connection's name: a letter, then up to 63 letters, digits, _ or -"
}))

/**
 * The Schema of a workflow step: `{ label, name, parameters, type, connection? }`.
 *
 * @since 0.1.0
 * @category utils
 */
export const Step = Schema.Struct({
  label: Schema.String,
  name: Schema.String.pipe(Schema.pattern(namePattern, {
    message: () => "must be an identifier (letters, digits, _), so later steps can reference it"
  })),
  parameters: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  type: Schema.String,
  /** The named connection it runs with (of its component); its component's default when left out. @since 0.8.0 */
  connection: Schema.optionalWith(ConnectionName, { exact: true })
})
/**
 * A workflow step.
 *
 * @since 0.1.0
 * @category models
 */
export type Step = typeof Step.Type

/**
 * A step's type, parsed: component, version, action.
 *
 * @since 0.1.0
 * @category models
 */
export interface StepType {
  readonly component: string
  readonly version: number
  readonly action: string
}

const typePattern = /^([a-z][a-z0-9-]*)\/v([1-9][0-9]*)\/([A-Za-z][A-Za-z0-9_]*)$/

/**
 * Parses `<component>/v<version>/<action>`.
 *
 * @example
 * ```ts
 * import { Step } from "@x/core"
 * import * as Either from "effect/Either"
 *
 * assert.deepStrictEqual(
 *   Step.parseType("boardtool/v1/createCard"),
 *   Either.right({ component: "boardtool", version: 1, action: "createCard" })
 * )
 * // Anything else is an InvalidInput that says what a type looks like.
 * assert.ok(Either.isLeft(Step.parseType("boardtool/createCard")))
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const parseType = (type: string): Either.Either<StepType, InvalidInput> => {
  const match = typePattern.exec(type)
  return match === null
    ? Either.left(invalidInput([{
      path: "type",
      message: `${JSON.stringify(type)} is not of the form <component>/v<version>/<action>, e.g. boardtool/v1/createCard`
    }]))
    : Either.right({ component: match[1]!, version: Number(match[2]), action: match[3]! })
}

const decodeStep = Schema.decodeUnknownEither(Step, { errors: "all", onExcessProperty: "error" })

/** A well-formed step, checked without Schema: the executor's hot path. */
const isWellFormed = (input: unknown): input is Step => {
  if (typeof input !== "object" || input === null) return false
  const step = input as Record<string, unknown>
  let keys = 0
  for (const _ in step) keys++
  const connection = step["connection"]
  if (connection !== undefined && !(typeof connection === "string" && connectionPattern.test(connection))) return false
  return keys === (connection === undefined ? 4 : 5) &&
    typeof step["label"] === "string" &&
    typeof step["type"] === "string" &&
    typeof step["name"] === "string" && namePattern.test(step["name"]) &&
    typeof step["parameters"] === "object" && step["parameters"] !== null && !Array.isArray(step["parameters"])
}

/**
 * Decodes a step, naming every problem with its path.
 *
 * @since 0.1.0
 * @category utils
 */
export const decode = (input: unknown): Either.Either<Step, InvalidInput> =>
  isWellFormed(input)
    ? Either.right(input)
    : Either.mapLeft(decodeStep(input), (error) => invalidInput(Property.issuesOf(error), "step"))
