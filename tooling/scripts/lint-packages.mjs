// `pnpm lint:packages`: every published package (each package.json of packages/* and apps/*
// that is not private) packed as `pnpm publish` would pack it, then checked in that tarball by
// publint (every message, suggestions included, is a failure), by @arethetypeswrong/cli with
// the esm-only profile (packages with types), and by this project's own rules for what a
// published package carries. Offline: nothing here talks to a registry. Exits 1 on any problem.
// Needs the packages built (`pnpm build`).
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { holds } from "./core-peer-floor.mjs"

const root = fileURLToPath(new URL("../../", import.meta.url))
const bin = (name) => join(root, "node_modules/.bin", name)
const repository = "git+https://github.com/x-connectors/x-connectors.git"
const coreVersion = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8")).version

const published = ["packages", "apps"]
  .flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(root, parent, name)))
  .filter((dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private !== true
    } catch {
      return false
    }
  })

/** This project's rules, on the packed manifest and file list. */
const ownRules = (dir, manifest, files) => {
  const problems = []
  const directory = relative(root, dir)
  for (const required of ["package.json", "README.md", "LICENSE", "CHANGELOG.md"]) {
    if (!files.includes(required)) problems.push(`${required} is not in the tarball`)
  }
  for (const file of files) {
    if (/(^|\/)(\.tsbuildinfo|[^/]*\.tsbuildinfo|\.turbo\/.*|test\/.*|[^/]*\.test\.[cm]?[jt]s|test-results\.json|node_modules\/.*)$/.test(file)) {
      problems.push(`${file}: a build cache or test file is in the tarball`)
    }
  }
  if (manifest.license !== "MIT") problems.push(`license is ${JSON.stringify(manifest.license)}, not "MIT"`)
  if (manifest.engines?.node !== ">=20.19") problems.push(`engines.node is ${JSON.stringify(manifest.engines?.node)}, not ">=20.19"`)
  if (manifest.repository?.url !== repository || manifest.repository?.directory !== directory) {
    problems.push(`repository is not { url: "${repository}", directory: "${directory}" }`)
  }
  if (typeof manifest.homepage !== "string" || typeof manifest.bugs?.url !== "string") problems.push("homepage or bugs is missing")
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push("keywords are missing")
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith("workspace:")) problems.push(`${field}.${name} is still ${range}`)
    }
  }
  // A connector takes @x/core as a peer: a second copy of the runtime must never install silently.
  if (manifest.dependencies?.["@x/core"] !== undefined) problems.push("@x/core is a dependency, not a peer dependency")
  // …whose range holds the core it is built and tested with (`pnpm release` raises its floor to it).
  const corePeer = manifest.peerDependencies?.["@x/core"]
  if (corePeer !== undefined && !holds(corePeer, coreVersion)) {
    problems.push(`peer @x/core ${corePeer} is not ">=X <1.0.0" holding the workspace's @x/core ${coreVersion}`)
  }
  for (const [name, target] of Object.entries(manifest.bin ?? {})) {
    if (!files.includes(target.replace(/^\.\//, ""))) problems.push(`bin ${name} (${target}) is not in the tarball`)
  }
  return problems
}

const started = Date.now()
const work = mkdtempSync(join(tmpdir(), "x-lint-packages-"))
let failed = 0
try {
  for (const dir of published) {
    const destination = mkdtempSync(join(work, "pack-"))
    execFileSync(bin("pnpm"), ["pack", "--pack-destination", destination], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] })
    const tarball = join(destination, readdirSync(destination).find((f) => f.endsWith(".tgz")))
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").map((f) => f.replace(/^package\//, ""))
    const manifest = JSON.parse(execFileSync("tar", ["xzOf", tarball, "package/package.json"], { encoding: "utf8" }))
    const problems = ownRules(dir, manifest, files)

    const bytes = readFileSync(tarball)
    const lint = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: "suggestion", strict: true })
    for (const message of lint.messages) problems.push(`publint ${message.type}: ${formatMessage(message, lint.pkg, { color: false })}`)

    // A package without types (the runner: a bin only) has nothing for attw to resolve.
    if (manifest.exports !== undefined || manifest.types !== undefined) {
      try {
        execFileSync(bin("attw"), [tarball, "--profile", "esm-only", "--format", "ascii"], { encoding: "utf8", stdio: "pipe" })
      } catch (error) {
        problems.push(`@arethetypeswrong/cli (esm-only):\n${error.stdout}${error.stderr}`)
      }
    }

    const name = `${manifest.name}@${manifest.version}`
    if (problems.length === 0) {
      console.log(`ok   ${name} (${files.length} files)`)
    } else {
      failed++
      console.log(`FAIL ${name}`)
      for (const problem of problems) console.log(`     - ${problem}`)
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(`lint:packages: ${published.length - failed} of ${published.length} packages clean in ${((Date.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed === 0 ? 0 : 1)
