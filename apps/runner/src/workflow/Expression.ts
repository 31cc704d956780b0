/**
 * CEL expressions of workflow files (`if`, `forEach`, `until`, and values written `${= <cel>}`),
 * on `@marcbachmann/cel-js`: checked when the file is checked, evaluated when the task runs.
 *
 * - **Types.** Each variable has a CEL type. One given a JSON Schema (`withSchema`) is typed
 *   by it: an object with `properties` becomes an object type whose field names are checked
 *   (named after its place: `Trigger.Card`, `Overdue.Cards.Item`), other objects a
 *   `map<string, …>`, arrays lists, `integer` int, `number` double, `boolean` bool, `string`
 *   string (`date-time` too: read it with `timestamp(…)`), and anything nullable or a union dyn.
 *   Ints and doubles mix in comparisons and `+ - * /` (`card.pos == 5`, `card.pos + 1`: a
 *   double), nothing else does.
 * - **Values.** JSON in, converted by the declared type (integers to CEL ints; a dyn whole
 *   number is an int, so `x > 1` works); JSON out: ints as numbers, timestamps as ISO text,
 *   durations as `"<n> millis"`. A result JSON cannot hold exactly is an `ExpressionFailed`.
 * - **Skipped tasks.** A declared variable missing from the values (or `undefined` there: a
 *   task that was skipped) has no value: reading it fails, naming it as skipped.
 *   `skipped(name)` tells without reading it, so a guarded read is
 *   `skipped(fetch) ? [] : fetch.cards` (CEL's `?:`, `&&` and `||` do not evaluate the side
 *   they do not need). `fetch != null` is refused at the check: an object is never null.
 * - **Bounds.** At most `maxSourceLength` characters, `maxNesting` levels of nesting and
 *   `maxNodes` syntax nodes, comprehensions (`all`, `exists`, `exists_one`, `map`, `filter`)
 *   nested at most `maxComprehensionNesting` deep, and no `matches()`: JavaScript's regular
 *   expressions backtrack, and some patterns take hours on a short text. When evaluated, at
 *   most `maxItemsRead` items of the lists and maps it is given read (a list a provider
 *   returned may be long; nested comprehensions read it many times).
 * - **Sandbox.** An expression reads only its variables: no file, environment, network, code
 *   or prototype (values are `Map`s and declared fields; `constructor` or `__proto__` is just
 *   a missing key).
 *
 * @since 0.7.0
 */
import { Environment, EvaluationError, serialize, type ASTNode, type ParseResult } from "@marcbachmann/cel-js"
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import { type CelType, dyn, fromJsonSchema, nameOf, type ObjectTypes, parseName } from "./internal/celTypes.js"
import { fromJson, Meter, toJson } from "./internal/celValues.js"

/**
 * A CEL type as the checker names it: `"bool"`, `"string"`, `"list<Trigger.Card>"`, `"dyn"`,
 * `"google.protobuf.Timestamp"`, …
 *
 * @since 0.7.0
 * @category models
 */
export type Type = string

/**
 * The variables an expression may read, with their types. Immutable: each `with…` returns a
 * new one.
 *
 * @since 0.7.0
 * @category models
 */
export interface Variables {
  /** Each variable's type, by name. */
  readonly declared: ReadonlyMap<string, Type>
  /** @internal */
  readonly models: ReadonlyMap<string, CelType>
  /** @internal the object types the variables' types name, each after the types of its fields */
  readonly objects: ObjectTypes
  /** @internal what these variables were made from, and the name added (its environment is a clone of the parent's) */
  readonly parent: Variables | undefined
  /** @internal */
  readonly added: string | undefined
}

/**
 * No variables.
 *
 * @since 0.7.0
 * @category constructors
 */
export const variables: Variables = { declared: new Map(), models: new Map(), objects: new Map(), parent: undefined, added: undefined }

