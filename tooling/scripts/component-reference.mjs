/**
 * Each component's action and trigger reference, `packages/<pkg>/REFERENCE.md`, rendered from
 * `Component.describe` (what `x-runner describe` prints), so that no list of actions is kept by
 * hand. `pnpm reference` builds the connectors and writes the pages; each connector's
 * `test/reference.test.ts` renders its page again and fails when the checked-in one differs.
 * Each action's and trigger's requests (method and path of the provider's document) come from
 * `packages/<pkg>/test/operations.json`, which the connector's contract test records and keeps
 * true (`UPDATE_OPERATIONS=1` rewrites it): `describe` does not know what goes on the wire.
 *
 * node tooling/scripts/component-reference.mjs           writes the pages (from the built dist)
 * node tooling/scripts/component-reference.mjs --check   exits 1 when a page is not up to date
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

/** The components with a reference page: package directory and the component's export. */
export const components = [
  { pkg: "boardtool", exportName: "boardtool" },
  { pkg: "sitebuilder", exportName: "sitebuilder" },
  { pkg: "browseragent", exportName: "browseragent" }
]

/** A table cell: one line, pipes escaped (patterns hold them). */
const cell = (text) => String(text).replace(/\r?\n/g, " ").replace(/\|/g, "\\|")
const code = (text) => `\`${text}\``
/** A range of a minimum and a maximum either of which may be absent. */
const range = (min, max, unit) => `${min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `≥ ${min}` : `≤ ${max}`}${unit}`
const list = (values) => values.map(code).join(", ")

/** A property's type and constraints, in one cell. */
const typeOf = (prop) => {
  const parts = []
  switch (prop.kind) {
    case "ARRAY":
      parts.push(prop.items === undefined ? "array" : `array of ${typeOf(prop.items)}`)
      if (prop.minItems !== undefined || prop.maxItems !== undefined) parts.push(range(prop.minItems, prop.maxItems, " items"))
      break
    case "OBJECT":
      parts.push(prop.properties === undefined ? "object" : `object {${Object.keys(prop.properties).map((name) => `${name}${prop.properties[name].required ? "" : "?"}`).join(", ")}}`)
      if (prop.publicKeys !== undefined) parts.push("values secret except the usual public headers")
      break
    case "GROUP":
      parts.push(`fields loaded from ${list(prop.dependsOn ?? [])} (\`x-runner options\`)`)
      break
    case "FILE":
      parts.push(`file (${(prop.sources ?? []).join(", ")})`)
      if (prop.maxBytes !== undefined) parts.push(`≤ ${prop.maxBytes} bytes`)
      break
    case "DATE_TIME":
      parts.push(`date-time${prop.format !== undefined && prop.format !== "date-time" ? ` (${prop.format})` : ""}`)
      break
    default:
      parts.push(String(prop.kind).toLowerCase())
  }
  if (prop.choices !== undefined) parts.push(`one of ${list(prop.choices.map((choice) => choice.value))}`)
  if (prop.minimum !== undefined || prop.maximum !== undefined) parts.push(range(prop.minimum, prop.maximum, ""))
  if (prop.minLength !== undefined || prop.maxLength !== undefined) parts.push(prop.minLength === 1 && prop.maxLength === undefined ? "not empty" : range(prop.minLength, prop.maxLength, " characters"))
  if (prop.pattern !== undefined) parts.push(`matching ${code(prop.pattern)}`)
  if (prop.dynamicOptions !== undefined) {
    const dependsOn = prop.dynamicOptions.dependsOn ?? []
    parts.push(`options loaded${dependsOn.length > 0 ? ` from ${list(dependsOn)}` : ""}`)
  }
  if (prop.defaultValue !== undefined) parts.push(`default ${code(JSON.stringify(prop.defaultValue))}`)
  if (prop.secret === true) parts.push("secret")
  return parts.join("; ")
}

/** The inputs of an action, a trigger or a connection as a table. */
const propsTable = (props) => {
  const entries = Object.entries(props ?? {})
  if (entries.length === 0) return ["No inputs."]
  return [
    "| input | type | required | description |",
    "|---|---|---|---|",
    ...entries.map(([name, prop]) =>
      `| ${code(name)} | ${cell(typeOf(prop))} | ${prop.required ? "yes" : "no"} | ${cell([prop.title, prop.description].filter(Boolean).join(": "))} |`
    )
  ]
}

