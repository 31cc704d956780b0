/**
 * A fast path for decoding and encoding with a "plain" Schema: structs, arrays, records of
 * unknown values, strings, numbers, booleans, literals, and unions of those, with no filter or
 * parse-option annotation anywhere, and no transformation but a struct's own fields' (a field
 * given a default with `Schema.optionalWith`, or renamed with `Schema.fromKey`). On such a
 * schema it builds what Schema's own parser builds (declared fields only, in the schema's
 * order, defaults filled in); the fast path returns that on success and gives up otherwise,
 * so that Schema runs and reports the problem as before. Any other schema goes to Schema whole.
 *
 * A plain object or array that already is what Schema would build (a struct's fields exactly,
 * in its order, each value as it is) is returned as it is, not copied: an action's output built
 * in its schema's order is encoded without a copy, and what a copy would have been equal to
 * (keys and their order included) is what is returned.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** Whether `key` is the object's own (never one its prototype has). */
const hasOwn = (object: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(object, key)

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

/**
 * A leaf's test (or a union of leaves' test) as a JavaScript expression over `v`, for
 * `written`: the same tests as `leaf`'s, a literal read from `literals` (the code names
 * no value of the schema's, only positions).
 */
const leafSource = (ast: AST.AST, literals: Array<unknown>): string | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return `typeof v === "string"`
    case "NumberKeyword":
      return `typeof v === "number"`
    case "BooleanKeyword":
      return `typeof v === "boolean"`
    case "UndefinedKeyword":
      return `v === undefined`
    case "Literal":
      literals.push(ast.literal)
      return `v === l[${literals.length - 1}]`
    case "Union": {
      if (hasParseAnnotation(ast)) return undefined
      const tests: Array<string> = []
      for (const member of membersOf(ast)) {
        const test = leaf(member) === undefined ? undefined : leafSource(member, literals)
        if (test === undefined) return undefined
        tests.push(test)
      }
      return `(${tests.join(" || ")})`
    }
  }
  return undefined
}

let writing = true

/** Whether structs' checks are written as code (tests run both ways; on by default). */
export const writeChecks = (on: boolean): void => {
  writing = on
}

/**
 * What a written in-order check returns when a field's check changed its value (a copy is
 * due), the field's position and its checked value left on the check, read at once.
 */
const changed: unique symbol = Symbol("changed")

interface InOrderCheck {
  (input: Record<string, unknown>): unknown
  changedAt: number
  changedTo: unknown
}

/** Checks built on written code (for tests: code that would not compile falls back to the closures, unseen otherwise). */
const writtenChecks = new WeakSet<Check>()

/** Code made of positions and kinds (`n`, `c`, `l`, …: arrays the function is given), or undefined where a runtime forbids it. */
const written = <F>(parameters: Record<string, unknown>, body: string): F | undefined => {
  if (!writing) return undefined
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function(...Object.keys(parameters), `"use strict"; ${body}`)(...Object.values(parameters)) as F
  } catch {
    return undefined
  }
}

/**
 * A struct's check of an input already in its order, written for the struct: leaf fields
 * tested inline, any other field's check called; the input as it is, or `changed` at the first
 * value a check changes (the copy begins there: no value is checked twice). What the closures
 * do field by field in a loop, without a call or a lookup per field.
 */
const writtenInOrder = (
  names: ReadonlyArray<string>,
  optional: ReadonlyArray<boolean>,
  types: ReadonlyArray<AST.AST>,
  checks: ReadonlyArray<Check>
): InOrderCheck | undefined => {
  const literals: Array<unknown> = []
  const lines = types.map((type, i) => {
    const read = `v = input[n[${i}]];`
    const own = `hasOwn(input, n[${i}])`
    const test = leafSource(type, literals)
    // A field left out is skipped (an optional one: the order check saw every required one).
    if (test !== undefined) return `${read} if (!(${test})${optional[i] ? ` && ${own}` : ""}) return fail;`
    const changes = `r = c[${i}](v); if (r !== v) { if (r === fail) return fail; check.changedAt = ${i}; check.changedTo = r; return changed }`
    return optional[i] ? `if (${own}) { ${read} ${changes} }` : `${read} ${changes}`
  })
  return written({ fail, changed, hasOwn, n: names, c: checks, l: literals }, `
    const check = function (input) { let v, r; ${lines.join(" ")} return input };
    check.changedAt = 0;
    check.changedTo = undefined;
    return check`)
}

