/**
 * The enabled trigger's state (e.g. the webhook's id), kept in the data directory so that the
 * next start can remove a webhook a crash left behind before it registers a new one.
 */
import { existsSync, fsyncSync, openSync, closeSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"

const fileOf = (dataDir: string) => join(dataDir, "trigger.json")

export const read = (dataDir: string): unknown => {
  const file = fileOf(dataDir)
  if (!existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch {
    return undefined
  }
}

export const write = (dataDir: string, state: unknown) => {
  const file = fileOf(dataDir)
  const temporary = `${file}.tmp`
  const fd = openSync(temporary, "w", 0o600)
  const bytes = Buffer.from(JSON.stringify(state))
  let written = 0
  while (written < bytes.length) written += writeSync(fd, bytes, written)
  fsyncSync(fd)
  closeSync(fd)
  renameSync(temporary, file)
}

export const clear = (dataDir: string) => rmSync(fileOf(dataDir), { force: true })
