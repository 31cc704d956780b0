/**
 * A workflow step: `{ label, name, parameters, type }`, where `type` is
 * `<component>/v<version>/<action>` (e.g. `boardtool/v1/createCard`).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { invalidInput, type InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"

export const Step = Schema.Struct({
  label: Schema.String,
  name: Schema.String.pipe(Schema.pattern(/^[A-Za-z_][A-Za-z0-9_]*$/, {
    message: () => "must be an identifier (letters, digits, _), so later steps can reference it"
  })),
  parameters: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  type: Schema.String
})
export type Step = typeof Step.Type

export interface StepType {
  readonly component: string
  readonly version: number
  readonly action: string
}

const typePattern = /^([a-z][a-z0-9-]*)\/v([1-9][0-9]*)\/([A-Za-z][A-Za-z0-9_]*)$/

/** Parses `<component>/v<version>/<action>`. */
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

/** Decodes a step, naming every problem with its path. */
export const decode = (input: unknown): Either.Either<Step, InvalidInput> =>
  Either.mapLeft(decodeStep(input), (error) => invalidInput(Property.issuesOf(error), "step"))