/**
 * A field of a struct's copy: read when the input has it, or always when required (Schema
 * reads a missing one as undefined); checked, then, with a transformation, transformed from
 * its presence and value and the result checked on the other side.
 */
interface CopiedField {
  readonly name: string
  readonly optional: boolean
  readonly type: AST.AST
  readonly check: Check
  readonly transform?: {
    readonly f: Step["f"]
    readonly type: AST.AST
    readonly check: Check
    /** Whether the other side requires the field (a transformation that gives none fails). */
    readonly required: boolean
  }
}

/**
 * A struct's copy written for the struct: the declared fields, each checked (and transformed),
 * in the struct's order; `fail` at the first that does not pass. The rest of a record is left
 * to the caller.
 */
const writtenCopy = (
  fields: ReadonlyArray<CopiedField>
): ((input: Record<string, unknown>) => Record<string, unknown> | typeof fail) | undefined => {
  const literals: Array<unknown> = []
  const checked = (type: AST.AST, check: string) => {
    const test = leafSource(type, literals)
    return test !== undefined ? `if (!(${test})) return fail;` : `v = ${check}(v); if (v === fail) return fail;`
  }
  const lines = fields.map(({ optional, transform, type }, i) => {
    const read = `v = input[n[${i}]]; ${checked(type, `c[${i}]`)}`
    const own = `hasOwn(input, n[${i}])`
    if (transform === undefined) {
      const copied = `${read} output[n[${i}]] = v;`
      return optional ? `if (${own}) { ${copied} }` : copied
    }
    const given = optional ? `if (${own}) { ${read} o = some(v) } else o = none;` : `${read} o = some(v);`
    const then = `if (r._tag === "Some") { v = r.value; ${checked(transform.type, `t[${i}]`)} output[n[${i}]] = v }${transform.required ? " else return fail;" : ""}`
    return `${given} r = f[${i}](o); ${then}`
  })
  return written({
    fail,
    hasOwn,
    some: Option.some,
    none: Option.none(),
    n: fields.map((field) => field.name),
    c: fields.map((field) => field.check),
    f: fields.map((field) => field.transform?.f),
    t: fields.map((field) => field.transform?.check),
    l: literals
  }, `return function (input) { const output = {}; let v, r, o; ${lines.join(" ")} return output }`)
}

/**
 * `decoding`: the direction, which matters only across a struct's field transformations.
 * `fresh`: a struct's check builds a new object even when the input would do (its caller
 * changes what it gets).
 */
const compile = (ast: AST.AST, decoding: boolean, fresh = false): Check | undefined => {
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
      const other = others.length === 0 ? undefined : compile(others[0]!, decoding)
      if (others.length === 1 && (other === undefined || !isObjectLike(others[0]!))) return undefined
      const leaves = tests.filter((t) => t !== undefined)
      return (u) => {
        for (let i = 0; i < leaves.length; i++) if (leaves[i]!(u)) return u
        return other === undefined ? fail : other(u)
      }
    }
    case "TupleType": {
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return undefined
      const item = compile(ast.rest[0]!.type, decoding)
      if (item === undefined) return undefined
      return (u) => {
        if (!Array.isArray(u)) return fail
        // The array as it is until an item changes (a plain array: a subclass's is copied).
        let output: Array<unknown> | undefined = Object.getPrototypeOf(u) === Array.prototype ? undefined : []
        for (let i = 0; i < u.length; i++) {
          const value = item(u[i])
          if (value === fail) return fail
          if (output !== undefined) output.push(value)
          else if (value !== u[i]) {
            output = u.slice(0, i)
            output.push(value)
          }
        }
        return output ?? u
      }
    }
    case "TypeLiteral":
      return typeLiteral(ast, decoding, fresh)
    case "Transformation":
      return fieldTransformations(ast, decoding)
  }
  return undefined
}

