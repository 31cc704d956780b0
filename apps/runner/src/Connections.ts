/**
 * Connections: a JSON file keyed by component name, each value that connection's fields (plus
 * an optional `baseUrl`). Environment variables supply the same values:
 * `XRUNNER_<COMPONENT>_<FIELD>` (e.g. `XRUNNER_BOARDTOOL_TOKEN`), over the file's.
 */
import type { Component, Property } from "@x/core"
import * as Either from "effect/Either"
import { readFileSync } from "node:fs"
import { components } from "./components.js"
import { errorPosition } from "./JsonPosition.js"

export type Connections = Record<string, Record<string, unknown>>

/** A problem with the connections, said so that the user knows what to do. */
export class ConnectionProblem extends Error {}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()
export const envName = (component: string, field: string) => `XRUNNER_${component.toUpperCase()}_${snake(field)}`

export const load = (file: string | undefined, env: Readonly<Record<string, string | undefined>>): Connections => {
  let fromFile: Connections = {}
  if (file !== undefined) {
    let text: string
    try {
      text = readFileSync(file, "utf8")
    } catch {
      throw new ConnectionProblem(`the connections file ${file} cannot be read`)
    }
    try {
      fromFile = JSON.parse(text) as Connections
    } catch {
      // Where, not what: V8's message quotes the text around the error, secrets included.
      const position = errorPosition(text)
      const before = text.slice(0, Math.max(0, position))
      throw new ConnectionProblem(
        `the connections file ${file} is not valid JSON at line ${before.split("\n").length}, column ${before.length - before.lastIndexOf("\n")}`
      )
    }
    if (typeof fromFile !== "object" || fromFile === null || Array.isArray(fromFile)) {
      throw new ConnectionProblem(`the connections file ${file} must hold an object keyed by component name`)
    }
  }
  const connections: Connections = { ...fromFile }
  for (const component of components) {
    for (const field of Object.keys(component.connection.props)) {
      const value = env[envName(component.name, field)]
      if (value !== undefined) connections[component.name] = { ...connections[component.name], [field]: value }
    }
  }
  return connections
}

const required = (component: Component.Component) =>
  Object.entries(component.connection.props as Property.Properties)
    .filter(([, p]) => p.required && p.defaultValue === undefined)
    .map(([k]) => k)

/** Checks the connection of each component a workflow uses; names what is missing and how to give it. */
export const check = (connections: Connections, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  for (const component of components.filter((c) => names.includes(c.name))) {
    const values = connections[component.name]
    if (values === undefined) {
      const fields = required(component)
      problems.push(
        `no connection for ${component.name}: put {"${component.name}": {${fields.map((f) => `"${f}": …`).join(", ")}}} in a connections file (--connections FILE), or set ${
          fields.map((f) => envName(component.name, f)).join(" and ")
        } (or use --sandbox)`
      )
      continue
    }
    const decoded = component.connection.decode(values)
    if (Either.isLeft(decoded)) {
      for (const issue of decoded.left.issues) {
        const field = issue.path.split(".")[0]!
        problems.push(
          `connection ${component.name}: ${issue.path}: ${issue.message} (set it under "${component.name}" in the connections file, or in ${envName(component.name, field)})`
        )
      }
    }
  }
  return problems
}
