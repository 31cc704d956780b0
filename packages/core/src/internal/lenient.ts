/**
 * Booleans and numbers that also accept their string form, as an interpolated reference
 * (`"${step.count}"`) gives them.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

export const BooleanLike = Schema.transformOrFail(Schema.Unknown, Schema.Boolean, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "boolean"
      ? ParseResult.succeed(u)
      : u === "true" || u === "false"
      ? ParseResult.succeed(u === "true")
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be a boolean")),
  encode: ParseResult.succeed
})

export const IntegerLike = Schema.transformOrFail(Schema.Unknown, Schema.Number, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "number" && Number.isSafeInteger(u)
      ? ParseResult.succeed(u)
      : typeof u === "string" && /^-?\d{1,15}$/.test(u)
      ? ParseResult.succeed(Number(u))
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be an integer")),
  encode: ParseResult.succeed
})

export const NumberLike = Schema.transformOrFail(Schema.Unknown, Schema.Number, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "number" && Number.isFinite(u)
      ? ParseResult.succeed(u)
      : typeof u === "string" && /^-?\d{1,15}(\.\d{1,15})?$/.test(u)
      ? ParseResult.succeed(Number(u))
      : ParseResult.fail(new ParseResult.Type(ast, u, "must be a number")),
  encode: ParseResult.succeed
})