/**
 * A struct whose fields have transformations of their own (`Schema.optionalWith(…, { default })`):
 * what Schema's parser does, in the same three steps: the side read checked, then each field's
 * transformation (a pure function of the field's presence and value), then the other side
 * checked. Any other transformation may fail or depend on more than a field: Schema's.
 */
const fieldTransformations = (ast: AST.Transformation, decoding: boolean): Check | undefined => {
  if (ast.transformation._tag !== "TypeLiteralTransformation" || !isStruct(ast.from) || !isStruct(ast.to)) return undefined
  const first = compile(decoding ? ast.from : ast.to, decoding, true)
  const second = compile(decoding ? ast.to : ast.from, decoding)
  if (first === undefined || second === undefined) return undefined
  const steps = ast.transformation.propertySignatureTransformations.map((field) =>
    decoding ? { from: field.from, to: field.to, f: field.decode } : { from: field.to, to: field.from, f: field.encode }
  )
  const fused = onePass(decoding ? ast.from : ast.to, decoding ? ast.to : ast.from, steps, decoding)
  if (fused !== undefined) return fused
  return (u) => {
    // A fresh object, built by the struct's check: changing it changes nothing of the input.
    const value = first(u)
    if (value === fail) return fail
    const record = value as Record<PropertyKey, unknown>
    for (const { f, from, to } of steps) {
      const result = f(hasOwn(record, from) ? Option.some(record[from]) : Option.none())
      // A field kept under its own key is overwritten, not deleted first: a deletion would
      // turn the object into a slow dictionary.
      if (Option.isNone(result) || from !== to) delete record[from]
      if (Option.isSome(result)) record[to] = result.value
    }
    return second(record)
  }
}

type Step = { readonly from: PropertyKey; readonly to: PropertyKey; readonly f: (o: Option.Option<any>) => Option.Option<any> }

/**
 * The three steps in one pass, field by field, when no field is renamed and both sides list
 * the same fields in the same order (as `Schema.Struct` builds them): the other side's check is
 * run only on the transformed fields; any other field's value, as read, is already what that
 * check would build again.
 */
const onePass = (source: AST.AST, target: AST.AST, steps: ReadonlyArray<Step>, decoding: boolean): Check | undefined => {
  if (source._tag !== "TypeLiteral" || target._tag !== "TypeLiteral") return undefined
  const [from, to] = [source.propertySignatures, target.propertySignatures]
  if (from.length !== to.length || steps.some((step) => step.from !== step.to)) return undefined
  const fields: Array<CopiedField> = []
  for (let i = 0; i < from.length; i++) {
    const name = from[i]!.name
    const check = compile(from[i]!.type, decoding)
    if (typeof name !== "string" || name !== to[i]!.name || check === undefined) return undefined
    const step = steps.find((s) => s.to === name)
    if (step === undefined) {
      fields.push({ name, optional: from[i]!.isOptional, type: from[i]!.type, check })
      continue
    }
    const then = compile(to[i]!.type, decoding)
    if (then === undefined) return undefined
    fields.push({
      name,
      optional: from[i]!.isOptional,
      type: from[i]!.type,
      check,
      transform: { f: step.f, type: to[i]!.type, check: then, required: !to[i]!.isOptional }
    })
  }
  const writtenCopied = writtenCopy(fields)
  const copy = writtenCopied ?? closureCopy(fields)
  const check: Check = (u) => typeof u !== "object" || u === null || Array.isArray(u) ? fail : copy(u as Record<string, unknown>)
  if (writtenCopied !== undefined) writtenChecks.add(check)
  return check
}

/**
 * `writtenCopy`'s work done by closures, field by field (where code cannot be written). As
 * Schema reads a struct (not `exact`): a required field that is missing is read as undefined.
 */