const withModel = (variables: Variables, name: string, model: CelType, objects: ObjectTypes): Variables => ({
  declared: new Map(variables.declared).set(name, nameOf(model)),
  models: new Map(variables.models).set(name, model),
  objects,
  parent: variables,
  added: name
})

/**
 * Adds (or replaces) a variable whose values have this JSON Schema (draft 2020-12 or 7, as
 * actions' output schemas are); `undefined` for a value of any shape (dyn).
 *
 * @since 0.7.0
 * @category combinators
 */
export const withSchema = (variables: Variables, name: string, schema: unknown): Variables => {
  const objects = new Map(variables.objects)
  const model = schema === undefined ? dyn : fromJsonSchema(schema, name, objects)
  return withModel(variables, name, model, objects)
}

/**
 * Adds (or replaces) a variable of a type an expression was checked to have, e.g. a loop's
 * item: `elementType` of its `forEach`. A type these variables do not know is read as dyn.
 *
 * @since 0.7.0
 * @category combinators
 */
export const withType = (variables: Variables, name: string, type: Type): Variables =>
  withModel(variables, name, parseName(type, variables.objects), variables.objects)

/**
 * A compiled expression: its source, the type the checker found, and its evaluation, which
 * never throws.
 *
 * @since 0.7.0
 * @category models
 */
export interface Expression {
  readonly source: string
  readonly type: Type
  /** The values of the variables by name (JSON values); a variable left out was skipped. */
  readonly evaluate: (values: ReadonlyMap<string, unknown>) => Either.Either<unknown, ExpressionFailed>
}

/**
 * An expression that failed when evaluated: a missing key, a skipped task read unguarded, a
 * value of the wrong type where the schema said otherwise, a result with no JSON form.
 *
 * @since 0.7.0
 * @category errors
 */
export class ExpressionFailed extends Data.TaggedError("ExpressionFailed")<{
  readonly source: string
  readonly message: string
}> {}

/**
 * The longest expression accepted, in characters.
 *
 * @since 0.7.0
 * @category limits
 */
export const maxSourceLength = 2000

/**
 * The deepest nesting of calls, selections, indexes and literals.
 *
 * @since 0.7.0
 * @category limits
 */
export const maxNesting = 32

/**
 * The most syntax nodes in one expression.
 *
 * @since 0.7.0
 * @category limits
 */
export const maxNodes = 1000

/**
 * How deep comprehensions (`all`, `exists`, `exists_one`, `map`, `filter`) nest: two nested
 * over lists of n items take n² steps, three n³.
 *
 * @since 0.7.0
 * @category limits
 */
export const maxComprehensionNesting = 2

/**
 * The most list items and map keys one evaluation may read from the values it is given (each
 * item as often as it is read: a comprehension nested in another reads the inner list once per
 * outer item; a list the expression builds, with `map` or `filter`, is not counted again:
 * reading what it was built from was). Past it the
 * evaluation stops with an `ExpressionFailed`. About half a second of work for an expression
 * of ordinary size: an evaluation is synchronous, and holds the whole process (`serve`'s other
 * runs, its webhooks) while it runs.
 *
 * @since 0.7.0
 * @category limits
 */
export const maxItemsRead = 1_000_000

const comprehensions: ReadonlySet<string> = new Set(["all", "exists", "exists_one", "map", "filter"])

/** `skipped(name)`: whether a variable has no value, without reading it (a macro: its argument is not evaluated first). */
const skippedMacro = ({ args }: { args: ReadonlyArray<ASTNode> }) => ({
  args,
  async: false,
  typeCheck(checker: any, macro: { args: ReadonlyArray<ASTNode> }, ctx: unknown) {
    const node = macro.args[0]!
    if (node.op !== "id") {
      throw checker.createError("invalid_macro_argument", "skipped() takes a task's name, e.g. skipped(fetch)", node)
    }
    checker.check(node, ctx)
    return checker.getType("bool")
  },
  evaluate(evaluator: any, macro: { args: ReadonlyArray<ASTNode> }, ctx: unknown) {
    try {
      evaluator.run(macro.args[0], ctx)
      return false
    } catch (error) {
      if (error instanceof EvaluationError && error.code === "unknown_variable") return true
      throw error
    }
  }
})

