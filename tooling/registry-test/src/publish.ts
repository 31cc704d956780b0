import { readFile } from "node:fs/promises"
import { publish } from "libnpmpublish"
import * as tar from "tar"
import type { Registry } from "./registry.js"
import type { Manifest } from "./workspace.js"

/** The package.json inside a package tarball (the one a registry publishes, not the source's). */
export const tarballManifest = async (tarball: string): Promise<Manifest> => {
  let text: string | undefined
  await tar.list({
    file: tarball,
    filter: (path) => path === "package/package.json",
    onReadEntry: (entry) => {
      const chunks: Array<Buffer> = []
      entry.on("data", (chunk: Buffer) => chunks.push(chunk))
      entry.on("end", () => (text = Buffer.concat(chunks).toString("utf8")))
    }
  })
  if (text === undefined) throw new Error(`${tarball} has no package/package.json`)
  return JSON.parse(text) as Manifest
}

/**
 * Publishes a tarball as `npm publish <tarball>` does, with npm's own library and in this
 * process (an npm process per package costs seconds of CPU each, two dozen times). A
 * package's publishConfig does not apply: e.g. @effect/platform's provenance, which only a
 * CI provider can sign.
 */
export const publishTarball = async (registry: Registry, tarball: string, tag = "latest"): Promise<void> => {
  const manifest = await tarballManifest(tarball)
  await publish(manifest as never, await readFile(tarball), {
    registry: registry.url,
    [`//${new URL(registry.url).host}/:_authToken`]: registry.token,
    access: "public",
    defaultTag: tag,
    provenance: false
  })
}