const closureCopy = (
  fields: ReadonlyArray<CopiedField>
): (input: Record<string, unknown>) => Record<string, unknown> | typeof fail =>
(input) => {
  const output: Record<string, unknown> = {}
  for (const { check, name, optional, transform } of fields) {
    const read = hasOwn(input, name) || !optional
    if (!read && transform === undefined) continue
    const value = read ? check(input[name]) : undefined
    if (value === fail) return fail
    if (transform === undefined) {
      output[name] = value
      continue
    }
    const result = transform.f(read ? Option.some(value) : Option.none())
    if (Option.isNone(result)) {
      if (transform.required) return fail
      continue
    }
    const made = transform.check(result.value)
    if (made === fail) return fail
    output[name] = made
  }
  return output
}

const isStruct = (ast: AST.AST) => ast._tag === "TypeLiteral" && !hasParseAnnotation(ast)

/** A union's members, those of unions in it included (`Schema.optional(Schema.NullOr(…))`). */
const membersOf = (ast: AST.Union): Array<AST.AST> =>
  ast.types.flatMap((member) => member._tag === "Union" && !hasParseAnnotation(member) ? membersOf(member) : [member])

const hasParseAnnotation = (ast: AST.AST) =>
  AST.getParseOptionsAnnotation(ast)._tag === "Some" || AST.getDecodingFallbackAnnotation(ast)._tag === "Some"

const isUnknown = (ast: AST.AST) => ast._tag === "UnknownKeyword" || ast._tag === "AnyKeyword"

const isObjectLike = (ast: AST.AST) =>
  ast._tag === "TypeLiteral" || ast._tag === "TupleType" || (ast._tag === "Transformation" && isStruct(ast.from) && isStruct(ast.to))

const typeLiteral = (ast: AST.TypeLiteral, decoding: boolean, fresh: boolean): Check | undefined => {
  // A record of unknown values (`Schema.Record({ key: Schema.String, value: Schema.Unknown })`).
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
    if (!isUnknownRecord(ast.indexSignatures[0]!)) return undefined
    return (u) => {
      if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
      const output: Record<string, unknown> = {}
      for (const key of Object.keys(u)) output[key] = (u as Record<string, unknown>)[key]
      return output
    }
  }
  // Fields and a record of unknown values for the rest (`Schema.Struct({ … }, Schema.Record(…))`):
  // Schema's parser gives the fields, then every other own key's value as it is.
  const rest = ast.indexSignatures.length === 0 ? false : ast.indexSignatures.length === 1 && isUnknownRecord(ast.indexSignatures[0]!)
  if (ast.indexSignatures.length !== 0 && !rest) return undefined
  const names: Array<string> = []
  const optional: Array<boolean> = []
  const types: Array<AST.AST> = []
  const checks: Array<Check> = []
  for (const ps of ast.propertySignatures) {
    const check = compile(ps.type, decoding)
    if (typeof ps.name !== "string" || check === undefined) return undefined
    names.push(ps.name)
    optional.push(ps.isOptional)
    types.push(ps.type)
    checks.push(check)
  }
  const declared = new Set(names)
  // Whether the input's own keys are what a copy would have, in its order: the fields present
  // in the schema's order (those left out optional), then, with a record for the rest, keys of
  // no field. Keys only: no field's check is run twice.
  const inOrder = (input: Record<string, unknown>): boolean => {
    // `for…in` lists Object.prototype's enumerable keys too (a polluted prototype): left to the copy.
    if (Object.getPrototypeOf(input) !== Object.prototype || prototypeEnumerates()) return false
    let i = 0
    let inRest = false
    for (const key in input) {
      // Written by a copy's assignment, that key would set the prototype: left to the copy.
      if (key === "__proto__") return false
      if (inRest) {
        // A field after the rest's keys is out of the schema's order.
        if (declared.has(key)) return false
        continue
      }
      // The next field, as a value built in the schema's order has it: no lookup.
      if (i < names.length && names[i] === key) {
        i++
        continue
      }
      if (!declared.has(key)) {
        if (!rest) return false
        // The rest begins: every field not seen must be optional (and come no later).
        for (; i < names.length; i++) if (!optional[i]) return false
        inRest = true
        continue
      }
      while (i < names.length && names[i] !== key) {
        // A required field missing here: Schema's parser would write it (as undefined).
        if (!optional[i]) return false
        i++
      }
      // A field out of the schema's order.
      if (i === names.length) return false
      i++
    }
    for (; i < names.length; i++) if (!optional[i]) return false
    return true
  }
  const checkInOrder = fresh ? undefined : writtenInOrder(names, optional, types, checks)
  const fields = names.map((name, i): CopiedField => ({ name, optional: optional[i]!, type: types[i]!, check: checks[i]! }))
  // The declared fields copied, each checked, in the schema's order.
  const writtenCopied = writtenCopy(fields)
  const copy = writtenCopied ?? closureCopy(fields)
  const check: Check = (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    const input = u as Record<string, unknown>
    if (!fresh && inOrder(input)) {
      // The input as it is while every value is unchanged by its check; at the first that is
      // not, the copy begins with the fields before it (each checked once).
      let output: Record<string, unknown> | undefined
      let from = 0
      if (checkInOrder !== undefined) {
        const checked = checkInOrder(input)
        if (checked !== changed) return checked
        // The written check stopped at the first value its check changed: the copy starts there.
        const at = checkInOrder.changedAt
        output = {}
        for (let j = 0; j < at; j++) if (hasOwn(input, names[j]!)) output[names[j]!] = input[names[j]!]
        output[names[at]!] = checkInOrder.changedTo
        // Not kept alive by the check until its next copy.
        checkInOrder.changedTo = undefined
        from = at + 1
      }
      for (let i = from; i < names.length; i++) {
        const name = names[i]!
        // Own keys only: Object.prototype may have gained a key of this name since (a polyfill, or worse).
        if (!hasOwn(input, name)) continue
        const value = input[name]
        const checked = checks[i]!(value)
        if (checked === fail) return fail
        if (output === undefined) {
          if (checked === value) continue
          output = {}
          for (let j = 0; j < i; j++) if (hasOwn(input, names[j]!)) output[names[j]!] = input[names[j]!]
        }
        output[name] = checked
      }
      if (output === undefined) return input
      if (rest) for (const key of Object.keys(input)) if (!hasOwn(output, key)) output[key] = input[key]
      return output
    }
    const output = copy(input)
    if (output === fail) return fail
    if (rest) {
      // Every field present was written by the copy (a missing optional one is missing here too).
      for (const key of Object.keys(input)) if (!hasOwn(output, key)) output[key] = input[key]
    }
    return output
  }
  if (writtenCopied !== undefined && (fresh || checkInOrder !== undefined)) writtenChecks.add(check)
  return check
}

