/**
 * Property groups at run time: a group's fields loaded through the connection once per
 * connection and dependency values for the group's `cacheFor` (steps that ask at the same time
 * wait for the same load), and a step's group values decoded against them.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import { type ConnectorError, invalidInput, type Issue } from "../ConnectorError.js"
import { Connections } from "../Connections.js"
import { isGiven } from "../DynamicOptions.js"
import { type Fields, isGroup, type PropertyGroup } from "../PropertyGroup.js"
import type { ProviderClient } from "../ProviderClient.js"
import type * as Registry from "../Registry.js"
import { decoder, describeAll, type Properties, type PropertyDescription } from "./property.js"

/** A group's fields as loaded: their definitions, and the decoder of a value, compiled once per load. */
export interface Loaded {
  readonly properties: Properties
  readonly decode: (value: unknown) => Either.Either<Readonly<Record<string, unknown>>, ReadonlyArray<Issue>>
}

interface Entry {
  /** Infinity while the load is under way. */
  expiresAt: number
  readonly loaded: Deferred.Deferred<Loaded, ConnectorError>
}

/** By group, then by the connection's client (gone with it), then by the dependency values. */
const caches = new WeakMap<Fields, WeakMap<ProviderClient, Map<string, Entry>>>()

const entriesOf = (fields: Fields, client: ProviderClient): Map<string, Entry> => {
  let byClient = caches.get(fields)
  if (byClient === undefined) caches.set(fields, byClient = new WeakMap())
  let entries = byClient.get(client)
  if (entries === undefined) byClient.set(client, entries = new Map())
  return entries
}

/** The same error, its message saying what was being done. */
const during = (error: ConnectorError, doing: string): ConnectorError => {
  const Tagged = error.constructor as new(fields: object) => ConnectorError
  return new Tagged({ ...error, message: `${doing}: ${error.message}` })
}

const compile = (name: string, properties: Properties): Loaded => {
  const decode = decoder(properties, name)
  const known = Object.keys(properties).join(", ")
  // A null for an optional field is kept, not dropped as "not given": it clears the field at the provider.
  const keepNulls = (value: unknown, decoded: Readonly<Record<string, unknown>>) => {
    const cleared = Object.entries(value as Record<string, unknown>).filter(([key, v]) => v === null && Object.hasOwn(properties, key))
    return cleared.length === 0 ? decoded : { ...decoded, ...Object.fromEntries(cleared) }
  }
  return {
    properties,
    decode: (value) =>
      Either.mapBoth(decode(value), {
        onRight: (decoded) => keepNulls(value, decoded),
        onLeft: (error) =>
        error.issues.map((issue) => ({
          path: issue.path === "" ? name : `${name}.${issue.path}`,
          message: issue.message === "is not a known parameter" ? `is not a field of ${name} (its fields: ${known})` : issue.message
        }))
      })
  }
}

/** The group's fields for these parameters on this connection, loaded or reused while fresh. */
export const load = (
  name: string,
  fields: Fields,
  params: Readonly<Record<string, unknown>>,
  client: ProviderClient
): Effect.Effect<Loaded, ConnectorError> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const entries = entriesOf(fields, client)
    const key = JSON.stringify(fields.dependsOn.map((dependency) => params[dependency]))
    const hit = entries.get(key)
    if (hit !== undefined && hit.expiresAt > now) return Deferred.await(hit.loaded)
    for (const [stale, entry] of entries) if (entry.expiresAt <= now) entries.delete(stale)
    const entry: Entry = { expiresAt: Infinity, loaded: Deferred.unsafeMake(FiberId.none) }
    entries.set(key, entry)
    return fields.load({ params, client }).pipe(
      Effect.map((properties) => compile(name, properties)),
      Effect.mapError((error) => during(error, `loading the fields of ${name}`)),
      Effect.onExit((exit) =>
        Effect.flatMap(Clock.currentTimeMillis, (done) => {
          // A failed load is not kept: the next step tries again.
          if (Exit.isSuccess(exit)) entry.expiresAt = done + Duration.toMillis(fields.cacheFor)
          else if (entries.get(key) === entry) entries.delete(key)
          return Deferred.done(entry.loaded, exit)
        })
      )
    )
  })

const needs = (name: string, fields: Fields, params: Readonly<Record<string, unknown>>): ReadonlyArray<Issue> => {
  const missing = fields.dependsOn.filter((dependency) => !isGiven(params[dependency]))
  return missing.length === 0 ? [] : [{ path: name, message: `needs ${missing.join(" and ")} to load its fields` }]
}

/**
 * A step's decoded parameters with each given group's value decoded against its loaded fields:
 * every problem of every group in one `InvalidInput` (`label` names the step), before anything else is sent.
 */
export const decode = (
  groups: ReadonlyArray<readonly [string, PropertyGroup]>,
  params: Readonly<Record<string, unknown>>,
  client: ProviderClient,
  label: string
): Effect.Effect<Readonly<Record<string, unknown>>, ConnectorError> => {
  const given = groups.filter(([name]) => params[name] !== undefined)
  if (given.length === 0) return Effect.succeed(params)
  const unloadable = given.flatMap(([name, group]) => needs(name, group.fields, params))
  if (unloadable.length > 0) return Effect.fail(invalidInput(unloadable, label))
  return Effect.flatMap(
    Effect.forEach(given, ([name, group]) => load(name, group.fields, params, client), { concurrency: "unbounded" }),
    (loaded) => {
      const decoded: Record<string, unknown> = { ...params }
      const issues: Array<Issue> = []
      given.forEach(([name], i) => {
        const value = loaded[i]!.decode(params[name])
        if (Either.isLeft(value)) issues.push(...value.left)
        else decoded[name] = value.right
      })
      return issues.length === 0 ? Effect.succeed(decoded) : Effect.fail(invalidInput(issues, label))
    }
  )
}

/**
 * The loaded fields of one group of an action for `executor.fields`, described as JSON data;
 * the parameters it depends on are checked like any parameter before they are sent.
 */
export const fields = (
  registry: Registry.Registry,
  type: string,
  property: string,
  params: Readonly<Record<string, unknown>>
): Effect.Effect<Record<string, PropertyDescription>, ConnectorError, Connections> =>
  Effect.suspend(() => {
    const resolved = registry.action(type)
    if (Either.isLeft(resolved)) return Effect.fail(resolved.left)
    const { component, definition } = resolved.right
    const properties = definition.props as Properties
    const group = Object.hasOwn(properties, property) ? properties[property] : undefined
    if (group === undefined || !isGroup(group)) {
      const groups = Object.keys(properties).filter((name) => isGroup(properties[name]!))
      return Effect.fail(invalidInput([{
        path: property,
        message: `${type} has no property group "${property}"; available: ${groups.length === 0 ? "none" : groups.join(", ")}`
      }]))
    }
    const unloadable = needs(property, group.fields, params)
    if (unloadable.length > 0) return Effect.fail(invalidInput(unloadable))
    const declared = group.fields.dependsOn.filter((name) => Object.hasOwn(properties, name))
    const checked = decoder(Object.fromEntries(declared.map((name) => [name, properties[name]!])), `fields of ${property}`)(
      Object.fromEntries(declared.map((name) => [name, params[name]]))
    )
    if (Either.isLeft(checked)) return Effect.fail(checked.left)
    return Effect.flatMap(Connections, (connections) =>
      Effect.flatMap(connections.get(component), ({ client }) =>
        Effect.map(load(property, group.fields, { ...params, ...checked.right }, client), (loaded) => describeAll(loaded.properties))))
  })
