import { parse } from "yaml"
import { readFileSync } from "node:fs"
const doc = parse(readFileSync("/work/shared/specs/webflow/webflow-data-api-v2-openapi.yml", "utf8"))
const deref = (s) => s && s.$ref ? deref(s.$ref.split("/").slice(1).reduce((o, k) => o[k], doc)) : s
const shape = (s, depth = 0) => {
  s = deref(s); if (!s) return "?"
  if (depth > 3) return s.type ?? "…"
  if (s.allOf) return s.allOf.map((x) => shape(x, depth)).join(" & ")
  if (s.oneOf || s.anyOf) return "(" + (s.oneOf ?? s.anyOf).map((x) => shape(x, depth)).join(" | ") + ")"
  if (s.type === "array") return `[${shape(s.items, depth + 1)}]`
  if (s.properties) return "{" + Object.entries(s.properties).map(([k, v]) => `${k}${(s.required ?? []).includes(k) ? "!" : ""}: ${shape(v, depth + 1)}`).join(", ") + "}"
  return (s.type ?? "any") + (s.enum ? `<${s.enum.join("|")}>` : "") + (s.format ? `(${s.format})` : "")
}
for (const p of process.argv.slice(2)) {
  const item = doc.paths[p]
  for (const [m, op] of Object.entries(item)) {
    if (!op.operationId) continue
    console.log(`\n## ${m.toUpperCase()} ${p}  security=${JSON.stringify(op.security)}`)
    console.log("params:", (op.parameters ?? []).map((x) => deref(x)).map((x) => `${x.in}:${x.name}${x.required ? "!" : ""}:${shape(x.schema)}`).join("; "))
    if (op.requestBody) console.log("body:", shape(op.requestBody.content?.["application/json"]?.schema))
    for (const [code, r] of Object.entries(op.responses)) if (code.startsWith("2")) console.log(code, shape(deref(r).content?.["application/json"]?.schema))
  }
}
