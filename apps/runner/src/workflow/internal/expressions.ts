/**
 * The workflow check's and the interpreter's one door to CEL (`Expression`) and durations
 * (`Durations`): what a task knows at its place in the file, each expression compiled against
 * it, and the compiled expression as a function of the run's values.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Durations from "../Durations.js"
import * as Expression from "../Expression.js"

/** An expression that passed the check, and how it reads the run's values. */
export interface Compiled {
  readonly source: string
  readonly type: Expression.Type
  readonly evaluate: (values: ReadonlyMap<string, unknown>) => Either.Either<unknown, string>
}

/** What an expression may name at one place of the file. */
export type Variables = Expression.Variables

export type Type = Expression.Type

export const none: Variables = Expression.variables

/** A variable whose value has this JSON Schema (`undefined`: any value). */
export const withSchema = (variables: Variables, name: string, schema: unknown): Variables =>
  Expression.withSchema(variables, name, schema as never)

export const withType = (variables: Variables, name: string, type: Type): Variables => Expression.withType(variables, name, type)

export const compile = (source: string, variables: Variables, explain?: Expression.Unknown): Either.Either<Compiled, string> =>
  Either.map(Expression.compile(source, variables, explain), (expression) => ({
    source,
    type: expression.type,
    evaluate: (values) => Either.mapLeft(expression.evaluate(values), (failed) => failed.message)
  }))

export const isBoolean = Expression.isBoolean
export const isList = Expression.isList
export const isTimestamp = Expression.isTimestamp
export const isReadableName = Expression.isReadableName
/** The type of a list's items (`dyn` when not known). */
export const elementType = (type: Type): Type => Expression.elementType(type) ?? "dyn"

/** The expression of a value that is exactly `${= <expression>}`. */
export const valueExpression = (value: unknown): string | undefined => Expression.valueExpression(value)

/** A duration of the file ("30 seconds"), or why it is not one. */
export const duration = (text: string): Either.Either<Duration.Duration, string> => Durations.parse(text)
