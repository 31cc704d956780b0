/**
 * The secret parameters of a step: where they are among its properties (a secret text, a
 * secret OBJECT, or either inside an OBJECT's declared fields or an ARRAY's items), their values
 * redacted for what is stored or shown, and the values themselves for what is scrubbed from
 * the step's error and output. Found once per record of properties.
 */
import * as Redacted from "effect/Redacted"
import { isPlainObject } from "./decoder.js"
import { describeAll, type PropertyDescription } from "./describe.js"
import type { Properties } from "./property.js"

/** What a secret value is shown as. */
export const placeholder = "[secret]"

/** Where the secrets are in a value: all of it, some of its fields, or in each of its items. */
type Plan =
  | { readonly _tag: "Secret"; readonly publicKeys?: ReadonlySet<string> | undefined }
  | { readonly _tag: "Fields"; readonly fields: Readonly<Record<string, Plan>> }
  | { readonly _tag: "Items"; readonly items: Plan }

const planOfFields = (descriptions: Readonly<Record<string, PropertyDescription>>): Readonly<Record<string, Plan>> | undefined => {
  let fields: Record<string, Plan> | undefined
  for (const [key, description] of Object.entries(descriptions)) {
    const plan = planOf(description)
    if (plan !== undefined) (fields ??= {})[key] = plan
  }
  return fields
}

const planOf = (description: PropertyDescription): Plan | undefined => {
  if (description.secret === true) {
    const publicKeys = description["publicKeys"] as ReadonlyArray<string> | undefined
    return { _tag: "Secret", publicKeys: publicKeys === undefined ? undefined : new Set(publicKeys) }
  }
  const nested = description["properties"] as Readonly<Record<string, PropertyDescription>> | undefined
  if (description.kind === "OBJECT" && nested !== undefined) {
    const fields = planOfFields(nested)
    return fields === undefined ? undefined : { _tag: "Fields", fields }
  }
  const items = description["items"] as PropertyDescription | undefined
  if (description.kind === "ARRAY" && items !== undefined) {
    const plan = planOf(items)
    return plan === undefined ? undefined : { _tag: "Items", items: plan }
  }
  return undefined
}

const plans = new WeakMap<Properties, Readonly<Record<string, Plan>> | null>()

/** Where the secrets of a record of properties are; undefined when it has none (the usual case). */
const planOfProperties = (properties: Properties): Readonly<Record<string, Plan>> | undefined => {
  let plan = plans.get(properties)
  if (plan === undefined) plans.set(properties, plan = planOfFields(describeAll(properties)) ?? null)
  return plan ?? undefined
}

/** Whether a record of properties has a secret anywhere in it. */
export const hasSecrets = (properties: Properties): boolean => planOfProperties(properties) !== undefined

/** A secret value as shown: an object keeps its keys (so one sees which were given), anything else is the placeholder. */
const hidden = (value: unknown, publicKeys: ReadonlySet<string> | undefined): unknown =>
  isPlainObject(value)
    ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isPublic(publicKeys, key) ? item : placeholder]))
    : placeholder

/** A key of a secret object declared not secret (`Accept`, `Content-Type` among a request's headers). */
const isPublic = (publicKeys: ReadonlySet<string> | undefined, key: string): boolean =>
  publicKeys !== undefined && publicKeys.has(key.toLowerCase())

const redactWith = (plan: Plan, value: unknown): unknown => {
  if (value === undefined || value === null) return value
  switch (plan._tag) {
    case "Secret":
      return hidden(value, plan.publicKeys)
    case "Fields":
      return isPlainObject(value) ? redactFields(plan.fields, value) : value
    case "Items":
      return Array.isArray(value) ? value.map((item) => redactWith(plan.items, item)) : value
  }
}

// `fromEntries` defines own properties: a key "__proto__" stays the user's key.
const redactFields = (fields: Readonly<Record<string, Plan>>, value: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(value).map(([key, item]) => [key, Object.hasOwn(fields, key) ? redactWith(fields[key]!, item) : item]))

/** The parameters with every secret value replaced (the record itself when its properties have no secret). */
export const redact = (properties: Properties, params: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> => {
  const plan = planOfProperties(properties)
  return plan === undefined || !isPlainObject(params) ? params : redactFields(plan, params)
}

/** Every text in a secret value (its strings, at any depth, and a `Redacted`'s text). */
const textsIn = (value: unknown, out: Array<Redacted.Redacted<string>>): void => {
  if (typeof value === "string") out.push(Redacted.make(value))
  else if (Redacted.isRedacted(value)) {
    const text = Redacted.value(value)
    if (typeof text === "string") out.push(value as Redacted.Redacted<string>)
  } else if (Array.isArray(value)) for (const item of value) textsIn(item, out)
  else if (isPlainObject(value)) for (const key in value) textsIn(value[key], out)
}

const collect = (plan: Plan, value: unknown, out: Array<Redacted.Redacted<string>>): void => {
  if (value === undefined || value === null) return
  if (plan._tag === "Secret") {
    if (plan.publicKeys !== undefined && isPlainObject(value)) {
      for (const key in value) if (!isPublic(plan.publicKeys, key)) textsIn(value[key], out)
    } else textsIn(value, out)
  }
  else if (plan._tag === "Fields") {
    if (isPlainObject(value)) for (const key in plan.fields) collect(plan.fields[key]!, value[key], out)
  } else if (Array.isArray(value)) for (const item of value) collect(plan.items, item, out)
}

/** The values of the secret parameters given, to scrub from what the step returns or fails with. */
export const secretValues = (properties: Properties, params: Readonly<Record<string, unknown>>): ReadonlyArray<Redacted.Redacted<string>> => {
  const plan = planOfProperties(properties)
  if (plan === undefined) return []
  const out: Array<Redacted.Redacted<string>> = []
  for (const key in plan) collect(plan[key]!, params[key], out)
  return out
}
