// The first step of `pnpm release`: what must hold before `changeset version` uses up the
// changesets, so that a release never stops half-versioned for a reason known beforehand.
import { execFileSync } from "node:child_process"

const run = (command, args) => execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim()
const problems = []
if (run("git", ["status", "--porcelain"]) !== "") problems.push("the working tree has uncommitted changes")
const branch = run("git", ["rev-parse", "--abbrev-ref", "HEAD"])
if (branch !== "main") problems.push(`the branch is ${branch}, not main`)
if (run("git", ["ls-files", ".changeset/*.md"]).split("\n").filter((f) => f !== "" && !f.endsWith("README.md")).length === 0) {
  problems.push("there is no changeset to release")
}
try {
  // The registry `changeset publish` will use (npm_config_registry, else npmjs.org).
  run("npm", ["whoami"])
} catch {
  problems.push(`npm is not logged in to ${process.env.npm_config_registry ?? "the registry"} (npm whoami failed)`)
}
if (problems.length > 0) {
  console.error(`release: not starting:\n${problems.map((p) => `- ${p}`).join("\n")}`)
  process.exit(1)
}
console.log(`release: on main, clean, logged in as ${run("npm", ["whoami"])}`)
