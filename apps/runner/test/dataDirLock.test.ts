/**
 * The data directory's lock (`store/internal/dataDirLock.ts`), in this process: held while its
 * scope is open (a second hold is refused at once, naming the holder's process id), free as soon
 * as the scope closes; a damaged `runner.lock` or a link in its place is refused, naming the file.
 * That the kernel frees it when a process is killed is tested through the CLI (findings.test.ts).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as DataDirLock from "../src/store/internal/dataDirLock.js"

const fresh = () => mkdtempSync(join(tmpdir(), "x-runner-lock-"))

describe("the data directory's lock", () => {
  it.effect("one holder at a time: the second is refused with the holder's process id; free once the first's scope closes", () =>
    Effect.gen(function*() {
      const dataDir = fresh()
      const first = yield* Scope.make()
      yield* Scope.extend(DataDirLock.hold(dataDir), first)
      expect(readFileSync(join(dataDir, "runner.pid"), "utf8")).toBe(`${process.pid}\n`)
      const second = yield* Effect.flip(Effect.scoped(DataDirLock.hold(dataDir)))
      expect(second).toEqual(new DataDirLock.DataDirInUse({ dataDir, pid: Option.some(process.pid) }))
      // Still held after a refused attempt.
      expect((yield* Effect.flip(Effect.scoped(DataDirLock.hold(dataDir))))._tag).toBe("DataDirInUse")

      yield* Scope.close(first, Exit.void)
      expect(existsSync(join(dataDir, "runner.pid"))).toBe(false)
      yield* Effect.scoped(DataDirLock.hold(dataDir))
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("a runner.lock that is not a database, or a link in its place, is refused naming it (the link's target untouched)", () =>
    Effect.gen(function*() {
      const damaged = fresh()
      writeFileSync(join(damaged, "runner.lock"), "not a database ".repeat(100))
      const notADatabase = yield* Effect.flip(Effect.scoped(DataDirLock.hold(damaged)))
      expect(notADatabase._tag).toBe("DataDirLockFailed")
      expect(notADatabase.message).toContain(`${join(damaged, "runner.lock")} cannot be locked`)
      expect(notADatabase.message).toContain("once no x-runner serves from this directory, remove it")

      const linked = fresh()
      const target = join(linked, "elsewhere")
      writeFileSync(target, "someone's file")
      symlinkSync(target, join(linked, "runner.lock"))
      const link = yield* Effect.flip(Effect.scoped(DataDirLock.hold(linked)))
      expect(link).toMatchObject({ _tag: "DataDirLockFailed", file: join(linked, "runner.lock") })
      expect(link.message).toContain("is a symbolic link")
      expect(readFileSync(target, "utf8")).toBe("someone's file")
    }).pipe(Effect.provide(NodeContext.layer)))
})
