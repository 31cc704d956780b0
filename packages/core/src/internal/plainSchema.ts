/**
 * A fast path for decoding and encoding with a "plain" Schema: structs, arrays, records of
 * unknown values, strings, numbers, booleans, literals, and unions of those, with no
 * transformation, filter or parse-option annotation anywhere. On such a schema decoding and
 * encoding are the same check, and it builds what Schema's own parser builds (declared fields
 * only, in the schema's order); the fast path returns that on success and gives up otherwise,
 * so that Schema runs and reports the problem as before. Any other schema goes to Schema whole.
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** What a check returns when the value does not pass (or the case is not covered). */
const fail: unique symbol = Symbol("fail")
type Check = (input: unknown) => unknown

const leaf = (ast: AST.AST): ((input: unknown) => boolean) | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
  }
  return undefined
}

const compile = (ast: AST.AST): Check | undefined => {
  // An annotation that changes how a value is parsed: Schema's parser handles it.
  if (hasParseAnnotation(ast)) return undefined
  const test = leaf(ast)
  if (test !== undefined) return (u) => test(u) ? u : fail
  switch (ast._tag) {
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Union": {
      // Leaves (which never accept an object) and at most one object-like member: the members
      // are disjoint, so the first that passes is the one Schema's parser picks.
      const members = membersOf(ast)
      const tests = members.map(leaf)
      const others = members.filter((_, i) => tests[i] === undefined)
      // Unknown among leaves (`Schema.optional(Schema.Unknown)`): every member gives the value as it is.
      if (others.length > 0 && others.every(isUnknown)) return (u) => u
      if (others.length > 1) return undefined
      const other = others.length === 0 ? undefined : compile(others[0]!)
      if (others.length === 1 && (other === undefined || !isObjectLike(others[0]!))) return undefined
      const leaves = tests.filter((t) => t !== undefined)
      return (u) => {
        for (let i = 0; i < leaves.length; i++) if (leaves[i]!(u)) return u
        return other === undefined ? fail : other(u)
      }
    }
    case "TupleType": {
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return undefined
      const item = compile(ast.rest[0]!.type)
      if (item === undefined) return undefined
      return (u) => {
        if (!Array.isArray(u)) return fail
        const output = new Array(u.length)
        for (let i = 0; i < u.length; i++) if ((output[i] = item(u[i])) === fail) return fail
        return output
      }
    }
    case "TypeLiteral":
      return typeLiteral(ast)
  }
  return undefined
}

/** A union's members, those of unions in it included (`Schema.optional(Schema.NullOr(…))`). */
const membersOf = (ast: AST.Union): Array<AST.AST> =>
  ast.types.flatMap((member) => member._tag === "Union" && !hasParseAnnotation(member) ? membersOf(member) : [member])

const hasParseAnnotation = (ast: AST.AST) =>
  AST.getParseOptionsAnnotation(ast)._tag === "Some" || AST.getDecodingFallbackAnnotation(ast)._tag === "Some"

const isUnknown = (ast: AST.AST) => ast._tag === "UnknownKeyword" || ast._tag === "AnyKeyword"

const isObjectLike = (ast: AST.AST) => ast._tag === "TypeLiteral" || ast._tag === "TupleType"

const typeLiteral = (ast: AST.TypeLiteral): Check | undefined => {
  // A record of unknown values (`Schema.Record({ key: Schema.String, value: Schema.Unknown })`).
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
    const [signature] = ast.indexSignatures
    if (signature!.parameter._tag !== "StringKeyword" || signature!.type._tag !== "UnknownKeyword") return undefined
    return (u) => {
      if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
      const output: Record<string, unknown> = {}
      for (const key of Object.keys(u)) output[key] = (u as Record<string, unknown>)[key]
      return output
    }
  }
  if (ast.indexSignatures.length !== 0) return undefined
  const names: Array<string> = []
  const optional: Array<boolean> = []
  const checks: Array<Check> = []
  for (const ps of ast.propertySignatures) {
    const check = compile(ps.type)
    if (typeof ps.name !== "string" || check === undefined) return undefined
    names.push(ps.name)
    optional.push(ps.isOptional)
    checks.push(check)
  }
  return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    const input = u as Record<string, unknown>
    const output: Record<string, unknown> = {}
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      if (!Object.prototype.hasOwnProperty.call(input, name) && optional[i]) continue
      const value = checks[i]!(input[name])
      if (value === fail) return fail
      output[name] = value
    }
    return output
  }
}

/** Schema's `decodeUnknownEither`, with the fast path in front when the schema is plain. */
export const decodeUnknownEither = <A, I>(
  schema: Schema.Schema<A, I>,
  options?: AST.ParseOptions
): (input: unknown) => Either.Either<A, ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(schema, options)
  // Options that make Schema reject or keep more than the declared fields: Schema alone.
  const plainOptions = options?.exact !== true && options?.onExcessProperty === undefined &&
    options?.propertyOrder === undefined
  const fast = plainOptions ? compile(schema.ast) : undefined
  if (fast === undefined) return decode
  return (input) => {
    const output = fast(input)
    return output === fail ? decode(input) : Either.right(output as A)
  }
}

/** Schema's `encodeUnknownEither`, with the fast path in front when the schema is plain. */
export const encodeUnknownEither = <A, I>(
  schema: Schema.Schema<A, I>
): (value: unknown) => Either.Either<I, ParseResult.ParseError> => {
  const encode = Schema.encodeUnknownEither(schema)
  const fast = compile(schema.ast)
  if (fast === undefined) return encode
  return (value) => {
    const output = fast(value)
    return output === fail ? encode(value) : Either.right(output as I)
  }
}
