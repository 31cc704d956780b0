// The module hook recordLoads.mjs registers. It writes synchronously, so every module loaded
// is on file before the import that loaded it completes.
import { appendFileSync } from "node:fs"

let log

export const initialize = (file) => {
  log = file
}

export const load = (url, context, next) => {
  appendFileSync(log, `${url}\n`)
  return next(url, context)
}