/** An environment for some variables, and the names among them CEL keeps for itself (`list`, `int`, …). */
interface Prepared {
  readonly environment: Environment
  readonly unreadable: ReadonlySet<string>
  readonly classes: ReadonlyMap<string, new (fields: Map<string, unknown>) => Map<string, unknown>>
  /** An object type's value: a `Map` of its fields, of the class the environment knows the type by. */
  readonly construct: (typeName: string, fields: Map<string, unknown>) => unknown
}

const prepared = new WeakMap<Variables, Prepared>()

/**
 * JSON has one kind of number; its schemas say `integer` or `number`, so a field such as a card's
 * `pos` is a double while the literals people compare it with are ints. CEL already orders ints
 * against doubles (`pos > 1000`); these make `==`, `!=` (both given by `==`, both ways) and
 * `+ - * /` mix them too, by value, the result of arithmetic a double. Nothing else mixes: a
 * string is still never equal to a number (`"a" == 5` stays a check error).
 */
const mixedNumbers = (environment: Environment): Environment =>
  environment
    .registerOperator("double == int", (a: number, b: bigint) => Number.isInteger(a) && BigInt(a) === b)
    .registerOperator("double + int: double", (a: number, b: bigint) => a + Number(b))
    .registerOperator("int + double: double", (a: bigint, b: number) => Number(a) + b)
    .registerOperator("double - int: double", (a: number, b: bigint) => a - Number(b))
    .registerOperator("int - double: double", (a: bigint, b: number) => Number(a) - b)
    .registerOperator("double * int: double", (a: number, b: bigint) => a * Number(b))
    .registerOperator("int * double: double", (a: bigint, b: number) => Number(a) * b)
    .registerOperator("double / int: double", (a: number, b: bigint) => a / Number(b))
    .registerOperator("int / double: double", (a: bigint, b: number) => Number(a) / b)

const newEnvironment = (): Environment =>
  mixedNumbers(
    new Environment({
      // `{"title": name, "labels": [...]}` is an ordinary parameter value: literals may mix types (as dyn).
      homogeneousAggregateLiterals: false,
      limits: { maxAstNodes: maxNodes, maxDepth: maxNesting, maxListElements: 256, maxMapEntries: 256, maxCallArguments: 16 }
    })
  ).registerFunction("skipped(ast): bool", skippedMacro)

/**
 * Registers object types and variables on `environment`. One class per object type: the
 * library tells an object's type by its constructor (a list's items and an index's result are
 * not converted from plain objects, so values are built typed).
 */
const register = (
  environment: Environment,
  objects: Iterable<readonly [string, ReadonlyMap<string, CelType>]>,
  declared: Iterable<readonly [string, Type]>,
  classes: Map<string, new (fields: Map<string, unknown>) => Map<string, unknown>>,
  unreadable: Set<string>
): Prepared => {
  for (const [name, fields] of objects) {
    const ctor = class extends Map<string, unknown> {}
    try {
      environment.registerType({ name, ctor, fields: Object.fromEntries([...fields].map(([field, type]) => [field, nameOf(type)])) })
      classes.set(name, ctor)
    } catch {
      // `celTypes` picks names the library takes; were one refused, its variables would be unreadable, not a crash.
    }
  }
  for (const [name, type] of declared) {
    try {
      environment.registerVariable(name, type)
    } catch {
      // A name CEL has for itself (a type such as `list`, a reserved word such as `if`) is no variable.
      unreadable.add(name)
    }
  }
  const construct = (typeName: string, fields: Map<string, unknown>) => {
    const ctor = classes.get(typeName)
    return ctor === undefined ? fields : new ctor(fields)
  }
  return { environment, unreadable, classes, construct }
}