/** Whether Object.prototype has an enumerable key (it has none unless something added one). */
const prototypeEnumerates = (): boolean => {
  for (const _ in Object.prototype) return true
  return false
}

const isUnknownRecord = (signature: AST.IndexSignature) =>
  signature.parameter._tag === "StringKeyword" && signature.type._tag === "UnknownKeyword"

/**
 * Whether a struct's checks are written as code (for tests: code that would not compile
 * falls back to the closures, unseen otherwise).
 */
export const writesChecks = (schema: Schema.Schema<any, any>): boolean => {
  const check = compile(schema.ast, true)
  return check !== undefined && writtenChecks.has(check)
}

/** Whether a schema takes the fast path (for tests: the values are the same either way). */
export const isPlain = (schema: Schema.Schema<any, any>): boolean =>
  compile(schema.ast, true) !== undefined && compile(schema.ast, false) !== undefined

/** Schema's `decodeUnknownEither`, with the fast path in front when the schema is plain. */
export const decodeUnknownEither = <A, I>(
  schema: Schema.Schema<A, I>,
  options?: AST.ParseOptions
): (input: unknown) => Either.Either<A, ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(schema, options)
  // Options that make Schema reject or keep more than the declared fields: Schema alone.
  const plainOptions = options?.exact !== true && options?.onExcessProperty === undefined &&
    options?.propertyOrder === undefined
  const fast = plainOptions ? compile(schema.ast, true) : undefined
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
  const fast = compile(schema.ast, false)
  if (fast === undefined) return encode
  return (value) => {
    const output = fast(value)
    return output === fail ? encode(value) : Either.right(output as I)
  }
}
