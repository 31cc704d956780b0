// Run before `pnpm pack` / publish: the package ships only the bundled bin, which `pnpm build`
// makes. Packing without it, or with a bundle older than the compiled sources, would publish
// a package whose `x-runner` is missing or stale.
import { statSync } from "node:fs"

const bundle = "dist/bundle/x-runner.js"
const compiled = "dist/main.js"
const mtime = (file) => {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

const bundled = mtime(bundle)
const built = mtime(compiled)
if (bundled === undefined) {
  console.error(`x-runner: ${bundle} is missing; build it first (pnpm build at the repository root, or pnpm --filter x-runner run build)`)
  process.exit(1)
}
// A second of slack: a build cache restores both files at about the same time.
if (built !== undefined && built > bundled + 1000) {
  console.error(`x-runner: ${bundle} is older than ${compiled}; rebuild it (pnpm --filter x-runner run build)`)
  process.exit(1)
}