/** A JSON Schema in short: a type, and an object's fields one level deep (`?` when optional). */
const schemaType = (schema) => {
  if (schema === undefined || schema === null) return "nothing"
  if (schema.$ref !== undefined) return String(schema.$ref).split("/").at(-1)
  if (schema.anyOf !== undefined) return schema.anyOf.map(schemaType).join(" | ")
  if (schema.enum !== undefined) return schema.enum.map((value) => JSON.stringify(value)).join(" | ")
  if (schema.type === "array") return `array of ${schemaType(schema.items)}`
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any")
}
const outputLine = (schema) => {
  if (schema === undefined || schema === null) return "Output: nothing."
  if (schema.type !== "object" || schema.properties === undefined) return `Output: ${schemaType(schema)}.`
  const required = new Set(schema.required ?? [])
  const fields = Object.entries(schema.properties).map(([name, field]) => `${code(`${name}${required.has(name) ? "" : "?"}`)} ${schemaType(field)}`)
  return `Output: an object: ${fields.join(", ")}.`
}

/**
 * What an action does to the world (`impact`) and whether repeating it is harmless
 * (`idempotent`): short for the table, a sentence for its section. A read is always idempotent.
 */
const impactCell = (a) => a.impact === "read" ? "read" : `${a.impact === "destroy" ? "**destroy**" : a.impact}, ${a.idempotent ? "idempotent" : "not idempotent"}`
const impactWords = {
  read: "read: it changes nothing.",
  write: "write: it creates or changes something that can be changed back or removed.",
  destroy: "**destroy**: it deletes, or does what cannot be taken back."
}
const impactLine = (a) =>
  [`Impact: ${impactWords[a.impact] ?? a.impact}${
    a.impact === "read" ? "" : a.idempotent ? " Idempotent: the same call again changes nothing more." : " Not idempotent: the same call again acts again, or fails."
  }`, ""]

const deprecationLine = (deprecated) =>
  deprecated === undefined
    ? []
    : [`**Deprecated since ${deprecated.since}${deprecated.replacement !== undefined ? ` — use ${code(deprecated.replacement)}` : ""}.** ${deprecated.reason ?? ""}`.trimEnd(), ""]

/** The operations each action and trigger sent in the contract test (`test/operations.json`), or none recorded. */
export const operationsPath = (pkg) => fileURLToPath(new URL(`../../packages/${pkg}/test/operations.json`, import.meta.url))
export const readOperations = (pkg) =>
  existsSync(operationsPath(pkg)) ? JSON.parse(readFileSync(operationsPath(pkg), "utf8")) : { actions: {}, triggers: {} }

/**
 * The actions with no operations recorded (a new one, whose page would lack its Requests line),
 * each with the command that records them: `pnpm reference` only reads the file. Triggers are
 * left out: one absent from the file is one that sent nothing ("Requests: none").
 */
export const unrecordedOperations = (description, pkg, operations = readOperations(pkg)) =>
  description.actions
    .filter((a) => !(description.customAction && a.name === "customAction") && operations.actions[a.name] === undefined)
    .map((a) =>
      `action ${a.name} has no operations in packages/${pkg}/test/operations.json: run ` +
      `(cd packages/${pkg} && UPDATE_OPERATIONS=1 corepack pnpm exec vitest run test/requests.contract.test.ts) && corepack pnpm reference`
    )

/** `METHOD /path` in code, what the contract test adds in words after it (`(V4)`, `(a presigned storage URL)`) not. */
const operation = (text) => {
  const [, request, words] = /^(\S+(?: \/\S*)?)(.*)$/.exec(text) ?? [text, text, ""]
  return `${code(request)}${words}`
}
const operationList = (operations) => operations.map(operation).join(", ")
const actionRequests = (d, a, operations) =>
  d.customAction && a.name === "customAction"
    ? ["Requests: the method and path given, below the connection's base URL.", ""]
    : operations.actions[a.name] !== undefined
    ? [`Requests: ${operationList(operations.actions[a.name])}.`, ""]
    : []
const phaseWords = { enable: "enabled", disable: "disabled", poll: "polled", sample: "sampled" }
const triggerRequests = (t, operations) => {
  const sent = Object.entries(operations.triggers[t.name] ?? {})
  return [`Requests: ${sent.length === 0 ? "none" : sent.map(([phase, list]) => `${phaseWords[phase] ?? phase} ${operationList(list)}`).join("; ")}.`, ""]
}

const triggerKinds = { DYNAMIC_WEBHOOK: "webhook (registered when enabled)", STATIC_WEBHOOK: "webhook (set up by hand)", POLLING: "polling" }

/**
 * A component's reference page from its description (`Component.describe(component)`).
 *
 * @param {ReturnType<typeof import("@x/core").Component.describe>} description
 * @param {string} pkg the package's directory under packages/
 * @param {{actions: Record<string, string[]>, triggers: Record<string, Record<string, string[]>>}} [operations] what each sent (test/operations.json)
 * @returns {string}
 */