const prepare = (variables: Variables): Prepared => {
  const cached = prepared.get(variables)
  if (cached !== undefined) return cached
  const { added, parent } = variables
  let result: Prepared
  if (parent !== undefined && added !== undefined && !parent.declared.has(added)) {
    // A variable added: the parent's environment cloned (the library's cheap copy), only what is new registered.
    const base = prepare(parent)
    result = register(
      base.environment.clone(),
      [...variables.objects].filter(([name]) => !parent.objects.has(name)),
      [[added, variables.declared.get(added)!]],
      new Map(base.classes),
      new Set(base.unreadable)
    )
  } else {
    result = register(newEnvironment(), variables.objects, variables.declared, new Map(), new Set())
  }
  prepared.set(variables, result)
  return result
}

/** `line 2, column 5` (or just the column on a one-line source) of an offset. */
const position = (source: string, offset: number): string => {
  const before = source.slice(0, offset)
  const line = before.split("\n").length
  const column = offset - before.lastIndexOf("\n")
  return line === 1 ? `column ${column}` : `line ${line}, column ${column}`
}

interface CelError {
  readonly message: string
  readonly code?: string
  readonly range?: { readonly start: number }
  readonly node?: { readonly start?: number; readonly op?: string; readonly args?: unknown }
}

/** `a, b, c` of at most 20 names, then `…`. */
const listed = (names: Iterable<string>): string => {
  const all = [...names]
  return all.length > 20 ? `${all.slice(0, 20).join(", ")}, …` : all.join(", ")
}

/** `trigger.card has no field "idd" (its fields: id, due)` for the library's `No such key: idd` on an object type. */
const missingField = (error: CelError, objects: ObjectTypes): string | undefined => {
  const node = error.node as ASTNode | undefined
  if (error.code !== "no_such_key" || node === undefined || (node.op !== "." && node.op !== ".?")) return undefined
  const [operand, field] = node.args
  const typeName = (operand as { checkedType?: { name?: unknown } }).checkedType?.name
  const fields = typeof typeName === "string" ? objects.get(typeName) : undefined
  if (fields === undefined) return undefined
  return `${serialize(operand)} has no field "${field}" (its fields: ${listed(fields.keys())})`
}

/**
 * `unknown name "nope" (known here: inputs, trigger)` for the library's `Unknown variable: nope`,
 * or what `explain` says of that name.
 */
const unknownName = (error: CelError, known: ReadonlyMap<string, Type>, explain: Unknown): string | undefined => {
  const node = error.node
  if (error.code !== "unknown_variable" || node?.op !== "id" || typeof node.args !== "string") return undefined
  return explain(node.args) ?? `unknown name "${node.args}" (known here: ${known.size === 0 ? "none" : listed(known.keys())})`
}

/**
 * Why a name the variables do not have cannot be read here (e.g. a task inside a loop, read
 * from outside it), or `undefined` to say it is unknown.
 *
 * @since 0.7.0
 * @category models
 */
export type Unknown = (name: string) => string | undefined

const noExplanation: Unknown = () => undefined

/**
 * Says how to write what CEL refuses in a way people often try: `score % 2` or `[score] == [1]`
 * (int and double mix only in comparisons and arithmetic), `fetch != null` (an object is never null; skipped is asked).
 */
const hint = (message: string): string => {
  if (!/no (such|matching) overload/.test(message)) return message
  if (/\bint\b/.test(message) && /\bdouble\b/.test(message)) {
    return `${message} (int and double mix only in comparisons and + - * /: write 1.0 for a double, or convert with int(…) or double(…))`
  }
  if (/[!=]= null$/.test(message) || /^no such overload: null [!=]=/.test(message)) {
    return `${message} (an object is never null: whether a task was skipped is skipped(name), whether a field is there has(x.field))`
  }
  return message
}

/** The library's message, one line, with where it is. */
const describe = (source: string, error: CelError, variables?: Variables, explain: Unknown = noExplanation): string => {
  const first =
    (variables === undefined ? undefined : missingField(error, variables.objects) ?? unknownName(error, variables.declared, explain)) ??
      hint((error.message.split("\n")[0] ?? "").trim())
  const start = error.range?.start ?? error.node?.start
  return typeof start === "number" && start >= 0 ? `${first} (at ${position(source, start)})` : first
}

