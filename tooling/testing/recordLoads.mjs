// `node --import <this file>`: appends the URL of every module the process loads to the file
// named by X_RECORD_LOADS, one a line (see loadedModules.ts).
import { register } from "node:module"

register("./recordLoadsHook.mjs", import.meta.url, { data: process.env["X_RECORD_LOADS"] })