export const renderReference = (description, pkg, operations = readOperations(pkg)) => {
  const d = JSON.parse(JSON.stringify(description))
  const lines = [
    `# ${d.title} (\`${d.type}\`): reference`,
    "",
    `<!-- Generated from Component.describe by \`pnpm reference\` (tooling/scripts/component-reference.mjs): do not edit; test/reference.test.ts checks it. -->`,
    "",
    `${d.description}${d.category !== undefined ? ` Category: ${d.category}.` : ""} Every action and trigger of \`@x/${pkg}\`, as`,
    `\`x-runner describe ${d.type}\` prints them (its JSON also gives each output's whole JSON Schema).`,
    "Each one's requests are the operations of the provider's API document (method and path) it sent when the contract",
    "test ran it against the simulator (`test/operations.json`, which that test keeps true); other inputs may send others.",
    "Each action's impact says whether it only reads, writes, or destroys (deletes, or does what cannot be taken back),",
    "and whether it is idempotent (the same call again changes nothing more).",
    "",
    `## Connection: ${d.connection.title}`,
    "",
    ...(d.connection.description !== undefined ? [d.connection.description, ""] : []),
    ...propsTable(d.connection.props),
    "",
    ...(d.connection.defaultBaseUrl !== undefined ? [`Base URL: ${d.connection.defaultBaseUrl}.`, ""] : []),
    ...(d.connection.rateLimits !== undefined && d.connection.rateLimits.length > 0
      ? [`Rate limits: ${d.connection.rateLimits.map((limit) => `${limit.limit} per ${limit.intervalMillis / 1000} s per ${limit.scope}`).join(", ")}.`, ""]
      : []),
    ...(d.connection.test !== undefined ? [`Connection test: \`${d.connection.test}\`.`, ""] : []),
    `## Actions (${d.actions.length})`,
    "",
    "| action | title | impact |",
    "|---|---|---|",
    ...d.actions.map((a) => `| [${code(a.name)}](#${a.name.toLowerCase()}) | ${cell(a.title)} | ${impactCell(a)} |`),
    ""
  ]
  for (const a of d.actions) {
    lines.push(
      `### ${a.name}`,
      "",
      `**${a.title}.** ${a.description ?? ""}`.trimEnd(),
      "",
      ...impactLine(a),
      ...deprecationLine(a.deprecated),
      ...propsTable(a.props),
      "",
      outputLine(a.output),
      "",
      ...actionRequests(d, a, operations),
      ...(a.scopes !== undefined ? [`Scopes: ${list(a.scopes)}.`, ""] : []),
      ...(a.reconcilable ? ["Reconcilable: a retried attempt finds what one cut short created.", ""] : [])
    )
  }
  lines.push(
    `## Triggers (${d.triggers.length})`,
    "",
    "| trigger | title | kind |",
    "|---|---|---|",
    ...d.triggers.map((t) => `| [${code(t.name)}](#${t.name.toLowerCase()}) | ${cell(t.title)} | ${triggerKinds[t.kind] ?? t.kind} |`),
    ""
  )
  for (const t of d.triggers) {
    lines.push(
      `### ${t.name}`,
      "",
      `**${t.title}.** ${t.description ?? ""}`.trimEnd(),
      "",
      `Kind: ${triggerKinds[t.kind] ?? t.kind}${t.intervalMillis !== undefined ? `, every ${t.intervalMillis / 1000} s by default` : ""}${t.sample ? "; sample events (`x-runner sample`)" : ""}.`,
      "",
      ...(t.setup !== undefined ? [`Setup: ${t.setup}`, ""] : []),
      ...deprecationLine(t.deprecated),
      ...propsTable(t.props),
      "",
      outputLine(t.output),
      "",
      ...triggerRequests(t, operations),
      ...(t.scopes !== undefined ? [`Scopes: ${list(t.scopes)}.`, ""] : [])
    )
  }
  return lines.join("\n").replace(/\n+$/, "\n")
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")
const anchorsOf = (markdown) => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])))

/** Names an action's verb begins (`listSites`, `fulfillOrder`): a name in a README's code span that begins so is an action's. */
const actionVerbs = /^(list|get|create|update|delete|remove|add|archive|unarchive|move|copy|find|search|upload|download|publish|unpublish|fulfill|unfulfill|refund|register|upsert|run|stop|cancel|send|mark|set|vote|close|reopen)[A-Z][A-Za-z]*$/

/** What ends a field's name rather than an action's (`publishTime`, `publishIntervalMs`). */
const fieldEndings = /(Time|Ms|At|On|Id|Ids|Url|Count|Seconds|Minutes|Bytes|Before|After)$/