/** Every node below `node` (the library's AST: `args` holds nodes, lists of nodes, or `[key, value]` pairs). */
const children = (node: ASTNode): ReadonlyArray<ASTNode> => {
  const out: Array<ASTNode> = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item)
    else if (typeof value === "object" && value !== null && "op" in value) out.push(value as ASTNode)
  }
  visit(node.args)
  return out
}

/** Refuses what the library would run but an unattended workflow should not: `matches()`, deep comprehensions. */
const refusal = (source: string, root: ASTNode, unreadable: ReadonlySet<string>): string | undefined => {
  const walk = (node: ASTNode, nesting: number): string | undefined => {
    if (node.op === "id" && unreadable.has(node.args)) {
      return `${node.args} cannot be read in an expression: CEL has that name for itself (give the task another name) (at ${position(source, node.start)})`
    }
    if ((node.op === "call" || node.op === "rcall") && node.args[0] === "matches") {
      return `matches() is not available: regular expressions can run for hours on some texts; use contains(), startsWith() or endsWith() (at ${position(source, node.start)})`
    }
    if (node.op === "rcall" && comprehensions.has(node.args[0]) && node.args[2].length >= 2) {
      if (nesting + 1 > maxComprehensionNesting) {
        return `comprehensions (all, exists, exists_one, map, filter) nest at most ${maxComprehensionNesting} deep (at ${position(source, node.start)})`
      }
      // The receiver is iterated before, not inside: only the arguments are nested.
      return walk(node.args[1], nesting) ?? firstOf(node.args[2], (arg) => walk(arg, nesting + 1))
    }
    return firstOf(children(node), (child) => walk(child, nesting))
  }
  return walk(root, 0)
}

