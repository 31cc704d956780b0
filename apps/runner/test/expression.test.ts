/**
 * CEL expressions of workflow files in process: what the check refuses (with the message a
 * check issue shows), what evaluation gives back as JSON, how a skipped task reads, the bounds
 * and the sandbox.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Expression from "../src/workflow/Expression.js"

const card = {
  type: "object",
  properties: {
    id: { type: "string" },
    due: { type: ["string", "null"], format: "date-time" },
    votes: { type: "integer" },
    score: { type: "number" },
    closed: { type: "boolean" },
    labels: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
    extra: { type: "object", additionalProperties: { type: "integer" } }
  }
}
const variables = [
  ["trigger", { type: "object", properties: { card } }],
  ["overdue", { type: "object", properties: { cards: { type: "array", items: card } } }],
  ["inputs", undefined]
] as const
const scope = variables.reduce((vars, [name, schema]) => Expression.withSchema(vars, name, schema), Expression.variables)

const compile = (source: string, vars = scope) => Expression.compile(source, vars)
const problem = (source: string, vars = scope) =>
  Either.match(compile(source, vars), { onLeft: (message) => message, onRight: (e) => `(valid: ${e.type})` })
const typeOf = (source: string, vars = scope) => Either.getOrThrow(compile(source, vars)).type

const aCard = { id: "c1", due: "2026-03-01T10:00:00.000Z", votes: 3, score: 1.5, closed: false, labels: [{ name: "urgent" }, { name: "bug" }], extra: { a: 1 } }
const values = new Map<string, unknown>([
  ["trigger", { card: aCard }],
  ["overdue", { cards: [aCard, { ...aCard, id: "c2", due: null, votes: 0, labels: [] }] }],
  ["inputs", { count: 2, ratio: 0.5, name: "n", nested: { list: [1, 2.5, "x", null, true] } }]
])
const run = (source: string, given: ReadonlyMap<string, unknown> = values, vars = scope) =>
  Either.getOrThrow(compile(source, vars)).evaluate(given)
const value = (source: string, given?: ReadonlyMap<string, unknown>, vars = scope) => Either.getOrThrow(run(source, given, vars))
const failure = (source: string, given?: ReadonlyMap<string, unknown>, vars = scope) =>
  Either.match(run(source, given, vars), { onLeft: (failed) => failed.message, onRight: (v) => `(succeeded: ${JSON.stringify(v)})` })

describe("Expression.compile", () => {
  it("types from the variables' JSON Schemas", () => {
    expect(Object.fromEntries(scope.declared)).toEqual({ trigger: "Trigger", overdue: "Overdue", inputs: "dyn" })
    expect(typeOf("trigger.card.id")).toBe("string")
    expect(typeOf("trigger.card.votes")).toBe("int")
    expect(typeOf("trigger.card.score")).toBe("double")
    expect(typeOf("trigger.card.closed")).toBe("bool")
    // Nullable (and union) values are dyn: compared with null, or converted, at run time.
    expect(typeOf("trigger.card.due")).toBe("dyn")
    expect(typeOf("trigger.card.labels")).toBe("list<Trigger.Card.Labels.Item>")
    expect(typeOf("trigger.card.extra")).toBe("map<string, int>")
    expect(typeOf("overdue.cards.filter(c, c.due != null)")).toBe("list<Overdue.Cards.Item>")
    expect(typeOf("overdue.cards.map(c, c.labels.map(l, l.name))")).toBe("list<list<string>>")
    expect(typeOf("inputs.anything.goes")).toBe("dyn")
    expect(typeOf('timestamp(trigger.card.due) + duration("48h")')).toBe("google.protobuf.Timestamp")
    expect(problem("trigger.card.votes % 1.5")).toBe(
      "no such overload: int % double (int and double mix only in comparisons and + - * /: write 1.0 for a double, or convert with int(…) or double(…)) (at column 1)"
    )
    expect(typeOf("double(trigger.card.votes) + 1.5")).toBe("double")
  })

  it("unknown names and fields, through nested objects and arrays, with the fields there are", () => {
    expect(problem("nope.x")).toBe('unknown name "nope" (known here: trigger, overdue, inputs) (at column 1)')
    expect(problem("trigger.crad.id")).toBe('trigger has no field "crad" (its fields: card) (at column 9)')
    expect(problem("trigger.card.idd == 'x'")).toBe(
      'trigger.card has no field "idd" (its fields: id, due, votes, score, closed, labels, extra) (at column 14)'
    )
    expect(problem("trigger.card.labels[0].nam")).toBe('trigger.card.labels[0] has no field "nam" (its fields: name) (at column 24)')
    expect(problem("overdue.cards.exists(c, c.labels.exists(l, l.nmae == 'bug'))")).toBe(
      'l has no field "nmae" (its fields: name) (at column 46)'
    )
    expect(problem("trigger.card.id ==")).toBe("Unexpected token: EOF (at column 19)")
    expect(problem("  ")).toBe("the expression is empty")
    // On a later line, the line too.
    expect(problem("trigger.card.id == 'x' &&\n  trigger.card.nope")).toMatch(/\(at line 2, column 16\)$/)
  })

  it("a condition must be a bool (dyn is checked when evaluated)", () => {
    expect(Expression.isBoolean(typeOf("trigger.card.votes > 2 && !trigger.card.closed"))).toBe(true)
    expect(Expression.isBoolean(typeOf("inputs.flag"))).toBe(true)
    expect(Expression.isBoolean(typeOf("trigger.card.id"))).toBe(false)
    expect(Expression.isBoolean(typeOf("overdue.cards"))).toBe(false)
  })

  it("a list's element type is a type for a loop's item, its fields still checked", () => {
    const element = Expression.elementType(typeOf("overdue.cards.filter(c, c.due != null)"))
    expect(element).toBe("Overdue.Cards.Item")
    const inLoop = Expression.withType(scope, "item", element!)
    expect(typeOf("item.labels.map(l, l.name)", inLoop)).toBe("list<string>")
    expect(problem("item.idd", inLoop)).toBe('item has no field "idd" (its fields: id, due, votes, score, closed, labels, extra) (at column 6)')
    expect(value("item.id", new Map([["item", aCard]]), inLoop)).toBe("c1")
    // Variables are immutable: the scope without the item does not know it.
    expect(problem("item.id")).toMatch(/^unknown name "item"/)
    expect(Expression.elementType("list<list<int>>")).toBe("list<int>")
    expect(Expression.elementType("list")).toBe("dyn")
    expect(Expression.elementType("dyn")).toBe("dyn")
    expect(Expression.elementType("string")).toBeUndefined()
    expect([Expression.isList("list<int>"), Expression.isList("dyn"), Expression.isList("map<string, dyn>")]).toEqual([true, true, false])
    expect([Expression.isTimestamp(typeOf("timestamp(trigger.card.due)")), Expression.isTimestamp("dyn"), Expression.isTimestamp("string")]).toEqual([
      true,
      true,
      false
    ])
  })

  it("schemas: $ref to $defs, an object without properties is a map, a recursive schema ends in dyn", () => {
    const tree = { $defs: { Node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } } } }, $ref: "#/$defs/Node" }
    const vars = Expression.withSchema(Expression.withSchema(Expression.variables, "tree", tree), "bag", { type: "object" })
    expect(typeOf("tree.children[0].children[0].name", vars)).toBe("string")
    expect(problem("tree.children[0].nam", vars)).toMatch(/has no field "nam"/)
    expect(typeOf("bag.anything", vars)).toBe("dyn")
    expect(typeOf("bag", vars)).toBe("map<string, dyn>")
  })

  it("variables branch and replace: each keeps its own types", () => {
    const ofId = Expression.withSchema(scope, "fetch", { type: "object", properties: { id: { type: "string" } } })
    const ofName = Expression.withSchema(scope, "fetch", { type: "object", properties: { name: { type: "string" } } })
    expect([ofId.declared.get("fetch"), ofName.declared.get("fetch")]).toEqual(["Fetch", "Fetch"])
    expect(typeOf("fetch.id", ofId)).toBe("string")
    expect(problem("fetch.name", ofId)).toBe('fetch has no field "name" (its fields: id) (at column 7)')
    expect(value("fetch.name", new Map([["fetch", { name: "n" }]]), ofName)).toBe("n")
    expect(problem("fetch.id", ofName)).toBe('fetch has no field "id" (its fields: name) (at column 7)')
    const replaced = Expression.withSchema(ofId, "fetch", { type: "object", properties: { name: { type: "string" } } })
    expect(replaced.declared.get("fetch")).toBe("Fetch2")
    expect(value("fetch.name", new Map([["fetch", { name: "m" }]]), replaced)).toBe("m")
    expect(problem("fetch.id", replaced)).toBe('fetch has no field "id" (its fields: name) (at column 7)')
    expect(value("trigger.card.id", values, replaced)).toBe("c1")
  })

  it("object types for any variable name: one letter, or a built-in type's", () => {
    const schema = { type: "object", properties: { id: { type: "string" } } }
    const vars = Expression.withSchema(Expression.withSchema(Expression.variables, "t", schema), "celNamespace", schema)
    expect(value("t.id + celNamespace.id", new Map([["t", { id: "a" }], ["celNamespace", { id: "b" }]]), vars)).toBe("ab")
    expect(problem("t.nope", vars)).toMatch(/^t has no field "nope"/)
  })

  it("a variable whose name CEL has for itself is refused where it is read", () => {
    const vars = Expression.withSchema(Expression.variables, "list", { type: "array", items: { type: "integer" } })
    expect(problem("list.size() > 0", vars)).toBe(
      "list cannot be read in an expression: CEL has that name for itself (give the task another name) (at column 1)"
    )
    expect(["list", "int", "string", "map", "type", "null", "true", "in", "if", "import"].filter(Expression.isReadableName)).toEqual([])
    expect(["fetch", "t", "items", "size", "timestamp", "skipped", "card_2"].every(Expression.isReadableName)).toBe(true)
  })
})

describe("Expression evaluate", () => {
  it("JSON values in and out: ints, doubles, nulls, nested objects, lists", () => {
    expect(value("trigger.card.votes + 1")).toBe(4)
    expect(value("trigger.card.score * 2.0")).toBe(3)
    expect(value("trigger.card.due")).toBe("2026-03-01T10:00:00.000Z")
    expect(value("overdue.cards[1].due")).toBeNull()
    expect(value("overdue.cards[1].due == null")).toBe(true)
    expect(value("trigger.card")).toEqual(aCard)
    expect(value("trigger.card.extra.a + 1")).toBe(2)
    expect(value("inputs")).toEqual(values.get("inputs"))
    // dyn: a whole number is an int, a fraction a double.
    expect(value("inputs.count > 1 && inputs.ratio < 1.0")).toBe(true)
    expect(value("inputs.nested.list")).toEqual([1, 2.5, "x", null, true])
    expect(value('{"title": trigger.card.id, "n": inputs.count, "labels": trigger.card.labels.map(l, l.name)}')).toEqual({
      title: "c1",
      n: 2,
      labels: ["urgent", "bug"]
    })
  })

  it("lists: filter, map, exists", () => {
    expect(value("overdue.cards.filter(c, c.due != null).map(c, c.id)")).toEqual(["c1"])
    expect(value("overdue.cards.exists(c, c.labels.exists(l, l.name == 'bug'))")).toBe(true)
    expect(value("overdue.cards.all(c, c.votes > 0)")).toBe(false)
    expect(value("overdue.cards.filter(c, c.votes > 0)")).toEqual([aCard])
    expect(value("size(overdue.cards)")).toBe(2)
  })

  it("has() tells a field that is absent; a timestamp-typed variable reads ISO text as a time", () => {
    const withoutDue = new Map([["trigger", { card: { id: "c1" } }]])
    expect(value("has(trigger.card.due) ? 'due' : 'none'", withoutDue)).toBe("none")
    expect(value("has(trigger.card.due) ? 'due' : 'none'")).toBe("due")
    const at = Expression.withType(Expression.variables, "at", "google.protobuf.Timestamp")
    expect(value('at + duration("1h")', new Map([["at", "2026-03-01T10:00:00Z"]]), at)).toBe("2026-03-01T11:00:00.000Z")
  })

  it("timestamps and durations out as text", () => {
    expect(value('timestamp(trigger.card.due) + duration("48h")')).toBe("2026-03-03T10:00:00.000Z")
    expect(value('timestamp(trigger.card.due) > timestamp("2026-01-01T00:00:00Z")')).toBe(true)
    expect(value('duration("90s")')).toBe("90000 millis")
  })

  it("a result JSON cannot hold exactly, a value not of its schema's type, a missing key: ExpressionFailed, never a throw", () => {
    const failed = run("9223372036854775807")
    expect(Either.isLeft(failed) && failed.left._tag).toBe("ExpressionFailed")
    expect(Either.isLeft(failed) && failed.left.source).toBe("9223372036854775807")
    expect(failure("9223372036854775807")).toBe("the result is no JSON value: the integer 9223372036854775807 is too large for a JSON number")
    expect(failure("1.0 / 0.0")).toBe("the result is no JSON value: Infinity is not a JSON number")
    expect(failure("trigger.card.votes + 1", new Map([["trigger", { card: { votes: 1.5 } }]]))).toBe(
      "Field 'votes' is not of type 'int', got 'double' (at column 14)"
    )
    expect(failure("inputs.missing")).toBe("No such key: missing (at column 8)")
    expect(failure("trigger.card.id", new Map([["trigger", { card: null }]]))).toMatch(/^Field 'card' is not of type 'Trigger.Card', got 'null'/)
    expect(failure("inputs.count / 0")).toMatch(/^division by zero/)
  })

  it("reads (and converts) only the variables the expression names", () => {
    const asked: Array<string> = []
    const recording = new (class extends Map<string, unknown> {
      override get(key: string) {
        asked.push(key)
        return super.get(key)
      }
    })(values)
    expect(value("skipped(trigger) ? 0 : inputs.count", recording)).toBe(2)
    expect(asked.sort()).toEqual(["inputs", "trigger"])
  })

  it("a key named __proto__ is a plain key, in and out", () => {
    const given = new Map([["inputs", JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}')]])
    const out = value("inputs", given) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(["__proto__", "a"])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("numbers: a JSON Schema `number` is a double, yet compares and computes with int literals", () => {
  // As Trello's card schema has them: `idShort` and `pos` are JSON numbers (doubles), `votes` an integer.
  const numbers = Expression.withSchema(
    Expression.withSchema(Expression.variables, "trigger", {
      type: "object",
      properties: { card: { type: "object", properties: { idShort: { type: "number" }, pos: { type: "number" }, votes: { type: "integer" }, name: { type: "string" } } } }
    }),
    "x",
    { type: "object", properties: { pos: { type: "number" } } }
  )
  const given = new Map<string, unknown>([
    ["trigger", { card: { idShort: 5, pos: 16384, votes: 2, name: "n" } }],
    ["x", { pos: 1000.5 }]
  ])
  const numeric = (source: string) => value(source, given, numbers)

  it("== and != against int literals, both ways, by value", () => {
    expect(typeOf("trigger.card.idShort", numbers)).toBe("double")
    expect(numeric("trigger.card.idShort == 5")).toBe(true)
    expect(numeric("5 == trigger.card.idShort")).toBe(true)
    expect(numeric("trigger.card.idShort != 5")).toBe(false)
    expect(numeric("trigger.card.idShort == trigger.card.votes")).toBe(false)
    expect(numeric("x.pos == 1000")).toBe(false)
    expect(numeric("x.pos != 1000")).toBe(true)
  })

  it("ordering (CEL's own) and arithmetic, whose result is a double", () => {
    expect(numeric("x.pos > 1000")).toBe(true)
    expect(numeric("trigger.card.pos >= 16384 && trigger.card.pos < 20000")).toBe(true)
    expect(typeOf("x.pos + 1", numbers)).toBe("double")
    expect(numeric("x.pos + 1")).toBe(1001.5)
    expect(numeric("2 * x.pos - 1")).toBe(2000)
    expect(numeric("trigger.card.pos / 2")).toBe(8192)
    expect(numeric("trigger.card.votes + 0.5")).toBe(2.5)
    // int with int stays int: integer division.
    expect(typeOf("trigger.card.votes / 4", numbers)).toBe("int")
    expect(numeric("trigger.card.votes / 4")).toBe(0)
  })

  it("still type-safe: a string is never a number, and other operators do not mix", () => {
    expect(problem('"a" == 5', numbers)).toBe("no such overload: string == int (at column 1)")
    expect(problem("trigger.card.name == 5", numbers)).toBe("no such overload: string == int (at column 1)")
    expect(problem('trigger.card.idShort == "5"', numbers)).toBe("no such overload: double == string (at column 1)")
    expect(problem("trigger.card.idShort + trigger.card.name", numbers)).toMatch(/^no such overload: double \+ string/)
    expect(problem("x.pos % 2", numbers)).toMatch(/^no such overload: double % int \(int and double mix only/)
  })
})

describe("skipped tasks", () => {
  const withoutOverdue = new Map([...values].filter(([name]) => name !== "overdue"))

  it("an unguarded read fails naming the task as skipped", () => {
    expect(failure("overdue.cards.size()", withoutOverdue)).toBe(
      "overdue has no value: its task was skipped (read it behind a guard, e.g. skipped(overdue) ? … : overdue…) (at column 1)"
    )
  })

  it("skipped(name) guards without reading", () => {
    expect(value("skipped(overdue) ? [] : overdue.cards.map(c, c.id)", withoutOverdue)).toEqual([])
    expect(value("skipped(overdue) ? [] : overdue.cards.map(c, c.id)")).toEqual(["c1", "c2"])
    expect(value("!skipped(overdue) && overdue.cards.size() > 0", withoutOverdue)).toBe(false)
    expect(value("skipped(overdue) || overdue.cards.size() > 0", withoutOverdue)).toBe(true)
    expect(typeOf("skipped(overdue)")).toBe("bool")
    expect(problem("skipped(overdue.cards)")).toBe("skipped() takes a task's name, e.g. skipped(fetch) (at column 17)")
    expect(problem("skipped(nope)")).toMatch(/^unknown name "nope"/)
    // The guard people try first is refused with the one to use.
    expect(problem("overdue != null ? overdue.cards : []")).toBe(
      "no such overload: Overdue != null (an object is never null: whether a task was skipped is skipped(name), whether a field is there has(x.field)) (at column 1)"
    )
  })
})

describe("bounds", () => {
  it("too long, too deep, too many nodes", () => {
    expect(problem(`"${"a".repeat(2000)}"`)).toBe(`the expression is 2002 characters long; at most ${Expression.maxSourceLength} are allowed`)
    expect(problem(`${"(".repeat(40)}1${")".repeat(40)}`)).toMatch(/^Exceeded maxDepth \(32\)/)
    expect(problem(Array.from({ length: 600 }, () => "1").join("+"))).toMatch(/^Exceeded maxAstNodes \(1000\)/)
  })

  it("comprehensions nest at most two deep; chained ones are not nested", () => {
    expect(problem("overdue.cards.map(c, c.labels.map(l, [1].map(x, x)))")).toBe(
      "comprehensions (all, exists, exists_one, map, filter) nest at most 2 deep (at column 38)"
    )
    expect(problem("overdue.cards.exists(c, c.labels.exists(l, l.name == '').filter(x, x)))")).toMatch(/^(?!comprehensions)/)
    expect(typeOf("overdue.cards.map(c, c.labels.map(l, l.name))")).toBe("list<list<string>>")
    expect(typeOf("[1].map(x, x).map(x, x).filter(x, x > 0).map(x, x)")).toBe("list<int>")
  })

  it("matches() is refused: regular expressions can run for hours", () => {
    const message =
      "matches() is not available: regular expressions can run for hours on some texts; use contains(), startsWith() or endsWith()"
    expect(problem('"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!".matches("^(a+)+$")')).toBe(`${message} (at column 1)`)
    expect(problem('trigger.card.id == "x" || matches(trigger.card.id, "a")')).toBe(`${message} (at column 27)`)
  })
})

describe("evaluation budget", () => {
  const ints = { type: "array", items: { type: "integer" } }
  const lists = Expression.withSchema(Expression.withSchema(Expression.withSchema(Expression.variables, "a", ints), "b", ints), "inputs", undefined)
  const thousand = Array.from({ length: 1000 }, (_, i) => i)
  const given = new Map<string, unknown>([
    ["a", thousand],
    ["b", thousand],
    ["inputs", { keys: Object.fromEntries(thousand.map((i) => [`k${i}`, i])) }]
  ])
  const overBudget =
    `the expression read more than ${Expression.maxItemsRead} items of lists and maps, the most one evaluation may read (a comprehension inside another reads its list once per item of the outer one: filter the lists first)`

  it("a comprehension nested in another over two lists of 1,000 reads 1,001,000 items: stopped, ExpressionFailed", () => {
    expect(Expression.maxItemsRead).toBe(1_000_000)
    const failed = run("a.map(x, b.filter(y, y == x)).size()", given, lists)
    expect(Either.isLeft(failed) && [failed.left._tag, failed.left.message]).toEqual(["ExpressionFailed", overBudget])
    // Over a map's keys too (each comprehension over a map reads all its keys).
    expect(failure("inputs.keys.all(k, !inputs.keys.exists(j, j == 'none'))", given, lists)).toBe(overBudget)
  })

  it("stopped even where CEL would absorb the error (|| true), and whatever the result", () => {
    expect(failure("a.exists(x, b.exists(y, y < 0)) || true", given, lists)).toBe(overBudget)
  })

  it("ordinary work is far below it: one pass, a filter, a nested pass that stops early, the result not counted", () => {
    expect(value("a.filter(x, x % 2 == 0).size()", given, lists)).toBe(500)
    expect(value("a.exists(x, b.exists(y, y == x))", given, lists)).toBe(true)
    expect(value("inputs.keys.exists(k, k == 'k999')", given, lists)).toBe(true)
    // How a map is metered is invisible to CEL: a key named "keys" is the key's value.
    expect(value("inputs.keys.size()", given, lists)).toBe(1000)
    expect((value("a + b + a", given, lists) as Array<number>).length).toBe(3000)
    // Each evaluation has its own budget.
    for (let i = 0; i < 3; i++) expect(value("a.map(x, x).size()", given, lists)).toBe(1000)
  })
})

describe("sandbox", () => {
  it("no globals, modules, prototypes or constructors", () => {
    // Even given as values, names that are not declared are unknown.
    const given = new Map<string, unknown>([...values, ["process", { env: { HOME: "/root" } }]])
    expect(problem("process.env.HOME")).toMatch(/^unknown name "process"/)
    expect(problem("globalThis")).toMatch(/^unknown name "globalThis"/)
    expect(problem('require("fs")')).toBe("found no matching overload for 'require(string)' (at column 1)")
    expect(problem('import("fs")')).toBe("Reserved identifier: import (at column 1)")
    expect(problem("trigger.constructor")).toMatch(/^trigger has no field "constructor"/)
    expect(failure("inputs.constructor", given)).toBe("No such key: constructor (at column 8)")
    expect(failure("inputs.__proto__", given)).toBe("No such key: __proto__ (at column 8)")
    expect(failure('inputs["__proto__"]', given)).toBe("No such key: __proto__ (at column 1)")
    expect(failure("inputs.name.constructor", given)).toBe("No such key: constructor (at column 13)")
    expect(problem('inputs.constructor.constructor("return process")()')).toBe("Unexpected character: '(' (at column 49)")
    expect(problem("this.constructor.constructor('return process')()")).toBe("Unexpected character: '(' (at column 47)")
    expect(problem("this")).toMatch(/^unknown name "this"/)
    expect(problem("trigger.__proto__")).toMatch(/^trigger has no field "__proto__"/)
    expect(problem("trigger.card.id.constructor")).toBe("Cannot index type 'string' (at column 17)")
    expect(failure("dyn(trigger).constructor", given)).toBe("No such key: constructor (at column 14)")
    expect(failure("inputs.name.valueOf", given)).toBe("No such key: valueOf (at column 13)")
    expect(failure("{'a': 1}.hasOwnProperty", given)).toBe("No such key: hasOwnProperty (at column 10)")
    // A map parsed from text is read by key as well.
    expect(failure("bytes('{}').json().constructor", given)).toBe("No such key: constructor (at column 20)")
  })

  it("no function but CEL's own: nothing reads a file, the environment or the network", () => {
    for (const call of ["readFile('/etc/passwd')", "fetch('http://127.0.0.1:1/')", "env('HOME')", "getenv('HOME')", "eval('1')", "Function('return 1')", "exec('ls')"]) {
      expect(problem(call)).toBe(`found no matching overload for '${call.slice(0, call.indexOf("("))}(string)' (at column 1)`)
    }
    expect(problem("process.env.HOME")).toMatch(/^unknown name "process"/)
    expect(problem("globalThis.process")).toMatch(/^unknown name "globalThis"/)
  })
})

describe("valueExpression", () => {
  it("only a value that is exactly ${= <cel>}", () => {
    expect(Expression.valueExpression("${= trigger.card.id}")).toBe("trigger.card.id")
    expect(Expression.valueExpression('${= {"a": [1]}}')).toBe('{"a": [1]}')
    expect(Expression.valueExpression("${trigger.card.id}")).toBeUndefined()
    expect(Expression.valueExpression("id: ${= trigger.card.id}")).toBeUndefined()
    expect(Expression.valueExpression(3)).toBeUndefined()
  })
})