/**
 * What is wrong with a package README beside its reference page, one line each: a table row or a
 * `**name** — …` entry per action or trigger (that list is the page's alone), a link to the page that is not this
 * package's or names a section the page lacks, a link within the README to a heading it lacks,
 * a name in a code span that reads as an action's and is none, "None is deprecated today" while
 * one is (or a deprecated one not marked so in the page), and an action or trigger whose scopes
 * the page does not show.
 *
 * @param {string} readme the README's text
 * @param {ReturnType<typeof import("@x/core").Component.describe>} description
 * @param {string} pkg the package's directory under packages/
 * @param {string[]} [providerNames] names the README gives that read as actions' and are the provider's (Trello's action types)
 * @returns {string[]}
 */
export const readmeProblems = (readme, description, pkg, providerNames = []) => {
  const d = JSON.parse(JSON.stringify(description))
  const page = renderReference(d, pkg)
  const members = [...d.actions, ...d.triggers]
  const names = new Set(members.map((member) => member.name))
  const problems = []
  readme.split("\n").forEach((line, index) => {
    const first = /^\|\s*\**`?([A-Za-z]+)`?\**\s*\|/.exec(line)?.[1]
    if (first !== undefined && names.has(first)) problems.push(`line ${index + 1}: a table row for ${first}: the list of actions and triggers is REFERENCE.md's`)
    const entry = /^\*\*([A-Za-z]+)\*\* — /.exec(line)?.[1]
    if (entry !== undefined && names.has(entry)) problems.push(`line ${index + 1}: an entry for ${entry}: the list of actions and triggers is REFERENCE.md's`)
  })
  const pageUrl = `https://github.com/x-connectors/x-connectors/blob/main/packages/${pkg}/REFERENCE.md`
  const pageAnchors = anchorsOf(page)
  for (const [, target] of readme.matchAll(/\]\(([^)\s]*REFERENCE\.md[^)\s]*)\)/g)) {
    const [url, anchor] = target.split("#")
    if (url !== pageUrl) problems.push(`a link to ${target}: this package's page is ${pageUrl}`)
    else if (anchor !== undefined && !pageAnchors.has(anchor)) problems.push(`a link to ${target}: REFERENCE.md has no such heading`)
  }
  const readmeAnchors = anchorsOf(readme)
  for (const [, anchor] of readme.matchAll(/\]\(#([^)\s]+)\)/g)) {
    if (!readmeAnchors.has(anchor)) problems.push(`a link to #${anchor}: the README has no such heading`)
  }
  for (const name of new Set([...readme.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]))) {
    if (actionVerbs.test(name) && !fieldEndings.test(name) && !names.has(name) && !providerNames.includes(name)) problems.push(`\`${name}\` reads as an action's name, and ${d.type} has no such action or trigger`)
  }
  const deprecated = members.filter((member) => member.deprecated !== undefined)
  if (/None is deprecated today/.test(readme) && deprecated.length > 0) {
    problems.push(`"None is deprecated today", but ${deprecated.map((member) => member.name).join(", ")} is`)
  }
  const sectionOf = (name) => {
    const start = page.indexOf(`\n### ${name}\n`)
    const end = page.indexOf("\n### ", start + 1)
    return page.slice(start, end === -1 ? undefined : end)
  }
  for (const member of members) {
    const section = sectionOf(member.name)
    for (const scope of member.scopes ?? []) {
      if (!new RegExp(`^Scopes: .*\`${scope}\``, "m").test(section)) problems.push(`REFERENCE.md does not show ${member.name}'s scope ${scope}`)
    }
    if (member.deprecated !== undefined && !section.includes(`**Deprecated since ${member.deprecated.since}`)) {
      problems.push(`REFERENCE.md does not mark ${member.name} deprecated`)
    }
  }
  return problems
}

/** Where a package's page is. */
export const referencePath = (pkg) => fileURLToPath(new URL(`../../packages/${pkg}/REFERENCE.md`, import.meta.url))

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes("--check")
  const { Component } = await import(new URL("../../packages/core/dist/index.js", import.meta.url).href)
  let stale = 0
  for (const { pkg, exportName } of components) {
    const module = await import(new URL(`../../packages/${pkg}/dist/index.js`, import.meta.url).href)
    const description = Component.describe(module[exportName])
    for (const problem of unrecordedOperations(description, pkg)) console.error(problem)
    const page = renderReference(description, pkg)
    const path = referencePath(pkg)
    let current = ""
    try {
      current = readFileSync(path, "utf8")
    } catch {
      // A page not written yet is stale.
    }
    if (current === page) continue
    if (check) {
      stale++
      console.error(`packages/${pkg}/REFERENCE.md is not what describe gives: run pnpm reference`)
    } else {
      writeFileSync(path, page)
      console.log(`wrote packages/${pkg}/REFERENCE.md`)
    }
  }
  process.exitCode = stale > 0 ? 1 : 0
}