const firstOf = <A>(items: ReadonlyArray<A>, f: (item: A) => string | undefined): string | undefined => {
  for (const item of items) {
    const found = f(item)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Checks an expression against the variables it may read: its syntax, its variables and
 * field names, its bounds. The problem, one line, for a check issue; `explain` says why a name
 * the variables do not have cannot be read here, where that is known.
 *
 * @since 0.7.0
 * @category constructors
 */
export const compile = (source: string, variables: Variables, explain: Unknown = noExplanation): Either.Either<Expression, string> => {
  if (typeof source !== "string" || source.trim() === "") return Either.left("the expression is empty")
  if (source.length > maxSourceLength) {
    return Either.left(`the expression is ${source.length} characters long; at most ${maxSourceLength} are allowed`)
  }
  const { construct, environment, unreadable } = prepare(variables)
  let parsed: ParseResult
  try {
    parsed = environment.parse(source)
  } catch (error) {
    return Either.left(describe(source, error as CelError))
  }
  const refused = refusal(source, parsed.ast, unreadable)
  if (refused !== undefined) return Either.left(refused)
  const checked = parsed.check()
  if (!checked.valid) return Either.left(describe(source, checked.error as CelError, variables, explain))
  const type = checked.type ?? "dyn"
  const read = namesIn(parsed.ast, variables)
  return Either.right({ source, type, evaluate: (values) => evaluate(source, parsed, read, variables, construct, values) })
}

/** The variables an expression names: only those are converted when it is evaluated. */
const namesIn = (root: ASTNode, variables: Variables): ReadonlySet<string> => {
  const names = new Set<string>()
  const walk = (node: ASTNode): void => {
    if (node.op === "id" && variables.models.has(node.args)) names.add(node.args)
    for (const child of children(node)) walk(child)
  }
  walk(root)
  return names
}

const evaluate = (
  source: string,
  parsed: ParseResult,
  read: ReadonlySet<string>,
  variables: Variables,
  construct: Prepared["construct"],
  values: ReadonlyMap<string, unknown>
): Either.Either<unknown, ExpressionFailed> => {
  const failed = (message: string) => Either.left(new ExpressionFailed({ source, message }))
  const meter = new Meter(maxItemsRead)
  const overBudget = () =>
    failed(
      `the expression read more than ${maxItemsRead} items of lists and maps, the most one evaluation may read (a comprehension inside another reads its list once per item of the outer one: filter the lists first)`
    )
  const context = new Map<string, unknown>()
  for (const name of read) {
    const value = values.get(name)
    if (value !== undefined) context.set(name, fromJson(value, variables.models.get(name)!, variables.objects, construct, meter))
  }
  let result: unknown
  try {
    result = parsed(context)
  } catch (error) {
    meter.stop()
    if (meter.exceeded) return overBudget()
    if (error instanceof EvaluationError && error.code === "unknown_variable") {
      const node = (error as CelError).node
      const name = node?.op === "id" && typeof node.args === "string" ? node.args : undefined
      if (name !== undefined && variables.declared.has(name)) {
        return failed(
          `${name} has no value: its task was skipped (read it behind a guard, e.g. skipped(${name}) ? … : ${name}…) (at ${position(source, (error as CelError).range?.start ?? 0)})`
        )
      }
    }
    if (error instanceof Error) return failed(describe(source, error as CelError))
    return failed(String(error))
  }
  meter.stop()
  // Also when CEL absorbed the error (`… || true`, `exists`): the budget bounds the work, whatever the result.
  if (meter.exceeded) return overBudget()
  if (result instanceof Promise) return failed("the expression did not finish synchronously")
  return Either.mapLeft(toJson(result), (problem) => new ExpressionFailed({ source, message: `the result is no JSON value: ${problem}` }))
}

/**
 * The element type of a list type: `list<X>` → `X`, `list` or `dyn` → `dyn`; otherwise
 * `undefined` (not a list).
 *
 * @since 0.7.0
 * @category utils
 */
export const elementType = (type: Type): Type | undefined => {
  if (type === "dyn" || type === "list") return "dyn"
  const match = /^list<(.*)>$/.exec(type)
  return match === null ? undefined : match[1]!
}

/**
 * Whether a value of the type can serve as a condition (`dyn` can: checked when evaluated).
 *
 * @since 0.7.0
 * @category utils
 */
export const isBoolean = (type: Type): boolean => type === "bool" || type === "dyn"

/**
 * Whether a value of the type can be iterated (`dyn` can: checked when evaluated).
 *
 * @since 0.7.0
 * @category utils
 */
export const isList = (type: Type): boolean => elementType(type) !== undefined

/**
 * Whether a value of the type is a point in time (`dyn` can be: checked when evaluated).
 *
 * @since 0.7.0
 * @category utils
 */
export const isTimestamp = (type: Type): boolean => type === "google.protobuf.Timestamp" || type === "dyn"

const readable = new Map<string, boolean>()

/**
 * Whether an expression can read a variable of this name: not a name CEL has for itself (a
 * type such as `list`, `int` or `string`, a literal such as `null`, a reserved word such as
 * `if`). The workflow check refuses a loop's `as` of such a name where it is declared (the item
 * is there to be read); a task of such a name is refused only where an expression reads it, as
 * `${list.cards}` references read it.
 *
 * @since 0.7.0
 * @category utils
 */
export const isReadableName = (name: string): boolean => {
  let known = readable.get(name)
  if (known === undefined) {
    const probe = new Environment()
    try {
      probe.registerVariable(name, "string")
      const checked = probe.check(name)
      known = checked.valid && checked.type === "string"
    } catch {
      known = false
    }
    readable.set(name, known)
  }
  return known
}

const whole = /^\$\{=([\s\S]*)\}$/

/**
 * The expression of a value that is exactly `${= <cel>}`, or `undefined`.
 *
 * @since 0.7.0
 * @category utils
 */
export const valueExpression = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  const match = whole.exec(value)
  return match === null ? undefined : match[1]!.trim()
}
